import json

import pytest

from tests.builders import start, start_unseen, t, turn
from tests.conftest import SAMPLE_LOG, needs_shared_logs, shared_tenhou6_logs
from tracker import events as ev
from tracker.logs import load_log, read_log_text
from tracker.table import layout
from tracker.table.state import StateError, TableState

# at most two of any kind over the four hands, so draws and calls stay within four per kind
HANDS = ["123456789m1234p", "123456789s5678p", "123456789m5678p", "1122334455667z"]
NO_HONOURS = "123456789s1234p"


def hands_with(**replaced: str) -> list[str]:
    """HANDS with some seats' hands replaced: ``hands_with(s2="44m...")``."""
    out = list(HANDS)
    for key, hand in replaced.items():
        out[int(key[1])] = hand
    return out


def spread(i: int) -> str:
    """A different kind for each of 34 draws in a row."""
    from tracker.tiles import KINDS34

    return KINDS34[(i * 7) % 34]


def play(events, rules=layout.MLEAGUE, check=True) -> TableState:
    state = TableState(rules)
    for e in events:
        state.update(e)
        if check:
            state.validate()
    return state


def replay_validating(events) -> int:
    state = TableState()
    for e in events:
        state.update(e)
        state.validate()
    return len(events)


@needs_shared_logs
@pytest.mark.parametrize("path", shared_tenhou6_logs(), ids=lambda p: p.stem)
def test_real_logs_validate_after_every_event(path):
    assert replay_validating(load_log(path)) > 3


def test_jansou_games_validate_after_every_event(jansou_games):
    total = sum(replay_validating(read_log_text(json.dumps(g), "jansou")) for g in jansou_games)
    assert total > 10000


def test_sample_log_validates():
    assert replay_validating(load_log(SAMPLE_LOG)) > 500


def test_river_rows_of_six_left_to_right():
    events = start(HANDS)
    for i in range(32):
        events += turn(i % 4, spread(i))
    state = play(events)
    positions = [(s.row, s.col) for s in state.seats[0].river]
    assert positions == [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 0), (1, 1)]
    assert all(not s.sideways and not s.called_away for s in state.seats[0].river)
    assert state.live_wall == 70 - 32


def test_tsumogiri_and_tedashi_are_recorded():
    state = play(start(HANDS) + turn(0, "9s") + turn(1, "C", "1s"))
    assert state.seats[0].river[0].tsumogiri is True
    assert state.seats[1].river[0].tsumogiri is False
    assert state.seats[1].hand_count == 13 and "C" in state.seats[1].hand


def test_hand_counts_and_walls_after_draws():
    state = play(start(HANDS) + turn(0, "9s") + [ev.Tsumo(actor=1, pai="C")])
    assert [s.hand_count for s in state.seats] == [13, 14, 13, 13]
    assert state.live_wall == 68 and state.dead_wall == 14 and state.wall_tiles == 82


@pytest.mark.parametrize(
    "caller, kind, sideways",
    [
        (1, "chi", 0),  # always from kamicha, laid at the left
        (1, "pon", 0),  # from kamicha: left
        (2, "pon", 1),  # from toimen: middle
        (3, "pon", 2),  # from shimocha: right
    ],
)
def test_called_meld_layout(caller, kind, sideways):
    caller_hand = {
        (1, "chi"): "45m123456789s56p",
        (1, "pon"): "44m123456789s56p",
        (2, "pon"): "44m12356789m567p",
        (3, "pon"): "44m11223344556z",
    }[(caller, kind)]
    pai = "3m" if kind == "chi" else "4m"
    consumed = ["5m", "4m"] if kind == "chi" else ["4m", "4m"]
    events = start(hands_with(**{f"s{caller}": caller_hand})) + turn(0, "C", pai)
    call = (ev.Chi if kind == "chi" else ev.Pon)(actor=caller, target=0, pai=pai, consumed=consumed)
    state = play(events + [call])
    meld = state.seats[caller].melds[0]
    assert meld.type == kind and meld.source == 0 and meld.called == pai
    assert meld.sideways == sideways and meld.tiles[sideways] == pai
    if kind == "chi":
        assert meld.tiles == ["3m", "4m", "5m"]
    assert state.seats[0].river[0].called_away
    assert state.seats[caller].hand_count == 11
    assert state.actor == caller


