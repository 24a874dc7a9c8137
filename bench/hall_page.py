"""The hall's page at a phone's and a wall's size: what fits, how large, nothing over.

    python -m bench.hall_page [--write]

Each case opens ``hall.page_sample``'s made-up hall (names of up to 60
characters) in headless chromium at an exact viewport and reads the page's
own measure of its cards: how many a screen shows (the wall: a page), how
many pages, the smallest name and time in CSS px and, for the wall, their
size seen from 5 m on a 55-inch 1080p screen (0.634 mm a pixel; a capital or
digit is 0.714 of the font's size in the names' Noto Sans, 0.729 in the times'
DejaVu Sans Mono), the contents outside their card or the
viewport (goal 0) and the strip's lines (goal at most 2). ``--write`` stores
them under ``hall_page`` of bench/latest.json.
"""

import math
import sys

from bench import results
from hall import screenshot
from hall.page_sample import measure

CASES = (
    ("phone 390x844, 200 boards", screenshot.PHONE, 200),
    ("wall 1920x1080, 8 boards", screenshot.WALL, 8),
    ("wall 1920x1080, 50 boards", screenshot.WALL, 50),
    ("wall 1920x1080, 200 boards", screenshot.WALL, 200),
)
PIXEL_MM = 0.634  # a 55-inch 16:9 screen of 1080 lines
# A capital's or a digit's height in the font's size: the names' Noto Sans (714 of 1,000
# units), the times' monospace, DejaVu Sans Mono (1,493 of 2,048); hall/page.html's fonts.
NAME_GLYPH = 0.714
TIME_GLYPH = 0.729
DISTANCE_MM = 5000
# the page's time fields (hall/page.html: a side, and whose move or flag it is)
TIMES = ("left", "right", "left to-move", "right to-move", "left fallen", "right fallen")


def _arcmin(font_px, glyph):
    return round(math.degrees(math.atan(font_px * glyph * PIXEL_MM / DISTANCE_MM)) * 60, 1)


def _inside(inner, outer, slack=0.5):
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


def case_figures(window, boards):
    data = measure(window, boards)
    width, height = data["viewport"]
    screen = [0, 0, width, height]
    cards = data["cards"]
    over = 0
    for card in cards:
        if not _inside(card["box"], [0, -1e9, width, 1e9] if not data["wall"] else screen):
            over += 1
        over += sum(not _inside(part["box"], card["box"]) for part in card["parts"])
    parts = [part for card in cards for part in card["parts"]]
    names = [part for part in parts if part["name"].split()[-1] in ("white", "black")]
    times = [part for part in parts if part["name"] in TIMES]
    pages = data["pages"].split(" of ")[1].split(":")[0] if data["pages"] else "1"
    figures = {
        "boards": boards,
        "cards_on_screen": sum(_inside(card["box"], screen) for card in cards),
        "name_px": min(part["font"] for part in names),
        "time_px": min(part["font"] for part in times),
        "names_shortened": sum(part["clipped"] for part in names),
        "outside_card_or_viewport": over + (data["scrollWidth"] > width),
        "strip_lines": len({item["box"][1] for item in data["strip"]}),
    }
    if data["wall"]:  # a phone scrolls; the wall turns its pages
        figures["pages"] = int(pages)
        figures["name_arcmin_at_5_m"] = _arcmin(figures["name_px"], NAME_GLYPH)
        figures["time_arcmin_at_5_m"] = _arcmin(figures["time_px"], TIME_GLYPH)
    return figures


def hall_page_figures():
    return {name: case_figures(window, boards) for name, window, boards in CASES}


def rows(figures):
    table = []
    for name, case in figures.items():
        table.append(
            (
                "page, %s: contents outside their card or the screen" % name,
                case["outside_card_or_viewport"],
                "0",
            )
        )
        table.append(("page, %s: strip lines" % name, case["strip_lines"], "<= 2"))
        shown = "%d cards, %s page(s)" % (case["cards_on_screen"], case.get("pages", "-"))
        table.append(("page, %s: cards on one screen, pages" % name, shown, "report"))
        if "name_arcmin_at_5_m" in case:
            sizes = [case["name_arcmin_at_5_m"], case["time_arcmin_at_5_m"]]
            table.append(
                (
                    "page, %s: names, times at 5 m (minutes of arc)" % name,
                    "%s', %s'" % tuple(sizes),
                    "> 5' (20/20 letter)",
                    sizes,
                )
            )
    return table


def main(argv):
    if screenshot.chromium() is None:
        print("chromium is not installed: make hall-tools")
        return 1
    return results.command("hall_page", hall_page_figures(), rows, argv, 18)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
