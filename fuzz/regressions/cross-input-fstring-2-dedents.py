def f():
    if x:
        y = 1
    return y


def g():
    pass
