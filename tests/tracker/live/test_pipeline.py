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
