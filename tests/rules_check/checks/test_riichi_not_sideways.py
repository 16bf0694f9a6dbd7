from tests.rules_check.kit import draw, feed, found, start
from tracker import events as ev


def test_a_riichi_tile_laid_upright_is_reported_and_a_sideways_one_is_not():
    for sideways, want in ((False, [("riichi_not_sideways", 0, "warning")]), (True, [])):
        stream = start() + [ev.Tsumo(actor=0, pai="1m"), ev.Reach(actor=0)]
        stream += [
            ev.Dahai(
                actor=0, pai="1m", tsumogiri=True, slot=ev.RiverPlacement(row=0, col=0, sideways=sideways)
            )
        ]
        stream += [ev.ReachAccepted(actor=0)] + draw(1, "N", slot=(0, 0, False))
        assert found(feed(stream)) == want


def test_a_riichi_read_from_its_stick_after_the_upright_tile_names_that_tile():
    # the camera saw no sideways tile: the reach comes after the declaration discard (the stick)
    stream = start() + draw(0, "1m", slot=(0, 0, False)) + draw(1, "N", slot=(0, 0, False))
    stream += [ev.Reach(actor=0, declaration_upright=True), ev.ReachAccepted(actor=0)]
    stream += draw(2, "W", slot=(0, 0, False)) + draw(3, "S", slot=(0, 0, False))
    stream += draw(0, "9m", slot=(0, 1, False))  # the discard after a riichi lies upright
    checker = feed(stream)
    assert found(checker) == [("riichi_not_sideways", 0, "warning")]
    assert "(1m)" in checker.alerts[0].message
    assert checker.state.seats[0].riichi and not any(s.sideways for s in checker.state.seats[0].river)


def test_a_riichi_read_from_its_stick_is_judged_only_when_the_tile_was_seen_upright():
    # the tile's slot says upright, but the camera did not see it upright on enough reads (or saw
    # it sideways): a sideways tile misread, not an irregularity
    for upright in (None, False):
        stream = start() + draw(0, "1m", slot=(0, 0, False)) + draw(1, "N", slot=(0, 0, False))
        stream += [ev.Reach(actor=0, declaration_upright=upright), ev.ReachAccepted(actor=0)]
        stream += draw(2, "W", slot=(0, 0, False))
        checker = feed(stream)
        assert found(checker) == [] and checker.state.seats[0].riichi


def test_a_declaration_tile_seen_upright_and_called_before_the_stick_was_read_is_judged_too():
    # set 8 t6-confusing_nakis_2 553: a staged upright 8m, ponned before the stick was read
    for upright, want in ((True, [("riichi_not_sideways", 0, "warning")]), (None, [])):
        stream = start() + draw(0, "8m", slot=(0, 0, False))
        stream += [ev.Pon(actor=2, target=0, pai="8m", consumed=["8m", "8m"])]
        stream += [ev.Reach(actor=0, declaration_upright=upright), ev.ReachAccepted(actor=0)]
        checker = feed(stream)
        assert found(checker) == want and checker.state.seats[0].riichi
        if want:
            assert "(8m)" in checker.alerts[0].message
