import pytest

from rules_check.ruleset import MCR, MLEAGUE, RIICHI
from tests.builders import start_unseen
from tests.rules_check.kit import SEEN_SLOT, draw, feed, found, framed, seen_opening, start
from tracker import events as ev

# seat 1 holds 1s..9s; seat 0 discards the tile seat 1 chis
CHI_HANDS = ["234m456p678m23p55p", "123456789s1234p", "111999s777888m2z", "1112223336667z"]


def chi_then(called: str, consumed: list[str], discard: str, later: bool = False) -> list:
    stream = start(CHI_HANDS) + draw(0, called)
    stream += [ev.Chi(actor=1, target=0, pai=called, consumed=consumed)]
    if later:
        stream += [ev.Dahai(actor=1, pai="1p", tsumogiri=False)] + draw(2, "P") + draw(3, "P") + draw(0, "P")
        stream += [ev.Tsumo(actor=1, pai="N")]
    stream += [ev.Dahai(actor=1, pai=discard, tsumogiri=False)]
    return stream


@pytest.mark.parametrize("discard", ["6s", "3s"])
def test_genbutsu_and_suji_swap_after_chi(discard):
    # chi 6s with 45s: 6s (same kind) and 3s (the other end of 45s) both form a run with 45s
    checker = feed(chi_then("6s", ["4s", "5s"], discard))
    assert found(checker) == [("kuikae", 1, "dead_hand")]
    assert found(feed(chi_then("6s", ["4s", "5s"], discard), RIICHI)) == [("kuikae", 1, "dead_hand")]


@pytest.mark.parametrize(
    "called, consumed, discard",
    [
        ("6s", ["4s", "5s"], "9s"),  # 9s is suji of 6s but forms nothing with 45s
        ("5s", ["4s", "6s"], "2s"),  # kanchan: only 5s would swap
        ("5s", ["4s", "6s"], "8s"),
        ("3s", ["1s", "2s"], "6s"),  # penchan: only 3s would swap
        ("7s", ["8s", "9s"], "4s"),
    ],
)
def test_legal_discards_that_only_look_like_kuikae(called, consumed, discard):
    assert found(feed(chi_then(called, consumed, discard))) == []


def test_swap_tile_on_a_later_turn_is_fine():
    assert found(feed(chi_then("6s", ["4s", "5s"], "3s", later=True))) == []


def test_pon_then_same_kind_red_five():
    hands = ["234m456p678m23p55p", "550s111999m111p4z", "111999s777888m2z", "1112223336667z"]
    stream = start(hands) + draw(0, "5s")
    stream += [
        ev.Pon(actor=1, target=0, pai="5s", consumed=["5s", "5s"]),
        ev.Dahai(actor=1, pai="5sr", tsumogiri=False),
    ]
    assert found(feed(stream, MLEAGUE)) == [("kuikae", 1, "dead_hand")]
    assert found(feed(stream, MCR)) == []  # 003 五: MCR allows it


def test_same_swap_tiles_as_the_renderer_stages(jansou_games):
    """The renderer stages 食替 faults from its own swap-tile rule; both must agree on every call."""
    faults = pytest.importorskip("datasets.synth.faults")
    from rules_check.checks.kuikae import forbidden
    from tracker.logs import tenhou6_to_events

    calls = [e for g in jansou_games for e in tenhou6_to_events(g) if e.type in ("chi", "pon")]
    assert len(calls) > 100
    for call in calls:
        assert forbidden(call) == faults._swap_tiles(call), call


def test_a_chi_seen_with_an_unread_tile_is_no_kuikae_and_no_crash():
    # the camera could not read one exposed tile: no run to swap within, nothing to judge
    stream = start_unseen() + [
        ev.Tsumo(actor=0, pai="?"),
        ev.Dahai(actor=0, pai="6s", tsumogiri=False),
        ev.Chi(actor=1, target=0, pai="6s", consumed=["?", "5s"]),
        ev.Dahai(actor=1, pai="3s", tsumogiri=False),
    ]
    assert found(feed(stream)) == []


