import pytest

from tracker import events as ev
from tracker.events import apply_retractions


def test_every_mjai_type_parses_and_serialises_back():
    samples = [
        {"type": "start_game", "names": ["a", "b", "c", "d"]},
        {
            "type": "start_kyoku",
            "bakaze": "E",
            "dora_marker": "1m",
            "kyoku": 1,
            "honba": 0,
            "kyotaku": 0,
            "oya": 0,
            "scores": [25000] * 4,
            "tehais": [["?"] * 13] * 4,
        },
        {"type": "tsumo", "actor": 0, "pai": "?"},
        {"type": "dahai", "actor": 0, "pai": "5mr", "tsumogiri": False},
        {"type": "chi", "actor": 1, "target": 0, "pai": "3m", "consumed": ["4m", "5mr"]},
        {"type": "pon", "actor": 2, "target": 0, "pai": "E", "consumed": ["E", "E"]},
        {"type": "daiminkan", "actor": 3, "target": 0, "pai": "C", "consumed": ["C", "C", "C"]},
        {"type": "kakan", "actor": 2, "pai": "E", "consumed": ["E", "E", "E"]},
        {"type": "ankan", "actor": 0, "consumed": ["1s", "1s", "1s", "1s"]},
        {"type": "dora", "dora_marker": "2p"},
        {"type": "reach", "actor": 0},
        {"type": "reach_accepted", "actor": 0},
        {"type": "hora", "actor": 0, "target": 1, "deltas": [1000, -1000, 0, 0], "ura_markers": ["3p"]},
        {"type": "ryukyoku", "deltas": [0, 0, 0, 0]},
        {"type": "end_kyoku"},
        {"type": "end_game"},
        {"type": "flower", "actor": 1, "pai": "season3"},
    ]
    assert {s["type"] for s in samples} == ev.EVENT_TYPES - ev.VISION_TYPES
    for data in samples:
        event = ev.parse_event(data)
        assert event.to_json() == data


def test_time_frame_and_unknown_keys_are_kept():
    data = {
        "type": "dahai",
        "actor": 1,
        "pai": "E",
        "tsumogiri": True,
        "t": 12.5,
        "frame": 375,
        "meta": {"x": 1},
    }
    assert ev.parse_event(data).to_json() == data


@pytest.mark.parametrize(
    "data, message",
    [
        (
            {"type": "dahai", "actor": 1, "pai": "0m", "tsumogiri": False},
            "dahai: pai: Value error, unknown tile code '0m'",
        ),
        ({"type": "dahai", "actor": 4, "pai": "1m", "tsumogiri": False}, "dahai: actor"),
        ({"type": "chi", "actor": 1, "target": 0, "pai": "1m", "consumed": ["2m"]}, "chi: consumed"),
        ({"type": "teleport"}, "unknown event type 'teleport'"),
        ({"actor": 1}, "unknown event type None"),
        ([1, 2], "must be a JSON object"),
    ],
)
def test_bad_events_raise_one_line(data, message):
    with pytest.raises(ValueError) as err:
        ev.parse_event(data)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_vision_placements_and_events_round_trip():
    samples = [
        {
            "type": "dahai",
            "actor": 0,
            "pai": "1m",
            "tsumogiri": False,
            "slot": {"row": 1, "col": 0, "sideways": True},
        },
        {
            "type": "pon",
            "actor": 1,
            "target": 0,
            "pai": "E",
            "consumed": ["E", "E"],
            "laid": {"tiles": ["E", "E", "E"], "sideways": [0], "face_down": []},
        },
        {"type": "wall_take", "actor": 2, "dead_wall": False, "t": 3.5, "frame": 105},
        {"type": "hand_count", "actor": 3, "count": 14},
        {"type": "tile_exposed", "actor": 1, "pai": "5pr"},
    ]
    for data in samples:
        assert ev.parse_event(data).to_json() == data
    assert {"wall_take", "hand_count", "tile_exposed", "retract"} == ev.VISION_TYPES <= ev.EVENT_TYPES


def test_frame_result_carries_events_and_alerts():
    from rules_check.alert import Alert
    from tracker.analysis import FrameResult

    result = FrameResult.model_validate(
        {
            "frame": 30,
            "t": 1.0,
            "events": [{"type": "dahai", "actor": 0, "pai": "1m", "tsumogiri": True}],
            "alerts": [
                {
                    "id": "a1",
                    "code": "early_draw",
                    "seat": 1,
                    "rules": "mleague",
                    "penalty": "dead_hand",
                    "message": "先摸",
                }
            ],
        }
    )
    assert isinstance(result.events[0], ev.Dahai) and isinstance(result.alerts[0], Alert)
    assert FrameResult.model_validate_json(result.model_dump_json()) == result


