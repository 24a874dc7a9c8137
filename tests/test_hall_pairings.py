"""The round's pairings (hall/pairings.py): a plain CSV and FIDE's TRF, boards numbered as
the pairing programs number them, and the names in /pgn/N's tags."""

import pytest

from hall import pairings
from hall.view import HallView


def player(rank, name, rounds):
    """A TRF16 ``001`` line: starting rank in columns 5-8, the name from 15, rounds from 92."""
    line = ("001 %4d      %-33s" % (rank, name)).ljust(91)
    for opponent, colour, result in rounds:
        line += "%4s %s %s  " % (opponent, colour, result)
    return line


def trf():
    # Round 1: 1-4 (1 wins with White), 5-2 (2 wins with Black), 3-6 (6 wins); 7: a bye.
    # Round 2, being played: 2 (White) - 1, 3 - 5, 4 - 6, 7 a pairing bye.
    return "\n".join(
        [
            "012 Hall Open 2026",
            player(1, "Adams, Ann", [("4", "w", "1"), ("2", "b", " ")]),
            player(2, "Brown, Bob", [("5", "b", "1"), ("1", "w", " ")]),
            player(3, "Clark, Cid", [("6", "w", "0"), ("5", "w", " ")]),
            player(4, "Dunn, Dora", [("1", "b", "0"), ("6", "w", " ")]),
            player(5, "Evans, Eli", [("2", "w", "0"), ("3", "b", " ")]),
            player(6, "Ford, Fay", [("3", "b", "1"), ("4", "b", " ")]),
            player(7, "Gray, Gus", [("0000", "-", "U"), ("0000", "-", "U")]),
        ]
    )


def test_trf_boards_follow_the_pairing_programs_order():
    read = pairings.read_trf(trf())
    # Scores before round 2: Adams 1, Brown 1, Ford 1, Gray 1, Clark 0, Dunn 0, Evans 0.
    # Brown-Adams: higher score 1, sum 2 -> board 1; Dunn-Ford: higher score 1, sum 1 ->
    # board 2, although Clark (3) is placed above Dunn (4) at the start; Clark-Evans: 0.
    # Gray's bye has no board.
    assert read.event == "Hall Open 2026" and read.round == "2"
    assert read.boards == {
        1: ("Brown, Bob", "Adams, Ann"),
        2: ("Dunn, Dora", "Ford, Fay"),
        3: ("Clark, Cid", "Evans, Eli"),
    }


def test_trf_of_an_earlier_round():
    read = pairings.read_trf(trf(), 1)
    assert read.boards == {
        1: ("Adams, Ann", "Dunn, Dora"),
        2: ("Evans, Eli", "Brown, Bob"),
        3: ("Clark, Cid", "Ford, Fay"),
    }


def test_csv_board_white_black(tmp_path):
    path = tmp_path / "round.csv"
    path.write_text("board,white,black\n1,Adams Ann,Brown Bob\n12, Clark Cid , Dunn Dora\n")
    read = pairings.read(str(path), 3)
    assert read.round == "3"
    assert read.boards == {1: ("Adams Ann", "Brown Bob"), 12: ("Clark Cid", "Dunn Dora")}
    for bad in ("1,a\n", "0,a,b\n", "1,a,b\n1,c,d\n", "x,a,b\n", "1,,b\n", "\u00b2,a,b\n"):
        path.write_text(bad)
        with pytest.raises(ValueError):
            pairings.read(str(path))


def test_csv_names_holding_a_comma_are_quoted(tmp_path):
    # RFC 4180: "Surname, Firstname" in quotes, a quote inside doubled
    path = tmp_path / "round.csv"
    longest = "Wolfeschlegelsteinhausenbergerdorff-Ramaswamy, Maximilian Jo"  # 60 characters
    assert len(longest) == pairings.MAX_NAME
    path.write_text(
        "board,white,black\n"
        '1,"Carlsen, Magnus","Nepomniachtchi, Ian"\n'
        '2, "O\'Neill, ""Pat""" ,Smith Jo\n'.replace('" ,', '",')
        + '3,"%s","Kowalska, Anna"\n' % longest,
        encoding="utf-8",
    )
    read = pairings.read(str(path))
    assert read.boards == {
        1: ("Carlsen, Magnus", "Nepomniachtchi, Ian"),
        2: ('O\'Neill, "Pat"', "Smith Jo"),
        3: (longest, "Kowalska, Anna"),
    }
    for bad in (
        '1,"Carlsen, Magnus,Nepomniachtchi\n',  # a quote never closed
        '1,"Carlsen, Magnus" x,b\n',  # something after the closing quote
        "1,Carlsen, Magnus,Nepomniachtchi, Ian\n",  # the comma unquoted: five cells
        '1,"%sx",b\n' % longest,  # 61 characters
    ):
        path.write_text(bad, encoding="utf-8")
        with pytest.raises(ValueError):
            pairings.read(str(path))


def test_names_go_into_the_pgn_tags():
    view = HallView("127.0.0.1", 9, "view", "x", log=lambda line: None)
    try:
        view.set_pairings(pairings.read_trf(trf()))
        text = view.pgn(1)
        assert text.startswith(
            '[Event "Hall Open 2026"]\n[Round "2"]\n[Board "1"]\n'
            '[White "Brown, Bob"]\n[Black "Adams, Ann"]\n\n'
        )
        assert [entry["board"] for entry in view.snapshot()] == [1, 2, 3]
        assert view.snapshot()[0]["white"] == "Brown, Bob"
    finally:
        view.close()