def test_a_genbutsu_swap_that_makes_a_fifth_copy_is_a_misreading_not_a_kuikae():
    # a camera's pon of E and an E discard right after it: with an E already in view (here the
    # dora indicator), that discard is a fifth E, so a tile is misread somewhere (the winds read
    # as one another on unseen art)
    def pon_e(dora: str) -> list:
        stream = start_unseen(dora=dora) + [
            ev.Tsumo(actor=0, pai="?"),
            ev.Dahai(actor=0, pai="E", tsumogiri=False),
        ]
        return stream + [
            ev.Pon(actor=2, target=0, pai="E", consumed=["E", "E"]),
            ev.Dahai(actor=2, pai="E", tsumogiri=False),
        ]

    assert found(feed(pon_e("1p"))) == [("kuikae", 2, "dead_hand")]  # the fourth E: a swap
    assert found(feed(pon_e("E"))) == []


def test_a_fifth_copy_overruled_earlier_in_the_kyoku_does_not_silence_a_kuikae():
    # set 4's kuikae-jansou-2-k2: a river E read as a fifth E early in the kyoku, recorded as its
    # runner-up W; later a chi of 3p with 1p 2p and a 3p discarded, the table read with four of
    # every kind or fewer: a swap (the old misreading is no sign that this one is)
    stream = framed(
        start_unseen(dora="E")
        + draw(0, "?", "E", slot=(0, 0, False))
        + draw(1, "?", "E", slot=(0, 0, False))
        + draw(2, "?", "E", slot=(0, 0, False))
        + draw(3, "?", "E", slot=(0, 0, False))
    )
    stream += [
        ev.Retract(target_type="dahai", target_frame=stream[-1].frame, actor=3, pai="W", fifth_copy="E"),
        *draw(0, "?", "3p", slot=(0, 1, False)),
        ev.Chi(actor=1, target=0, pai="3p", consumed=["1p", "2p"]),
        ev.Dahai(actor=1, pai="3p", tsumogiri=False, slot=SEEN_SLOT),
    ]
    assert found(feed(stream)) == [("kuikae", 1, "dead_hand")]


def test_an_unread_discard_after_a_pon_with_an_unread_tile_is_no_kuikae():
    stream = start_unseen() + [
        ev.Tsumo(actor=0, pai="?"),
        ev.Dahai(actor=0, pai="C", tsumogiri=False),
        ev.Pon(actor=2, target=0, pai="C", consumed=["?", "C"]),
        ev.Dahai(actor=2, pai="?", tsumogiri=False),
    ]
    assert found(feed(stream)) == []


def test_a_cameras_kuikae_stands_alone_its_seats_later_calls_are_not_alerted():
    # from a camera a kuikae is judged on tile faces read (the discard's, the meld's): a misread
    # discard must not turn that seat's later calls and win into chombo alerts too
    def stream(slot):
        s = start(CHI_HANDS) + draw(0, "6s", slot=slot)
        s += [ev.Chi(actor=1, target=0, pai="6s", consumed=["4s", "5s"])]
        s += [
            ev.Dahai(
                actor=1,
                pai="3s",
                tsumogiri=False,
                slot=None if slot is None else SEEN_SLOT,
            )
        ]
        s += draw(2, "P", slot=slot) + draw(3, "P", slot=slot) + draw(0, "5p", slot=slot)
        return s + [ev.Chi(actor=1, target=0, pai="5p", consumed=["3p", "4p"])]

    assert found(feed(stream(None))) == [("kuikae", 1, "dead_hand"), ("illegal_call", 1, "chombo")]
    assert found(feed(stream((0, 1, False)))) == [("kuikae", 1, "dead_hand")]


def test_a_call_read_again_before_the_discard_is_judged_as_read_again():
    # the camera read seat 1's chi as 6s with 45s, then corrected it to 78s before the discard
    stream = framed(seen_opening("6s") + [ev.Chi(actor=1, target=0, pai="6s", consumed=["4s", "5s"])])
    fix = ev.Retract(target_type="chi", target_frame=40, actor=1, pai="6s", consumed=["7s", "8s"], frame=60)
    then = ev.Dahai(actor=1, pai="3s", tsumogiri=False, slot=SEEN_SLOT, frame=100)
    assert found(feed(stream + [then])) == [("kuikae", 1, "dead_hand")]  # 3s with 45s: a swap
    assert found(feed(stream + [fix, then])) == []  # 3s with 78s: none
    assert found(feed(stream + [fix, then.model_copy(update={"pai": "9s"})])) == [("kuikae", 1, "dead_hand")]


