"""Plate-cooling example project bundled with cnready."""
