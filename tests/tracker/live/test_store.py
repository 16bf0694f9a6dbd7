from rules_check.alert import Alert
from tracker.live.store import AlertStore


def _alert(n: int, code: str = "early_draw", seat: int | None = 2) -> Alert:
    return Alert(
        id=f"a{n}", code=code, seat=seat, rules="mleague", penalty="dead_hand", t=n, frame=n, message="m"
    )


def test_alerts_newest_first_with_filters_and_thumbs(tmp_path):
    store = AlertStore(tmp_path / "a.sqlite")
    store.add(_alert(1), table="1", thumb=b"\xff\xd8jpeg")
    store.add(_alert(2, "meld_orientation", 0), table="2")
    store.add(_alert(3, "time_limit", None), table="1")
    assert [r["id"] for r in store.list()] == ["a3", "a2", "a1"]
    assert [r["id"] for r in store.list(table="1")] == ["a3", "a1"]
    assert [r["id"] for r in store.list(seat=0)] == ["a2"]
    assert [r["id"] for r in store.list(code="early_draw")] == ["a1"]
    assert store.list()[2]["thumb"] == "/api/alerts/a1/thumb.jpg" and store.list()[1]["thumb"] is None
    assert store.thumb("a1") == b"\xff\xd8jpeg"
    assert store.list()[0]["alert"]["code"] == "time_limit"
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_acknowledgement_survives_reopening_with_who_and_when(tmp_path):
    path = tmp_path / "a.sqlite"
    store = AlertStore(path)
    store.add(_alert(1))
    store.add(_alert(2))
    record = store.set_status("a1", "acknowledged", "Ms Referee")
    assert record["status"] == "acknowledged" and record["status_by"] == "Ms Referee"
    assert store.set_status("nope", "dismissed", "x") is None
    store.close()

    again = AlertStore(path)
    by_id = {r["id"]: r for r in again.list()}
    assert by_id["a1"]["status"] == "acknowledged" and by_id["a1"]["status_at"] > 0
    assert by_id["a2"]["status"] == "new"
    assert [a["who"] for a in again.actions("a1")] == ["Ms Referee"]
    assert again.list(status="new")[0]["id"] == "a2"
    # the same id stored again (a replayed clip) keeps its acknowledgement
    again.add(_alert(1))
    assert {r["id"]: r for r in again.list()}["a1"]["status"] == "acknowledged"
    assert len(again.list()) == 2
