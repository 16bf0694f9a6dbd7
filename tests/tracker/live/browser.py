"""Headless Chromium for the browser tests and the docs screenshots: the system ``chromium`` and
``/usr/bin/chromedriver`` (Debian), driven by selenium; never downloads a browser."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

CHROMIUM = next((p for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser") if Path(p).exists()), None)
CHROMEDRIVER = (
    "/usr/bin/chromedriver" if Path("/usr/bin/chromedriver").exists() else shutil.which("chromedriver")
)
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    if CHROMIUM is None:
        return "no chromium here (Debian: apt-get install chromium chromium-driver)"
    if CHROMEDRIVER is None:
        return "no chromedriver here (Debian: apt-get install chromium-driver)"
    return None


def chrome(width: int = 1280, height: int = 900):
    """A fresh headless Chromium with its own profile directory (removed on ``quit``)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="mjmon-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    quit_ = driver.quit

    def quit_and_clean():
        try:
            quit_()
        finally:
            shutil.rmtree(profile, ignore_errors=True)

    driver.quit = quit_and_clean
    return driver


def docs_screenshots(out_dir: str = "docs/img", video_t: float = 47.0, speed: float = 3.0) -> list[str]:
    """``python -m tests.tracker.live.browser``: /overlay and /referee during the sample clip
    (its truth replayed at ``speed``), taken at ``video_t`` seconds of the clip."""
    import json
    import time
    import urllib.request

    from rules_check.ruleset import ruleset_by_name
    from tests.tracker.live.conftest import TRUTH, VIDEO, free_port
    from tracker.live.replay import TruthReplayAnalyzer
    from tracker.live.server import LiveConfig, LiveMonitor

    truth = json.loads(TRUTH.read_text(encoding="utf-8"))
    db = Path(tempfile.mkdtemp(prefix="mjmon-shots-")) / "alerts.sqlite"
    config = LiveConfig(
        source=str(VIDEO), db=str(db), port=free_port(), token="docs", speed=speed, session="demo"
    )
    monitor = LiveMonitor(config, lambda: TruthReplayAnalyzer(truth, ruleset_by_name("mleague")))
    monitor.start()
    base = f"http://127.0.0.1:{config.port}"
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    try:
        referee, overlay = chrome(1280, 900), chrome(900, 900)
        referee.get(base + "/referee")
        overlay.get(base + "/overlay?backdrop")

        def video_seconds() -> float:
            return json.loads(urllib.request.urlopen(base + "/api/state").read())["t"] or 0.0

        while video_seconds() < 12.0:  # the meld alert is on the page
            time.sleep(0.2)
        # acknowledge the first alert as a referee would, from the page
        referee.find_element("id", "who").send_keys("Referee Kim")
        referee.find_element("id", "token").send_keys("docs")
        referee.find_element("css selector", '.card[data-code="meld_orientation"] button.ack').click()
        while video_seconds() < video_t:
            time.sleep(0.1)
        time.sleep(0.3)
        paths = [str(out / "live-overlay.png"), str(out / "live-referee.png")]
        overlay.save_screenshot(paths[0])
        referee.save_screenshot(paths[1])
        overlay.quit()
        referee.quit()
        return paths
    finally:
        monitor.close()


if __name__ == "__main__":
    print("\n".join(docs_screenshots()))
