"""大相公 / 小相公: a hand with too many or too few tiles.

M-League ch.2 §1 (13 tiles, one more per kan) and ch.7 §2.2(1): 14+ tiles (not counting kans) is
大相公, 12 or fewer 小相公, both ``dead_hand`` at once. 002 相公 (MCR, ``xianggong``): 手牌数多於
或少于规定的数量.

Codes ``tile_count_excess`` / ``tile_count_short``. Evidence: the camera's ``hand_count`` (standing
tiles at a still moment; the tracker reports a count when it changes) against the concealed count
the record implies (13 - 3 per meld, one more while the seat holds its drawn or called tile; then
a count one lower is accepted as well, since the drawn tile may still be in the player's fingers).

One reading is not evidence enough: a standing tile the camera misses or counts twice looks
exactly like a wrong hand. A contradicting count is reported once it is confirmed, either

* seen again at a later moment (a second contradicting reading after some play, same direction), or
* still standing after the seat's own next discard has been followed by another seat's discard,
  call or win (the record expects the same count again and the camera reported no change),

and a count as the record has it refutes the doubt, except one short hand's count once the seat
before it has discarded (its draw may be in already, unread), and one long hand's count while the
seat holds its tile to discard (that tile may be lifted already: only a second contradicting
reading confirms such a doubt);

and never for a seat whose readings this kyoku contradicted the record in both directions (the
camera cannot count that hand). A count more than one tile off is the camera missing part of the
hand, not 大相公/小相公 (one tile off), and is no evidence either way. The alert points at the
first contradicting reading. A count that later agrees with the record, or contradicts it the
other way, refutes a reported finding: the seat is no longer treated as dead (its later calls and
win are judged normally). Reported once per seat and kyoku.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_check.situation import PLAY, Finding, Situation
from tracker.events import taken_back

EXCESS, SHORT = "tile_count_excess", "tile_count_short"
ARTICLES = {"mleague": "M-League ch.7 §2.2(1)", "riichi": "M-League ch.7 §2.2(1) practice", "mcr": "002 相公"}


@dataclass
class _Doubt:
    """An unconfirmed contradicting count of one seat."""

    sign: int  # +1 too many, -1 too few
    count: int
    expected: int
    frame: int | None
    t: float | None
    plays_at: int  # plays seen when it was read
    discarded: bool = False  # the seat has discarded since
    # a count as the record has it read while the seat held its tile to discard: a hand one long
    # with that tile already lifted shows it too, so only a second contradiction confirms
    challenged: bool = False


@dataclass
class _Seat:
    doubt: _Doubt | None = None
    signs: frozenset[int] = frozenset()  # directions of every contradiction this kyoku
    reported: str | None = None  # the code reported for this seat, if any


def _memory(situation: Situation) -> dict:
    notes = situation.notes
    if "tile_count" not in notes:
        notes["tile_count"] = {"seats": {s: _Seat() for s in range(4)}, "plays": 0}
    return notes["tile_count"]


def _refute(situation: Situation, seat: int, mem: _Seat) -> None:
    if mem.reported is not None:
        situation.notes.setdefault("refuted", set()).add((mem.reported, seat))


def _finding(situation: Situation, seat: int, doubt: _Doubt, how: str) -> Finding:
    code, name = (EXCESS, "大相公 too many") if doubt.sign > 0 else (SHORT, "小相公 too few")
    return Finding(
        code,
        seat,
        f"{name} tiles: {doubt.count} standing, expected {doubt.expected} with "
        f"{len(situation.table.seats[seat].melds)} melds, {how} ({situation.article(ARTICLES)})",
        once=("count",),
        frame=doubt.frame,
        t=doubt.t,
    )


def _confirmed(situation: Situation, seat: int, mem: _Seat, how: str) -> list[Finding]:
    doubt = mem.doubt
    mem.doubt = None
    if mem.reported is not None:
        return []
    finding = _finding(situation, seat, doubt, how)
    mem.reported = finding.code
    return [finding]


def _draws_next(situation: Situation, seat: int) -> bool:
    """The last play (as the camera's corrections leave the record) was the discard of the seat
    before, or there is none yet and ``seat`` deals: ``seat`` draws next, or has drawn already
    (the record has its draw once the camera reads it)."""
    history = situation.history
    gone = taken_back(history)  # (a discard taken back as never made goes with its draw)
    for i in range(len(history) - 1, -1, -1):
        e = history[i]
        if i in gone or e.type not in PLAY:
            continue
        return e.type == "dahai" and e.actor == (seat - 1) % 4
    return seat == situation.table.oya


def check(event, situation: Situation) -> list[Finding]:
    memory = _memory(situation)
    seats: dict[int, _Seat] = memory["seats"]
    if event.type in PLAY:
        memory["plays"] += 1
        out = []
        actor = getattr(event, "actor", None)
        for seat, mem in seats.items():
            doubt = mem.doubt
            if doubt is None:
                continue
            if seat == actor and event.type == "dahai":
                doubt.discarded = True
            elif seat != actor and doubt.discarded and not doubt.challenged and event.type != "tsumo":
                out += _confirmed(situation, seat, mem, "unchanged through its next turn")
        return out
    if event.type != "hand_count":
        return []
    seat = event.actor
    mem = seats[seat]
    expected = situation.table.seats[seat].hand_count
    in_turn = expected % 3 == 2  # holding the tile it will discard
    if event.count == expected:
        if _draws_next(situation, seat) and (
            (mem.doubt is not None and mem.doubt.sign < 0) or mem.reported == SHORT
        ):
            # the seat before it has discarded: a hand one short that has taken its draw shows
            # the record's count from before the draw (t6-chankan: a staged 小相公's 12 was
            # cleared by its 13 on every turn, the draw read only at its discard)
            return []
        if in_turn and ((mem.doubt is not None and mem.doubt.sign > 0) or mem.reported == EXCESS):
            # the hand one long, its discard lifted but not yet seen in the river, shows the
            # record's count (t6-confusing_nakis_2: a staged 大相公's doubt was cleared so and the
            # hand reported 4.5 s late); the next count out of turn tells
            if mem.doubt is not None:
                mem.doubt.challenged = True
            return []
        _refute(situation, seat, mem)  # the hand is seen as the record says: earlier doubts were noise
        mem.doubt = None
        return []
    if in_turn and event.count == expected - 1:
        return []  # the drawn tile may be in the fingers: says nothing either way
    if abs(event.count - expected) > 1 and not (in_turn and event.count == expected - 2):
        return []  # 大相公/小相公 are one tile off: a count further off is the camera missing the hand
    sign = 1 if event.count > expected else -1
    mem.signs = mem.signs | {sign}
    if len(mem.signs) > 1:  # contradicted both ways this kyoku: the camera cannot count this hand
        _refute(situation, seat, mem)
        mem.doubt = None
        return []
    doubt = mem.doubt
    if doubt is not None and doubt.plays_at < memory["plays"]:
        return _confirmed(situation, seat, mem, "seen again later")
    if doubt is not None:
        doubt.challenged = False  # read off the record again since: the latest reading says so
    if doubt is None:
        mem.doubt = _Doubt(sign, event.count, expected, event.frame, event.t, memory["plays"])
    return []
