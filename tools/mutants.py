"""``make mutants``: a fixed list of meaningful mutations of the core and the hardware
layer, each applied to a copy of the tree, its tests run; the ones no test catches
are reported.

A mutation is one exact edit (a text that must occur exactly once in its file, and
what replaces it) with the tests that guard that code: pytest files, or clock
scripts run by ``python -m sim run``. Each is the kind of slip the review behind
issue 36 found unguarded: a limit off by one, a comparison turned round, a branch
of a timing method lost. The tree under test is a copy (the tracked files and the
working changes, with the shared .venv and Node modules linked), so the working
tree is never edited and an interrupted run leaves nothing behind.

``python -m tools.mutants`` runs them all (a few minutes on one core);
``--only NAME`` one; ``--match TEXT`` those whose name holds TEXT (repeatable:
``--match display: --match ring:``); ``--list`` prints the list. Exit status 1 if any survived or
no longer applies (its text is gone: the list must follow the code).
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYTHON = os.path.join(ROOT, ".venv", "bin", "python")


def scripts(*folders):
    """The clock scripts of ``folders`` under tests/scenarios, as a test command."""
    return ("scripts",) + folders


# (name, file, text, replacement, tests). The tests: pytest files, or scripts(...).
MUTANTS = (
    (
        "mqtt: a fifth remaining-length byte read",
        "hal/mqtt.py",
        "if self.shift > 21:",
        "if self.shift > 28:",
        ("tests/test_limits_mqtt.py",),
    ),
    (
        "mqtt: a PUBLISH of exactly the inbox's size dropped",
        "hal/mqtt.py",
        "if length > len(inbox):",
        "if length >= len(inbox):",
        ("tests/test_limits_mqtt.py",),
    ),
    (
        "mqtt: a refused SUBACK (0x80) taken as granted",
        "hal/mqtt.py",
        "if length >= 3 and inbox[2] == 0x80:",
        "if length >= 3 and inbox[2] == 0x81:",
        ("tests/test_limits_mqtt.py",),
    ),
    (
        "hall message: MAX_BYTES + 1 read",
        "firmware/hall_decode.py",
        "if len(payload) > MAX_BYTES:  #",
        "if len(payload) > MAX_BYTES + 1:  #",
        ("tests/test_limits_hall.py",),
    ),
    (
        "boot: the older of two whole entries preferred (slots and ring)",
        "firmware/boot/resume.py",
        "if record is None or sequence > journal_read.sequence(record):",
        "if record is None or sequence < journal_read.sequence(record):",
        ("tests/test_limits_journal.py",),
    ),
    (
        "ring: the boot reads back from the entry before the newest",
        "hal/journal_setup.py",
        "    slot = ring.next - 1\n",
        "    slot = ring.next - 2\n",
        ("tests/test_journal_ring.py",),
    ),
    (
        "engine: the flag falls a millisecond late",
        "firmware/engine.py",
        "if self.elapsed(now) >= limit:",
        "if self.elapsed(now) > limit:",
        ("tests/test_engine.py", scripts("timing", "flags")),
    ),
    (
        "engine: a press of the side not to move completes a move",
        "firmware/engine.py",
        "if self.state != RUNNING or index != self.mover:",
        "if self.state != RUNNING:",
        ("tests/test_engine.py", scripts("timing")),
    ),
    (
        "delay: the flag falls without the delay",
        "firmware/timing.py",
        "            return self.remaining_ms + self.bonus_ms\n",
        "            return self.remaining_ms + 0\n",
        ("tests/test_timing_methods.py", scripts("timing", "flags")),
    ),
    (
        "Bronstein: the whole bonus given back however short the move",
        "firmware/timing.py",
        "left - elapsed + (elapsed if elapsed < bonus_ms else bonus_ms)",
        "left - elapsed + bonus_ms",
        ("tests/test_timing_methods.py", scripts("timing")),
    ),
    (
        "periods: the next period entered a move late",
        "firmware/timing.py",
        "and self.moves == control.cumulative[self.period]",
        "and self.moves > control.cumulative[self.period]",
        (scripts("timing"),),
    ),
    (
        "Japanese: a move at a period's last millisecond uses the period up",
        "firmware/timing.py",
        "            if over >= 0:\n                self.byo_left -= over // byo_ms + 1",
        "            if over > 0:\n                self.byo_left -= over // byo_ms + 1",
        (scripts("timing", "flags", "arbiter"),),
    ),
    (
        "Canadian: a block ends a move early",
        "firmware/timing.py",
        "        if self.byo_left == 0:\n            self.block_ms = control.byo_ms",
        "        if self.byo_left == 1:\n            self.block_ms = control.byo_ms",
        (scripts("timing", "arbiter"),),
    ),
    (
        "move counter: a Canadian block left with no move",
        "firmware/timing.py",
        "self.byo_left = 1 if left < 1 else left if left < count else count",
        "self.byo_left = 0 if left < 0 else left if left < count else count",
        ("tests/test_timing_methods.py",),
    ),
    (
        "claims: G.5 allowed at exactly two minutes",
        "firmware/claims.py",
        "if clock.shown_ms(mover, now) >= _CLAIM_BELOW_MS:",
        "if clock.shown_ms(mover, now) > _CLAIM_BELOW_MS:",
        ("tests/test_claims.py",),
    ),
    (
        "control: 9:59:59 and one second more accepted",
        "firmware/control_parser.py",
        "    if start > MAX_START_MS:",
        "    if start > MAX_START_MS + 1000:",
        ("tests/test_timecontrol.py",),
    ),
    (
        "keys: a press held exactly the long time taken as short",
        "hal/keys.py",
        "if ticks_diff(release, start) >= self.long_ms:",
        "if ticks_diff(release, start) > self.long_ms:",
        ("tests/test_keys.py", "tests/test_limits_keys.py"),
    ),
    (
        "edge ring: a press dropped one short of the ring's capacity",
        "hal/edges.py",
        "following = (head + 1) % _RING",
        "following = (head + 1) % (_RING - 1)",
        ("tests/test_limits_keys.py",),
    ),
    (
        "hall message: a number one past its range read (board, seq, times, moves)",
        "firmware/hall_decode.py",
        "not low <= value <= high",
        "not low <= value <= high + 1",
        ("tests/test_limits_hall.py",),
    ),
    (
        "hall message: a byo-yomi or Canadian count of 999 refused",
        "firmware/hall_decode.py",
        "and int(count) <= MAX_BYO",
        "and int(count) < MAX_BYO",
        ("tests/test_limits_hall.py",),
    ),
    (
        "hall message: a number of 10 digits refused",
        "firmware/flat_json.py",
        "if end - at == _MAX_DIGITS:",
        "if end - at == _MAX_DIGITS - 1:",
        ("tests/test_limits_core.py",),
    ),
    (
        "JSON: a document 17 deep read",
        "firmware/strict_json.py",
        "if len(stack) >= _DEPTH:",
        "if len(stack) > _DEPTH:",
        ("tests/test_limits_core.py",),
    ),
    (
        "hall file: a CA of 4,097 characters taken",
        "firmware/hall_settings.py",
        "if len(self.ca) > MAX_CA",
        "if len(self.ca) > MAX_CA + 1",
        ("tests/test_limits_core.py",),
    ),
    (
        "journal: a time of 2**30 ms restored",
        "firmware/boot/journal_read.py",
        "_check(0 <= value <= _MAX_MS,",
        "_check(0 <= value <= _MAX_MS + 1,",
        ("tests/test_limits_core.py",),
    ),
    (
        "journal: a byo-yomi count one past the control's restored",
        "firmware/boot/journal_read.py",
        "_check(byo_left <= control.byo_count,",
        "_check(byo_left <= control.byo_count + 1,",
        ("tests/test_limits_core.py",),
    ),
    (
        "journal: a game id whose next one does not fit 32 bits taken",
        "firmware/boot/journal_read.py",
        "not 0 <= game <= _MAX_GAME",
        "not 0 <= game <= _MAX_GAME + 1",
        ("tests/test_limits_core.py",),
    ),
    (
        "settings: a penalty of 600 s refused",
        "firmware/settings_file.py",
        "if value < 1 or value > _MAX_PENALTY_S:",
        "if value < 1 or value >= _MAX_PENALTY_S:",
        ("tests/test_limits_core.py", "tests/test_penalty_setting.py"),
    ),
    (
        "settings: a brightness of 1 refused",
        "firmware/settings_file.py",
        "if not 1 <= step <= BRIGHTNESS_STEPS:",
        "if not 1 < step <= BRIGHTNESS_STEPS:",
        ("tests/test_limits_core.py",),
    ),
    (
        "menu: the unlock's plus refused at exactly 5 s",
        "firmware/menu/screens.py",
        "if ticks_diff(now, self.unlock_from) <= UNLOCK_MS:",
        "if ticks_diff(now, self.unlock_from) < UNLOCK_MS:",
        ("tests/test_limits_core.py",),
    ),
    (
        "menu: a sixth period offered",
        "firmware/menu/control.py",
        "len(self.fields) // 3 < MAX_PERIODS:",
        "len(self.fields) // 3 <= MAX_PERIODS:",
        ("tests/test_limits_core.py",),
    ),
    (
        "boot codes: each shown a millisecond too long",
        "firmware/notices.py",
        "        elif ticks_diff(now, self.until) >= 0:",
        "        elif ticks_diff(now, self.until) > 0:",
        ("tests/test_limits_core.py",),
    ),
    (
        "control: 61 s of increment or delay taken",
        "firmware/control_parser.py",
        "    if value > MAX_BONUS_MS:",
        "    if value > MAX_BONUS_MS + 1000:",
        ("tests/test_limits.py", "tests/test_timecontrol.py"),
    ),
    (
        "mqtt: a stalled queue lost a millisecond late",
        "hal/mqtt.py",
        "ticks_diff(now, self.out_moved_at) >= STALL_MS:",
        "ticks_diff(now, self.out_moved_at) > STALL_MS:",
        ("tests/test_limits_mqtt.py",),
    ),
    (
        "mqtt: the ping after the broker's silence a millisecond late",
        "hal/mqtt.py",
        "ticks_diff(now, self.heard_at) >= PING_MS:",
        "ticks_diff(now, self.heard_at) > PING_MS:",
        ("tests/test_limits_mqtt.py",),
    ),
    (
        "mqtt: an unanswered request lost a millisecond late",
        "hal/mqtt.py",
        "if ticks_diff(now, self.asked_at) >= ANSWER_MS:",
        "if ticks_diff(now, self.asked_at) > ANSWER_MS:",
        ("tests/test_limits_mqtt.py",),
    ),
    (
        "hall link: the heartbeat a millisecond late",
        "hal/hall_link.py",
        "elif ticks_diff(now, self.beat_at) >= 0:",
        "elif ticks_diff(now, self.beat_at) > 0:",
        ("tests/test_limits_hall.py",),
    ),
    (
        "hall link: a retry a millisecond after its backoff",
        "hal/hall_link.py",
        "if self.retry_pending and ticks_diff(now, self.retry_at) < 0:",
        "if self.retry_pending and ticks_diff(now, self.retry_at) <= 0:",
        ("tests/test_limits_hall.py",),
    ),
    (
        "hall link: the backoff grows past 16 s",
        "hal/hall_link.py",
        "self.backoff_ms = min(self.backoff_ms * 2, MAX_BACKOFF_MS)",
        "self.backoff_ms = min(self.backoff_ms * 2, 2 * MAX_BACKOFF_MS)",
        ("tests/test_limits_hall.py",),
    ),
    (
        "ticker: a deadline on the grid's tick taken a tick late",
        "hal/ticker.py",
        "            ahead = (ahead + period - 1) // period * period\n",
        "            ahead = (ahead + period) // period * period\n",
        ("tests/test_resting.py",),
    ),
    (
        "watchdog: a timeout shorter than twice the longest rest taken",
        "hal/watchdog.py",
        "MIN_MS = const(2000)",
        "MIN_MS = const(1999)",
        ("tests/test_watchdog.py", "tests/test_boards.py"),
    ),
    (
        "display: a frame's one changed row written at the wrong RAM address",
        "hal/displays.py",
        "out[0] = row - 1",
        "out[0] = row",
        ("tests/test_sim_hardware.py",),
    ),
    (
        "journal: the Fletcher sums reduced modulo 256",
        "firmware/journal.py",
        "return (first % 255) << 8 | second % 255",
        "return (first % 256) << 8 | second % 256",
        ("tests/test_journal_extremes.py",),
    ),
    (
        "app: a light step taken over a change of the clock",
        "firmware/app.py",
        "        if self.drawn != self.clock.changes or self.hardware.inputs.pending():\n",
        "        if self.hardware.inputs.pending():\n",
        ("tests/test_resting.py",),
    ),
    (
        "capture: exactly the ring's depth of unread stamps taken as an overrun",
        "hal/capture.py",
        "        if unread > RING_WORDS:\n",
        "        if unread >= RING_WORDS:\n",
        ("tests/test_capture_dreq.py",),
    ),
    (
        "edge ring: the events taken in the order their handlers stored them",
        "hal/edges.py",
        "        if oldest != tail:\n",
        "        if False:\n",
        ("tests/test_inputs.py", "tests/test_stamp_order.py"),
    ),
    (
        "edge ring: a push that comes after its pin's own stamp stored as a second press",
        "hal/edges.py",
        "                if ticks_diff(tick, self.missed_tick[lever]) <= 0:\n",
        "                if ticks_diff(tick, self.missed_tick[lever]) < 0:\n",
        ("tests/test_capture_dreq.py",),
    ),
    (
        "engine: a press stamped before its turn began charged from the stamp",
        "firmware/engine.py",
        "        if ticks_diff(now, self.turn_start) < 0:\n",
        "        if False:\n",
        ("tests/test_engine.py",),
    ),
    (
        "app: a lever stamped at the very tick the ESP32's ring is ready starts the game",
        "firmware/app.py",
        "if self.preparing or (ready is not None and ticks_diff(tick, ready) <= 0):",
        "if self.preparing or (ready is not None and ticks_diff(tick, ready) < 0):",
        ("tests/test_ring_preparation.py",),
    ),
    (
        "ring: a Bronstein delay's running time left out of the ring's size",
        "hal/journal_setup.py",
        "if mode == _DELAY or mode == _BRONSTEIN:",
        "if mode == _DELAY:",
        ("tests/test_ring_preparation.py",),
    ),
    (
        "ring: the timed entries rounded down",
        "hal/journal_setup.py",
        "(running + ENTRY_EVERY_MS - 1) // ENTRY_EVERY_MS",
        "running // ENTRY_EVERY_MS",
        ("tests/test_ring_preparation.py",),
    ),
    (
        "Canadian: a block only begun in the first 60 moves left out of the game's time",
        "firmware/timing.py",
        "blocks = (game_moves + control.byo_count - 1) // control.byo_count",
        "blocks = game_moves // control.byo_count",
        ("tests/test_class_rank.py",),
    ),
    (
        "Japanese: a turn paused at a period's end leaves the period, empty, to correct",
        "firmware/timing.py",
        "        if over < 0:\n            self.block_ms = -over",
        "        if over <= 0:\n            self.block_ms = -over",
        (scripts("arbiter"),),
    ),
    (
        "periods: a flag in an earlier period with an increment freezes the clocks",
        "firmware/timing.py",
        "return last and self.mode != _NONE",
        "return self.mode != _NONE",
        (scripts("flags"),),
    ),
    (
        "hall page: a page that reads slowly but steadily ended at the writer's deadline",
        "hall/fan_out.py",
        "            stream.pending = stream.pending[sent:]\n            stream.took_at = now\n",
        "            stream.pending = stream.pending[sent:]\n",
        ("tests/test_hall_fan_out.py",),
    ),
    (
        "TLS: the broker certificate's name not checked at the handshake",
        "hal/tls_stream.py",
        "        context.verify_mode = ssl.CERT_REQUIRED\n",
        "        context.verify_mode = ssl.CERT_REQUIRED\n        context.check_hostname = False\n",
        ("tests/test_hall_tls_link.py",),
    ),
    (
        "hall file: a CA that is not a PEM certificate taken",
        "firmware/hall_settings.py",
        'if len(self.ca) > MAX_CA or (self.ca and "-----BEGIN CERTIFICATE-----" not in self.ca):',
        "if len(self.ca) > MAX_CA:",
        ("tests/test_limits_core.py",),
    ),
    (
        "hall message: a version of true read as 1",
        "firmware/hall_decode.py",
        "if version not in (1, VERSION) or isinstance(version, bool):",
        "if version not in (1, VERSION):",
        ("tests/test_limits_hall.py",),
    ),
    (
        "display: a failed one-row write of the mark waits for the next wake",
        "firmware/app.py",
        "if self.drawn != self.clock.changes:  # a write failed",
        "if False:  # a write failed",
        ("tests/test_display_restore.py",),
    ),
    (
        "display: a failed dimming waits for the next restore",
        "hal/displays.py",
        "self.valid = False  # the app draws a display that did not take its frame",
        "pass",
        ("tests/test_display_restore.py",),
    ),
    (
        "display: a chip that lost power left in standby",
        "hal/displays.py",
        "        command[0] = _OSCILLATOR_ON\n        bus.write(self.address, command)\n",
        "",
        ("tests/test_display_restore.py",),
    ),
    (
        "display: a chip that lost power restored a second after the last time",
        "hal/display_restore.py",
        "RESTORE_LATEST_MS = const(800)",
        "RESTORE_LATEST_MS = const(1000)",
        ("tests/test_display_restore.py",),
    ),
)


def copy_tree(target):
    """The tracked and the new files of the working tree into ``target``, with the
    shared environment linked."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in listed:
        name = name.decode()
        source = os.path.join(ROOT, name)
        if not name or not os.path.isfile(source) or os.path.islink(source):
            continue
        os.makedirs(os.path.dirname(os.path.join(target, name)), exist_ok=True)
        shutil.copy2(source, os.path.join(target, name))
    for linked in (".venv", "tools/mpy/node_modules"):
        if os.path.exists(os.path.join(ROOT, linked)):
            os.symlink(os.path.realpath(os.path.join(ROOT, linked)), os.path.join(target, linked))


