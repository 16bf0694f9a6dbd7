"""The pages in real headless Chromium (Debian's chromium + chromedriver, driven by selenium)."""

import json

import cv2
import numpy as np
import pytest

from tests.conftest import REPO
from tests.tracker.live import browser
from tests.tracker.live.conftest import VIDEO, http, wait_for

pytestmark = pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))


@pytest.fixture
def driver():
    d = browser.chrome(1000, 1000)
    yield d
    d.quit()


def _overlay_dom(driver) -> dict:
    return driver.execute_script(
        """
        const seats = {};
        for (const layer of document.querySelectorAll('.seat-layer')) {
          const s = layer.dataset.seat;
          seats[s] = {
            river: [...layer.querySelectorAll('.river .tile')].map(t =>
              [t.dataset.code, t.dataset.sideways === '1', t.dataset.called === '1']),
            melds: [...layer.querySelectorAll('.meld')].map(m =>
              [...m.querySelectorAll('.tile')].map(t => [t.dataset.code, t.dataset.sideways === '1'])),
            riichi: Boolean(layer.querySelector('.riichi')),
            score: layer.querySelector('.score').textContent,
          };
        }
        return {seats, dora: [...document.querySelectorAll('#dora .tile')].map(t => t.dataset.code),
                wall: document.getElementById('wall').textContent};
        """
    )


def _face_match(shot: np.ndarray, rect: dict, code: str) -> float:
    """Correlation of the screenshot inside a tile's <img> with the tile's face PNG."""
    x, y, w, h = (int(round(rect[k])) for k in ("x", "y", "width", "height"))
    crop = cv2.cvtColor(shot[y : y + h, x : x + w], cv2.COLOR_BGR2GRAY).astype(np.float32)
    face = cv2.imread(str(REPO / "datasets" / "art" / "default" / f"{code}.png"), cv2.IMREAD_UNCHANGED)
    alpha = face[:, :, 3:4].astype(np.float32) / 255.0 if face.shape[2] == 4 else 1.0
    flat = face[:, :, :3].astype(np.float32) * alpha + 255.0 * (1 - alpha)
    face = cv2.resize(
        cv2.cvtColor(flat.astype(np.uint8), cv2.COLOR_BGR2GRAY), (w, h), interpolation=cv2.INTER_AREA
    )
    a, b = crop - crop.mean(), face.astype(np.float32) - face.mean()
    return float((a * b).sum() / (np.sqrt((a * a).sum() * (b * b).sum()) + 1e-9))


def test_the_overlay_shows_the_tiles_of_the_state(monitor_factory, driver, tmp_path):
    monitor = monitor_factory(paced=False)
    wait_for(lambda: monitor.pipeline.done.is_set(), timeout=120)
    snapshot = http("GET", monitor.base + "/api/state")[1]
    state = snapshot["state"]
    driver.get(monitor.base + "/overlay")
    wait_for(
        lambda: driver.execute_script("return document.getElementById('board').dataset.ready") == "1", 20
    )
    dom = _overlay_dom(driver)

    assert dom["dora"] == state["dora_indicators"]
    assert dom["wall"] == str(state["live_wall"])
    for s, seat in enumerate(state["seats"]):
        shown = dom["seats"][str(s)]
        assert shown["river"] == [[r["code"], r["sideways"], r["called_away"]] for r in seat["river"]]
        assert shown["melds"] == [
            [[c, m["sideways"] == i] for i, c in enumerate(m["tiles"])] for m in seat["melds"]
        ]
        assert shown["riichi"] == seat["riichi"]
        assert shown["score"] == f"{state['scores'][s]:,}"
    # the sample kyoku has a riichi (sideways tile), called tiles and melds: the check is not empty
    flat = [t for seat in dom["seats"].values() for t in seat["river"]]
    assert any(t[1] for t in flat) and any(t[2] for t in flat)
    assert sum(len(seat["melds"]) for seat in dom["seats"].values()) == 3

    # the screenshot shows the faces: each of seat 0's upright river tiles looks like its own
    # face more than like the face of the tile next to it
    loaded = "return [...document.images].every(i => i.complete && i.naturalWidth > 0)"
    wait_for(lambda: driver.execute_script(loaded), 20)
    path = tmp_path / "overlay.png"
    driver.save_screenshot(str(path))
    shot = cv2.imread(str(path))
    upright = '.seat-layer[data-seat="0"] .river .tile:not(.sideways):not(.called) img'
    rects = driver.execute_script(
        """return [...document.querySelectorAll(arguments[0])].map(i => {
             const r = i.getBoundingClientRect();
             return {code: i.alt, x: r.x, y: r.y, width: r.width, height: r.height}; });""",
        upright,
    )
    dpr = driver.execute_script("return window.devicePixelRatio")
    assert len(rects) >= 6
    for rect, other in zip(rects, rects[1:] + rects[:1]):
        rect = {k: (v * dpr if k != "code" else v) for k, v in rect.items()}
        own = _face_match(shot, rect, rect["code"])
        assert own > 0.6, (rect["code"], own)
        if other["code"] != rect["code"]:
            assert own > _face_match(shot, rect, other["code"]) + 0.1, (rect["code"], other["code"])