def test_retractions_drop_or_correct_exactly_the_named_event():
    events = [
        ev.Dahai(actor=1, pai="3m", tsumogiri=False, frame=10),
        ev.Dahai(actor=2, pai="4m", tsumogiri=False, frame=20),
        ev.Dahai(actor=3, pai="5m", tsumogiri=False, frame=20),
        ev.Retract(target_type="dahai", target_frame=20, actor=2, frame=30, reason="tile gone"),
        ev.Retract(target_type="dahai", target_frame=10, actor=1, pai="8m", frame=31),
    ]
    assert ev.parse_event(events[3].to_json()) == events[3]
    fixed = ev.apply_retractions(events)
    assert [(e.actor, e.pai) for e in fixed] == [(1, "8m"), (3, "5m")]
    assert events[0].pai == "3m"  # the original record is left as it was


def test_a_retraction_names_the_latest_matching_event_before_it():
    # a kakan read on one read: its draw and its replacement draw share the frame; a chankan
    # retracts the replacement draw, not the draw before the kan
    events = [
        ev.Tsumo(actor=0, pai="?", frame=40),
        ev.Kakan(actor=0, pai="C", consumed=["C", "C", "C"], frame=40),
        ev.Tsumo(actor=0, pai="?", frame=40),
        ev.Retract(target_type="tsumo", target_frame=40, actor=0, frame=50, reason="chankan"),
        ev.Tsumo(actor=0, pai="?", frame=40),  # after the retraction: not what it named
    ]
    fixed = ev.apply_retractions(events)
    assert [e.type for e in fixed] == ["tsumo", "kakan", "tsumo"]
    assert fixed[0] is events[0] and fixed[1] is events[1] and fixed[2] is events[4]


def test_a_retraction_taken_back_restores_what_it_dropped():
    events = [
        ev.Dahai(actor=2, pai="9s", tsumogiri=False, frame=20),
        ev.Dahai(actor=3, pai="5m", tsumogiri=False, frame=30),
        ev.Retract(target_type="dahai", target_frame=30, actor=3, frame=40, reason="gone"),
        ev.Retract(target_type="dahai", target_frame=20, actor=2, frame=40, reason="gone"),
        ev.Retract(target_type="retract", target_frame=40, actor=2, frame=55, reason="seen again"),
    ]
    fixed = ev.apply_retractions(events)
    assert [(e.actor, e.pai) for e in fixed] == [(2, "9s")]  # seat 3's retraction stands
    # a riichi retracted on the same read by the same seat: the discard's retraction is the one
    # taken back (the latest retraction of that read and seat is the riichi's)
    reach = [ev.Reach(actor=2, frame=20), *events[:4]]
    reach += [ev.Retract(target_type="reach", target_frame=20, actor=2, frame=40, reason="gone")]
    reach += [events[4]]
    assert [e.type for e in ev.apply_retractions(reach)] == ["dahai"]


def test_a_discard_given_back_gives_back_the_draw_taken_back_with_it():
    # seat 1 draws (frame 10) and discards (12); on read 40 the discard is taken back as gone and,
    # at once, its draw; seen again on read 55, both return
    events = [
        ev.Tsumo(actor=1, pai="?", frame=10),
        ev.Dahai(actor=1, pai="9s", tsumogiri=False, frame=12),
        ev.Tsumo(actor=1, pai="?", frame=30),
        ev.Retract(target_type="dahai", target_frame=12, actor=1, frame=40, reason="gone"),
        ev.Retract(target_type="tsumo", target_frame=10, actor=1, frame=40, reason="its discard was none"),
    ]
    assert [(e.type, e.frame) for e in ev.apply_retractions(events)] == [("tsumo", 30)]
    back = ev.Retract(target_type="retract", target_frame=40, actor=1, frame=55, reason="tile seen again")
    fixed = ev.apply_retractions([*events, back])
    assert [(e.type, e.frame) for e in fixed] == [("tsumo", 10), ("dahai", 12), ("tsumo", 30)]
    # a draw taken back on another read is not the discard's
    other = ev.Retract(target_type="tsumo", target_frame=10, actor=1, frame=41, reason="its discard was none")
    fixed = ev.apply_retractions([*events[:4], other, back])
    assert [(e.type, e.frame) for e in fixed] == [("dahai", 12), ("tsumo", 30)]