def test_the_called_kind_is_a_swap_even_with_an_exposed_tile_unread():
    # kuikae-jansou-2-k2: chi 8s with 67s read as "7s ?", then 8s discarded: genbutsu whatever the
    # unread tile is
    stream = framed(seen_opening("8s") + [ev.Chi(actor=1, target=0, pai="8s", consumed=["7s", "?"])])
    then = ev.Dahai(actor=1, pai="8s", tsumogiri=False, slot=SEEN_SLOT, frame=100)
    assert found(feed(stream + [then])) == [("kuikae", 1, "dead_hand")]
    assert found(feed(stream + [then.model_copy(update={"pai": "5s"})])) == []  # suji: unknown run
    pon = framed(seen_opening("C") + [ev.Pon(actor=1, target=0, pai="C", consumed=["?", "?"])])
    assert found(feed(pon + [then.model_copy(update={"pai": "C"})])) == [("kuikae", 1, "dead_hand")]


@pytest.mark.parametrize("kind", ["S", "C"])
def test_a_pon_of_a_wind_none_of_whose_faces_was_read_surely_is_no_kuikae_evidence(kind):
    # set 7's mleague hanchan 24390: a pon of S, its faces read S ? E (all unsure), then a W
    # discard read S: winds are the faces a reader takes for one another. A dragon's are not
    def pon_then(unsure):
        laid = ev.MeldPlacement(tiles=[kind] * 3, sideways=[0], unsure=unsure)
        stream = framed(
            seen_opening(kind) + [ev.Pon(actor=1, target=0, pai=kind, consumed=[kind] * 2, laid=laid)]
        )
        then = ev.Dahai(actor=1, pai=kind, tsumogiri=False, slot=SEEN_SLOT, frame=100)
        return found(feed(stream + [then]))

    assert pon_then([0, 1, 2]) == ([] if kind == "S" else [("kuikae", 1, "dead_hand")])
    assert pon_then([0, 2]) == [("kuikae", 1, "dead_hand")]  # one face read surely
    assert pon_then(None) == [("kuikae", 1, "dead_hand")]


def test_a_pons_kind_is_read_from_either_exposed_tile():
    from rules_check.checks.kuikae import forbidden

    assert forbidden(ev.Pon(actor=1, target=0, pai="?", consumed=["?", "E"])) == {"E"}
    assert forbidden(ev.Pon(actor=1, target=0, pai="?", consumed=["E", "?"])) == {"E"}
    assert forbidden(ev.Pon(actor=1, target=0, pai="C", consumed=["?", "?"])) == {"C"}
    assert forbidden(ev.Pon(actor=1, target=0, pai="?", consumed=["?", "?"])) == set()
    # reads that disagree: the kind most name, the called tile's on a tie (whatever the order)
    assert forbidden(ev.Pon(actor=1, target=0, pai="S", consumed=["E", "S"])) == {"S"}
    assert forbidden(ev.Pon(actor=1, target=0, pai="S", consumed=["S", "E"])) == {"S"}
    assert forbidden(ev.Pon(actor=1, target=0, pai="S", consumed=["?", "E"])) == {"S"}
    assert forbidden(ev.Pon(actor=1, target=0, pai="S", consumed=["E", "E"])) == {"E"}


def test_a_discard_taken_back_as_gone_is_no_play_between_the_call_and_the_swap():
    # the camera saw a ghost's box as seat 1's discard, took it back, then saw the real one
    stream = framed(seen_opening("6s") + [ev.Chi(actor=1, target=0, pai="6s", consumed=["4s", "5s"])])
    ghost = ev.Dahai(actor=1, pai="P", tsumogiri=False, slot=SEEN_SLOT, frame=100)
    gone = ev.Retract(target_type="dahai", target_frame=100, actor=1, frame=110)
    then = ev.Dahai(actor=1, pai="3s", tsumogiri=False, slot=SEEN_SLOT, frame=120)
    assert found(feed(stream + [ghost, gone, then])) == [("kuikae", 1, "dead_hand")]
    assert found(feed(stream + [ghost, then])) == []  # (a discard not taken back: a later turn's)


def test_a_ghost_discard_seen_again_after_the_swap_withdraws_the_kuikae():
    # the discard taken back as gone is seen again where it lay (its retraction taken back): a
    # play between the call and the swap after all
    stream = framed(seen_opening("6s") + [ev.Chi(actor=1, target=0, pai="6s", consumed=["4s", "5s"])])
    ghost = ev.Dahai(actor=1, pai="P", tsumogiri=False, slot=SEEN_SLOT, frame=100)
    gone = ev.Retract(target_type="dahai", target_frame=100, actor=1, frame=110)
    then = ev.Dahai(actor=1, pai="3s", tsumogiri=False, slot=SEEN_SLOT, frame=120)
    seen_again = ev.Retract(target_type="retract", target_frame=110, actor=1, frame=130)
    assert found(feed(stream + [ghost, gone, then, seen_again])) == []


