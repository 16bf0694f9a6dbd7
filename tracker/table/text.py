"""A readable text picture of a TableState, for ``mjmon replay`` and for debugging."""

from __future__ import annotations

from tracker import tiles
from tracker.table.layout import RIVER_ROW
from tracker.table.state import Meld, RiverSlot, TableState

LEGEND = "legend: [x] sideways  x~ called away  x' tsumogiri  ## face down  [x+y] kakan"
SEAT_SIDE = ("bottom", "right", "top", "left")
WIND_NAMES = "ESWN"


def _slot(slot: RiverSlot) -> str:
    text = slot.code + ("'" if slot.tsumogiri else "")
    if slot.sideways:
        text = f"[{text}]"
    if slot.called_away:
        text += "~"
    return text


def _meld(meld: Meld) -> str:
    parts = []
    for i, code in enumerate(meld.tiles):
        if i in meld.face_down:
            parts.append("##")
        elif i == meld.sideways:
            parts.append(f"[{code}+{meld.added}]" if meld.added else f"[{code}]")
        else:
            parts.append(code)
    source = f" from {meld.source}" if meld.source is not None else ""
    return f"{meld.type}({' '.join(parts)}){source}"


def format_state(state: TableState) -> str:
    lines = [
        f"{state.bakaze}{state.kyoku}-{state.honba}  oya {state.oya}  kyotaku {state.kyotaku}"
        f"  dora {' '.join(state.dora_indicators)}  wall {state.live_wall} to draw,"
        f" dead wall {state.dead_wall}"
    ]
    for s, seat in enumerate(state.seats):
        wind = WIND_NAMES[(s - state.oya) % 4]
        flags = " riichi" if seat.riichi else ""
        name = f" {state.names[s]}" if state.names[s] else ""
        hand = tiles.dump(tiles.sorted_codes(seat.hand)) if seat.hand else "-"
        lines.append(
            f"seat {s} ({wind}, {SEAT_SIDE[s]}){name}  {state.scores[s]}{flags}"
            f"  hand {seat.hand_count}: {hand}"
        )
        slots = seat.river_kept
        rows = []
        present = 0
        row: list[str] = []
        for slot in slots:
            row.append(_slot(slot))
            if not slot.called_away:
                present += 1
                if present % RIVER_ROW == 0:
                    rows.append(row)
                    row = []
        if row:
            rows.append(row)
        for i, r in enumerate(rows or [[]]):
            lines.append(f"  {'river' if i == 0 else '     '}  {' '.join(r) or '-'}")
        if seat.melds:
            lines.append(f"  melds  {'  '.join(_meld(m) for m in seat.melds)}")
        if seat.flowers:
            lines.append(f"  bonus  {' '.join(seat.flowers)}")
    return "\n".join(lines)