@pytest.mark.parametrize("caller, sideways", [(1, 0), (2, 1), (3, 3)])
def test_daiminkan_layout_and_replacement_draw(caller, sideways):
    caller_hand = {1: "999p123456789s5p", 2: "999p123456789m5p", 3: "999p1122334455z"}[caller]
    events = start(hands_with(**{f"s{caller}": caller_hand})) + turn(0, "9p")
    events += [
        ev.Daiminkan(actor=caller, target=0, pai="9p", consumed=["9p", "9p", "9p"]),
        ev.Tsumo(actor=caller, pai="C"),
        ev.Dahai(actor=caller, pai="C", tsumogiri=True),
        ev.Dora(dora_marker="2m"),
    ]
    state = play(events)
    meld = state.seats[caller].melds[0]
    assert meld.type == "daiminkan" and meld.sideways == sideways and len(meld.tiles) == 4
    assert state.dora_indicators == ["9s", "2m"]
    assert state.dead_wall == 13 and state.kans == 1
    assert state.live_wall == 70 - 1 - 1  # one normal draw, and the haitei moves one tile earlier


def test_kakan_lays_the_added_tile_on_the_sideways_one():
    hands = hands_with(s2="11z123456789s56p", s3=NO_HONOURS)
    events = start(hands) + turn(0, "E")
    events += [
        ev.Pon(actor=2, target=0, pai="E", consumed=["E", "E"]),
        ev.Dahai(actor=2, pai="5p", tsumogiri=False),
    ]
    events += turn(3, "1m") + turn(0, "2m") + turn(1, "3m")
    events += [
        ev.Tsumo(actor=2, pai="E"),
        ev.Kakan(actor=2, pai="E", consumed=["E", "E", "E"]),
        ev.Tsumo(actor=2, pai="4m"),
        ev.Dahai(actor=2, pai="4m", tsumogiri=True),
        ev.Dora(dora_marker="1p"),
    ]
    state = play(events)
    meld = state.seats[2].melds[0]
    assert meld.type == "kakan" and meld.added == "E" and meld.sideways == 1  # pon from toimen
    assert state.seats[2].hand_count == 10


def test_a_call_read_again_is_laid_out_anew():
    """A camera's pon of 6p with two tiles unread, read again as a chi 6-7-8: the seat's meld is the
    chi (a later kakan or kuikae is judged on it); another call's correction leaves it alone."""
    events = start_unseen() + turn(0, "?", "6p")
    events += [ev.Pon(actor=1, target=0, pai="6p", consumed=["?", "?"], frame=50)]
    fix = dict(target_type="pon", actor=1, pai="6p", consumed=["8p", "7p"], as_type="chi", frame=80)
    state = play(events + [ev.Retract(target_frame=49, **fix)], check=False)
    assert state.seats[1].melds[0].tiles == ["6p", "?", "?"]  # another frame named: laid as read
    state = play(events + [ev.Retract(target_frame=50, **fix)], check=False)
    meld = state.seats[1].melds[0]
    assert (meld.type, meld.tiles, meld.called, meld.sideways) == ("chi", ["6p", "7p", "8p"], "6p", 0)
    back = ev.Retract(target_type="pon", target_frame=50, actor=1, pai="6p", consumed=["6p", "6p"], frame=90)
    state = play(events + [ev.Retract(target_frame=50, **fix), back], check=False)
    meld = state.seats[1].melds[0]  # read again as first emitted: a pon (no as_type)
    assert (meld.type, meld.tiles) == ("pon", ["6p", "6p", "6p"])


def test_an_ankan_read_again_holds_its_corrected_tiles():
    """A camera's ankan with its faces unread, read again as N: the seat's meld is four N; a
    correction naming another frame leaves it as read."""
    events = start_unseen() + turn(0, "?", "6p")
    events += [ev.Tsumo(actor=1, pai="?"), ev.Ankan(actor=1, consumed=["?"] * 4, frame=50)]
    fix = dict(target_type="ankan", actor=1, consumed=["N"] * 4, frame=80)
    state = play(events + [ev.Retract(target_frame=49, **fix)], check=False)
    assert state.seats[1].melds[0].tiles == ["?"] * 4
    state = play(events + [ev.Retract(target_frame=50, **fix)], check=False)
    meld = state.seats[1].melds[0]
    assert (meld.type, meld.tiles) == ("ankan", ["N"] * 4)