def test_a_kuikae_rests_on_the_call_still_standing_not_one_taken_back():
    # seat 1 pons S (40); a ghost discard of seat 2 and a pon of it by seat 1 are read and taken
    # back; seat 1 discards S (70): a swap on the pon at 40, withdrawn when that pon is read again
    pon = framed(seen_opening("S") + [ev.Pon(actor=1, target=0, pai="S", consumed=["S", "S"])])
    ghosts = [
        ev.Dahai(actor=2, pai="P", tsumogiri=False, slot=SEEN_SLOT, frame=50),
        ev.Pon(actor=1, target=2, pai="P", consumed=["P", "P"], frame=55),
        ev.Retract(target_type="pon", target_frame=55, actor=1, frame=60),
        ev.Retract(target_type="dahai", target_frame=50, actor=2, frame=61),
    ]
    then = ev.Dahai(actor=1, pai="S", tsumogiri=False, slot=SEEN_SLOT, frame=70)
    reread = ev.Retract(target_type="pon", target_frame=40, actor=1, pai="W", consumed=["W", "W"], frame=80)
    assert found(feed(pon + ghosts + [then])) == [("kuikae", 1, "dead_hand")]
    assert found(feed(pon + ghosts + [then, reread])) == []


def test_a_call_read_again_judges_the_discard_after_it_past_a_ghost_taken_back():
    stream = framed(seen_opening("1m") + [ev.Chi(actor=1, target=0, pai="1m", consumed=["?", "7m"])])
    ghost = ev.Dahai(actor=1, pai="P", tsumogiri=False, slot=SEEN_SLOT, frame=100)
    gone = ev.Retract(target_type="dahai", target_frame=100, actor=1, frame=110)
    then = ev.Dahai(actor=1, pai="4m", tsumogiri=False, slot=SEEN_SLOT, frame=120)
    fix = ev.Retract(target_type="chi", target_frame=40, actor=1, pai="1m", consumed=["2m", "3m"], frame=130)
    assert found(feed(stream + [ghost, gone, then, fix])) == [("kuikae", 1, "dead_hand")]


def test_a_ghost_taken_back_after_the_discard_and_seen_again_withdraws_the_read_again_kuikae():
    # (review helper-30) the ghost (100) lay before the discard (120) but was taken back after it
    # (125); the chi read again (130) makes the 4m a swap; the ghost seen again (140) was a play
    # between the call and the 4m
    stream = framed(seen_opening("1m") + [ev.Chi(actor=1, target=0, pai="1m", consumed=["?", "7m"])])
    ghost = ev.Dahai(actor=1, pai="P", tsumogiri=False, slot=SEEN_SLOT, frame=100)
    then = ev.Dahai(actor=1, pai="4m", tsumogiri=False, slot=SEEN_SLOT, frame=120)
    gone = ev.Retract(target_type="dahai", target_frame=100, actor=1, frame=125)
    fix = ev.Retract(target_type="chi", target_frame=40, actor=1, pai="1m", consumed=["2m", "3m"], frame=130)
    seen_again = ev.Retract(target_type="retract", target_frame=125, actor=1, frame=140)
    assert found(feed(stream + [ghost, then, gone, fix])) == [("kuikae", 1, "dead_hand")]
    assert found(feed(stream + [ghost, then, gone, fix, seen_again])) == []


def _chi_read_again_after_the_discard(first: list[str], again: list[str], discard: str) -> list:
    """Seat 1 chis 1m with ``first`` (read so), discards ``discard``, then the chi is read again
    as ``again`` (kuikae-jansou-1-k0: "1m ? 7m" read again as 1m 2m 3m after the 4m discard)."""
    stream = framed(seen_opening("1m") + [ev.Chi(actor=1, target=0, pai="1m", consumed=first)])
    then = ev.Dahai(actor=1, pai=discard, tsumogiri=False, slot=SEEN_SLOT, frame=100)
    fix = ev.Retract(target_type="chi", target_frame=40, actor=1, pai="1m", consumed=again, frame=130)
    return stream + [then, fix]


