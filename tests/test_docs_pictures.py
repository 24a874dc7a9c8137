"""The documentation pictures: regenerated and compared, drawn true to the chip's memory.

- ``make docs`` output (``tools.pictures.generate``) equals the committed
  files in docs/pictures/ and docs/pictures.md, byte for byte, and nothing
  stale lies there;
- every picture's clock script (``docs/pictures/*.clock``) is one of the
  scenario scripts that tests/test_scenarios.py plays on both lanes;
- what a picture lights, read back from the positions of its lit shapes
  alone, is what the HT16K33 RAM holds: a segment, point or colon drawn at
  the wrong place for its bit fails;
- every picture and page the README and docs/*.md link to exists; every
  text the arbiter's screens
  use can be shown on a 7-segment digit;
- the wiring diagrams show every pin and address of the board data.
"""

import os
import re
import types
import xml.etree.ElementTree as ET

import pytest

from firmware import arbiter, frames
from sim import ht16k33, segments_geometry
from tests.scripting import expected_exit, scenario_names
from tools.pictures import diagrams, displays
from tools.pictures import generate as docs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def generated():
    return docs.generate()


# The tests of the drawn pictures run on one worker, which draws them once.
ON_THE_DRAWN_PICTURES = pytest.mark.xdist_group("docs-pictures")


@ON_THE_DRAWN_PICTURES
def test_committed_pictures_are_what_make_docs_draws(generated):
    assert docs.differences(generated) == [], "run `make docs` and commit the result"
    assert docs.stale(generated) == []


@ON_THE_DRAWN_PICTURES
def test_every_picture_is_in_the_gallery(generated):
    gallery = generated[docs.GALLERY]
    pictures = docs.read_pictures()
    assert len(pictures) >= 40
    for picture in pictures:
        assert "(pictures/%s.svg)" % picture.name in gallery
        assert "%s/%s.svg" % (docs.PICTURE_DIR, picture.name) in generated
        assert picture.caption in gallery
        svg = generated["%s/%s.svg" % (docs.PICTURE_DIR, picture.name)]
        assert ET.fromstring(svg).find(SVG + "title").text == picture.caption


def test_every_picture_script_is_played_on_both_lanes():
    """The picture scripts are scenario scripts: tests/test_scenarios.py plays each on
    CPython and inside MicroPython, in its shards, and compares the lines."""
    folder = os.path.join(ROOT, docs.PICTURE_DIR)
    files = sorted(
        os.path.join(docs.PICTURE_DIR, name)
        for name in os.listdir(folder)
        if name.endswith(".clock")
    )
    assert len(files) >= 40
    played = scenario_names()
    assert [name for name in files if name in played and expected_exit(name) == 0] == files


def test_the_caption_is_read_from_the_comment_header():
    picture = docs.read_picture(
        "game-x", "# caption: Before the start:\n#   each side  shows 5:03.\ncontrol 300+3\n"
    )
    assert picture.caption == "Before the start: each side  shows 5:03."
    assert picture.script == "control 300+3\n"
    with pytest.raises(ValueError, match="game-y.clock"):
        docs.read_picture("game-y", "control 300+3\n")


# --- reading a picture back from its geometry alone -------------------------------


def _centre(element):
    if element.tag == SVG + "circle":
        return float(element.get("cx")), float(element.get("cy"))
    points = [tuple(map(float, pair.split(","))) for pair in element.get("points").split()]
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2, max(xs) - min(xs), max(ys) - min(ys)


def _nearest(middles, x):
    """The digit whose middle bar is nearest to ``x``."""
    return min(range(4), key=lambda digit: abs(middles[digit][0] - x))