def test_a_discard_read_again_lies_as_that_tile_and_a_call_on_it_takes_it():
    events = start_unseen() + turn(0, "?", "E")
    events[-1] = events[-1].model_copy(update={"frame": 40})
    fix = ev.Retract(target_type="dahai", target_frame=40, actor=0, pai="S", reason="called tile reread")
    other = ev.Retract(target_type="dahai", target_frame=41, actor=0, pai="W")  # names no discard
    state = play(events + [fix, other], check=False)
    assert state.seats[0].river[0].code == "S"
    state.update(ev.Pon(actor=2, target=0, pai="S", consumed=["S", "S"]))
    assert state.seats[2].melds[0].called == "S"


def test_a_draw_taken_back_returns_its_tile_and_reopens_the_discard_it_closed():
    # a camera read seat 1's draw, then seat 2's pon of seat 0's discard: the draw is taken back
    events = start_unseen() + _at(30, turn(0, "?", "E")) + [ev.Tsumo(actor=1, pai="?", frame=35)]
    state = play(events, check=False)
    draws = state.draws
    with pytest.raises(StateError, match="no callable discard"):
        play(events, check=False).update(ev.Pon(actor=2, target=0, pai="E", consumed=["E", "E"]))
    back = ev.Retract(target_type="tsumo", target_frame=35, actor=1, frame=36)
    state = play(events + [back, ev.Pon(actor=2, target=0, pai="E", consumed=["E", "E"], frame=36)])
    assert state.draws == draws - 1 and state.seats[1].hand_count == 13 and state.seats[1].drawn is None
    assert state.seats[2].melds[0].source == 0 and state.seats[0].river[0].called_away
    # another draw named, or the draw played on (its discard made): nothing moves
    other = ev.Retract(target_type="tsumo", target_frame=34, actor=1, frame=36)
    assert play(events + [other], check=False).seats[1].hand_count == 14
    played = events + [ev.Dahai(actor=1, pai="?", tsumogiri=True, frame=40)]
    state = play(played + [ev.Retract(target_type="tsumo", target_frame=35, actor=1, frame=41)], check=False)
    assert state.draws == draws and state.seats[1].hand_count == 13 and state.last_discard == (1, 0)


def test_a_discard_taken_back_as_never_made_leaves_the_river_with_its_draw_and_comes_back_with_it():
    # seat 1's E (frame 32) read where there was no tile, then its real 9p (40): on read 50 the E
    # and the draw it closed are taken back (the 9p closes up to the E's place); seen again on
    # read 60, both come back. Validated after every event (the recomputed route agrees)
    events = start_unseen() + _at(30, turn(0, "?", "1m")) + _at(32, turn(1, "?", "E"))
    events += _at(40, [ev.Dahai(actor=1, pai="9p", tsumogiri=False)])
    gone = ev.Retract(
        target_type="dahai", target_frame=32, actor=1, frame=50, reason="no such tile in the river"
    )
    its_draw = ev.Retract(
        target_type="tsumo", target_frame=32, actor=1, frame=50, reason="its discard was none"
    )
    state = play(events)
    draws, hand = state.draws, state.seats[1].hand_count
    state = play([*events, gone, its_draw])
    river = state.to_json()["seats"][1]["river"]
    assert [(r["code"], r["row"], r["col"]) for r in river] == [("9p", 0, 0)]
    assert state.draws == draws - 1 and state.seats[1].hand_count == hand == 12  # (one discard too many read)
    back = ev.Retract(target_type="retract", target_frame=50, actor=1, frame=60, reason="tile seen again")
    state = play([*events, gone, its_draw, back])
    river = state.to_json()["seats"][1]["river"]
    assert [(r["code"], r["row"], r["col"]) for r in river] == [("E", 0, 0), ("9p", 0, 1)]
    assert state.draws == draws and state.seats[1].hand_count == hand
    # a call takes the discard taken back (no retraction of the retraction read first): it was there
    last = ev.Retract(
        target_type="dahai", target_frame=40, actor=1, frame=50, reason="no such tile in the river"
    )
    state = play(
        [*events, last, ev.Pon(actor=3, target=1, pai="9p", consumed=["9p", "9p"], frame=55)], check=False
    )
    assert state.seats[1].river[-1].called_away and not state.seats[1].river[-1].taken_back
    assert state.seats[1].hand_count == hand


