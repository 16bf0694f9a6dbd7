"""Event streams written with tile strings, for hand-made test kyoku."""

from __future__ import annotations

from tracker import events as ev
from tracker import tiles

FILLER = [
    "1m2m3m4m5m6m7m8m9m1p2p3p4p",
    "1s2s3s4s5s6s7s8s9s1p2p3p4p",
    "1m2m3m4m5m6m7m8m9m5p6p7p8p",
    "1s2s3s4s5s6s7s8s9s1122z",
]


def t(text: str) -> list[str]:
    return tiles.parse(text)


def start(hands: list[str] | None = None, oya: int = 0, dora: str = "9s") -> list:
    """start_game + start_kyoku with the given four hands (tile strings)."""
    hands = hands or FILLER
    return [ev.StartGame(names=["A", "B", "C", "D"]), _east_kyoku(oya, dora, [t(h) for h in hands])]


def start_unseen(oya: int = 0, dora: str = "1p") -> list:
    """start_game + start_kyoku as a camera sees it: every dealt tile unknown (``?``)."""
    return [ev.StartGame(), _east_kyoku(oya, dora, [["?"] * 13 for _ in range(4)])]


def _east_kyoku(oya: int, dora: str, tehais: list) -> ev.StartKyoku:
    """An East-round start_kyoku with no honba or sticks and 25000 each."""
    return ev.StartKyoku(
        bakaze="E",
        dora_marker=dora,
        kyoku=oya + 1,
        honba=0,
        kyotaku=0,
        oya=oya,
        scores=[25000] * 4,
        tehais=tehais,
    )


def turn(actor: int, draw: str, discard: str | None = None, tsumogiri: bool | None = None) -> list:
    """A draw and a discard (the drawn tile itself when ``discard`` is None)."""
    out = [ev.Tsumo(actor=actor, pai=draw)]
    pai = draw if discard is None else discard
    out.append(
        ev.Dahai(actor=actor, pai=pai, tsumogiri=(discard is None) if tsumogiri is None else tsumogiri)
    )
    return out
