import json

import pytest

from tests.conftest import SAMPLE_LOG, needs_shared_logs, shared_tenhou6_logs
from tracker.logs import LogError, load_log, read_log_text, read_mjai, write_mjai


def test_sample_log_reads_and_writes_back_byte_identical():
    text = SAMPLE_LOG.read_text()
    assert write_mjai(read_mjai(text)) == text


@pytest.mark.parametrize(
    "text, where",
    [
        ('{"type":"start_game"}\n{"type":"dahai"', "line 2: not JSON"),
        (
            '{"type":"start_game"}\n\n{"type":"dahai","actor":0,"pai":"1z","tsumogiri":true}',
            "line 3: dahai: pai",
        ),
        ("", "no events"),
    ],
)
def test_malformed_mjai_names_file_and_line(text, where):
    with pytest.raises(LogError) as err:
        read_mjai(text, "game.jsonl")
    assert str(err.value).startswith("game.jsonl: ") and where in str(err.value)


def test_missing_file_is_a_log_error(tmp_path):
    with pytest.raises(LogError, match="no such file"):
        load_log(tmp_path / "nope.json")


# --- an independent reader: riichienv replays our mjai through its own game engine ---------

riichienv = pytest.importorskip("riichienv", reason="riichienv is a test dependency")


def _replay_with_riichienv(events, tmp_path) -> tuple[int, int]:
    """(kyoku replayed, kyoku skipped for the M-League late-riichi rule riichienv lacks)."""
    path = tmp_path / "game.mjai.jsonl"
    path.write_text(write_mjai(events))
    late = _late_riichi_kyoku(events)
    replayed = skipped = 0
    for index, kyoku in enumerate(riichienv.MjaiReplay.from_jsonl(str(path)).take_kyokus()):
        if index in late:
            skipped += 1
            continue
        steps = sum(1 for _ in kyoku.steps())  # raises "Replay desync" on any illegal action
        assert steps > 0
        replayed += 1
    return replayed, skipped


def _late_riichi_kyoku(events) -> set[int]:
    """Kyoku with a riichi declared with fewer than 4 draws left (allowed by M-League rules,
    seeds/000 ch.3: 允许剩余摸牌次数为0的立直; riichienv implements the usual 4-tile limit)."""
    late, kyoku, draws = set(), -1, 0
    for e in events:
        if e.type == "start_kyoku":
            kyoku, draws, kans = kyoku + 1, 0, 0
        elif e.type == "tsumo":
            draws += 1
        elif e.type in ("daiminkan", "kakan", "ankan"):
            kans += 1
        elif e.type == "reach" and 70 - (draws - kans) - kans < 4:
            late.add(kyoku)
    return late


@needs_shared_logs
@pytest.mark.parametrize("path", shared_tenhou6_logs(), ids=lambda p: p.stem)
def test_riichienv_replays_converted_real_logs(path, tmp_path):
    events = load_log(path)
    replayed, skipped = _replay_with_riichienv(events, tmp_path)
    assert skipped == 0
    assert replayed == sum(1 for e in events if e.type == "start_kyoku")


def test_riichienv_replays_converted_jansou_games(jansou_games, tmp_path):
    replayed = skipped = 0
    for game in jansou_games:
        r, s = _replay_with_riichienv(read_log_text(json.dumps(game), "jansou"), tmp_path)
        replayed, skipped = replayed + r, skipped + s
    assert replayed >= 10 * skipped and replayed > 150


def test_riichienv_would_catch_a_bad_conversion(tmp_path):
    """The independent check can fail: a discard of a tile not in hand desyncs riichienv."""
    events = read_mjai(SAMPLE_LOG.read_text())
    index = next(i for i, e in enumerate(events) if e.type == "dahai" and i > 40)
    wrong = "C" if events[index].pai != "C" else "E"
    events[index] = events[index].model_copy(update={"pai": wrong, "tsumogiri": False})
    with pytest.raises(ValueError, match="desync"):
        _replay_with_riichienv(events[: index + 30], tmp_path)


def test_vision_events_can_be_left_out_for_strict_readers():
    events = read_mjai(SAMPLE_LOG.read_text())
    seen = events[:3] + [read_mjai('{"type":"wall_take","actor":1}')[0]] + events[3:]
    assert write_mjai(seen).count("wall_take") == 1
    assert write_mjai(seen, vision=False) == write_mjai(events)
