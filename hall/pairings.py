"""The round's pairings, from the file the arbiters already have: names per board.

``read(path, round)`` takes either

- a plain CSV, one line per board: ``board,white,black`` (a first line
  ``board,white,black`` is a header and skipped; a name holding a comma is
  quoted, ``"Surname, Firstname"``; the event and the round come from
  ``--event``/``--round`` or stay empty), or
- FIDE's TRF (Tournament Report File, TRF16, what the pairing programs
  exchange): ``012`` is the event's name, each ``001`` line a player with
  their starting rank (columns 5-8), name (15-47) and, for round ``r``, a
  block of ten columns from column ``92 + 10 (r - 1)``: the opponent's
  starting rank (4 columns, ``0000`` for a bye), the colour (``w``, ``b`` or
  ``-``) and the result (blank while the round is being played).

A TRF carries no board numbers, so the boards are numbered as the pairing
programs number them (FIDE's general handling rules for Swiss tournaments,
C.04.2): the pairs in order of the score of the higher-placed player of the
pair before the round, then of the sum of both scores, then of the starting
rank of the higher-placed player (the smaller number first); board 1 first.
A bye has no board. The round defaults to the last one with pairings.
"""

import csv
from dataclasses import dataclass, field

from firmware.hall_message import MAX_BOARD

_FULL = "1+WFU"  # a point: won, won by forfeit, by default, a full-point bye, a pairing bye
_HALF = "=DH"
_HEADER = ["board", "white", "black"]
MAX_NAME = 60  # characters of a player's name


@dataclass
class Pairings:
    event: str = ""
    round: str = ""
    boards: dict = field(default_factory=dict)  # board -> (white, black)


def _name(text):
    text = " ".join(text.split())
    if not text or len(text) > MAX_NAME or any(ord(c) < 32 for c in text):
        raise ValueError("a player's name of 1..%d characters: %r" % (MAX_NAME, text[:MAX_NAME]))
    return text


def read_csv(text, event="", round_=""):
    """Pairings from CSV text (RFC 4180): a name holding a comma is quoted,
    ``12,"Surname, Firstname","Other, Name"``, a quote inside it doubled."""
    pairings = Pairings(event, round_)
    rows = csv.reader(text.splitlines(), strict=True, skipinitialspace=True)
    try:
        for row in rows:
            number = rows.line_num
            cells = [cell.strip() for cell in row]
            if not any(cells) or (number == 1 and [c.lower() for c in cells] == _HEADER):
                continue
            if len(cells) != 3 or not cells[0].isascii() or not cells[0].isdigit():
                raise ValueError("line %d: board,white,black" % number)
            board = int(cells[0])
            if not 1 <= board <= MAX_BOARD or board in pairings.boards:
                raise ValueError("line %d: board %d (1..%d, once)" % (number, board, MAX_BOARD))
            pairings.boards[board] = (_name(cells[1]), _name(cells[2]))
    except csv.Error as error:
        raise ValueError("line %d: %s" % (rows.line_num, error))
    return pairings


def _points(code):
    return 2 if code in _FULL else 1 if code in _HALF else 0  # half-points


def read_trf(text, round_=None):
    players = {}  # starting rank -> (name, [(opponent, colour, result)] per round)
    event = ""
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("012 "):
            event = line[4:].strip()
        if not line.startswith("001 "):
            continue
        rank_text = line[4:8].strip()
        if not rank_text.isascii() or not rank_text.isdigit():
            raise ValueError("line %d: a player line without its starting rank" % number)
        rounds = []
        at = 91
        while at < len(line):
            block = line[at : at + 10].ljust(10)
            opponent = block[0:4].strip()
            rounds.append(
                (
                    int(opponent) if opponent.isascii() and opponent.isdigit() else 0,
                    block[5],
                    block[7],
                )
            )
            at += 10
        players[int(rank_text)] = (_name(line[14:47]), rounds)
    if not players:
        raise ValueError("no player lines (001) in the TRF")
    played = [
        r
        for r in range(1, 100)
        if any(len(rounds) >= r and rounds[r - 1][1] in "wb" for _, rounds in players.values())
    ]
    if round_ is None:
        if not played:
            raise ValueError("the TRF has no round paired")
        round_ = played[-1]
    score = {
        rank: sum(_points(result) for _, _, result in rounds[: round_ - 1])
        for rank, (_, rounds) in players.items()
    }
    pairs = []
    for rank, (_, rounds) in players.items():
        if len(rounds) < round_:
            continue
        opponent, colour, _ = rounds[round_ - 1]
        if colour == "w" and opponent in players:
            high = min((rank, opponent), key=lambda r: (-score[r], r))
            pairs.append(
                (
                    (-max(score[rank], score[opponent]), -(score[rank] + score[opponent]), high),
                    rank,
                    opponent,
                )
            )
    pairings = Pairings(event, str(round_))
    for board, (_, white, black) in enumerate(sorted(pairs), 1):
        pairings.boards[board] = (players[white][0], players[black][0])
    return pairings


def read(path, round_=None, event=""):
    """The pairings in the file at ``path`` (TRF if it has ``001`` lines, else CSV)."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read(1_000_000)
    if any(line.startswith("001 ") for line in text.splitlines()):
        return read_trf(text, round_)
    return read_csv(text, event, "" if round_ is None else str(round_))
