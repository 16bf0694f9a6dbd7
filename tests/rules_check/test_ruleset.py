import pytest

from rules_check.checks import MODULES
from rules_check.ruleset import MCR, MLEAGUE, RIICHI, ruleset_by_name

CODES = {
    "early_draw",
    "meld_orientation",
    "tile_count_excess",
    "tile_count_short",
    "river_layout",
    "riichi_not_sideways",
    "kuikae",
    "invalid_meld",
    "illegal_call",
    "dora_not_flipped",
    "false_win",
    "noten_riichi",
    "time_limit",
    "exposed_tiles",
}


@pytest.mark.parametrize("ruleset", [MLEAGUE, RIICHI, MCR])
def test_every_profile_names_a_penalty_or_none_for_every_code(ruleset):
    assert CODES <= set(ruleset.penalties)


def test_mleague_penalties_follow_the_rulebook():
    assert MLEAGUE.penalty("early_draw") == "dead_hand"
    assert MLEAGUE.penalty("kuikae") == "dead_hand"
    assert MLEAGUE.penalty("false_win") == "chombo"
    assert MLEAGUE.penalty("illegal_call", "dead_hand") == "chombo"
    assert MLEAGUE.penalty("illegal_call", "houtei") == "dead_hand"
    assert MLEAGUE.penalty("time_limit") is None
    assert MCR.penalty("time_limit") == "warning" and MCR.penalty("riichi_not_sideways") is None


def test_every_check_cites_its_article():
    for module in MODULES:
        doc = module.__doc__
        assert doc and ("M-League" in doc or "003" in doc or "002" in doc), module.__name__
        assert hasattr(module, "check")


def test_unknown_ruleset_name():
    assert ruleset_by_name("mcr") is MCR
    with pytest.raises(ValueError, match="unknown ruleset"):
        ruleset_by_name("hk")
