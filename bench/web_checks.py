"""The web page's accessibility and installability checks and the README's screenshots,
for bench/web.py: the page's own checks (every control named, the live region, the
smallest touch target), axe-core's rules (tools/axe), the manifest, chromium's own
installability verdict, the service worker and an offline reload."""

import os
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PICTURES = (
    ("docs/pictures/web-phone.png", (390, 844)),
    ("docs/pictures/web-phone-landscape.png", (844, 390)),
    ("docs/pictures/web-screen.png", (1920, 1080)),
)


CHECKS = """
(() => {
  const named = (e) => e.getAttribute('aria-label') || e.textContent.trim()
    || (e.id && document.querySelector('label[for=' + e.id + ']'));
  const controls = [...document.querySelectorAll('button, input, svg[role=img]')];
  let smallest = Infinity;
  for (const id of ['lever_left', 'lever_right', 'play', 'set', 'plus', 'minus', 'power']) {
    const box = document.getElementById(id).getBoundingClientRect();
    smallest = Math.min(smallest, box.width, box.height);
  }
  return {
    unnamed: controls.filter((e) => !named(e)).length,
    live_polite: document.getElementById('times').getAttribute('aria-live') === 'polite',
    lang: document.documentElement.lang,
    smallest_target_px: Math.floor(smallest),
  };
})()
"""


def checks(browser, server):
    """The page's accessibility and installability checks (see the module's text)."""
    from bench import web
    from web import harness as web_helpers

    page = web._open(browser, server.url + "index.html")
    found = page.evaluate(CHECKS)
    page.evaluate("document.querySelector('#practice details').open = true")
    violations = web_helpers.axe_violations(page)
    found["axe_violations"] = "not installed (make setup)" if violations is None else violations
    manifest = web_helpers.evaluate_awaited(
        page, "fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())"
    )
    icons = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    found["manifest_installable"] = bool(
        manifest.get("name")
        and manifest.get("start_url")
        and manifest.get("display") in ("standalone", "fullscreen", "minimal-ui")
        and {"192x192", "512x512"} <= icons
    )
    web_helpers.evaluate_awaited(page, "navigator.serviceWorker.ready.then(() => 1)")
    errors = page.call("Page.getInstallabilityErrors")["installabilityErrors"]
    found["chromium_installability_errors"] = [error["errorId"] for error in errors]
    web_helpers.reload(page, 120)
    found["service_worker_in_control"] = page.evaluate(
        "navigator.serviceWorker.controller !== null"
    )
    page.call("Network.enable")
    offline = {"latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    page.call("Network.emulateNetworkConditions", offline=True, **offline)
    web_helpers.reload(page, 120)
    found["opens_offline"] = page.evaluate("!!window.clockPage && !document.body.dataset.error")
    page.call("Network.emulateNetworkConditions", offline=False, **offline)
    page.close()
    return found


def pictures(browser, server):
    """The README's screenshots: a game under way, on a phone both ways and a screen."""
    from bench import web

    for path, window in PICTURES:
        page = web._open(browser, server.url + "index.html", window)
        page.evaluate("localStorage.clear(); window.clockPage.start('300+3', null)")
        page.evaluate(web.PRESS % ("lever_right", 0))
        time.sleep(1.3)
        page.evaluate(web.PRESS % ("lever_left", 0))
        time.sleep(2.2)
        page.screenshot(os.path.join(ROOT, path))
        page.evaluate("localStorage.clear()")
        page.close()
        print("wrote %s" % path)
