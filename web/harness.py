"""The web page driven from Python, for its tests and figures: the site built once
(``make web``), served on the loopback from a thread, clock scripts played in the
page by its address's fragment and beside them on the simulator."""

import fcntl
import functools
import http.server
import os
import subprocess
import threading
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SITE = os.path.join(ROOT, "build", "web")
# The page has drawn its first clock, played its script, or failed to start.
STARTED = (
    "!!document.body && (!!document.body.dataset.drawnMs"
    " || document.body.dataset.status !== undefined || !!document.body.dataset.error)"
)
_built = []
# The scripts make test plays in the page, of different kinds: an arbiter's claim, a
# power cut and its resume, a malformed script (exit 2), a menu's key presses.
SAMPLE = (
    "tests/scenarios/arbiter/g5-postpone.clock",
    "tests/scenarios/power/after-press.clock",
    "tests/scenarios/refused/older-edition-g4.clock",
    "tests/scenarios/menus/brightness.clock",
)


def built_site():
    """``make web`` once in this process, under a lock (the test workers share the tree)."""
    if not _built:
        os.makedirs(os.path.join(ROOT, "build"), exist_ok=True)
        with open(os.path.join(ROOT, "build", ".mpy.lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            subprocess.run(["make", "-s", "web"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        _built.append(True)
    return SITE


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *arguments):
        pass


class SiteServer:
    """build/web/ served on 127.0.0.1 at a free port, as ``python -m http.server`` does;
    ``served`` counts the bytes of each path sent; a context manager."""

    def __init__(self, folder=None):
        folder = folder or built_site()
        served = self.served = {}

        class Handler(_Quiet):
            def copyfile(self, source, target):
                data = source.read()
                served[self.path] = served.get(self.path, 0) + len(data)
                target.write(data)

        handler = functools.partial(Handler, directory=folder)
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = "http://127.0.0.1:%d/" % self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# A pointer press of the button %r made now, handled %d ms later (the page busy
# meanwhile: no frame can run), released at once; its event's timeStamp, floored.
_PRESS_LATE = """
(() => {
  const button = document.getElementById(%r);
  const down = new PointerEvent("pointerdown", {button: 0, pointerId: 7, bubbles: true});
  const stamp = Math.floor(down.timeStamp);
  const until = performance.now() + %d;
  while (performance.now() < until) {}
  button.dispatchEvent(down);
  button.dispatchEvent(new PointerEvent("pointerup", {button: 0, pointerId: 7, bubbles: true}));
  return stamp;
})()
"""


def open_page(browser, url, window, timeout_s=60):
    """The page at ``url`` in a new tab of ``window`` (width, height), once it has drawn
    its first clock, played its script or failed to start."""
    page = browser.page(url, window)
    page.wait_for(STARTED, timeout_s)
    return page


def reload(page, timeout_s=60):
    """The open page loaded again (from the network or its worker's copy) and started."""
    page.call("Page.reload")
    page.wait_for("document.readyState === 'complete' && !!document.body", timeout_s)
    page.wait_for(STARTED, timeout_s)


def press_late(page, button, late_ms):
    """Press the page's ``button`` (its element's id) now and let the page handle it
    ``late_ms`` later; the event's timeStamp, in whole ms."""
    return page.evaluate(_PRESS_LATE % (button, late_ms))


def wait_ms(page, ms):
    """Return once ``ms`` of the page's own time have passed."""
    page.wait_for("performance.now() > %d + %d" % (ms, page.evaluate("performance.now()")))


def evaluate_awaited(page, expression):
    """The value of ``expression`` in ``page`` once its promise settles (JSON's kinds)."""
    result = page.call(
        "Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True
    )
    if "exceptionDetails" in result:
        raise RuntimeError("%s: %s" % (expression, result["exceptionDetails"]))
    return result["result"].get("value")


def script_fragment(data):
    """``#script=`` and the script's bytes percent-encoded, every byte but letters and digits."""
    return "#script=" + urllib.parse.quote(data, safe="")


def play_in_page(page, data, timeout_s=120):
    """Play the clock script ``data`` (bytes) in the open page by its address's fragment;
    (exit status, printed lines, the #state text)."""
    page.evaluate("delete document.body.dataset.status; location.hash = %r" % script_fragment(data))
    page.wait_for("document.body.dataset.status !== undefined", timeout_s)
    status = int(page.evaluate("document.body.dataset.status"))
    output = page.evaluate("document.getElementById('output').textContent")
    state = page.evaluate("document.getElementById('state').textContent")
    return status, output.split("\n") if output else [], state


def simulator_lines(data):
    """(exit status, printed lines) of ``python -m sim run`` for the script ``data``, run in
    this process on CPython under the name the page gives it (``web.page_script``)."""
    from sim import runner
    from web.page_script import SCRIPT_NAME

    lines = []
    status = runner.run_script(SCRIPT_NAME, data, lines.append)
    return status, lines


def last_state(lines):
    """The simulator's last line, as the page writes it into #state: the state line
    after ``script: end: ``, or the whole line (an error, a failed expect)."""
    last = lines[-1] if lines else ""
    end = "script: end: "
    return last[len(end) :] if last.startswith(end) else last


AXE = os.path.join(ROOT, "tools", "axe", "node_modules", "axe-core", "axe.min.js")
AXE_RULES = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice")


def axe_violations(page):
    """axe-core's violations of WCAG 2.1 A and AA and its best practices in the open
    page, as "rule (impact): n elements" lines; None if axe-core is not installed
    (``make setup`` installs it in tools/axe)."""
    if not os.path.exists(AXE):
        return None
    with open(AXE) as handle:
        page.call("Runtime.evaluate", expression=handle.read())
    found = evaluate_awaited(
        page,
        "axe.run(document, {runOnly: {type: 'tag', values: %s}}).then(r => r.violations"
        ".map(v => v.id + ' (' + v.impact + '): ' + v.nodes.length + ' elements'))"
        % (list(AXE_RULES),),
    )
    return found