def test_a_call_read_again_after_its_discard_judges_that_discard_again():
    checker = feed(_chi_read_again_after_the_discard(["?", "7m"], ["2m", "3m"], "4m"))
    assert found(checker) == [("kuikae", 1, "dead_hand")]
    assert [a.frame for a in checker.alerts if a.code == "kuikae"] == [100]  # the discard's frame
    # read again to a call the discard makes no set with: nothing
    assert found(feed(_chi_read_again_after_the_discard(["?", "7m"], ["2m", "3m"], "9m"))) == []
    # a swap on the first reading too: judged then, reported once
    assert found(feed(_chi_read_again_after_the_discard(["2m", "3m"], ["2m", "3m"], "4m"))) == [
        ("kuikae", 1, "dead_hand")
    ]


def test_a_call_read_again_after_a_later_turn_is_no_kuikae():
    stream = framed(seen_opening("1m") + [ev.Chi(actor=1, target=0, pai="1m", consumed=["?", "7m"])])
    stream += [
        ev.Dahai(actor=1, pai="9p", tsumogiri=False, slot=SEEN_SLOT, frame=100),
        ev.Tsumo(actor=2, pai="?", frame=110),
        ev.Dahai(actor=2, pai="4m", tsumogiri=False, slot=SEEN_SLOT, frame=120),
    ]
    fix = ev.Retract(target_type="chi", target_frame=40, actor=1, pai="1m", consumed=["2m", "3m"], frame=130)
    assert found(feed(stream + [fix])) == []


def test_a_discard_read_again_as_the_swap_kind_is_not_judged_again():
    # hanchan-jansou-0 18254: pon of S, the 1s discarded after it read E, then S (1s -> S is the
    # reader's commonest confusion): a kuikae found on that would be a false one
    stream = framed(seen_opening("S") + [ev.Pon(actor=1, target=0, pai="S", consumed=["S", "S"])])
    then = ev.Dahai(actor=1, pai="E", tsumogiri=False, slot=SEEN_SLOT, frame=100)
    fix = ev.Retract(target_type="dahai", target_frame=100, actor=1, pai="S", frame=130)
    assert found(feed(stream + [then, fix])) == []
    # read as the swap kind at once, then read again as another: the held alert is withdrawn
    back = ev.Retract(target_type="dahai", target_frame=100, actor=1, pai="E", frame=150)
    assert found(feed(stream + [then.model_copy(update={"pai": "S"})])) == [("kuikae", 1, "dead_hand")]
    assert found(feed(stream + [then.model_copy(update={"pai": "S"}), back])) == []


def test_a_call_read_again_after_its_discard_was_taken_back_judges_nothing():
    stream = _chi_read_again_after_the_discard(["?", "7m"], ["2m", "3m"], "4m")
    gone = ev.Retract(target_type="dahai", target_frame=100, actor=1, frame=120)
    assert found(feed(stream[:-1] + [gone, stream[-1]])) == []


def test_a_call_read_again_into_a_fifth_copy_is_a_misreading_not_a_kuikae():
    # as test_a_genbutsu_swap_that_makes_a_fifth_copy_is_a_misreading_not_a_kuikae, but the pon
    # is read S S S first and E E E only after the E discard: with the dora indicator E, the
    # corrected table holds five E (pon 3, discard, indicator). Read E E E at once, no alert.
    opening = start_unseen(dora="E") + [
        ev.Tsumo(actor=0, pai="?"),
        ev.Dahai(actor=0, pai="S", tsumogiri=False, slot=SEEN_SLOT),
    ]
    stream = framed(opening + [ev.Pon(actor=2, target=0, pai="S", consumed=["S", "S"])])  # pon at 40
    then = ev.Dahai(actor=2, pai="E", tsumogiri=False, slot=SEEN_SLOT, frame=100)
    fix = ev.Retract(target_type="pon", target_frame=40, actor=2, pai="E", consumed=["E", "E"], frame=130)
    assert found(feed(stream + [then, fix])) == []


def _seat1_chi(called: str, consumed: list[str]) -> list:
    """Seat 0 discards ``called`` (camera-read), seat 1 chis it with ``consumed`` at frame 40."""
    return framed(seen_opening(called) + [ev.Chi(actor=1, target=0, pai=called, consumed=consumed)])