def read_back(svg_text):
    """The text each display shows, found from where the lit shapes are.

    Only positions and shapes are used: horizontal bars are a, g, d from the
    top; upright bars left or right of their digit's middle bar, above or
    below it, are f, e, b, c; a circle low and right of a digit is its
    point, the two circles higher up between digits 2 and 3 the colon.
    """
    root = ET.fromstring(svg_text)
    texts = []
    for side in displays.SIDES:
        shapes = [
            element
            for element in root
            if element.tag in (SVG + "polygon", SVG + "circle")
            and element.get("id", "").startswith(side + "-")
        ]
        bars = [(element, _centre(element)) for element in shapes if element.tag == SVG + "polygon"]
        assert len(bars) == 28
        horizontal = [(e, c) for e, c in bars if c[2] > c[3]]
        upright = [(e, c) for e, c in bars if c[2] <= c[3]]
        tops = sorted({round(c[1]) for _, c in horizontal})
        assert len(tops) == 3  # the a, g and d rows
        middles = sorted(c for _, c in horizontal if round(c[1]) == tops[1])
        patterns = [0, 0, 0, 0]

        lit = displays.LIT
        for element, (x, y, _, _) in horizontal:
            if element.get("fill") == lit:
                row = tops.index(round(y))
                patterns[_nearest(middles, x)] |= (0x01, 0x40, 0x08)[row]
        for element, (x, y, _, _) in upright:
            if element.get("fill") == lit:
                digit = _nearest(middles, x)
                middle_x, middle_y = middles[digit][0], middles[digit][1]
                right = x > middle_x
                upper = y < middle_y
                patterns[digit] |= {
                    (True, True): 0x02,
                    (True, False): 0x04,
                    (False, False): 0x10,
                    (False, True): 0x20,
                }[(right, upper)]
        circles = [(e, _centre(e)) for e in shapes if e.tag == SVG + "circle"]
        lowest = max(c[1] for _, c in circles)
        colon = False
        for element, (x, y) in circles:
            if element.get("fill") != lit:
                continue
            if y < lowest - 1:
                assert middles[1][0] < x < middles[2][0]
                colon = True
            else:
                left_of = [index for index in range(4) if middles[index][0] < x]
                patterns[max(left_of)] |= 0x80
        text = ""
        for index, pattern in enumerate(patterns):
            if index == 2 and colon:
                text += ":"
            text += ht16k33.CHARACTERS.get(pattern & 0x7F, "?")
            if pattern & 0x80:
                text += "."
        texts.append(text)
    return "|".join(texts)


def _ram(digits=(0, 0, 0, 0), colon=False):
    ram = bytearray(16)
    for address, pattern in zip(ht16k33.DIGIT_BYTES, digits, strict=True):
        ram[address] = pattern
    if colon:
        ram[ht16k33.COLON_BYTE] |= ht16k33.COLON_BIT
    return bytes(ram)


def test_every_ram_bit_lights_the_element_at_its_place():
    # One bit at a time, on the left display; the right one stays dark.
    dark = _ram()
    for position in range(4):
        for bit in range(8):
            digits = [0, 0, 0, 0]
            digits[position] = 1 << bit
            ram = _ram(digits)
            shown = read_back(displays.display_svg((ram, dark)))
            assert shown == ht16k33.decode_seg7x4(ram) + "|" + ht16k33.decode_seg7x4(dark)
    ram = _ram(colon=True)
    assert read_back(displays.display_svg((dark, ram))) == "    |  :  "


def test_a_picture_reads_back_as_the_chip_memory_decodes():
    ram_left = _ram((0x71 | 0x80, 0x3F | 0x80, 0x3F, 0x3F))  # F.0.00
    ram_right = _ram((0x00, 0x06, 0x5B, 0x4F | 0x80), colon=True)  # " 1:23."
    svg = displays.display_svg((ram_left, ram_right))
    assert read_back(svg) == "F.0.00| 1:23."


def test_a_display_that_is_off_lights_nothing():
    ram = _ram((0x7F | 0x80,) * 4, colon=True)
    assert read_back(displays.display_svg((ram, ram), on=(False, True))) == "    |8.8.:8.8."


def test_a_wrong_segment_mapping_fails_the_read_back(monkeypatch):
    swapped = list(segments_geometry.SEGMENT_POLYGONS)
    swapped[1], swapped[5] = swapped[5], swapped[1]  # b drawn where f is
    monkeypatch.setattr(segments_geometry, "SEGMENT_POLYGONS", tuple(swapped))
    ram = _ram((0x06, 0, 0, 0))  # "1": segments b and c
    assert read_back(displays.display_svg((ram, ram))) != "1   |1   "


@ON_THE_DRAWN_PICTURES
def test_every_committed_picture_reads_back_as_its_description(generated):
    checked = 0
    for path, text in generated.items():
        if (
            not path.endswith(".svg")
            or "/wiring-" in path
            or "/perfboard-" in path
            or "/power-" in path
        ):
            continue
        if path.endswith("data-flow.svg"):
            continue
        description = ET.fromstring(text).find(SVG + "desc").text
        left, right = re.fullmatch(r'left "(.*)" \| right "(.*)"', description).groups()
        assert read_back(text) == left + "|" + right, path
        checked += 1
    assert checked >= 40


# --- the manuals ---------------------------------------------------------------

_LINK = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")


def _manuals():
    paths = [os.path.join(ROOT, "README.md")]
    folder = os.path.join(ROOT, "docs")
    paths += [
        os.path.join(folder, name) for name in sorted(os.listdir(folder)) if name.endswith(".md")
    ]
    spec = os.path.join(folder, "spec")
    paths += [os.path.join(spec, name) for name in sorted(os.listdir(spec)) if name.endswith(".md")]
    return paths


