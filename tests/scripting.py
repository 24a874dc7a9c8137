"""Helpers for tests: run clock scripts in-process or through either lane, and the
scenario scripts run in batches (one interpreter start a lane for a shard of them)."""

import glob
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYTHON = sys.executable


def run_cli(files, mpy=False, compiled=True):
    """Run ``python -m sim run [--mpy [--compiled]] FILES``; return (status, stdout, stderr).
    Inside MicroPython the firmware is loaded as the ``.mpy`` files of ``make mpy``, as
    a board loads it (``compiled_firmware``), unless ``compiled`` is False: then
    MicroPython compiles the sources (again at each boot: a boot imports them anew)."""
    compiled = mpy and compiled
    if compiled:
        compiled_firmware()
    lane = (["--mpy"] if mpy else []) + (["--compiled"] if compiled else [])
    command = [PYTHON, "-m", "sim", "run"] + lane + list(files)
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=900)
    return done.returncode, done.stdout, done.stderr


def run_on_both_lanes(tmp_path, scripts, compiled=True):
    """Write ``scripts`` ((file name, text or bytes), ...) under ``tmp_path`` and run
    them all on CPython and inside MicroPython; assert that both lanes end with the
    same status and print the same lines, with nothing on stderr and no traceback.
    Return (status, printed lines)."""
    files = []
    for name, content in scripts:
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
        files.append(str(path))
    status_py, out_py, err_py = run_cli(files)
    status_mpy, out_mpy, err_mpy = run_cli(files, mpy=True, compiled=compiled)
    assert status_py == status_mpy
    assert out_mpy.splitlines() == out_py.splitlines()
    assert "Traceback" not in out_py + out_mpy
    assert err_py == err_mpy == ""
    return status_py, out_py.splitlines()


def scenario_names():
    """Every clock script the suite plays, relative to the repository: the topic
    folders of tests/scenarios, then the manuals' picture scripts of docs/pictures."""
    found = glob.glob(os.path.join(ROOT, "tests", "scenarios", "**", "*.clock"), recursive=True)
    pictures = glob.glob(os.path.join(ROOT, "docs", "pictures", "*.clock"))
    return [os.path.relpath(path, ROOT) for path in sorted(found) + sorted(pictures)]


def expected_exit(name):
    """The exit status a script must end with: N for ``# expect-exit: N`` on its first
    line (a malformed script, say), else 0."""
    with open(os.path.join(ROOT, name)) as handle:
        first = handle.readline().strip()
    if first.startswith("# expect-exit:"):
        return int(first.split(":", 1)[1])
    return 0


SHARDS = 12  # batches of scenario scripts, each one interpreter start a lane
# What a script costs inside MicroPython, roughly: about 10 ms a statement and
# 0.35 ms a second of virtual time (a six-hour game: 8 s; a short script: 0.3 s).
_MS_PER_STATEMENT = 10
_VIRTUAL_S_PER_MS = 3
_SHARDS_OF = {}


def script_cost(name):
    """The estimated milliseconds ``name`` takes inside MicroPython (``_MS_PER_...``)."""
    statements = 0
    last_s = 0
    with open(os.path.join(ROOT, name)) as handle:
        for line in handle:
            words = line.split("#", 1)[0].split()
            if len(words) >= 2 and words[0] == "at":
                statements += 1
                try:
                    last_s = max(last_s, float(words[1]))
                except ValueError:
                    pass  # a malformed script: refused at once
    return statements * _MS_PER_STATEMENT + int(last_s) // _VIRTUAL_S_PER_MS


def shard_of(name, names):
    """The batch ``name`` belongs to: the scripts dealt out, the costliest first, each
    to the batch with the least estimated time so far (``script_cost``), so that no
    batch holds up the others."""
    key = tuple(names)
    shards = _SHARDS_OF.get(key)
    if shards is None:
        totals = [0] * SHARDS
        shards = {}
        for cost, script in sorted(((script_cost(n), n) for n in names), reverse=True):
            least = totals.index(min(totals))
            shards[script] = "scenarios-%d" % least
            totals[least] += cost
        _SHARDS_OF[key] = shards
    return shards[name]


