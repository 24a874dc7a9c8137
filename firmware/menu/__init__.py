"""What only the setup menus use, loaded when a key first reaches them (firmware.menu_gate)."""