def _gone(frame: int, at: int, actor: int) -> list:
    """A camera's retraction on read ``at`` of ``actor``'s discard of ``frame`` as never made,
    with the draw it closed (``tracker.kyoku.take_back_discard``)."""
    return [
        ev.Retract(target_type="dahai", target_frame=frame, actor=actor, frame=at, reason="no such tile"),
        ev.Retract(
            target_type="tsumo", target_frame=frame, actor=actor, frame=at, reason="its discard was none"
        ),
    ]


def _seen_again(at: int, actor: int, frame: int) -> ev.Retract:
    return ev.Retract(
        target_type="retract", target_frame=at, actor=actor, frame=frame, reason="tile seen again"
    )


def test_a_tsumogiri_taken_back_and_seen_again_returns_to_the_river_from_a_known_hand():
    # known tiles: the E drawn and discarded went back to the hand and the drawn E to the wall;
    # given back, the drawn E returns first, then the E leaves the hand again
    events = start(HANDS) + _at(30, turn(0, "E")) + _gone(30, 40, 0)
    state = play([*events, _seen_again(40, 0, 50)])
    assert [s.code for s in state.seats[0].river_kept] == ["E"] and state.seats[0].hand_count == 13
    assert state.draws == 1


def test_a_call_on_a_discard_taken_back_that_the_caller_cannot_make_changes_nothing():
    # seat 2 holds one 1m: its pon of seat 0's 1m (taken back as gone) raises before anything moves
    events = start(HANDS) + _at(30, turn(0, "E", "1m")) + _gone(30, 40, 0)
    state = play(events)
    before = state.to_json(), state.draws
    with pytest.raises(StateError):
        state.update(ev.Pon(actor=2, target=0, pai="1m", consumed=["1m", "1m"], frame=45))
    assert (state.to_json(), state.draws) == before


@pytest.mark.parametrize("called", [False, True])
def test_a_sideways_discard_taken_back_passes_its_riichi_turn_to_the_next(called):
    # the riichi stands (its stick seen). Either its declaration tile E was a stray box, or a call
    # took the E and the discard owed sideways after it was one: taken back with its draw, the
    # seat's next discard lies sideways (validated: the recomputed route agrees); seen again, the
    # turn goes back to it
    events = start_unseen() + [ev.Tsumo(actor=0, pai="?", frame=30), ev.Reach(actor=0, frame=30)]
    events += [ev.Dahai(actor=0, pai="E", tsumogiri=False, frame=30)]
    if called:
        events += [ev.Pon(actor=1, target=0, pai="E", consumed=["E", "E"], frame=34)]
        events += [
            ev.ReachAccepted(actor=0, frame=34),
            ev.Dahai(actor=1, pai="9p", tsumogiri=False, frame=36),
        ]
        events += _at(40, turn(2, "?", "2m")) + _at(44, turn(3, "?", "3m")) + _at(50, turn(0, "?", "4m"))
    stray = events[-1].frame
    events += _gone(stray, 55, 0)
    state = play(events)
    assert state.seats[0].sideways_next
    state = play(events + _at(60, turn(0, "?", "5m")))
    assert [(s.code, s.sideways) for s in state.seats[0].river_present] == [("5m", True)]
    state = play(events + _at(60, turn(0, "?", "5m")) + [_seen_again(55, 0, 70)], check=False)
    assert [(s.code, s.sideways) for s in state.seats[0].river_present][-2:] == [
        ("4m" if called else "E", True),
        ("5m", False),
    ]


