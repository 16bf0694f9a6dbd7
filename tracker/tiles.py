"""Tile codes: the one module that owns them and every conversion.

Codes are mjai's (``1m``..``9s``, red fives ``5mr 5pr 5sr``, honours ``E S W N P F C``, ``?``),
plus MCR bonus tiles ``flower1..4`` / ``season1..4`` and the vision-only ``back`` / ``standing``.
Conversions: tenhou.net/6 integers (11..47, red fives 51..53), the 34-kind index, model class ids,
and a compact tile-string notation for tests and logs (``"1230m456p77z"``, 0 = red five,
``z`` = honours 1..7 in E S W N P F C order).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

SUITS = ("m", "p", "s")
HONORS = ("E", "S", "W", "N", "P", "F", "C")
RED_FIVES = ("5mr", "5pr", "5sr")
FLOWERS = tuple(f"flower{i}" for i in range(1, 5))
SEASONS = tuple(f"season{i}" for i in range(1, 5))
BONUS = FLOWERS + SEASONS
UNKNOWN = "?"
BACK = "back"
STANDING = "standing"

#: the 34 kinds in the usual order: 1m..9m, 1p..9p, 1s..9s, E S W N P F C
KINDS34: tuple[str, ...] = tuple(f"{n}{s}" for s in SUITS for n in range(1, 10)) + HONORS

#: every code a tile in a game record can carry (no vision-only classes)
GAME_CODES: tuple[str, ...] = KINDS34 + RED_FIVES + BONUS + (UNKNOWN,)

#: the detector's classes, in model class-id order
MODEL_CLASSES: tuple[str, ...] = KINDS34 + RED_FIVES + BONUS + (BACK, STANDING)

ALL_CODES = frozenset(GAME_CODES + (BACK, STANDING))

_KIND_INDEX = {code: i for i, code in enumerate(KINDS34)}
_CLASS_ID = {code: i for i, code in enumerate(MODEL_CLASSES)}


def check(code: str) -> str:
    """Return ``code`` if it is a known tile code, else raise ``ValueError`` naming it."""
    if code not in ALL_CODES:
        raise ValueError(f"unknown tile code {code!r}")
    return code


def is_red(code: str) -> bool:
    return code in RED_FIVES


def is_honor(code: str) -> bool:
    return code in HONORS


def is_bonus(code: str) -> bool:
    return code in BONUS


def suit(code: str) -> str | None:
    """``m``/``p``/``s`` for number tiles, ``z`` for honours, None for anything else."""
    if code in HONORS:
        return "z"
    if len(code) >= 2 and code[1] in SUITS and code[0].isdigit():
        return code[1]
    return None


def number(code: str) -> int | None:
    """1..9 for number tiles, None otherwise."""
    return int(code[0]) if suit(code) in SUITS else None


def deaka(code: str) -> str:
    """The plain kind of a tile: ``5mr`` -> ``5m``; other codes unchanged."""
    return code[:2] if code in RED_FIVES else check(code)


def kind34(code: str) -> int:
    """0..33 index of a tile's kind (red fives map to their five)."""
    try:
        return _KIND_INDEX[deaka(code)]
    except KeyError:
        raise ValueError(f"tile code {code!r} has no 34-kind index") from None


def from_kind34(index: int) -> str:
    if not 0 <= index < 34:
        raise ValueError(f"34-kind index {index!r} out of range 0..33")
    return KINDS34[index]


def class_id(code: str) -> int:
    """Model class id of a code (``?`` has none)."""
    try:
        return _CLASS_ID[code]
    except KeyError:
        raise ValueError(f"tile code {code!r} is not a model class") from None


def from_class_id(index: int) -> str:
    if not 0 <= index < len(MODEL_CLASSES):
        raise ValueError(f"model class id {index!r} out of range 0..{len(MODEL_CLASSES) - 1}")
    return MODEL_CLASSES[index]


# --- tenhou.net/6 integers ------------------------------------------------------------------

