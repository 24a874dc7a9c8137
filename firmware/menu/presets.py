"""The clock's built-in presets: time controls a player picks by number.

Each preset is ``(number, name, left_control, right_control)``: the number
shown in the menu (from 1, without gaps), a name of at most 4 characters a
7-segment display can show, and each side's control in the syntax of
``timecontrol.parse``. Controls are kept as text and parsed only when a
preset is chosen, so the table stays a few small constant objects.

How the names read (a space is a dark digit):

- Fischer ``M+I`` and sudden death ``M+0``: minutes in the left pair of
  digits, increment seconds in the right pair, each right-aligned, as the
  colon splits the display: ``1510`` is 15+10, `` 5 3`` is 5+3, ``10 0`` is
  10 minutes sudden death.
- US simple delay ``G/M;dD``: minutes, ``d``, delay seconds: ``90d5``.
- FIDE multi-period controls: ``F`` and the first period's minutes.
- ``2H1H``: 2 hours for 40 moves, then 1 hour; ``2Hd5``: the same 2 hours
  with a 5 s delay, then 30 minutes with a 5 s delay (US).
- ``90b``: 90 minutes with a Bronstein delay.
- ``Ar 2``, ``Ar61``: Armageddon, with +2 s from move 1 or from move 61.
- ``HG 1``, ``HG 3``: hourglass; ``J 60``, ``J 10``: Japanese byo-yomi after
  60 or 10 minutes; ``C 30``: Canadian byo-yomi after 30 minutes.

The names use only digits, space, ``-`` and the letters
``A b C d E F G H I J L n o P q r S t U v y``; ``S`` is allowed but left
unused, since its pattern is the one of ``5``.

Armageddon: the LEFT side is the one with 5 minutes and must be White. The
players sit so that White is on the left; Black then starts the game with
his lever on the right, which starts the left clock (docs/spec/timing.md: the side
whose clock the first press starts is White).

FIDE gives the Armageddon increment "from move 61": ``60/300:0+2`` is 5
minutes for the first 60 moves, then a last period of no extra time with
+2 s a move. The +2 s for move 61 arrives when move 60 is completed, as
every Fischer increment is given before the move it belongs to.
"""

from firmware import claims, timecontrol

PRESETS = (
    # Standard (FIDE, then other classical controls)
    (1, "F 90", "40/5400+30:1800+30", "40/5400+30:1800+30"),  # 90/40 + 30, +30 s from move 1
    (2, "9030", "5400+30", "5400+30"),  # 90 min + 30 s
    (3, "2H1H", "40/7200:3600", "40/7200:3600"),  # 2 h for 40 moves, then 1 h
    # 100 min for 40 moves, 50 for 20, then 15, +30 s from move 1
    (4, "F100", "40/6000+30:20/3000+30:900+30", "40/6000+30:20/3000+30:900+30"),
    (5, "6030", "3600+30", "3600+30"),  # 60 min + 30 s
    (6, "60 0", "3600", "3600"),  # 60 min sudden death
    (7, "4515", "2700+15", "2700+15"),  # 45 min + 15 s
    # Rapid
    (8, "3020", "1800+20", "1800+20"),  # 30 min + 20 s
    (9, "30 0", "1800", "1800"),  # 30 min
    (10, "2510", "1500+10", "1500+10"),  # 25 min + 10 s
    (11, "20 0", "1200", "1200"),  # 20 min
    (12, "1510", "900+10", "900+10"),  # 15 min + 10 s (FIDE World Rapid)
    (13, "15 0", "900", "900"),  # 15 min
    (14, "10 5", "600+5", "600+5"),  # 10 min + 5 s
    # Blitz and bullet
    (15, "10 0", "600", "600"),  # 10 min
    (16, " 5 3", "300+3", "300+3"),  # 5 min + 3 s
    (17, " 5 0", "300", "300"),  # 5 min
    (18, " 3 2", "180+2", "180+2"),  # 3 min + 2 s (FIDE World Blitz)
    (19, " 3 0", "180", "180"),  # 3 min
    (20, " 2 1", "120+1", "120+1"),  # 2 min + 1 s
    (21, " 1 1", "60+1", "60+1"),  # 1 min + 1 s
    (22, " 1 0", "60", "60"),  # 1 min, bullet
    # US simple delay (G/M;dD)
    (23, "90d5", "5400d5", "5400d5"),  # G/90;d5
    (24, "60d5", "3600d5", "3600d5"),  # G/60;d5
    (25, "45d5", "2700d5", "2700d5"),  # G/45;d5
    (26, "30d5", "1800d5", "1800d5"),  # G/30;d5
    (27, "25d5", "1500d5", "1500d5"),  # G/25;d5
    (28, "10d5", "600d5", "600d5"),  # G/10;d5
    (29, " 5d3", "300d3", "300d3"),  # G/5;d3
    (30, "2Hd5", "40/7200d5:1800d5", "40/7200d5:1800d5"),  # 40/120;d5, SD/30;d5
    # Bronstein
    (31, "90b", "5400b30", "5400b30"),  # 90 min, Bronstein delay 30 s
    # Armageddon: left has 5 minutes and is White
    (32, "Ar 2", "300+2", "240+2"),  # 5 vs 4 min, +2 s from move 1
    (33, "Ar61", "60/300:0+2", "60/240:0+2"),  # 5 vs 4 min, +2 s from move 61
    # Hourglass
    (34, "HG 1", "*60", "*60"),  # 1 min
    (35, "HG 3", "*180", "*180"),  # 3 min
    # Byo-yomi
    (36, "J 60", "3600j30x5", "3600j30x5"),  # Japanese: 60 min, then 5 periods of 30 s
    (37, "J 10", "600j30x3", "600j30x3"),  # Japanese: 10 min, then 3 periods of 30 s
    (38, "C 30", "1800c20/300", "1800c20/300"),  # Canadian: 30 min, then 20 moves in 5 min
)


def count():
    """How many presets there are; they are numbered 1 to ``count()``."""
    return len(PRESETS)


def get(number):
    """The preset ``(number, name, left_control, right_control)`` with that number."""
    if not isinstance(number, int) or number < 1 or number > len(PRESETS):
        raise ValueError("no preset %r: presets are numbered 1 to %d" % (number, len(PRESETS)))
    return PRESETS[number - 1]


def controls(number):
    """The parsed time controls of preset ``number``, left and right."""
    preset = get(number)
    return timecontrol.parse(preset[2]), timecontrol.parse(preset[3])


def category(number, edition="appendix-g"):
    """``"blitz"``, ``"rapid"`` or ``"standard"`` of the left control by ``edition``
    (``claims.classify``)."""
    return claims.classify(timecontrol.parse(get(number)[2]), edition)
