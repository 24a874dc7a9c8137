"""What only the setup menus use, let go when a game starts (firmware.lifetime)."""
