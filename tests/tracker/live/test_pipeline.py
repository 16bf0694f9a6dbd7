"""The overlay's turn timer: whose turn, since when, from the events as a camera reports them."""

from tests.builders import start
from tracker import events as ev
from tracker.live.pipeline import next_turn


def _at(event, t):
    return event.model_copy(update={"t": t})


def test_the_turn_passes_at_the_discard_and_the_call_not_at_a_late_seen_draw():
    _, deal = start(oya=1)
    turn = next_turn(None, _at(deal, 1.0), 1.0)
    assert turn == {"seat": 1, "since": 1.0}
    # the camera confirms seat 1's draw only with its discard: the draw does not restart the clock
    turn = next_turn(turn, _at(ev.Tsumo(actor=1, pai="?"), 9.0), 9.0)
    assert turn == {"seat": 1, "since": 1.0}
    turn = next_turn(turn, _at(ev.Dahai(actor=1, pai="5p", tsumogiri=False), 9.0), 9.0)
    assert turn == {"seat": 2, "since": 9.0}
    turn = next_turn(turn, _at(ev.Pon(actor=0, target=1, pai="5p", consumed=["5p", "5p"]), 11.5), 11.5)
    assert turn == {"seat": 0, "since": 11.5}
    turn = next_turn(turn, _at(ev.Reach(actor=0), 13.0), 13.0)
    assert turn == {"seat": 0, "since": 11.5}
    turn = next_turn(turn, _at(ev.Dahai(actor=3, pai="E", tsumogiri=True), 20.0), 20.0)
    assert turn == {"seat": 0, "since": 20.0}  # seat 3 discards: seat 0 is next (wraps round)
    assert next_turn(turn, _at(ev.Ryukyoku(), 30.0), 30.0) is None


def test_an_alert_said_after_its_readings_settled_is_pictured_at_its_evidence_frame(tmp_path):
    import cv2
    import numpy as np

    from rules_check.alert import Alert, Evidence
    from tracker.analysis import FrameResult
    from tracker.live.pipeline import LivePipeline
    from tracker.live.source import Frame
    from tracker.live.store import AlertStore

    class Source:
        on_status = None

    store = AlertStore(tmp_path / "alerts.sqlite")
    pipeline = LivePipeline(Source(), lambda: None, store)
    then = np.full((120, 160, 3), (0, 0, 255), np.uint8)  # red at the call
    now = np.full((120, 160, 3), (255, 0, 0), np.uint8)  # blue 3 s later
    call = ev.Pon(actor=0, target=1, pai="5p", consumed=["5p", "5p"], frame=40)
    pipeline._handle(FrameResult(frame=40, t=1.3, events=[call]), Frame(40, 1.3, then, 0.0))
    alert = Alert(
        id="k01-a0001", code="meld_orientation", seat=0, rules="mleague", penalty="warning",
        frame=40, message="x", evidence=Evidence(box=[40, 30, 80, 60]),
    )  # fmt: skip
    pipeline._handle(FrameResult(frame=130, t=4.3, alerts=[alert]), Frame(130, 4.3, now, 0.0))
    (record,) = store.list()
    thumb = cv2.imdecode(np.frombuffer(store.thumb(record["id"]), np.uint8), cv2.IMREAD_COLOR)
    assert thumb[..., 2].mean() > 200 and thumb[..., 0].mean() < 50  # the call's frame, not now's
    store.close()


def test_alerts_still_settling_when_the_stream_is_stopped_are_stored(tmp_path):
    import numpy as np

    from rules_check.alert import Alert
    from tracker.analysis import FrameResult
    from tracker.live.pipeline import LivePipeline
    from tracker.live.source import Frame
    from tracker.live.store import AlertStore

    held = Alert(
        id="k01-a0001", code="kuikae", seat=1, rules="mleague", penalty="dead_hand", frame=3, message="x"
    )

    class Source:
        on_status = None

        def frames(self, stop):
            for i in range(5):
                yield Frame(i, i / 30, np.zeros((8, 8, 3), np.uint8), 0.0)
            stop.set()  # the operator stops the monitor

    class Analyzer:
        def process(self, image, frame, t):
            return FrameResult(frame=frame, t=t)

        def finish(self):
            raise AssertionError("a stopped stream is not finished")

        def release_alerts(self):
            return [held]

    store = AlertStore(tmp_path / "alerts.sqlite")
    pipeline = LivePipeline(Source(), Analyzer, store)
    pipeline.run()
    assert pipeline.error is None
    assert [r["alert"]["code"] for r in store.list()] == ["kuikae"]
    store.close()
