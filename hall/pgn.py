"""Clock times for the broadcast: each board's times after every move, as PGN ``[%clk]``.

``ClockHistory`` follows one board's messages and keeps, for every ply, the
time the side that just moved had left (after its increment, as the clock
shows it). ``pgn_comments`` writes them as broadcasts do, one
``{[%clk h:mm:ss]}`` comment per ply with its move number, ready to have the
moves merged in (docs/hall.md). Seconds are rounded up, as the clock's
display rounds, so ``0:00:00`` appears only at a fallen flag.
"""

WHITE_BLACK = ("white", "black")


def clk_text(ms):
    """``h:mm:ss`` of ``ms`` rounded up to the whole second."""
    seconds = (max(ms, 0) + 999) // 1000
    return "%d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)


def ply_of(message):
    """Half-moves played at ``message``: White's completed moves and who is to move."""
    moves = message["moves"]
    white = message["white"]
    to_move = message["to_move"]
    if white == "none" or to_move == "none":
        return 0
    return 2 * moves if to_move == white else 2 * moves - 1


class ClockHistory:
    """One board's times after each ply of its current game."""

    def __init__(self):
        self.times = []  # ms left to the side that made ply 1, 2, ...

    def follow(self, message):
        """Take a message; True if it recorded a ply."""
        ply = ply_of(message)
        if ply < len(self.times):
            del self.times[ply:]  # a new game (ply 0) or a move the arbiter took back
            return False
        if ply == len(self.times):
            return False
        mover = message["to_move"]
        moved = "right" if mover == "left" else "left"
        while len(self.times) < ply - 1:
            self.times.append(None)  # a ply whose message never came: no time for it
        self.times.append(message[moved + "_ms"])
        return True

    def pgn_comments(self):
        """``1. {[%clk 0:04:58]} 1... {[%clk 0:04:57]} 2. ...``: one comment per ply
        (none for a ply whose message never came)."""
        words = []
        for index, ms in enumerate(self.times):
            words.append("%d%s" % (index // 2 + 1, "." if index % 2 == 0 else "..."))
            if ms is not None:
                words.append("{[%%clk %s]}" % clk_text(ms))
        return " ".join(words)