def test_a_discard_closing_a_call_taken_back_with_the_next_discards_draw_leaves_the_count_right():
    # seat 1 pons seat 0's E and discards 9s (a stray), then draws and discards 1m; the 9s is taken
    # back with the 1m's draw (the 1m closes the pon): seat 1 holds the pon's 10 tiles
    events = start_unseen() + _at(30, turn(0, "?", "E"))
    events += [ev.Pon(actor=1, target=0, pai="E", consumed=["E", "E"], frame=34)]
    events += [ev.Dahai(actor=1, pai="9s", tsumogiri=False, frame=36)] + _at(40, turn(1, "?", "1m"))
    draws = play(events).draws
    events += [
        ev.Retract(target_type="dahai", target_frame=36, actor=1, frame=50, reason="no such tile"),
        ev.Retract(target_type="tsumo", target_frame=40, actor=1, frame=50, reason="its draw"),
    ]
    state = play(events)
    assert state.seats[1].hand_count == 10 and state.draws == draws - 1
    assert [s.code for s in state.seats[1].river_kept] == ["1m"]
    state = play([*events, _seen_again(50, 1, 60)])
    assert state.seats[1].hand_count == 10 and state.draws == draws
    assert [s.code for s in state.seats[1].river_kept] == ["9s", "1m"]


def _declared_then_next_called() -> list:
    # seat 0 declares riichi with a sideways E (frame 30, its stick seen: the riichi stands);
    # its next discard 4m (frame 50) is ponned by seat 1; seat 0's following discard 5m (frame 70)
    events = start_unseen() + [ev.Tsumo(actor=0, pai="?", frame=30), ev.Reach(actor=0, frame=30)]
    events += [ev.Dahai(actor=0, pai="E", tsumogiri=False, frame=30)]
    events += _at(32, turn(1, "?", "1s")) + [ev.ReachAccepted(actor=0, frame=32)]
    events += _at(34, turn(2, "?", "2s")) + _at(36, turn(3, "?", "3s"))
    events += _at(50, turn(0, "?", "4m"))
    events += [ev.Pon(actor=1, target=0, pai="4m", consumed=["4m", "4m"], frame=52)]
    events += [ev.Dahai(actor=1, pai="9p", tsumogiri=False, frame=54)]
    events += _at(56, turn(2, "?", "6s")) + _at(58, turn(3, "?", "7s"))
    events += _at(70, turn(0, "?", "5m"))
    return events


def test_a_declaration_taken_back_after_its_next_discard_was_called_passes_the_turn_on():
    # the E (a far river's tile the detector lost) taken back as never made, with its draw: in the
    # record the 4m is then the declaration tile, called, so the 5m lies sideways (the recomputed
    # route says so). The incremental state turns the called 4m sideways and leaves the 5m upright
    events = _declared_then_next_called() + _gone(30, 80, 0)
    state = play(events)  # validates after every event
    kept = [(s.code, s.sideways) for s in state.seats[0].river_kept]
    assert kept[-1] == ("5m", True)


def test_the_declaration_seen_again_after_that_gives_the_turn_back():
    events = _declared_then_next_called() + _gone(30, 80, 0) + [_seen_again(80, 0, 90)]
    state = play(events, check=False)
    state.validate()
    assert [(s.code, s.sideways) for s in state.seats[0].river] == [
        ("E", True),
        ("4m", False),
        ("5m", False),
    ]


def test_taken_back_before_the_seats_next_discard_that_discard_is_owed_sideways():
    # the same, the E taken back before seat 0 plays again: its next discard lies sideways (the
    # called 4m passed the riichi turn on); else river_layout calls a 5m laid sideways an error
    events = _declared_then_next_called()[:-2] + _gone(30, 60, 0)
    state = play(events)
    assert state.seats[0].sideways_next


def test_a_stray_declaration_taken_back_with_its_riichi_leaves_the_next_discard_upright():
    # a stray sideways box read as seat 0's riichi (E, frame 30); seat 0's real 4m follows; the box
    # gone, the tracker takes back the E with its draw, then the riichi (no stick seen:
    # read_rivers._review / _unwind_reach). No riichi: the 4m lies upright, as the recompute says
    events = start_unseen() + [ev.Tsumo(actor=0, pai="?", frame=30), ev.Reach(actor=0, frame=30)]
    events += [ev.Dahai(actor=0, pai="E", tsumogiri=False, frame=30)]
    events += _at(32, turn(1, "?", "1s")) + [ev.ReachAccepted(actor=0, frame=32)]
    events += _at(34, turn(2, "?", "2s")) + _at(36, turn(3, "?", "3s")) + _at(50, turn(0, "?", "4m"))
    events += _gone(30, 60, 0)
    events += [
        ev.Retract(target_type="reach", target_frame=30, actor=0, frame=60, reason="declaration tile gone"),
        ev.Retract(target_type="reach_accepted", target_frame=32, actor=0, frame=60, reason="no riichi"),
    ]
    state = play(events)
    assert not state.seats[0].riichi
    assert [(s.code, s.sideways) for s in state.seats[0].river_kept] == [("4m", False)]


