"""A real hall's files (hall/accounts.py): accounts, ACL, one hall file per board."""

import json
import os
import stat

import pytest

from firmware import hall_settings
from hal.storage import Files, Storage
from hall import accounts
from tests.hall_helpers import need_broker


def test_board_numbers():
    assert accounts.board_numbers("1-3,7") == [1, 2, 3, 7]
    for bad in ("0-3", "5-2", "1-3,2", "x", "1-10000"):
        with pytest.raises(ValueError):
            accounts.board_numbers(bad)


def test_the_setup_files(tmp_path):
    need_broker()
    out = str(tmp_path / "setup")
    accounts.write_setup(
        out, [1, 2, 12], "192.168.1.10", 1883, "Hall", "wifi-pw", "open", "0.0.0.0", False
    )
    names = sorted(os.listdir(out))
    assert names == sorted(
        ["passwd", "acl", "mosquitto.conf", "view.json", "arbiter.json"]
        + ["hall-board-%d.json" % n for n in (1, 2, 12)]
    )
    for name in names:
        assert stat.S_IMODE(os.stat(os.path.join(out, name)).st_mode) == 0o600
    boards = {}
    for number in (1, 2, 12):
        storage = Storage(out, Files())
        os.replace(os.path.join(out, "hall-board-%d.json" % number), os.path.join(out, "hall.json"))
        hall, code = hall_settings.load(storage)
        assert code is None and hall.board == number and hall.user == "clock-%d" % number
        assert hall.prefix == "open" and hall.ssid == "Hall"
        boards[number] = hall.password
    assert len(set(boards.values())) == 3  # each clock its own password
    passwd = open(os.path.join(out, "passwd")).read()
    for password in boards.values():
        assert password not in passwd  # hashed
    acl = open(os.path.join(out, "acl")).read()
    assert "user clock-12\ntopic write open/board/12\n" in acl
    assert "user view\ntopic read open/#\n" in acl
    arbiter = json.load(open(os.path.join(out, "arbiter.json")))
    assert arbiter["user"] == "arbiter" and arbiter["password"] not in passwd
