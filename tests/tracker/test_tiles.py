import pytest
from hypothesis import given
from hypothesis import strategies as st

from tracker import tiles

GAME_TILES = tiles.KINDS34 + tiles.RED_FIVES


def test_kinds_and_classes_are_complete():
    assert len(tiles.KINDS34) == 34
    assert len(set(tiles.MODEL_CLASSES)) == 34 + 3 + 8 + 2
    assert tiles.MODEL_CLASSES[-2:] == ("back", "standing")


@pytest.mark.parametrize(
    "code, number",
    [
        ("1m", 11),
        ("9m", 19),
        ("1p", 21),
        ("9s", 39),
        ("E", 41),
        ("C", 47),
        ("5mr", 51),
        ("5pr", 52),
        ("5sr", 53),
    ],
)
def test_tenhou_numbers(code, number):
    assert tiles.to_tenhou(code) == number
    assert tiles.from_tenhou(number) == code


@pytest.mark.parametrize("bad", [0, 10, 20, 48, 50, 54, 60, -1, "11", True])
def test_bad_tenhou_numbers_raise(bad):
    with pytest.raises(ValueError, match="tenhou"):
        tiles.from_tenhou(bad)


def test_all_game_codes_round_trip_through_tenhou_and_kind34():
    for code in GAME_TILES:
        assert tiles.from_tenhou(tiles.to_tenhou(code)) == code
        assert tiles.from_kind34(tiles.kind34(code)) == tiles.deaka(code)
    assert tiles.kind34("5pr") == tiles.kind34("5p") == 13


def test_class_ids_round_trip():
    for i, code in enumerate(tiles.MODEL_CLASSES):
        assert tiles.class_id(code) == i
        assert tiles.from_class_id(i) == code
    with pytest.raises(ValueError, match=r"'\?' is not a model class"):
        tiles.class_id("?")


def test_parse_compact_and_red_fives():
    assert tiles.parse("1230m456p77z") == ["1m", "2m", "3m", "5mr", "4p", "5p", "6p", "C", "C"]
    assert tiles.parse("1234567z") == list(tiles.HONORS)
    assert tiles.parse("1m 5mr ? back flower1") == ["1m", "5mr", "?", "back", "flower1"]
    assert tiles.parse("") == []


@pytest.mark.parametrize(
    "bad, token", [("12x", "12x"), ("8z", "8z"), ("123", "123"), ("m1", "m1"), ("1m 6mr", "6mr")]
)
def test_parse_names_the_bad_token(bad, token):
    with pytest.raises(ValueError) as err:
        tiles.parse(bad)
    assert token in str(err.value)


def test_check_names_bad_code():
    with pytest.raises(ValueError, match="'6pr'"):
        tiles.check("6pr")


@given(st.lists(st.sampled_from(GAME_TILES), max_size=20))
def test_dump_parse_round_trip(codes):
    assert tiles.parse(tiles.dump(codes)) == codes


def test_dump_non_compact_codes_uses_mjai():
    assert tiles.dump(["1m", "?", "flower2"]) == "1m ? flower2"


def test_suits_numbers_and_sorting():
    assert tiles.suit("5sr") == "s" and tiles.number("5sr") == 5
    assert tiles.suit("E") == "z" and tiles.number("E") is None
    assert tiles.suit("back") is None
    assert tiles.sorted_codes(["E", "5mr", "5m", "1p", "?", "flower1"]) == [
        "5m",
        "5mr",
        "1p",
        "E",
        "flower1",
        "?",
    ]
