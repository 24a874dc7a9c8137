"""What only boot uses: the files read at boot, the journal's reading, a game restored."""
