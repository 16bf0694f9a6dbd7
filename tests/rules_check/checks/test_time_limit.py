from rules_check.ruleset import MCR, MLEAGUE
from tests.rules_check.kit import feed, found, start
from tracker import events as ev


def timed(first: float, later: float) -> list:
    stream = start(t0=0.0) + [
        ev.Tsumo(actor=0, pai="N", t=2.0),
        ev.Dahai(actor=0, pai="N", tsumogiri=True, t=2.0 + first),
    ]
    now = 2.0 + first
    stream += [
        ev.Tsumo(actor=1, pai="P", t=now + 1),
        ev.Dahai(actor=1, pai="P", tsumogiri=True, t=now + later),
    ]
    return stream


def test_within_the_limits():
    assert found(feed(timed(29.0, 14.0), MCR)) == []


def test_dealer_first_discard_over_30_s():
    checker = feed(timed(31.0, 5.0), MCR)
    assert found(checker) == [("time_limit", 0, "warning")]
    assert "first discard took 31.0 s, the limit is 30 s" in checker.alerts[0].message


def test_discard_over_15_s_after_the_previous_one():
    checker = feed(timed(10.0, 16.5), MCR)
    assert found(checker) == [("time_limit", 1, "warning")]
    assert found(feed(timed(10.0, 16.5), MLEAGUE)) == []  # no time limit in the M-League rules


def test_observations_during_the_first_think_do_not_restart_the_clock():
    stream = start(t0=0.0) + [ev.Tsumo(actor=0, pai="N", t=2.0), ev.HandCount(actor=0, count=14, t=20.0)]
    stream += [ev.Dahai(actor=0, pai="N", tsumogiri=True, t=33.0)]
    assert found(feed(stream, MCR)) == [("time_limit", 0, "warning")]