_TENHOU_SUIT = {"m": 1, "p": 2, "s": 3}


def to_tenhou(code: str) -> int:
    """tenhou.net/6 integer: 11..19 man, 21..29 pin, 31..39 sou, 41..47 ESWNPFC, 51..53 red fives."""
    if code in RED_FIVES:
        return 51 + SUITS.index(code[1])
    if code in HONORS:
        return 41 + HONORS.index(code)
    s = suit(code)
    if s in SUITS and code in _KIND_INDEX:
        return _TENHOU_SUIT[s] * 10 + int(code[0])
    raise ValueError(f"tile code {code!r} has no tenhou.net/6 number")


def from_tenhou(value: int) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        tens, unit = divmod(value, 10)
        if 1 <= tens <= 3 and 1 <= unit <= 9:
            return f"{unit}{SUITS[tens - 1]}"
        if tens == 4 and 1 <= unit <= 7:
            return HONORS[unit - 1]
        if tens == 5 and 1 <= unit <= 3:
            return RED_FIVES[unit - 1]
    raise ValueError(f"invalid tenhou.net/6 tile number {value!r}")


# --- tile strings ---------------------------------------------------------------------------

_GROUP = re.compile(r"(\d+)([mpsz])")


def parse(text: str) -> list[str]:
    """Parse a tile string into codes, in order.

    ``"1230m456p77z"`` -> ``1m 2m 3m 5mr 4p 5p 6p C C``. Digits before a suit letter belong to
    it; ``0`` is the red five; honours are ``1z``..``7z`` (E S W N P F C). Whitespace is ignored.
    Mjai codes separated by spaces (``"1m 5mr E"``) are accepted too.
    """
    text = text.strip()
    if not text:
        return []
    tokens = text.split()
    if all(tok in ALL_CODES for tok in tokens):
        return tokens
    compact = "".join(tokens)
    out: list[str] = []
    pos = 0
    for match in _GROUP.finditer(compact):
        if match.start() != pos:
            raise ValueError(f"bad tile string {text!r}: cannot read {compact[pos : match.start()]!r}")
        digits, s = match.groups()
        for d in digits:
            out.append(_digit_code(int(d), s, text))
        pos = match.end()
    if pos != len(compact):
        raise ValueError(f"bad tile string {text!r}: cannot read {compact[pos:]!r}")
    return out


def _digit_code(d: int, s: str, text: str) -> str:
    if s == "z":
        if not 1 <= d <= 7:
            raise ValueError(f"bad tile string {text!r}: honour {d}z does not exist")
        return HONORS[d - 1]
    if d == 0:
        return f"5{s}r"
    return f"{d}{s}"


def dump(codes: Iterable[str]) -> str:
    """Inverse of :func:`parse` for game tiles, grouping runs of one suit (``"1230m77z"``).

    Codes without a compact form (``?``, bonus and vision tiles) are written as mjai codes
    separated by spaces.
    """
    codes = list(codes)
    if any(suit(c) is None for c in codes):
        return " ".join(check(c) for c in codes)
    parts: list[str] = []
    run_suit = None
    digits = ""
    for c in codes:
        s = suit(c)
        d = str(HONORS.index(c) + 1) if s == "z" else ("0" if c in RED_FIVES else c[0])
        if s != run_suit and digits:
            parts.append(digits + run_suit)
            digits = ""
        run_suit = s
        digits += d
    if digits:
        parts.append(digits + run_suit)
    return "".join(parts)


def sort_key(code: str) -> tuple[int, int]:
    """Display order: by kind, red five right after its plain five, unknowns last."""
    if code in _KIND_INDEX or code in RED_FIVES:
        return (kind34(code), 1 if code in RED_FIVES else 0)
    if code in BONUS:
        return (34 + BONUS.index(code), 0)
    return (99, 0)


def sorted_codes(codes: Sequence[str]) -> list[str]:
    return sorted(codes, key=sort_key)
