"""Hand shapes for the checks: completeness, waits, tenpai, and which tiles a win reveals.

Shapes come from the ``mahjong`` package (Agari), not from hand-written decomposition. Hands are
lists of mjai codes; only the concealed part is passed (a called meld is already a set).
"""

from __future__ import annotations

from collections.abc import Iterable

from mahjong.agari import Agari

from tracker import tiles
from tracker.table.state import TableState


def counts34(codes: Iterable[str]) -> list[int]:
    out = [0] * 34
    for code in codes:
        out[tiles.kind34(code)] += 1
    return out


def known(codes: Iterable[str]) -> bool:
    """True when every tile is read (no ``?``/``back``/``standing``)."""
    return all(c in tiles.GAME_CODES and c != tiles.UNKNOWN and not tiles.is_bonus(c) for c in codes)


def is_complete(concealed: list[str]) -> bool:
    """Pair + sets, seven pairs or thirteen orphans, for the concealed part (3n+2 tiles)."""
    if len(concealed) % 3 != 2:
        return False
    c = counts34(concealed)
    if max(c) > 4:
        return False
    return Agari.is_agari(c)


def waits(concealed: list[str]) -> set[str]:
    """Kinds (plain codes) that complete a concealed part of 3n+1 tiles."""
    if len(concealed) % 3 != 1:
        return set()
    base = counts34(concealed)
    out = set()
    for k in range(34):
        if base[k] >= 4:
            continue
        base[k] += 1
        if Agari.is_agari(base):
            out.add(tiles.from_kind34(k))
        base[k] -= 1
    return out


def own_tiles(state: TableState, seat: int, concealed: list[str]) -> list[int]:
    """34-counts of a seat's concealed tiles plus its melds (for the live-wait rule)."""
    mine = list(concealed)
    for meld in state.seats[seat].melds:
        mine += meld.all_tiles
    return counts34(c for c in mine if known([c]))


def is_tenpai(state: TableState, seat: int, concealed: list[str], live_only: bool) -> bool:
    """Tenpai; with ``live_only`` a wait on a tile the seat itself holds four of does not count."""
    found = waits(concealed)
    if not live_only:
        return bool(found)
    mine = own_tiles(state, seat, concealed)
    return any(mine[tiles.kind34(w)] < 4 for w in found)


def concealed_of(state: TableState, seat: int) -> list[str] | None:
    """The seat's concealed tiles when the state knows every one of them, else None."""
    hand = list(state.seats[seat].hand)
    return hand if known(hand) else None


def revealed_at_draw(event, state: TableState, seat: int) -> list[str] | None:
    """A seat's concealed tiles at an exhaustive draw: laid open in ``Ryukyoku.hands`` or known."""
    hands = getattr(event, "hands", None)
    if hands and seat < len(hands) and hands[seat]:
        laid = list(hands[seat])
        return laid if known(laid) else None
    return concealed_of(state, seat)


def win_tile(event, state: TableState) -> str | None:
    """The tile a ``hora`` completes on: ``pai`` if given, else the drawn tile, the robbed kakan
    tile, or the last discard."""
    if event.pai is not None and event.pai != tiles.UNKNOWN:
        return event.pai
    if event.actor == event.target:
        drawn = state.seats[event.actor].drawn
        return drawn if drawn and known([drawn]) else None
    history = state.kyoku_events
    for e in reversed(history):
        if e.type == "kakan" and e.actor == event.target:
            return e.pai
        if e.type == "dahai" and e.actor == event.target:
            return e.pai
        if e.type in ("tsumo", "chi", "pon", "daiminkan", "ankan"):
            break
    return None


def winning_hand(event, state: TableState) -> tuple[list[str], str] | None:
    """(concealed tiles including the winning tile, winning tile) of a ``hora``, from the hand laid
    open (``Hora.hand``, with or without the winning tile) or the state when it knows the hand."""
    pai = win_tile(event, state)
    if pai is None:
        return None
    melds = len(state.seats[event.actor].melds)
    need = 14 - 3 * melds
    if event.hand:
        hand = list(event.hand)
        if len(hand) == need - 1:
            hand.append(pai)
        if not known(hand) or len(hand) != need:
            return None
        if pai not in hand:  # a red five read plain (or the reverse): the hand's own tile
            pai = next((c for c in hand if tiles.deaka(c) == tiles.deaka(pai)), None)
        return (hand, pai) if pai is not None else None  # no winning tile in it: a misreading
    hand = concealed_of(state, event.actor)
    if hand is None:
        return None
    if event.actor != event.target:
        hand = hand + [pai]
    return (hand, pai) if len(hand) == need else None


def fifth_copy(table: TableState, more: Iterable[str]) -> str | None:
    """A kind seen five times or more among ``more`` and every tile in view (rivers, melds, dora
    indicators), or None. Five copies mean a misreading somewhere: no evidence to judge on. Any
    kind counts, not only those of ``more``: a table read with a fifth copy of anything is read
    poorly right now (restricted to the judged tiles' kinds, the evaluation set gained one staged
    错碰 and four false 错吃, all on tables showing a fifth copy of another kind). Only the table
    as read now: a river read the tracker overruled earlier as a fifth copy (``Retract.fifth_copy``)
    silenced every later judgement of its kyoku, staged kuikae and 错碰 with it (sets 3 and 4,
    2026-12-02), and no false alert came back without it."""
    seen = list(more)
    for seat in table.seats:
        seen += [slot.code for slot in seat.river_present]
        seen += [c for meld in seat.melds for c in meld.all_tiles]
    seen += list(table.dora_indicators)
    counts: dict[str, int] = {}
    for code in seen:
        if code in tiles.GAME_CODES and code != tiles.UNKNOWN and not tiles.is_bonus(code):
            kind = tiles.deaka(code)
            counts[kind] = counts.get(kind, 0) + 1
    over = sorted(k for k, n in counts.items() if n > 4)
    return over[0] if over else None


def shanten(concealed: list[str]) -> int:
    """Tiles away from complete (-1 complete, 0 one tile off), the concealed part of a hand."""
    from mahjong.shanten import Shanten

    return Shanten().calculate_shanten(counts34(concealed))


def meld_as_read(call, declared: list[str]) -> tuple[list[str], list[str]]:
    """(declared, the face-up laid tiles) with the faces the camera has not read surely unread
    (``laid.unsure``, and one declared tile of each such kind): a face read near another or
    inferred is no evidence of a tile laid wrong (``invalid_meld``). On sets 3, 4 and 7, 9 false
    错吃/错碰 were faces read at most 9x their runner-up face (3m read 7m, 2m read 6m, S read
    E). (Not used for ``kuikae``: the honest calls of two staged kuikae on set 4 had faces read
    so, and one false kuikae went with them.)"""
    laid = getattr(call, "laid", None)
    if laid is None:
        return list(declared), []
    unsure = set(laid.unsure or ())
    up = [tiles.UNKNOWN if i in unsure else c for i, c in enumerate(laid.tiles) if i not in laid.face_down]
    declared = list(declared)
    for i in sorted(unsure):
        kind = tiles.deaka(laid.tiles[i])
        at = next((j for j, c in enumerate(declared) if tiles.deaka(c) == kind), None)
        if at is not None:
            declared[at] = tiles.UNKNOWN
    return declared, up