_SHARED = {"folder": None, "values": {}}  # tests/conftest.py names the run's folder


def share_between_workers(folder):
    """Keep what ``once_per_run`` computes in ``folder``, which every test worker of this
    run sees (conftest.py: the run's temporary folder, new each run)."""
    _SHARED["folder"] = folder


def once_per_run(key, compute):
    """``compute()`` (a value JSON keeps: lists, strings, numbers) once per test run,
    whichever of the test workers asks first, under a lock; the others, and later tests
    in this process, read its value. For the runs several tests check, each its own
    way (a MicroPython process of seconds, say): every test still asserts on the run,
    and a ``compute`` that fails stores nothing, so each test that asks fails alike."""
    values = _SHARED["values"]
    if key in values:
        return values[key]
    folder = _SHARED["folder"]
    if folder is None:
        value = compute()
    else:
        import fcntl
        import hashlib
        import json

        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, hashlib.sha256(key.encode()).hexdigest()[:32])
        with open(path + ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if os.path.exists(path):
                with open(path) as handle:
                    value = json.load(handle)
            else:
                value = compute()
                with open(path + ".new", "w") as handle:
                    json.dump(value, handle)
                os.replace(path + ".new", path)
    values[key] = value
    return value


def run_once(command, timeout=900):
    """``subprocess.run(command)`` in the repository, once per test run (``once_per_run``):
    [status, stdout, stderr]."""

    def run():
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
        return [done.returncode, done.stdout, done.stderr]

    return once_per_run("run " + "\0".join(command), run)


_compiled = []  # True once this process brought build/mpy up to date


def compiled_firmware():
    """Bring build/mpy up to date (``make mpy``) once in this process, under a lock:
    the test workers share the tree, and one of them may be compiling."""
    if _compiled:
        return
    import fcntl

    os.makedirs(os.path.join(ROOT, "build"), exist_ok=True)
    with open(os.path.join(ROOT, "build", ".mpy.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        subprocess.run(["make", "-s", "mpy"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    _compiled.append(True)


_OBSERVED = -1  # the line number of a statement the reference adds: a silent ``show``


def observing_player():
    """A ``sim.runner.ReportingPlayer`` that reads the state line before each statement,
    at its instant, as a ``show`` statement there would (``Game.state_line``: a pass
    of the main loop unless one ran at that instant, then the reading), printing
    nothing for it: a script so played prints what it prints unwatched, or looking
    changed the game."""
    from sim.runner import ReportingPlayer

    class ObservingPlayer(ReportingPlayer):
        def play(self, statements):
            watched = []
            for statement in statements:
                watched.append((_OBSERVED, statement[1], "show", []))
                watched.append(statement)
            return ReportingPlayer.play(self, watched)

        def show(self, number):
            if number == _OBSERVED:
                self.game.state_line()
            else:
                ReportingPlayer.show(self, number)

    return ObservingPlayer


MICROPYTHON_STRIDE = 12  # make test plays one script in 12 of each folder inside MicroPython


def micropython_sample(names, every=False):
    """The scripts of ``names`` that ``make test`` plays inside MicroPython too: in each
    folder, in order of their estimated cost (``script_cost``, then name), the first and
    every ``MICROPYTHON_STRIDE``-th after it, so that every topic runs on both lanes and
    the sample takes about one ``MICROPYTHON_STRIDE``-th of the time; all of them with
    ``every`` (``make scenarios``, which CI runs after ``make test``: the environment's
    ``SCENARIOS_MPY=all``)."""
    if every:
        return list(names)
    folders = {}
    for _, name in sorted((script_cost(name), name) for name in names):
        folders.setdefault(os.path.dirname(name), []).append(name)
    chosen = set()
    for members in folders.values():
        chosen.update(members[::MICROPYTHON_STRIDE])
    return [name for name in names if name in chosen]


class ScenarioRuns:
    """Every scenario script played once a lane, a shard at a time: the first test that
    asks for a script runs its whole shard in one go (in-process on CPython, one
    MicroPython process for the shard's scripts of ``micro_names``), and the tests then
    check their own script's lines."""

    def __init__(self, names, micro_names=None):
        self.names = list(names)
        self.micro_names = set(self.names if micro_names is None else micro_names)
        self.python = {}  # name -> (status, lines)
        self.micro = {}  # name -> lines, or None when the lane printed no end for it
        self.micro_runs = {}  # shard -> (status, stderr)

    def shard(self, name):
        label = shard_of(name, self.names)
        return label, [other for other in self.names if shard_of(other, self.names) == label]

    def cpython(self, name):
        """(status, printed lines) of ``name`` on CPython. A script the MicroPython lane
        plays too (``micro_names``) runs with a step at every tick, as ``python -m sim
        run --every-tick`` prints: the reference that lane, which passes over the ticks
        the clock rests at, is compared with. Any other rests as the board does (its
        expectations hold there); ``make scenarios`` plays every script on both lanes,
        so every one is compared there. The state line is also read before every
        statement, as a ``show`` there would, and not printed (``observing_player``):
        looking must change nothing the lines say."""
        if name not in self.python:
            from sim.runner import run_files

            player = observing_player()
            for other in self.shard(name)[1]:
                lines = []
                path = os.path.join(ROOT, other)
                rests = other not in self.micro_names  # the reference: only where compared
                status = run_files([path], lines.append, rests=rests, player_class=player)
                prefix = os.path.join(ROOT, "")
                self.python[other] = (status, [line.replace(prefix, "") for line in lines])
        return self.python[name]

    def micropython(self, name):
        """(printed lines or None, the shard's status and stderr) of ``name`` inside
        MicroPython, its shard's playable scripts run in one process with the
        firmware loaded as .mpy (``compiled_firmware``)."""
        label, members = self.shard(name)
        if label not in self.micro_runs:
            playable = [
                other
                for other in members
                if expected_exit(other) == 0 and other in self.micro_names
            ]
            status, out, err = 0, "", ""
            if playable:  # loaded as .mpy, as on a board (boot imports modules again)
                compiled_firmware()
                status, out, err = run_cli(playable, mpy=True, compiled=True)
            self.micro_runs[label] = (status, err)
            rest = out.splitlines()
            for other in playable:
                ends = [i for i, line in enumerate(rest) if line.startswith(other + ": end: ")]
                if not ends:
                    self.micro[other] = None
                    continue
                self.micro[other] = rest[: ends[0] + 1]
                rest = rest[ends[0] + 1 :]
        return self.micro.get(name), self.micro_runs[label]


def run_text(text, name="inline.clock"):
    """Run script text in-process; return (status, printed lines)."""
    from sim.runner import run_script

    lines = []
    status = run_script(name, text, lines.append)
    return status, lines


def fields(state_line):
    """A state line as a dict (the display value keeps its quotes off)."""
    result = {}
    rest = state_line
    while rest:
        rest = rest.strip()
        if not rest:
            break
        name, _, rest = rest.partition("=")
        if rest.startswith('"'):
            value, _, rest = rest[1:].partition('"')
        else:
            value, _, rest = rest.partition(" ")
        result[name] = value
    return result


def edge_inputs_on(pin_numbers):
    """A fresh simulated board in virtual time, with ``hal.edges.EdgeRing`` on
    pull-up pins ``pin_numbers`` (contacts close to ground), interrupts enabled."""
    from sim import machine as sim_machine
    from sim import vclock

    sys.modules["machine"] = sim_machine
    sim_machine.reset()
    vclock.reset()
    vclock.install()
    from hal.edges import EdgeRing

    pins = [sim_machine.Pin(n, sim_machine.Pin.IN, sim_machine.Pin.PULL_UP) for n in pin_numbers]
    inputs = EdgeRing(pins, [0] * len(pins))
    inputs.enable(sim_machine.Pin)
    return inputs
