"""Headless chromium driven through its DevTools protocol on a pipe, at an exact viewport.

``--window-size`` is not the page's viewport in headless chromium (a window of
1920 x 1080 gave the page 1920 x 937, and none is narrower than 500 px), so a
phone's 390 x 844 and a wall's 1920 x 1080 are set with
``Emulation.setDeviceMetricsOverride``. ``Browser(chromium)`` starts one
browser; ``browser.page(url, (width, height))`` opens a page in it, whose
``evaluate`` runs an expression, ``wait_for`` waits until one is true and
``screenshot`` writes a PNG of the viewport. The browser's messages are JSON,
each ended by a zero byte, on its file descriptors 3 (in) and 4 (out)
(``--remote-debugging-pipe``).
"""

import base64
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import time


class Browser:
    """One headless chromium; a context manager that stops it."""

    def __init__(self, chromium, timeout_s=30):
        self.timeout_s = timeout_s
        self.profile = tempfile.mkdtemp(prefix="hall-chromium-")
        to_browser, self.writer = os.pipe()
        self.reader, from_browser = os.pipe()
        # The browser reads fd 3 and writes fd 4: bash puts the pipes there (no
        # preexec_fn, which is not safe beside the threads of a test's servers; dash
        # takes no fd above 9); the pipes are first moved above 9, so that putting one
        # at 3 cannot close the other.
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (to_browser, from_browser)]
        for fd in (to_browser, from_browser):
            os.close(fd)
        command = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]
        command += ["--no-first-run", "--remote-debugging-pipe", "--user-data-dir=" + self.profile]
        self.process = subprocess.Popen(
            ["/bin/bash", "-c", 'exec "$@" 3<&%d 4>&%d %d<&- %d>&-' % tuple(high * 2), "bash"]
            + command
            + ["about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=high,
        )
        for fd in high:
            os.close(fd)
        self.buffer = b""
        self.next_id = 0

    def call(self, method, session=None, **params):
        """Send one command and return its result (DevTools' events are skipped)."""
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session is not None:
            message["sessionId"] = session
        os.write(self.writer, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout_s
        while True:
            while b"\0" not in self.buffer:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError("chromium did not answer %s" % method)
                chunk = os.read(self.reader, 1 << 16)
                if not chunk:
                    raise RuntimeError("chromium closed its pipe during %s" % method)
                self.buffer += chunk
            text, _, self.buffer = self.buffer.partition(b"\0")
            answer = json.loads(text)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError("%s: %s" % (method, answer["error"]))
                return answer["result"]

    def page(self, url, viewport):
        """A new page showing ``url`` at the viewport ``(width, height)``."""
        return Page(self, url, viewport)

    def close(self):
        for fd in (self.writer, self.reader):
            try:
                os.close(fd)
            except OSError:
                pass
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Page:
    """One page (a tab) of a ``Browser``; a context manager that closes the tab, and
    the browser too when the page started it (``own``)."""

    def __init__(self, browser, url, viewport, own=False):
        self.browser = browser
        self.own = own
        self.target = None
        self.session = None
        try:
            self.target = browser.call("Target.createTarget", url="about:blank")["targetId"]
            attached = browser.call("Target.attachToTarget", targetId=self.target, flatten=True)
            self.session = attached["sessionId"]
            width, height = viewport
            self.call(
                "Emulation.setDeviceMetricsOverride",
                width=width,
                height=height,
                deviceScaleFactor=1,
                mobile=width < 600,
            )
            self.call("Page.navigate", url=url)
            self.wait_for("document.readyState === 'complete'")
        except BaseException:
            self.close()
            raise

    def call(self, method, **params):
        return self.browser.call(method, self.session, **params)

    def evaluate(self, expression):
        """The value of the JavaScript ``expression`` in the page (JSON's kinds)."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError("%s: %s" % (expression, result["exceptionDetails"]))
        return result["result"].get("value")

    def wait_for(self, expression, timeout_s=None):
        """Wait until ``expression`` is true in the page; RuntimeError after the timeout."""
        deadline = time.monotonic() + (timeout_s or self.browser.timeout_s)
        while not self.evaluate(expression):
            if time.monotonic() > deadline:
                raise RuntimeError("the page never got to %s" % expression)
            time.sleep(0.05)

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as handle:
            handle.write(base64.b64decode(data))
        return path

    def close(self):
        try:
            if self.target is not None and self.browser.process.poll() is None:
                self.browser.call("Target.closeTarget", targetId=self.target)
        except (OSError, RuntimeError):
            pass  # the browser is gone: nothing left to close
        finally:
            if self.own:
                self.browser.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