def test_a_discard_after_a_call_given_back_gives_back_the_next_discards_draw():
    # seat 1 pons (frame 10) and discards (12), then draws (30) and discards (32); on read 40 the
    # first discard is taken back as gone: the second closes the pon, its draw goes. Seen again
    # on read 55, both return
    events = [
        ev.Pon(actor=1, target=0, pai="E", consumed=["E", "E"], frame=10),
        ev.Dahai(actor=1, pai="9s", tsumogiri=False, frame=12),
        ev.Tsumo(actor=1, pai="?", frame=30),
        ev.Dahai(actor=1, pai="1m", tsumogiri=False, frame=32),
        ev.Retract(target_type="dahai", target_frame=12, actor=1, frame=40, reason="gone"),
        ev.Retract(target_type="tsumo", target_frame=30, actor=1, frame=40, reason="its discard was none"),
    ]
    assert [(e.type, e.frame) for e in ev.apply_retractions(events)] == [("pon", 10), ("dahai", 32)]
    back = ev.Retract(target_type="retract", target_frame=40, actor=1, frame=55, reason="tile seen again")
    assert [e.frame for e in ev.apply_retractions([*events, back])] == [10, 12, 30, 32]


def test_a_call_read_again_is_corrected_in_its_tiles_and_type_the_latest_correction_standing():
    pon = ev.Pon(actor=1, target=0, pai="6p", consumed=["?", "?"], frame=50)
    fix = ev.Retract(
        target_type="pon", target_frame=50, actor=1, pai="6p", consumed=["7p", "8p"], as_type="chi", frame=80
    )
    assert ev.parse_event(fix.to_json()) == fix and fix.corrects
    (chi,) = ev.apply_retractions([pon, fix])
    assert isinstance(chi, ev.Chi) and (chi.actor, chi.target, chi.pai, chi.consumed) == (
        1,
        0,
        "6p",
        ["7p", "8p"],
    )
    assert chi.frame == 50  # it stays where it was made
    # read again once more: a pon after all (the correction names the call as first emitted)
    back = ev.Retract(target_type="pon", target_frame=50, actor=1, pai="6p", consumed=["6p", "6p"], frame=99)
    (again,) = ev.apply_retractions([pon, fix, back])
    assert (again.type, again.consumed) == ("pon", ["6p", "6p"])
    assert ev.apply_retractions([pon, ev.Retract(target_type="pon", target_frame=50, actor=1)]) == []


def test_a_retraction_with_a_tile_corrects_a_dora_indicator():
    start = ev.StartKyoku(
        bakaze="E", dora_marker="4p", kyoku=1, honba=0, kyotaku=0, oya=0,
        scores=[25000] * 4, tehais=[["?"] * 13] * 4, frame=10,
    )  # fmt: skip
    events = [
        start,
        ev.Dora(dora_marker="?", frame=90),
        ev.Retract(target_type="start_kyoku", target_frame=10, pai="8s", frame=200),
        ev.Retract(target_type="dora", target_frame=90, pai="N", frame=210),
    ]
    fixed = ev.apply_retractions(events)
    assert [(e.type, e.dora_marker) for e in fixed] == [("start_kyoku", "8s"), ("dora", "N")]


def _at_frame(event, frame):
    return event.model_copy(update={"frame": frame})


def test_a_tile_seen_again_restores_its_discard_not_a_place_correction_made_on_the_same_read():
    # on one read (frame 50) seat 1's earlier discard (frame 10) is taken back as gone (rivers are
    # read first) and its riichi is read from the stick, turning its declaration tile (frame 20)
    # sideways (sticks are read after). The gone tile is seen again (frame 60): its retraction is
    # the one taken back; the declaration tile stays sideways
    first = _at_frame(
        ev.Dahai(actor=1, pai="1m", tsumogiri=False, slot=ev.RiverPlacement(row=0, col=0, sideways=False)), 10
    )
    decl = _at_frame(
        ev.Dahai(actor=1, pai="9s", tsumogiri=False, slot=ev.RiverPlacement(row=0, col=1, sideways=False)), 20
    )
    gone = _at_frame(
        ev.Retract(target_type="dahai", target_frame=10, actor=1, reason="no such tile in the river"), 50
    )
    place = _at_frame(
        ev.Retract(
            target_type="dahai",
            target_frame=20,
            actor=1,
            slot=ev.RiverPlacement(row=0, col=1, sideways=True),
            reason="riichi declaration tile (riichi read from its stick)",
        ),
        50,
    )
    back = _at_frame(
        ev.Retract(target_type="retract", target_frame=50, actor=1, reason="tile seen again"), 60
    )
    record = apply_retractions([first, decl, gone, place, back])
    assert [(e.frame, e.slot.sideways) for e in record] == [(10, False), (20, True)]
