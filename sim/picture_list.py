"""The documentation pictures as data: (name, clock script, caption).

Each script plays a situation on the simulated board in the language of
docs/spec/scripts.md; the picture is what the two HT16K33 chips hold at the
script's last statement. Every script ends with an ``expect`` of the state
and of the decoded ``display``, worked out from docs/display.md and
docs/arbiter.md, so ``make docs`` stops instead of drawing a picture that no
longer matches its caption. A new picture is one more entry; its name's
first word (``game``, ``claim``, ``refuse``, ``correct``, ``menu``,
``power``) puts it in a section of docs/pictures.md.
"""

# Left claims: 15 min sudden death (rapid), left under two minutes, right 14:00.
_CLAIM_LEFT = """
control 900
at 0      press right      # left is White, 15:00 each
at 100    press left       # left 900 - 100 = 800
at 160    press right      # right 900 - 60 = 840
at 850    pause            # left 800 - 690 = 110
at 850    expect state=paused left=1:50 right=14:00 display=" 1.50|14.00"
"""


def _claim(quickplay, rest, edition="appendix-g"):
    return "quickplay %s\nedition %s\n%s%s" % (quickplay, edition, _CLAIM_LEFT, rest)


# The arbiter's corrections: 15 min, left 13:20, right 14:00 to move, paused.
_PAUSED = """
control 900
at 0      press right      # left is White
at 100    press left       # left 900 - 100 = 800; move 1
at 160    pause            # right 900 - 60 = 840
at 160    expect state=paused moves=1 left=13:20 right=14:00 display="13.20|14.00"
"""