def _chi_read_again_as(consumed: list[str], frame: int, called: str = "1m") -> ev.Retract:
    """That chi read again with ``consumed`` at ``frame``."""
    return ev.Retract(target_type="chi", target_frame=40, actor=1, pai=called, consumed=consumed, frame=frame)


def test_a_call_read_back_and_forth_after_its_alert_was_said_alerts_once():
    # chi 1m read "? 7m", 4m discarded, the chi read 23m (a swap: alert held, then said), read
    # "? 7m" again (too late to withdraw), then 23m again: the same discard is alerted twice
    stream = _seat1_chi("1m", ["?", "7m"])
    then = ev.Dahai(actor=1, pai="4m", tsumogiri=False, slot=SEEN_SLOT, frame=100)
    fix = _chi_read_again_as
    stream += [then, fix(["2m", "3m"], 130), ev.Tsumo(actor=2, pai="?", frame=300)]  # said by 300
    stream += [fix(["?", "7m"], 400), fix(["2m", "3m"], 430)]
    stream += [ev.Dahai(actor=2, pai="9p", tsumogiri=True, slot=SEEN_SLOT, frame=700)]
    checker = feed(stream)
    assert found(checker) == [("kuikae", 1, "dead_hand")]


def test_a_kuikae_said_then_its_call_read_back_and_forth_alerts_once():
    # the same through the discard's own judgement: chi 1m with 23m, 4m discarded (a swap, said
    # after the hold), the chi then read "? 7m" and again 23m
    stream = _seat1_chi("1m", ["2m", "3m"])
    then = ev.Dahai(actor=1, pai="4m", tsumogiri=False, slot=SEEN_SLOT, frame=100)
    fix = _chi_read_again_as
    stream += [then, ev.Tsumo(actor=2, pai="?", frame=300)]  # said by 300
    stream += [
        fix(["?", "7m"], 400),
        fix(["2m", "3m"], 430),
        ev.Dahai(actor=2, pai="9p", tsumogiri=True, slot=SEEN_SLOT, frame=700),
    ]
    assert found(feed(stream)) == [("kuikae", 1, "dead_hand")]


def test_a_call_read_again_is_judged_as_this_correction_says_not_layered_on_the_last_one():
    # chi 3m read with 12m; 6m discarded (no swap). Read again as a pon of 3m (as_type="pon"),
    # then as the chi 3m with 45m (as_type None: the type first emitted). Each correction replaces
    # the one before (tracker.events.apply_retractions; TableState._relay lays a chi): 6m is the
    # suji swap of 45m
    stream = _seat1_chi("3m", ["1m", "2m"])
    then = ev.Dahai(actor=1, pai="6m", tsumogiri=False, slot=SEEN_SLOT, frame=100)
    as_pon = ev.Retract(
        target_type="chi", target_frame=40, actor=1, pai="3m", consumed=["3m", "3m"], as_type="pon", frame=130
    )
    as_chi = ev.Retract(
        target_type="chi", target_frame=40, actor=1, pai="3m", consumed=["4m", "5m"], frame=160
    )
    checker = feed(stream + [then, as_pon, as_chi])
    assert checker.state.call_meld(1, 40).type == "chi"  # (the record's state has the chi again)
    assert found(checker) == [("kuikae", 1, "dead_hand")]


def test_a_pon_laid_with_none_of_its_own_tiles_read_is_no_kuikae_evidence():
    # set 7 t6-confusing_nakis_2 605 (low camera): a pon of 8m laid "9m ? ?" (the river's misread
    # of the called tile), then a 7m discard read 9m: two misreads agreeing. One own tile read
    # of the kind is evidence; a record without a layout is judged as written
    def pon_then(laid_tiles):
        laid = None if laid_tiles is None else ev.MeldPlacement(tiles=laid_tiles, sideways=[0])
        pon = ev.Pon(actor=1, target=0, pai="9m", consumed=["9m", "9m"], laid=laid)
        then = ev.Dahai(actor=1, pai="9m", tsumogiri=False, slot=SEEN_SLOT, frame=100)
        return found(feed(framed(seen_opening("9m") + [pon]) + [then]))

    assert pon_then(["9m", "?", "?"]) == []
    assert pon_then(["9m", "9m", "?"]) == [("kuikae", 1, "dead_hand")]
    assert pon_then(["9m", "?", "9m"]) == [("kuikae", 1, "dead_hand")]
    assert pon_then(None) == [("kuikae", 1, "dead_hand")]