def test_a_new_alert_appears_on_the_referee_page_and_its_acknowledgement_persists(monitor_factory, driver):
    from selenium.webdriver.common.by import By

    monitor = monitor_factory(speed=10.0, start_pipeline=False)
    driver.get(monitor.base + "/referee")
    wait_for(lambda: "live" in driver.find_element(By.ID, "link").text, 20)
    assert driver.find_elements(By.CSS_SELECTOR, ".card") == []
    monitor.pipeline.start()

    card = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, '.card[data-code="meld_orientation"]'), 30)[
        0
    ]
    assert "fresh" in card.get_attribute("class")
    banner = driver.find_element(By.ID, "banner")
    assert banner.is_displayed() and "meld orientation" in banner.text.lower()
    assert "seat 0" in card.text and "warning" in card.text
    assert card.find_element(By.CSS_SELECTOR, "img.thumb").get_attribute("naturalWidth") != "0"

    # without the token the page says so and nothing changes
    card.find_element(By.CSS_SELECTOR, "button.ack").click()
    wait_for(lambda: "token" in driver.find_element(By.ID, "error").text, 10)
    alert_id = card.get_attribute("data-id")
    assert {r["id"]: r for r in http("GET", monitor.base + "/api/alerts")[1]["alerts"]}[alert_id][
        "status"
    ] == "new"

    driver.find_element(By.ID, "who").send_keys("Referee Kim")
    driver.find_element(By.ID, "token").send_keys("test-token")
    driver.find_element(By.CSS_SELECTOR, f'.card[data-id="{alert_id}"] button.ack').click()
    wait_for(lambda: _card_status(driver, alert_id) == "acknowledged", 10)
    stored = {r["id"]: r for r in http("GET", monitor.base + "/api/alerts")[1]["alerts"]}[alert_id]
    assert stored["status"] == "acknowledged" and stored["status_by"] == "Referee Kim"

    # a fresh page load (and a restarted server on the same store) still shows it acknowledged
    monitor.close()
    again = monitor_factory(db=monitor.config.db, start_pipeline=False)
    driver.get(again.base + "/referee")
    card = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, f'.card[data-id="{alert_id}"]'), 20)[0]
    assert card.get_attribute("data-status") == "acknowledged"
    assert "acknowledged by Referee Kim" in card.text
    assert not card.find_element(By.CSS_SELECTOR, "button.ack").is_enabled()


def _card_status(driver, alert_id: str) -> str | None:
    """Read in one script call: the feed may re-render between two WebDriver calls."""
    return driver.execute_script(
        "const c = document.querySelector(`.card[data-id='${arguments[0]}']`);"
        " return c ? c.dataset.status : null;",
        alert_id,
    )


def test_the_referee_filters_by_seat_and_code(monitor_factory, driver):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    monitor = monitor_factory(paced=False)
    wait_for(lambda: monitor.pipeline.done.is_set(), timeout=120)
    stored = http("GET", monitor.base + "/api/alerts")[1]["alerts"]
    assert len(stored) >= 2  # the demo's two staged faults: seats 0 and 2, two codes
    driver.get(monitor.base + "/referee")

    def shown():
        return driver.execute_script("return [...document.querySelectorAll('.card')].map(c => c.dataset.id)")

    wait_for(lambda: len(shown()) == len(stored), 20)
    Select(driver.find_element(By.ID, "f-seat")).select_by_value("0")
    seat0 = {r["id"] for r in stored if r["alert"]["seat"] == 0}
    wait_for(lambda: set(shown()) == seat0 != set(), 10)
    Select(driver.find_element(By.ID, "f-seat")).select_by_value("")
    driver.find_element(By.ID, "f-code").send_keys("early")
    early = {r["id"] for r in stored if "early" in r["alert"]["code"]}
    wait_for(lambda: set(shown()) == early != set(), 10)
    driver.find_element(By.ID, "f-table").send_keys("9")
    wait_for(lambda: shown() == [], 10)
    assert "No alerts match" in driver.find_element(By.ID, "feed").text


class _Camera:
    """A camera that gives the sample clip's first 60 frames, then drops and stays down."""

    opened = 0

    def __init__(self, target):
        _Camera.opened += 1
        self.cap = cv2.VideoCapture(str(VIDEO)) if _Camera.opened == 1 else None
        self.left = 60

    def isOpened(self):
        return self.cap is not None

    def read(self):
        if self.cap is None or self.left == 0:
            return False, None
        self.left -= 1
        return self.cap.read()

    def get(self, prop):
        return 30.0

    def release(self):
        if self.cap is not None:
            self.cap.release()


def test_the_overlay_keeps_the_table_and_says_so_while_the_camera_reconnects(tmp_path, driver):
    from rules_check.ruleset import ruleset_by_name
    from tests.tracker.live.conftest import TRUTH, free_port
    from tracker.live.replay import TruthReplayAnalyzer
    from tracker.live.server import LiveConfig, LiveMonitor

    truth = json.loads(TRUTH.read_text(encoding="utf-8"))
    config = LiveConfig(source="rtsp://127.0.0.1:9/cam", db=str(tmp_path / "a.sqlite"), port=free_port())
    monitor = LiveMonitor(config, lambda: TruthReplayAnalyzer(truth, ruleset_by_name("mleague")))
    _Camera.opened = 0
    monitor.source.opener = _Camera
    monitor.source.backoff = (2.0, 2.0)
    monitor.start()
    try:
        driver.get(f"http://127.0.0.1:{config.port}/overlay")
        wait_for(lambda: _Camera.opened >= 2, 30)
        note = wait_for(
            lambda: driver.execute_script(
                "const n = document.getElementById('source'); return !n.hidden && n.textContent"
            ),
            20,
        )
        assert "reconnecting" in note
        # the deal seen before the drop is still drawn: 4 seats, the dora indicator, the wall count
        assert driver.execute_script("return document.getElementById('board').dataset.ready") == "1"
        assert driver.execute_script("return document.querySelectorAll('#dora .tile').length") == 1
        assert driver.execute_script("return document.querySelectorAll('.seat-layer .plate').length") == 4
    finally:
        monitor.close()