def test_two_discards_of_a_seat_taken_back_on_one_read_the_latest_given_back():
    events = start_unseen() + _at(30, turn(0, "?", "1m")) + _at(32, turn(1, "?", "E"))
    events += _at(34, turn(2, "?", "2m")) + _at(36, turn(3, "?", "3m")) + _at(38, turn(0, "?", "4m"))
    events += _at(40, turn(1, "?", "S")) + _gone(32, 50, 1) + _gone(40, 50, 1)
    assert play(events).seats[1].river_kept == []
    state = play([*events, _seen_again(50, 1, 60)])
    assert [s.code for s in state.seats[1].river_kept] == ["S"] and state.seats[1].hand_count == 13


def test_a_callers_discard_taken_back_does_not_make_the_discard_its_call_took_callable_again():
    # the caller's own draw read as it called (taken back), then its discard taken back as the
    # last one: the discard before it was the one its call took, called away, not callable again
    events = start_unseen() + _at(30, turn(0, "?", "E")) + [ev.Tsumo(actor=1, pai="?", frame=35)]
    events += [ev.Retract(target_type="tsumo", target_frame=35, actor=1, frame=36)]
    events += [ev.Pon(actor=1, target=0, pai="E", consumed=["E", "E"], frame=36)]
    events += [ev.Dahai(actor=1, pai="?", tsumogiri=False, frame=40)]
    events += [ev.Retract(target_type="dahai", target_frame=40, actor=1, frame=50)]
    state = play(events, check=False)
    with pytest.raises(StateError, match="no callable discard"):
        state.update(ev.Pon(actor=2, target=0, pai="E", consumed=["E", "E"], frame=51))


def _at(frame: int, events: list) -> list:
    return [e.model_copy(update={"frame": frame}) for e in events]


def test_either_of_two_discards_read_on_one_frame_can_be_called_but_not_an_earlier_one():
    # a camera that read two rivers changed between reads: play cannot order them, the call can
    events = start_unseen() + _at(30, turn(0, "?", "E")) + _at(40, turn(1, "?", "C") + turn(3, "?", "9p"))
    state = play(events + [ev.Pon(actor=0, target=1, pai="C", consumed=["C", "C"], frame=50)])  # validated
    assert state.seats[0].melds[0].source == 1 and state.seats[1].river[0].called_away
    assert state.last_discard is None  # the call ends both
    with pytest.raises(StateError, match="no callable discard"):
        play(events, check=False).update(ev.Pon(actor=2, target=0, pai="E", consumed=["E", "E"]))
    apart = start_unseen() + _at(30, turn(1, "?", "C")) + _at(40, turn(3, "?", "9p"))
    with pytest.raises(StateError, match="no callable discard"):
        play(apart, check=False).update(ev.Pon(actor=0, target=1, pai="C", consumed=["C", "C"]))


def test_a_chi_a_camera_read_from_another_seat_lies_as_seen_and_can_be_read_again():
    """A pon from toimen read as a chi (no chi comes from there): its tiles still lie on the table,
    as the camera saw them, so a correction to the pon it was finds the meld; a record's chi from
    there is refused before anything moves."""
    events = start_unseen() + turn(0, "?", "3m")  # (a 2m read as a 3m in the river)
    seen = ev.MeldPlacement(tiles=["4m", "2m", "3m"], sideways=[1])
    chi = ev.Chi(actor=2, target=0, pai="3m", consumed=["4m", "2m"], laid=seen, frame=50)
    state = play(events + [chi], check=False)
    meld = state.seats[2].melds[0]
    assert (meld.type, meld.tiles, meld.sideways, meld.source) == ("chi", ["4m", "2m", "3m"], 1, 0)
    assert state.seats[0].river[0].called_away
    fix = ev.Retract(
        target_type="chi", target_frame=50, actor=2, pai="2m", consumed=["2m", "2m"], as_type="pon", frame=80
    )
    meld = play(events + [chi, fix], check=False).seats[2].melds[0]
    assert (meld.type, meld.tiles, meld.called, meld.sideways) == ("pon", ["2m", "2m", "2m"], "2m", 1)
    state = play(events, check=False)
    with pytest.raises(StateError, match="chi must be called from kamicha"):
        state.update(chi.model_copy(update={"laid": None}))
    assert state.seats[2].melds == [] and not state.seats[0].river[0].called_away
    assert state.last_discard is not None


