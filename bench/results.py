"""Where the bench's figures come from and go: one MicroPython measurement run read as
JSON, one key of bench/latest.json replaced while the others stay, and the command
every section of the bench has (``python -m bench.NAME [--write]``: ``command``)."""

import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LATEST = os.path.join(ROOT, "bench", "latest.json")


def micropython_json(tree, module, *arguments):
    """Run ``module`` of the project in ``tree`` inside MicroPython (its .mpy build
    made already), given ``arguments``, and return the JSON object its last line prints."""
    done = subprocess.run(
        ["node", os.path.join(tree, "tools", "mpy", "run.mjs"), "--compiled", module, *arguments],
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def command(key, figures, rows, argv, value_width=12):
    """A section's command line: its figures printed against their goals (``rows``
    gives the table's rows) and, with ``--write`` in ``argv``, stored under ``key`` of
    bench/latest.json alone (``key`` None: ``figures`` holds several keys, each stored).
    Returns the exit status, 0."""
    from bench import goals

    goals.print_table(rows(figures), value_width)
    if "--write" in argv:
        for name, value in ({key: figures} if key is not None else figures).items():
            update(name, value)
            print("written to bench/latest.json (%s)" % name)
    return 0


def update(key, figures, path=LATEST):
    """Put ``figures`` under ``key`` of the JSON file at ``path``, keeping the rest."""
    data = {}
    if os.path.exists(path):
        with open(path) as handle:
            data = json.load(handle)
    data[key] = figures
    with open(path, "w") as handle:
        json.dump(data, handle, indent=2, sort_keys=True)
        handle.write("\n")
