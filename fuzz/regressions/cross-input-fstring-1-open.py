x = f"{