@pytest.mark.parametrize("rules, down", [(layout.MLEAGUE, (1, 2)), (layout.MCR, (0, 3))])
def test_ankan_face_down_positions(rules, down):
    hands = hands_with(s0="9999p2345678m12s")
    events = start(hands) + [
        ev.Tsumo(actor=0, pai="C"),
        ev.Ankan(actor=0, consumed=t("9999p")),
        ev.Dora(dora_marker="3p"),
        ev.Tsumo(actor=0, pai="P"),
        ev.Dahai(actor=0, pai="P", tsumogiri=True),
    ]
    state = play(events, rules)
    meld = state.seats[0].melds[0]
    assert meld.type == "ankan" and meld.face_down == down and meld.sideways is None
    assert state.seats[0].hand_count == 10


def test_called_riichi_tile_makes_the_next_discard_sideways():
    hands = hands_with(s1="33m123456789s56p")
    events = start(hands) + [
        ev.Tsumo(actor=0, pai="C"),
        ev.Reach(actor=0),
        ev.Dahai(actor=0, pai="3m", tsumogiri=False),
        ev.ReachAccepted(actor=0),
        ev.Pon(actor=1, target=0, pai="3m", consumed=["3m", "3m"]),
        ev.Dahai(actor=1, pai="5p", tsumogiri=False),
    ]
    events += turn(2, "4s") + turn(3, "F") + turn(0, "P")
    state = play(events)
    river = state.seats[0].river
    assert river[0].sideways and river[0].called_away
    assert river[1].sideways and not river[1].called_away and (river[1].row, river[1].col) == (0, 0)
    assert state.seats[0].riichi and state.kyotaku == 1 and state.scores[0] == 24000
    state = play(events + turn(1, "9p") + turn(2, "8p") + turn(3, "7p") + turn(0, "6s"))
    assert [s.sideways for s in state.seats[0].river] == [True, True, False]


def test_riichi_tile_upright_when_not_called():
    events = start(HANDS) + [
        ev.Tsumo(actor=0, pai="C"),
        ev.Reach(actor=0),
        ev.Dahai(actor=0, pai="C", tsumogiri=True),
        ev.ReachAccepted(actor=0),
    ]
    events += turn(1, "9s") + turn(2, "8s") + turn(3, "7s") + turn(0, "P")
    state = play(events)
    assert [s.sideways for s in state.seats[0].river] == [True, False]


@pytest.mark.parametrize(
    "bad, message",
    [
        (ev.Kakan(actor=1, pai="E", consumed=["E", "E", "E"]), "pon it does not have"),
        (ev.Pon(actor=2, target=3, pai="9s", consumed=["9s", "9s"]), "no callable discard"),
        (ev.Chi(actor=2, target=0, pai="9s", consumed=["7m", "8m"]), "chi must be called from kamicha"),
        (ev.Dahai(actor=2, pai="C", tsumogiri=False), "has no C in hand"),
        (ev.Dora(dora_marker="1m"), "without a kan"),
    ],
)
def test_impossible_events_raise(bad, message):
    state = play(start(HANDS) + turn(0, "9s"))
    with pytest.raises(StateError, match=message):
        state.update(bad)


def test_a_call_the_hand_cannot_make_moves_nothing():
    state = play(start(HANDS) + turn(0, "9s"))
    hand = list(state.seats[2].hand)
    with pytest.raises(StateError, match="has no 9s in hand"):
        state.update(ev.Pon(actor=2, target=0, pai="9s", consumed=["9s", "9s"]))
    assert state.seats[2].hand == hand and state.seats[2].melds == []
    assert not state.seats[0].river[0].called_away and state.last_discard == (0, 0)