def test_every_picture_a_manual_links_to_exists():
    missing = []
    linked = 0
    for path in _manuals():
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        for match in _LINK.finditer(text):
            target = match.group(1) or match.group(2)
            if "://" in target:
                continue
            linked += 1
            full = os.path.normpath(os.path.join(os.path.dirname(path), target.split("#")[0]))
            if not os.path.exists(full):
                missing.append("%s -> %s" % (os.path.relpath(path, ROOT), target))
    assert missing == []
    assert linked > 0


_ANY_LINK = re.compile(r"\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")
_CODE = re.compile(r"```.*?```", re.S)


def test_every_page_a_manual_links_to_exists():
    missing = []
    for path in _manuals():
        with open(path, encoding="utf-8") as handle:
            text = _CODE.sub("", handle.read())
        for match in _ANY_LINK.finditer(text):
            target = (match.group(1) or match.group(2)).split("#")[0]
            if not target or "://" in target or target.startswith("mailto:"):
                continue
            full = os.path.normpath(os.path.join(os.path.dirname(path), target))
            if not os.path.exists(full):
                missing.append("%s -> %s" % (os.path.relpath(path, ROOT), target))
    assert missing == []


def test_the_link_check_finds_a_missing_picture(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("![x](pictures/none.svg)\n")
    target = _LINK.search(page.read_text()).group(1)
    assert not (tmp_path / target).exists()


def test_the_manual_lists_every_message_of_the_procedures():
    with open(os.path.join(ROOT, "docs", "arbiter.md")) as handle:
        page = handle.read()
    section = page.split("\n## Every message\n", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^\| `([^`]+)` \|", section, re.MULTILINE)
    assert len(listed) == len(set(listed)), "a message listed twice"
    shown = set(arbiter.REFUSAL_TEXT.values()) | {"no"}  # "no": a code without a text
    assert set(listed) == shown
    with open(os.path.join(ROOT, "docs", "quick-card.md")) as handle:
        card = handle.read()
    for text in shown - {"LEvr", "rLEv"}:  # the card lists the levers' apart
        assert "`%s`" % text in card.split("## Refused", 1)[1], text


def test_every_screen_text_can_be_shown():
    texts = list(arbiter.REFUSAL_TEXT.values()) + list(arbiter.OUTCOME_TEXT.values())
    texts += ["CLA", "no", "n", "A- 1", "AL 1", "Ar 1"]
    for text in texts:
        for char in text:
            assert char in frames.TEXT_CHARS, "%r in %r has no 7-segment pattern" % (char, text)


# --- the wiring diagrams ----------------------------------------------------------


@pytest.mark.parametrize("name", docs.WIRED_BOARDS)
def test_the_wiring_shows_every_pin_and_address(name):
    import boards

    board = boards.load(name)
    svg = diagrams.wiring_svg(board)
    ET.fromstring(svg)  # well-formed
    labels = set(re.findall(r">([^<]+)</text>", svg))
    for pin in list(board.INPUTS.values()) + [board.I2C_SDA, board.I2C_SCL, board.BUZZER_PIN]:
        assert any(label.startswith(diagrams.pin_name(board, pin)) for label in labels), pin
    assert any("0x%02X" % board.DISPLAY_LEFT in label for label in labels)
    assert any("0x%02X" % board.DISPLAY_RIGHT in label for label in labels)


def test_the_wiring_follows_the_board_data():
    import boards

    pico = boards.load("pico")
    moved = types.SimpleNamespace(**{k: getattr(pico, k) for k in dir(pico) if k.isupper()})
    moved.INPUTS = dict(pico.INPUTS, plus=22)
    moved.DISPLAY_RIGHT = 0x73
    svg = diagrams.wiring_svg(moved)
    assert ">GP22</text>" in svg and ">GP18</text>" not in svg
    assert "0x73, A0 A1 bridged" in svg


# --- a picture whose situation no longer holds stops make docs --------------------


def test_a_failed_expectation_stops_the_picture():
    with pytest.raises(displays.PictureError) as caught:
        displays.take('control 300+3\nat 0 expect display=" 5.00| 5.00"\n', "start")
    assert "start:2: expect failed" in str(caught.value)
    assert 'display=" 5.03| 5.03"' in str(caught.value)  # the actual state line


def test_a_malformed_script_stops_the_picture():
    with pytest.raises(displays.PictureError) as caught:
        displays.take("control 300+3\nat 0 press middle\n", "bad")
    assert str(caught.value).startswith("bad:2:")


def test_a_picture_name_outside_the_sections_is_refused():
    extra = docs.read_pictures() + [docs.read_picture("misc-thing", "# caption: c\ncontrol 60\n")]
    with pytest.raises(ValueError, match="misc-thing"):
        docs.gallery(extra)


def test_a_short_ram_is_refused():
    with pytest.raises(ValueError):
        displays.display_svg((bytes(8), bytes(16)))