PICTURES = (
    # --- the game -------------------------------------------------------
    (
        "game-start",
        """control 300+3
at 0      expect state=setup left=5:03 right=5:03 display=" 5.03| 5.03"
""",
        "Before the start, 300+3: each side shows its time with the increment of move 1 "
        "(5:00 + 3 s). No mark is lit.",
    ),
    (
        "game-running",
        """control 300+3
at 0      press right      # left is White
at 12.5   press left       # 5:03 - 12.5 + 3 = 4:53.5
at 20     press right      # 5:03 - 7.5 + 3 = 4:58.5
at 20.7   expect running=left left=4:52.8 right=4:58.5 display=" 4.53.| 4.59"
""",
        "Left to move, 0.7 s into the turn: the point after the fourth digit is the running "
        "side's mark (it blinks once a second). Times are rounded up: 4:52.8 reads 4.53.",
    ),
    (
        "game-paused",
        """control 300+3
at 0      press right
at 12.5   press left
at 20     press right
at 20.7   pause
at 20.7   expect state=paused running=none left=4:52.8 display=" 4.53| 4.59"
""",
        "Paused: the running mark is dark on both sides.",
    ),
    (
        "game-hours",
        """control 5400
at 0      press right      # left is White
at 0.6    expect running=left left=1:29:59.4 display=" 1:30.| 1:30"
""",
        "An hour or more: hours and minutes with the colon, the minutes rounded up "
        "(1:29:59.4 reads 1:30).",
    ),
    (
        "game-delay",
        """control 60d5
at 0      press right      # left is White
at 2.6    expect running=left left=1:00 display=" 1.0.0.| 1.00"
""",
        "Simple delay (60d5), 2.6 s into left's turn: the point after the third digit is lit "
        "while the 5 s delay runs, and the time does not move yet.",
    ),
    (
        "game-first-flag",
        """control 60
at 0      press right      # left is White
at 10     press left       # left 50
at 40     press right      # right 30; left's flag falls at 40 + 50 = 90
at 95     press left       # the game goes on: right runs from 95
at 95.8   expect flag=left first_flag=left running=right right=0:29.2 display="F.0.00| 0.30."
""",
        "Left's flag has fallen first: F in the first digit and the point after it. In sudden "
        "death the game goes on: left has pressed and right's clock runs.",
    ),
    (
        "game-both-flags",
        """control 5
at 0      press left       # right is White; its flag falls at 5
at 6      press right      # left runs from 6; its flag falls at 11
at 11     expect flag=both first_flag=right left=0 right=0 display="F0.00|F.0.00"
""",
        "Both flags: right's fell first (F and the point after it), left's second (F alone).",
    ),
    (
        "game-flag-freeze",
        """control 60+1
at 0      press right      # left is White with 61 s; its flag falls at 61
at 62     expect state=over flag=left running=none right=1:01 display="F.0.00| 1.01"
""",
        "A flag in a control with an increment: both clocks stop for good and keep their last "
        "display.",
    ),
    (
        "game-control-passed",
        """control 2/60:30
at 0      press right      # left is White
at 1      press left       # left move 1: 60 - 1 = 59
at 2      press right      # right move 1: 60 - 1 = 59
at 3      press left       # left move 2 ends period 1: 59 - 1 + 30 = 88
at 3.6    expect running=right left=1:28 right=0:58.4 left_stage=2 right_stage=1
at 3.6    expect display=" 1.28.| 0.59."
""",
        "2/60:30, left has completed move 2, the last of period 1: its time has the 30 s of "
        "period 2 added, and the point after its fourth digit is lit steady while its clock "
        "stands. Right, still in period 1, runs (its point blinks): left passed the control "
        "first. A short tone sounded at the move.",
    ),
    (
        "game-control-passed-second",
        """control 2/60:30
at 0      press right
at 1      press left
at 2      press right
at 3      press left       # left passes first: 88
at 4      press right      # right move 2 ends its period 1: 59 - 1 + 30 = 88
at 4.2    expect running=left left=1:27.8 right=1:28 left_stage=2 right_stage=2
at 4.2    expect display=" 1.28| 1.28."
""",
        "Right completes its period a second later: its steady point now says it has just "
        "passed the control, until its next move. Left runs, 0.2 s into its turn (its "
        "running point still dark): both are in period 2 now.",
    ),
    # --- quickplay-finish claims ----------------------------------------------
    (
        "claim-g5-open",
        _claim(
            "g5",
            """at 855    claim
at 855    expect state=claim claim=open-left display="drA |CLA "
""",
        ),
        "G.5: the claim is open. The claimant's display offers the first ruling, draw (drA); "
        "the other display says CLA.",
    ),
    (
        "claim-g5-postpone-choice",
        _claim(
            "g5",
            """at 855    claim
at 860    key plus
at 861    expect state=claim display="Po5t|CLA "
""",
        ),
        "G.5, plus once: postpone the decision (PoSt).",
    ),
    (
        "claim-g5-postpone-plus2-choice",
        _claim(
            "g5",
            """at 855    claim
at 860    key plus
at 861    key plus
at 862    expect state=claim display="Po 2|CLA "
""",
        ),
        "G.5, plus twice: postpone and give the opponent two minutes (Po 2).",
    ),
    (
        "claim-g5-reject-choice",
        _claim(
            "g5",
            """at 855    claim
at 860    key plus
at 861    key plus
at 862    key plus
at 863    expect state=claim display="rEJ |CLA "
""",
        ),
        "G.5, plus three times: reject the claim, the opponent gets two minutes (rEJ).",
    ),
    (
        "claim-g5-draw",
        _claim(
            "g5",
            """at 855    claim
at 860    decide draw
at 860    expect state=over result=draw claim=none left=1:50 right=14:00 display=" 1.50|14.00"
""",
        ),
        "G.5 draw confirmed: the game is over on the clock, both times kept, no mark lit.",
    ),
    (
        "claim-g5-postponed",
        _claim(
            "g5",
            """at 855    claim
at 860    decide postpone
at 860    expect state=paused claim=postponed-left left=1:50 right=14:00 display=" 1.5.0|14.00"
""",
        ),
        "G.5 postponed: times unchanged, and the point after the claimant's third digit "
        "keeps the claim visible until the final ruling.",
    ),
    (
        "claim-g5-postponed-plus2",
        _claim(
            "g5",
            """at 855    claim
at 860    decide postpone+2
at 860    expect state=paused claim=postponed-left left=1:50 right=16:00 display=" 1.5.0|16.00"
""",
        ),
        "G.5 postponed with two minutes for the opponent: right 14:00 + 2:00; the claim stays "
        "marked.",
    ),
    (
        "claim-g5-later-ruling",
        _claim(
            "g5",
            """at 855    claim
at 860    decide postpone
at 870    hold plus 2.1
at 873    expect claim=postponed-left display="drA |Po5t"
""",
        ),
        "Later, holding plus comes back to the postponed claim: its final ruling, draw (drA) "
        "on the claimant's side, PoSt on the other.",
    ),
    (
        "claim-g5-later-ruling-open",
        _claim(
            "g5",
            """at 855    claim
at 860    decide postpone
at 870    hold plus 2.1
at 873    key plus
at 874    expect claim=postponed-left display="rEJ |Po5t"
""",
        ),
        'plus: reject (rEJ), the final "not upheld": the opponent\'s two minutes, unless '
        "the postponement gave them.",
    ),
    (
        "claim-close-choice",
        _claim(
            "g5",
            """at 855    claim
at 860    decide postpone
at 870    hold plus 2.1
at 873    key minus
at 874    expect claim=postponed-left display="CLo5|Po5t"
""",
        ),
        "minus from the first ruling: close (CLoS), the claim ends with no award. Every claim, "
        "open or postponed, offers it last.",
    ),
    (
        "claim-postponed-running",
        _claim(
            "g5",
            """at 855    claim
at 860    decide postpone
at 870    resume
at 880    press left       # left 110 - 10 = 100
at 890    expect running=right claim=postponed-left left=1:40 right=13:50
at 890    expect display=" 1.4.0|13.50"
""",
        ),
        "Play goes on with the claim postponed (or left open): the point after the claimant's "
        "third digit stays lit on both players' turns until the arbiter rules.",
    ),
    (
        "claim-in-turn",
        _claim(
            "g5",
            """at 855    claim
at 860    decide postpone
at 870    resume
at 880    press left       # left 110 - 10 = 100; right from 840
at 1610   pause            # right 840 - 730 = 110
at 1615   hold plus 2.1    # left's postponed claim
at 1618   hold plus 2.1    # held again: right claims in turn
at 1621   expect claim=open-right left=1:40 right=1:50 display="CLA |drA "
""",
        ),
        "The other player claims in turn: hold plus shows the pending claim, held again it "
        "closes it (no award) and opens the claim of the player to move.",
    ),
    (
        "claim-g5-reject",
        _claim(
            "g5",
            """at 855    claim
at 860    decide reject
at 860    expect state=paused claim=none left=1:50 right=16:00 display=" 1.50|16.00"
""",
        ),
        "G.5 rejected: the opponent gets two minutes (14:00 + 2:00); the clock stays paused "
        "with the claimant to move.",
    ),
    (
        "claim-g4-open",
        _claim(
            "g4-increment",
            """at 855    claim
at 855    expect state=claim claim=open-left display="drA |CLA "
""",
        ),
        "G.4: the claim is open; the first ruling offered is draw agreed (drA).",
    ),
    (
        "claim-g4-grant-choice",
        _claim(
            "g4-increment",
            """at 855    claim
at 860    key plus
at 861    expect state=claim display="GrAn|CLA "
""",
        ),
        "G.4, plus once: grant the claim (GrAn).",
    ),
    (
        "claim-g4-refuse-choice",
        _claim(
            "g4-increment",
            """at 855    claim
at 860    key plus
at 861    key plus
at 862    expect state=claim display="rEF |CLA "
""",
        ),
        "G.4, plus twice: refuse the claim (rEF).",
    ),
    (
        "claim-g4-grant",
        _claim(
            "g4-increment",
            """at 855    claim
at 860    decide grant
at 860    expect state=paused claim=none left=1:55 right=16:00 display=" 1.55|16.00"
""",
        ),
        "G.4 granted, increment mode: the opponent gets two minutes (14:00 + 2:00), both sides "
        "change to +5 s a move, and the claimant's move in progress gets its 5 s at once "
        "(1:50 + 5 s).",
    ),
    (
        "claim-g4-draw",
        _claim(
            "g4-increment",
            """at 855    claim
at 860    decide draw
at 860    expect state=over result=draw claim=none left=1:50 right=14:00 display=" 1.50|14.00"
""",
        ),
        "G.4 draw agreed: the opponent accepted the draw offer; the game is over on the clock.",
    ),
    (
        "claim-g4-delay-grant",
        """quickplay g4-delay
%sat 855    claim
at 860    decide grant
at 860    expect state=paused claim=none left=1:50 right=16:00
at 870    resume
at 872.6  expect running=left left=1:50 display=" 1.5.0.|16.00"
"""
        % _CLAIM_LEFT,
        "G.4 granted, delay mode: the opponent gets two minutes, and when play resumes the "
        "claimant's move starts a fresh 5 s delay (point after the third digit).",
    ),
    (
        "claim-g4-refuse",
        _claim(
            "g4-increment",
            """at 855    claim
at 860    decide refuse
at 860    expect state=paused claim=none left=1:50 right=14:00 display=" 1.50|14.00"
""",
        ),
        "G.4 refused: nothing changes; the arbiter resumes play with play/pause.",
    ),
    (
        "claim-g6-record",
        _claim(
            "g6",
            """at 855    claim
at 855    expect state=over claim=recorded-left left=1:50 right=14:00 display=" 1.5.0|14.00"
""",
        ),
        "G.6 (no arbiter present): the claim records both times, the move count and the "
        "claimant, and ends the game on the clock; the point after the claimant's third "
        "digit shows who claimed.",
    ),
    (
        "claim-2015-g4",
        _claim(
            "g4-increment",
            """at 855    claim
at 855    expect state=paused claim=none left=1:55 right=16:00 display=" 1.55|16.00"
""",
            edition="2015",
        ),
        "The 2015 edition (10.4): the claim alone is granted at once, with no ruling: the "
        "opponent +2:00, the claimant +5 s and the 5-second increment from now on.",
    ),
    # --- claims refused: "no" and the reason ------------------------------
    (
        "refuse-quickplay-off",
        """control 900
at 0      press right
at 790    pause            # left 900 - 790 = 110
at 795    claim
at 795    expect state=paused claim=none left=1:50 display="no  |oFF "
""",
        "Refused: the event does not use the quickplay-finish rules (oFF).",
    ),
    (
        "refuse-two-minutes",
        """control 900
quickplay g5
at 0      press right
at 780    pause            # left 900 - 780 = 120: exactly 2:00.000
at 781    claim
at 781    expect state=paused claim=none left=2:00.000 display="no  |t 2 "
""",
        "Refused: the claimant has 2:00.000 or more (t 2); a claim needs less than two minutes.",
    ),
    (
        "refuse-flag",
        """control 900
quickplay g5
at 0      press right
at 100    press left       # left 800
at 200    press right      # right 800; left's flag falls at 1000
at 1010   pause
at 1015   claim
at 1015   expect state=paused claim=none flag=left display="no  |FLAG"
""",
        "Refused: a flag has fallen (FLAG).",
    ),
    (
        "refuse-increment",
        """control 900+5
quickplay g5
at 0      press right
at 800    pause            # left 905 - 800 = 105
at 805    claim
at 805    expect state=paused claim=none left=1:45 display="no  |Inc "
""",
        "Refused: the control has an increment or a delay (Inc, G.3).",
    ),
    (
        "refuse-blitz",
        """control 600
quickplay g5
at 0      press right
at 490    pause            # left 600 - 490 = 110
at 495    claim
at 495    expect state=paused claim=none left=1:50 display="no  |bLt2"
""",
        "Refused: 10 minutes is blitz by Article 15.1 (bLtz, G.3).",
    ),
    (
        "refuse-type",
        """control 900j30x5
quickplay g5
at 0      press right
at 790    pause            # left 900 - 790 = 110
at 795    claim
at 795    expect state=paused claim=none left=1:50 display="no  |tyPE"
""",
        "Refused: hourglass and byo-yomi have no quickplay finish (tYPE).",
    ),
    (
        "refuse-period",
        """control 2/900:60
quickplay g5
at 0      press right
at 790    pause            # left 900 - 790 = 110, still in period 1
at 795    claim
at 795    expect state=paused claim=none left=1:50 left_stage=1 display="no  |PEr "
""",
        "Refused: the claimant is not in the last period yet (PEr).",
    ),
    # --- the arbiter's corrections ------------------------------------------
    (
        "correct-open",
        _PAUSED
        + """at 165    hold set 2.1
at 168    expect state=paused display="A- 1| 0.00"
""",
        "Hold set 2 s: the time correction. A, no side chosen yet (-), unit 1 (minutes); "
        "the right display shows the amount.",
    ),
    (
        "correct-side",
        _PAUSED
        + """at 165    hold set 2.1
at 168    key lever_left
at 169    expect display="AL 1| 0.00"
""",
        "A lever chooses the side: L for left, r for right.",
    ),
    (
        "correct-minutes",
        _PAUSED
        + """at 165    hold set 2.1
at 168    key lever_left
at 169    key plus
at 170    key plus
at 171    expect display="AL 1| 2.00"
""",
        "plus twice in unit 1: +2:00.",
    ),
    (
        "correct-seconds",
        _PAUSED
        + """at 165    hold set 2.1
at 168    key lever_left
at 169    key plus
at 170    key plus
at 171    key set
at 172    key minus
at 173    key minus
at 174    key minus
at 175    key minus
at 175.5  key minus
at 176    expect display="AL 2| 1.55"
""",
        "set moves to unit 2 (seconds); minus five times: 2:00 - 5 s = 1:55.",
    ),
    (
        "correct-fine",
        _PAUSED
        + """at 165    hold set 2.1
at 168    key lever_left
at 169    key set
at 170    key set
at 171    key set
at 172    key plus
at 173    key plus
at 173.6  expect display="AL 4|0.020"
""",
        "Units 3 to 5 (tenths, hundredths, milliseconds) show the amount's last second "
        "and its milliseconds: unit 4, plus twice, 0.020 s.",
    ),
    (
        "correct-negative",
        _PAUSED
        + """at 165    hold set 2.1
at 168    key lever_right
at 169    key minus
at 170    expect display="Ar 1|-1.00"
""",
        "Taking time off: the amount shows a minus sign (right, -1:00).",
    ),
    (
        "correct-applied",
        _PAUSED
        + """at 165    add left +2:00
at 165    expect state=paused left=15:20 right=14:00 display="15.20|14.00"
""",
        "play applies the correction: left 13:20 + 2:00 = 15:20.",
    ),
    (
        "correct-refused",
        _PAUSED
        + """at 165    add left -20:00    # 13:20 - 20:00 is below zero
at 165    expect state=paused left=13:20 right=14:00 display="no  |tInE"
""",
        "A correction that would take a side below zero is refused (tInE): nothing changes.",
    ),
    (
        "correct-quick-bonus",
        _PAUSED
        + """at 165    hold set 2.1
at 168    key lever_left
at 169    hold plus 2.1
at 172    expect state=paused left=14:20 right=14:00 display="14.20|14.00"
""",
        "The quick bonus: hold set, the lever of the side, hold plus: +1:00 in rapid "
        "(13:20 + 1:00), +2:00 in a standard game.",
    ),
    (
        "correct-moves",
        _PAUSED
        + """at 165    hold minus 2.1
at 168    expect moves=1 display="n   |   1"
""",
        "Hold minus 2 s: the move counter (n) with White's completed moves.",
    ),
    (
        "correct-moves-changed",
        _PAUSED
        + """at 165    hold minus 2.1
at 168    key plus
at 169    key plus
at 170    expect moves=1 display="n   |   3"
""",
        "plus and minus change the count; play applies it and the periods follow it.",
    ),
    (
        "correct-moves-offer",
        """control 40/5400+30:1800+30
at 0      press right      # left is White: 5430
at 10     press left       # 5430 - 10 + 30 = 5450
at 20     press right      # 5450
at 25     pause
at 26     setmoves 38
at 30     hold minus 2.1
at 32.5   key plus
at 32.8   key plus
at 33.5   expect moves=38 display="n  t|  40"
""",
        "Across a period boundary (38 to 40 in 40/5400+30:1800+30) the left display says n  t: "
        "set applies the count with the period's 30:00 for each side, play the count alone.",
    ),
    (
        "correct-flag-zero",
        _PAUSED
        + """at 165    add right -14:00
at 165    expect flag=right first_flag=right right=0 display="13.20|F.0.00"
""",
        "A correction to 0:00.000 is a fallen flag: F, and no claim for the other player. "
        "Giving time back clears it; the event log keeps that it fell.",
    ),
    (
        "correct-lever-left",
        _PAUSED
        + """at 165    press left
at 165    expect state=paused moves=1 left=13:20 right=14:00 display="LEvr|LEvr"
""",
        "The left lever moved while paused: nothing changes, both displays say LEvr for 3 s "
        "and the event log keeps it.",
    ),
    (
        "correct-lever-right",
        _PAUSED
        + """at 165    press right
at 165    expect state=paused moves=1 left=13:20 right=14:00 display="rLEv|rLEv"
""",
        "The right lever moved while paused: rLEv on both displays for 3 s.",
    ),
    # --- the setup menus (before the first lever press) ------------------------
    (
        "menu-open",
        """control 300+3
at 1      key set
at 1.5    expect state=setup display="PrE | 5 3"
""",
        "Before the start, set opens the setup menu: the left display names the item (PrE, the "
        "built-in presets), the right one its value, here the preset in force: 5 3, 5 min + 3 s.",
    ),
    (
        "menu-preset-list",
        """control 300+3
at 1      key set
at 1.5    key set
at 2      expect display="P 16| 5 3"
""",
        "set opens the preset list at the preset in force, number 16. plus and minus step one "
        "preset; a long press of minus jumps back to the start of a group.",
    ),
    (
        "menu-preset-choice",
        """control 300+3
at 1      key set
at 1.5    key set
at 2      hold minus 2.1   # 15, the first blitz preset
at 4.5    hold minus 2.1   # 8, the first rapid preset
at 7      key plus
at 7.4    key plus
at 7.8    expect display="P 10|2510" left=5:03 right=5:03
""",
        "Preset 10, 25 min + 10 s. Nothing has changed yet: the times change only when set "
        "confirms.",
    ),
    (
        "menu-preset-confirmed",
        """control 300+3
at 1      key set
at 1.5    key set
at 2      hold minus 2.1
at 4.5    hold minus 2.1
at 7      key plus
at 7.4    key plus
at 7.8    key set
at 8.3    expect state=setup left=25:10 right=25:10 display="rAPd|2510"
""",
        "Confirmed: the class by Article 15.1 (rAPd, rapid: 25 + 60 x 10 s = 35 min) for 3 s; "
        "each side has 25:10 (the increment of move 1 included).",
    ),
    (
        "menu-custom-time",
        """control 300+3
at 1      key set          # PrE
at 1.4    key plus         # CUSt
at 1.8    key set          # both sides: the time of period 1
at 2.2    key minus        # tens of the minutes 0 -> 9
at 2.6    expect display="t  1| 090"
""",
        "CUSt, the custom control, field by field: t 1 is the time of period 1 in minutes "
        "(090); plus and minus change the blinking digit, set moves to the next digit, play "
        "takes the field.",
    ),
    (
        "menu-custom-moves",
        """control 300+3
at 1      key set
at 1.4    key plus
at 1.8    key set
at 2.2    key minus
at 2.6    key play         # the time is taken: the move count of period 1
at 3.0    key plus
at 3.4    key plus
at 3.8    key plus
at 4.2    key plus
at 4.6    expect display="no 1| 040"
""",
        "no 1: the moves of period 1 (040); 000 makes it the last period.",
    ),
    (
        "menu-custom-add",
        """control 300+3
at 1      key set
at 1.4    key plus
at 1.8    key set
at 2.2    key minus
at 2.6    key play
at 3.0    key plus
at 3.4    key plus
at 3.8    key plus
at 4.2    key plus
at 4.6    key play         # what each move adds
at 5.0    key plus         # F: Fischer
at 5.4    key set
at 5.8    key plus
at 6.2    key plus
at 6.6    key plus
at 7.0    expect display="Ad 1|F 30"
""",
        "Ad 1: what each move of period 1 adds: - nothing, F a Fischer increment, d a simple "
        "delay, b a Bronstein delay, and its seconds: F 30.",
    ),
    (
        "menu-custom-done",
        """control 300+3
at 1      key set
at 1.4    key plus
at 1.8    key set
at 2.2    key minus
at 2.6    key play
at 3.0    key plus
at 3.4    key plus
at 3.8    key plus
at 4.2    key plus
at 4.6    key play
at 5.0    key plus
at 5.4    key set
at 5.8    key plus
at 6.2    key plus
at 6.6    key plus
at 7.0    key play         # a move count: period 2 follows
at 7.4    key plus
at 7.8    key plus
at 8.2    key plus         # 030 minutes
at 8.6    key play
at 9.0    key play         # no 2 = 0: the last period
at 9.4    key play         # Ad 2 as period 1: done
at 10     expect state=setup left=1:30:30 right=1:30:30 display="5tAn|5Et "
""",
        "90 min for 40 moves, then 30 min, +30 s a move (40/5400+30:1800+30) in 22 presses: "
        "checked and set, standard by Article 15.1 (StAn, SEt). Each side starts with 1:30:30.",
    ),
    (
        "menu-custom-left",
        """control 300+3
at 1      key set
at 1.4    key plus         # CUSt
at 1.8    key lever_left   # the left side only
at 2.2    expect display="t.  1| 000"
""",
        "A lever instead of set builds one side's control only (handicap, Armageddon): the "
        "point after the first digit marks the left side.",
    ),
    (
        "menu-hourglass",
        """control 300+3
at 1      key set          # PrE
at 1.4    key plus         # CUSt
at 1.8    key plus         # HG
at 2.2    key set
at 2.6    expect state=setup display="HG t| 000"
""",
        "HG, the hourglass: one field, its time (HG t), in minutes and then seconds.",
    ),
    (
        "menu-japanese",
        """control 300+3
at 1      key set
at 1.4    key plus
at 1.8    key plus
at 2.2    key plus         # JAP
at 2.6    expect display="JAP |    "
""",
        "JAP, Japanese byo-yomi: main time (t 1), period time (PEr), number of periods (n).",
    ),
    (
        "menu-canadian",
        """control 300+3
at 1      key set
at 1.4    key plus
at 1.8    key plus
at 2.2    key plus
at 2.6    key plus         # CAn
at 3.0    expect display="CAn |    "
""",
        "CAn, Canadian byo-yomi: main time (t 1), moves per block (no), block time (bL).",
    ),
    (
        "menu-refused",
        """control 300+3
at 1      key set
at 1.4    key plus
at 1.8    key set
at 2.2    key play         # t 1 = 0 minutes
at 2.6    key play         # no 1 = 0
at 3.0    key play         # Ad 1 = nothing: the control "0"
at 3.4    expect state=setup left=5:03 right=5:03 display="Err |t 0 "
""",
        "A control that cannot be played is refused: Err and why (t 0, no time at the start); "
        "the previous control stays.",
    ),
    (
        "menu-quickplay",
        """control 3600
quickplay g4-increment
at 1      key set          # PrE
at 1.4    key minus        # LoC
at 1.8    key minus        # CAt
at 2.2    key minus        # tEn
at 2.6    key minus        # L 10
at 3.0    key minus        # bEEP
at 3.2    key minus        # PEn
at 3.4    key minus        # Ed
at 3.8    key minus        # APPG
at 4.2    expect display="APPG|G4 F"
""",
        "APPG, the event's quickplay-finish rule: oFF, G4 F (G.4, 5 s increment), G4 d "
        "(G.4, 5 s delay), G5 or G6.",
    ),
    (
        "menu-edition-refused",
        """control 3600
quickplay g4-increment
at 1      key set
at 1.4    key minus
at 1.8    key minus
at 2.2    key minus
at 2.6    key minus
at 3.0    key minus
at 3.2    key minus        # PEn
at 3.4    key minus        # Ed
at 3.8    key set
at 4.2    key minus        # oLd
at 4.6    key set
at 5.0    expect display="Err |oLd "
""",
        "Ed, the edition of the claim rules (APPG, 2015, oLd): the older edition has no "
        "5-second mode, so with G.4 set it is refused.",
    ),
    (
        "menu-save",
        """control 300+3
at 1      key set
at 1.4    key plus
at 1.8    key plus
at 2.2    key plus
at 2.6    key plus
at 3.0    key plus
at 3.4    key plus         # SAvE
at 3.8    key set
at 4.2    key plus
at 4.6    key plus
at 5.0    key set          # store in slot 3
at 5.4    expect display="5v 3|donE"
""",
        "SAvE keeps the controls in force in one of 9 user slots (Sv 3, donE); LoAd brings a "
        "slot back.",
    ),
    (
        "menu-load-empty",
        """control 300+3
at 1      key set
at 1.4    key plus
at 1.8    key plus
at 2.2    key plus
at 2.6    key plus
at 3.0    key plus         # LoAd
at 3.4    key set
at 3.8    key plus
at 4.2    key plus
at 4.6    key plus         # slot 4
at 5.0    key set
at 5.4    expect display="Ld 4|nonE" left=5:03
""",
        "An empty slot says nonE and changes nothing.",
    ),
    (
        "menu-sound",
        """control 300+3
at 1      key set          # PrE
at 1.4    key minus        # LoC
at 1.8    key minus        # CAt
at 2.2    key minus        # tEn
at 2.6    key minus        # L 10
at 3.0    key minus        # bEEP
at 3.4    expect display="bEEP|on  "
""",
        "bEEP: the buzzer at a flag, on or oFF (the FIDE equipment standard asks that sound "
        "can be switched off).",
    ),
    (
        "menu-last-ten",
        """control 300+3
at 1      key set
at 1.4    key minus
at 1.8    key minus
at 2.2    key minus
at 2.6    key minus        # L 10
at 3.0    expect display="L 10|oFF "
""",
        "L 10: warning beeps in the last 10 seconds, on or oFF.",
    ),
    (
        "menu-class",
        """control 300+3
at 1      key set
at 1.4    key minus        # LoC
at 1.8    key minus        # CAt
at 2.2    expect display="CAt |bLIt"
""",
        "CAt shows the class of the controls in force by the edition: 5 + 60 x 3 s = 8 min "
        "is blitz (bLIt) in every edition (10 minutes or less; under 15 by Article 15.1).",
    ),
    (
        "menu-penalty",
        """control 5400
at 1      key set
at 1.4    key minus        # LoC
at 1.8    key minus        # CAt
at 2.2    key minus        # tEn
at 2.6    key minus        # L 10
at 3.0    key minus        # bEEP
at 3.4    key minus        # PEn
at 3.8    expect display="PEn | 211"
""",
        "PEn, the event's quick penalty in minutes for a standard, a rapid and a blitz game: "
        "2, 1, 1 under the current Laws (the default).",
    ),
    (
        "menu-lock",
        """control 300+3
at 1      key set
at 1.4    key minus        # LoC
at 1.8    key set
at 2.2    key plus         # on
at 2.6    key set
at 3      expect display="LoC |on  " left=5:03 right=5:03
""",
        "LoC on locks the settings: set opens no menu, the displays say LoC on. To unlock, hold "
        "minus 2 s, then plus 2 s.",
    ),
    (
        "menu-tenths",
        """control 60
at 1      key set
at 1.4    key minus        # LoC
at 1.8    key minus        # CAt
at 2.2    key minus        # tEn
at 2.6    key set
at 3.0    key plus         # on
at 3.4    key set
at 5      press right      # left is White, running from 5
at 45.3   expect left=0:19.7 display=" 197| 1.00"
""",
        "tEn on: below 20 s the time shows seconds and tenths (19.7 s), with neither the colon "
        "nor the point after the second digit, so it cannot be taken for minutes.seconds.",
    ),
    (
        "menu-new-game",
        """control 60+1
at 0      press right
at 10     pause
at 11     hold set 2.1     # the time screen
at 13.5   hold set 2.1     # held again: a new game?
at 16     expect state=paused display="nEU |GAnE"
""",
        "A new game while paused: hold set twice; set confirms (the clock goes back to the "
        "start with the same settings), any other key goes on with the game.",
    ),
    # --- power loss ----------------------------------------------------------
    (
        "power-off",
        """control 300+3
at 0      press right
at 10     press left
at 23.5   power off
at 23.5   expect state=off display="    |    "
""",
        "The power is off: both displays are dark.",
    ),
    (
        "power-restored",
        """control 300+3
at 0      press right      # left is White
at 10     press left       # left 303 - 10 + 3 = 296
at 23.5   power off        # right has used 13.5 s of its turn
at 30     power on
at 30     expect state=paused left=4:56 right=4:53.04 display="rE5t|rE5t"
""",
        "The power is back: the clock says rESt (restored) for 3 s and comes back paused, the "
        "side to move with the time of its last journal entry, at most 5 s old.",
    ),
    (
        "power-restored-times",
        """control 300+3
at 0      press right
at 10     press left
at 23.5   power off
at 30     power on
at 33     expect state=paused left=4:56 right=4:53.04 display=" 4.56| 4.54"
""",
        "After the message: the game as it was, paused; play/pause resumes it.",
    ),
)

# Sections of docs/pictures.md, by the first word of a picture's name.
SECTIONS = (
    ("game", "The game"),
    ("claim", "Quickplay-finish claims"),
    ("refuse", "Claims refused"),
    ("correct", "The arbiter's corrections"),
    ("menu", "Menus and presets"),
    ("power", "Power loss and restore"),
)
