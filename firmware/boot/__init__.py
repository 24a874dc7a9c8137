"""What only boot uses, let go once the game is back (firmware.lifetime)."""
