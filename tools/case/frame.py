"""Where everything goes: the case's size and each part's place, as numbers.

``Frame(board)`` works out, from the parts table and the board definition, the
outer size and the places ``tools.case.drawing`` builds the solids at: inside,
from the front, the displays behind their windows with the key board between
them, their clamps; behind them, the perfboard on the left (the controller's
USB end at the back wall), the charger and the buzzer in the middle, the cell
holder on the right over the battery door; under the top, the two lever
switches in their cages, above the perfboard. Host only.
"""

from tools.case import perfboard
from tools.case.cad import (
    BOARD_EDGE_MM,
    BOSS_WALL_MM,
    CAP_TRAVEL_MM,
    CLEARANCE_MM,
    COLUMN_MM,
    GAP_MM,
    KEEPER_MM,
    LEVER_GAP_MM,
    MIDDLE_MM,
    SIDE_MM,
    STANDOFF_MM,
    WALL_MM,
    _controller_kind,
    _display_kind,
)
from tools.case.parts import MOUNTS, PARTS

PITCH = perfboard.PITCH_MM
KEY_PROUD_MM = 0.5  # a key's plunger stands this far out of the front
_LIP_ROOM_MM = 2.5  # behind the cell: the door's lip ends short of the corner screw


def boss_mm(insert):
    """A boss's diameter round a heat-set insert: its hole and the least wall."""
    return PARTS[insert]["hole_mm"] + 2 * BOSS_WALL_MM


class Frame:
    def __init__(self, board):
        t, c = WALL_MM, CLEARANCE_MM
        self.board = board
        self.display = _display_kind(board)
        self.controller = _controller_kind(board)
        dw, dd, dh = PARTS[self.display]["size"]
        self.dw, self.dd, self.dh = dw, dd, dh
        hw, hl, hh = PARTS["cell_holder"]["size"]
        self.cols, self.rows = perfboard.size(board)
        pb_w, pb_d = self.cols * PITCH, self.rows * PITCH
        rb2 = boss_mm("insert_m2") / 2
        self.rb2 = rb2
        charger_w = PARTS["charger"]["size"][0]

        # width: the front row, or the back row if it is wider
        self.cells = getattr(board, "BATTERY_CELLS", 1)
        self.cell_pitch = hw + 4 * rb2 + 4 * c  # holder and its bosses, side by side
        front_w = 2 * dw + MIDDLE_MM + 2 * SIDE_MM + 2 * t
        back_w = (
            t + COLUMN_MM + BOARD_EDGE_MM + pb_w + GAP_MM + charger_w + GAP_MM
            + 2 * rb2 + c + hw + c + 2 * rb2 + c + t + (self.cells - 1) * self.cell_pitch
        )  # fmt: skip
        self.W = W = round(max(front_w, back_w), 2)
        # depth: the front, the displays and their clamps, then the back row
        self.y_back = t + dd + t + GAP_MM
        back_d = max(pb_d + 2 * BOARD_EDGE_MM, hl + 2 * (c + t) + _LIP_ROOM_MM)
        self.D = D = round(self.y_back + back_d + t, 2)

        # the displays
        self.display_z = t + 8.0
        self.display_x = (t + SIDE_MM, W - t - SIDE_MM - dw)
        self.mid = W / 2
        self.zc = self.display_z + dh / 2

        # the perfboard, its top edge of the drawing at the back
        self.pb_x0 = t + COLUMN_MM + BOARD_EDGE_MM
        self.pb_y1 = D - t - BOARD_EDGE_MM
        self.pb_w, self.pb_d = pb_w, pb_d
        self.pb_z = t + STANDOFF_MM
        self.sock_z = self.pb_z + 1.6 + PARTS["socket_header"]["size"][2]
        # the controller on its headers' plastic: drawn on the lowest mount, the case
        # made for the highest (tools.case.fits.mount_problems checks every one)
        self.mounts = MOUNTS[self.controller]
        lifts = [lift for _, _, lift in self.mounts]
        self.ctl_z = self.sock_z + min(lifts)
        self.ctl_rise = max(lifts) - min(lifts)  # the highest mount over the drawn one
        ctl_h = PARTS[self.controller]["size"][2]
        self.ctl_top = self.ctl_z + self.ctl_rise + ctl_h

        # height: room over the displays and their clamp bosses, or over the
        # controller for a lever's cage (floor, switch, gap, keeper)
        switch = PARTS["microswitch"]
        free = switch["size"][2] + switch["plunger_mm"]
        over_displays = self.display_z + dh + 2 * c + 2 * rb2 + c
        over_controller = self.ctl_top + c + t + free + LEVER_GAP_MM + KEEPER_MM
        self.z_top = round(max(over_displays, over_controller), 2)  # the top's underside
        self.H = round(self.z_top + t, 2)
        self.switch_z = self.z_top - KEEPER_MM - LEVER_GAP_MM - free
        self.cap_z = self.H + CAP_TRAVEL_MM

        # the cell holder at the right, its door screws' bosses either side
        self.xb_right = W - t - c - rb2
        self.hx1 = min(self.xb_right - rb2 - c, W - t - COLUMN_MM - c)
        self.xb_right = self.hx1 + c + rb2
        self.hx0 = self.hx1 - hw
        self.xb_left = self.hx0 - c - rb2
        self.hy0 = self.y_back + c + t
        self.hy1 = self.hy0 + hl
        self.hcx = (self.hx0 + self.hx1) / 2
        self.hcy = (self.hy0 + self.hy1) / 2

        # the charger between the perfboard and the holder, against the back wall
        cw, cd, ch = PARTS["charger"]["size"]
        self.ch_x0 = self.pb_x0 + pb_w + GAP_MM
        self.ch_x1 = self.ch_x0 + cw
        self.ch_y1 = D - t - c
        self.ch_y0 = self.ch_y1 - cd
        self.ch_z = 2 * t  # on a pad: the plug's overmould clears the base
        self.xb_first = self.xb_left - (self.cells - 1) * self.cell_pitch  # leftmost boss
        if self.ch_x1 + GAP_MM > self.xb_first - rb2:
            raise ValueError("the charger does not fit between the perfboard and the cell")

    def pad_xy(self, col, row):
        """A perfboard hole's centre in the case (the drawing's top at the back)."""
        return self.pb_x0 + (col + 0.5) * PITCH, self.pb_y1 - (row + 0.5) * PITCH