def command(test, tree):
    """The command that runs ``test`` in ``tree``."""
    if isinstance(test, tuple):
        files = []
        for folder in test[1:]:
            base = os.path.join(tree, "tests", "scenarios", folder)
            files += sorted(os.path.join(base, name) for name in os.listdir(base))
        return [PYTHON, "-m", "sim", "run", *files]
    return [PYTHON, "-m", "pytest", test, "-q", "-x", "-p", "no:xdist", "-p", "no:cacheprovider"]


def passes(tests, tree):
    """True if every test of ``tests`` passes in ``tree``."""
    for test in tests:
        done = subprocess.run(command(test, tree), cwd=tree, capture_output=True, timeout=600)
        if done.returncode != 0:
            return False
    return True


def run(mutants, out=sys.stdout):
    """``{name: "caught" | "survived" | "gone"}`` for ``mutants``, printed as they go."""
    outcome = {}
    with tempfile.TemporaryDirectory(prefix="mutants-") as tree:
        copy_tree(tree)
        if not all(passes(tests, tree) for _, _, _, _, tests in mutants):
            raise SystemExit("the tests fail without any mutation: nothing to measure")
        for name, path, text, replacement, tests in mutants:
            target = os.path.join(tree, path)
            with open(target) as handle:
                original = handle.read()
            if original.count(text) != 1:
                outcome[name] = "gone"  # the code changed: the list must follow it
            else:
                with open(target, "w") as handle:
                    handle.write(original.replace(text, replacement))
                try:
                    outcome[name] = "survived" if passes(tests, tree) else "caught"
                finally:
                    with open(target, "w") as handle:
                        handle.write(original)
            print("%-9s %s" % (outcome[name], name), file=out, flush=True)
    return outcome


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tools.mutants", description=__doc__)
    parser.add_argument("--only", help="run only the mutation of this name")
    parser.add_argument(
        "--match",
        action="append",
        metavar="TEXT",
        help="run only the mutations whose name holds TEXT (repeat for several)",
    )
    parser.add_argument("--list", action="store_true", help="print the mutations and stop")
    args = parser.parse_args(argv)
    mutants = MUTANTS
    if args.only:
        mutants = tuple(m for m in MUTANTS if m[0] == args.only)
        if not mutants:
            parser.error("no mutation named %r (see --list)" % args.only)
    if args.match:
        mutants = tuple(m for m in mutants if any(text in m[0] for text in args.match))
        if not mutants:
            parser.error("no mutation's name holds %s (see --list)" % " or ".join(args.match))
    if args.list:
        for name, path, _, _, tests in mutants:
            print("%s (%s): %s" % (name, path, ", ".join(map(str, tests))))
        return 0
    began = time.monotonic()
    outcome = run(mutants)
    caught = sum(1 for value in outcome.values() if value == "caught")
    print("%d of %d mutations caught in %.0f s" % (caught, len(outcome), time.monotonic() - began))
    for name, value in outcome.items():
        if value != "caught":
            print("NOT CAUGHT (%s): %s" % (value, name))
    return 0 if caught == len(outcome) else 1


if __name__ == "__main__":
    sys.exit(main())