def test_validate_catches_a_tampered_state():
    state = play(start(HANDS) + turn(0, "9s") + turn(1, "8s"))
    state.seats[1].river[0].sideways = True
    with pytest.raises(StateError, match="seat 1 river"):
        state.validate()
    state = play(start(HANDS) + turn(0, "9s"))
    state.seats[2].hand.append("1m")
    with pytest.raises(StateError, match="hand_count"):
        state.validate()


def test_validate_catches_a_fifth_tile():
    hands = hands_with(s0="1111m2345678p99p")
    events = start(hands) + turn(0, "1m")
    with pytest.raises(StateError, match="more than four of 1m"):
        play(events)


def test_a_deal_of_twelve_is_refused():
    events = start(hands_with(s1="123456789s567p"))
    with pytest.raises(StateError, match="seat 1 is dealt 12 tiles"):
        play(events)


def test_unknown_tiles_fold_into_counts():
    events = start_unseen() + [
        ev.Tsumo(actor=0, pai="?"),
        ev.Dahai(actor=0, pai="5mr", tsumogiri=False),
        ev.Pon(actor=2, target=0, pai="5mr", consumed=["5m", "5m"]),
    ]
    state = play(events)
    assert state.seats[2].hand_count == 11 and state.seats[2].melds[0].sideways == 1


def test_default_builder_deal_is_a_valid_kyoku():
    state = play(start())
    assert [s.hand_count for s in state.seats] == [13, 13, 13, 13]


def test_a_reach_read_after_its_declaration_tile_leaves_the_river_as_it_lies():
    # a camera that missed the (upright) declaration reads the riichi from the stick, after it
    events = start(HANDS) + turn(0, "1s") + turn(1, "E")
    events += [ev.Reach(actor=0), ev.ReachAccepted(actor=0)] + turn(2, "S") + turn(3, "W") + turn(0, "2s")
    state = play(events)  # validate() after every event agrees
    seat = state.seats[0]
    assert seat.riichi and [s.sideways for s in seat.river] == [False, False]
    # declared as the record has it (holding the tile to discard): that discard lies sideways
    declared = [ev.Tsumo(actor=0, pai="1s"), ev.Reach(actor=0), ev.Dahai(actor=0, pai="1s", tsumogiri=True)]
    state = play(start(HANDS) + declared)
    assert [s.sideways for s in state.seats[0].river] == [True]


def test_a_reach_declared_holding_a_draw_lays_its_tile_sideways_whatever_the_count():
    # a camera's record a tile off for that seat (a draw read twice): the declaration is still
    # made holding the drawn tile, so its discard lies sideways (second set, hanchan-jansou-mleague)
    events = start_unseen() + [ev.Tsumo(actor=0, pai="?"), ev.Tsumo(actor=0, pai="?"), ev.Reach(actor=0)]
    state = play(events + [ev.Dahai(actor=0, pai="?", tsumogiri=False)])  # validate() agrees
    assert [s.sideways for s in state.seats[0].river] == [True]


def test_a_reach_right_after_the_seats_own_call_lays_its_discard_sideways():
    # the caller's first discard read sideways: pon, reach, dahai (helper-22's review)
    events = start_unseen() + turn(0, "?", "C")
    events += [ev.Pon(actor=1, target=0, pai="C", consumed=["C", "C"]), ev.Reach(actor=1)]
    state = play(events + [ev.Dahai(actor=1, pai="?", tsumogiri=False)])  # validate() agrees
    assert [s.sideways for s in state.seats[1].river] == [True]


def test_a_reach_read_after_a_call_took_its_declaration_tile_lays_the_next_discard_sideways():
    # hanchan-jansou-1: the declaration tile read upright, chied, then the stick read
    events = start_unseen() + turn(0, "?", "4p")
    events += [
        ev.Chi(actor=1, target=0, pai="4p", consumed=["3p", "5p"]),
        ev.Dahai(actor=1, pai="?", tsumogiri=False),
    ]
    events += [ev.Reach(actor=0), ev.ReachAccepted(actor=0)] + turn(2, "?", "S") + turn(3, "?", "W")
    state = play(events + turn(0, "?", "2s"))  # validate() rebuilds the same table
    assert [s.sideways for s in state.seats[0].river] == [False, True]
