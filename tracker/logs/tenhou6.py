"""tenhou.net/6 JSON <-> mjai events.

A tenhou.net/6 kyoku lists each seat's takes (draws and call strings) and discards separately;
the order of play is rebuilt by replaying turns. Call strings hide their target in the position
of the letter (``c`` chi, ``p`` pon, ``m`` daiminkan, ``k`` kakan, ``a`` ankan); a take string
may wait through several discards of its tile, so where two readings are possible the replay
tries each and keeps the one that consumes every list exactly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from tracker import tiles
from tracker.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    EndGame,
    EndKyoku,
    Hora,
    Kakan,
    Pon,
    Reach,
    ReachAccepted,
    Ryukyoku,
    StartGame,
    StartKyoku,
    Tsumo,
)
from tracker.logs.errors import LogError

WINDS = "ESWN"
AGARI = "和了"
TSUMOGIRI = 60
_CALL = re.compile(r"^(\d\d)*[cpmka]\d\d(\d\d)*$")

# letter position in the call string -> seat offset of the target from the caller
_PON_TARGET = {0: 3, 2: 2, 4: 1}
_MINKAN_TARGET = {0: 3, 2: 2, 6: 1}
_PON_POSITION = {v: k for k, v in _PON_TARGET.items()}
_MINKAN_POSITION = {v: k for k, v in _MINKAN_TARGET.items()}
# jansou writes a daiminkan from shimocha with the letter at 4; read it, write tenhou's 6
_MINKAN_READ = {**_MINKAN_TARGET, 4: 1}


# --- reading ------------------------------------------------------------------------------


@dataclass
class _Call:
    """One call string taken apart (tiles as tenhou integers, in string order)."""

    letter: str
    position: int  # index of the letter in the string
    called: int  # the tile right after the letter
    others: list[int]  # every other tile, in string order


def _split_call(text: str) -> _Call:
    if not isinstance(text, str) or not _CALL.match(text):
        raise ValueError(f"bad call string {text!r}")
    pos = next(i for i, ch in enumerate(text) if ch.isalpha())
    letter = text[pos]
    called = int(text[pos + 1 : pos + 3])
    rest = text[:pos] + text[pos + 3 :]
    others = [int(rest[i : i + 2]) for i in range(0, len(rest), 2)]
    need = {"c": 2, "p": 2, "m": 3, "k": 3, "a": 3}[letter]
    if len(others) != need:
        raise ValueError(f"bad call string {text!r}: wrong number of tiles")
    return _Call(letter, pos, called, others)


def _code(value: Any) -> str:
    return tiles.from_tenhou(value)


@dataclass
class _Sim:
    """Replay position inside one kyoku."""

    tp: list[int]
    dp: list[int]
    actor: int
    events: list = field(default_factory=list)
    drawn: str | None = None
    pending_dora: int = 0  # open kans whose indicator turns after the next discard
    doras_shown: int = 1

    def copy(self) -> _Sim:
        return _Sim(
            list(self.tp),
            list(self.dp),
            self.actor,
            list(self.events),
            self.drawn,
            self.pending_dora,
            self.doras_shown,
        )


class _KyokuReader:
    def __init__(self, entry: list, where: str):
        self.where = where
        if not isinstance(entry, list) or len(entry) != 17:
            raise ValueError("a kyoku must be an array of 17 items")
        (self.kid, self.honba, self.kyotaku), self.scores, self.doras, self.uras = entry[:4]
        self.haipai = [entry[4 + 3 * p] for p in range(4)]
        self.takes = [entry[5 + 3 * p] for p in range(4)]
        self.discards = [entry[6 + 3 * p] for p in range(4)]
        self.result = entry[16]
        if not isinstance(self.result, list) or not self.result:
            raise ValueError("missing result")
        self.oya = self.kid % 4
        self._check_lists()
        self.ron_targets = set()
        if self.result[0] == AGARI:
            for detail in self.result[2::2]:
                who, src = detail[0], detail[1]
                if who != src:
                    self.ron_targets.add(src)

    def _check_lists(self) -> None:
        """Reject bad items up front, naming the seat and the item."""
        for p in range(4):
            for v in self.haipai[p]:
                _code(v)
            for v in self.takes[p]:
                if isinstance(v, str):
                    if _split_call(v).letter not in "cpm":
                        raise ValueError(f"seat {p} takes {v!r}: only chi, pon and daiminkan are taken")
                else:
                    _code(v)
            for v in self.discards[p]:
                if isinstance(v, str) and v.startswith("r"):
                    if not v[1:].isdigit() or (int(v[1:]) != TSUMOGIRI and _code(int(v[1:])) is None):
                        raise ValueError(f"seat {p} discards bad riichi item {v!r}")
                elif isinstance(v, str):
                    if _split_call(v).letter not in "ka":
                        raise ValueError(f"seat {p} discards {v!r}: only kakan and ankan are discards")
                elif v not in (0, TSUMOGIRI):
                    _code(v)

    def read(self) -> list:
        start = StartKyoku(
            bakaze=WINDS[self.kid // 4],
            kyoku=self.kid % 4 + 1,
            honba=self.honba,
            kyotaku=self.kyotaku,
            oya=self.oya,
            scores=list(self.scores),
            dora_marker=_code(self.doras[0]),
            tehais=[[_code(v) for v in h] for h in self.haipai],
        )
        sim = _Sim([0] * 4, [0] * 4, self.oya, [start])
        events = self._walk(sim, "draw")
        if events is None:
            raise ValueError("takes and discards cannot be replayed into one order of play")
        return events

    # The replay: runs straight on, branching only where a call string could belong to this
    # discard or to a later one.
    def _walk(self, sim: _Sim, phase: str) -> list | None:
        while True:
            a = sim.actor
            if phase == "draw":
                if sim.tp[a] == len(self.takes[a]):
                    return self._finish(sim)
                if not self._draw(sim, a):
                    return None
                phase = "discard"
                continue
            if sim.dp[a] == len(self.discards[a]):
                return self._finish(sim)
            item = self.discards[a][sim.dp[a]]
            sim.dp[a] += 1
            if isinstance(item, str) and not item.startswith("r"):
                call = _split_call(item)
                if call.letter not in "ka":
                    return None
                if not self._closed_kan(sim, a, call):
                    return self._finish(sim)  # robbed (chankan) or the kyoku ended
                continue
            if item == 0:
                return None
            riichi = isinstance(item, str)
            value = int(item[1:]) if riichi else item
            tsumogiri = value == TSUMOGIRI
            if tsumogiri and sim.drawn is None:
                return None
            pai = sim.drawn if tsumogiri else _code(value)
            if riichi:
                sim.events.append(Reach(actor=a))
            sim.events.append(Dahai(actor=a, pai=pai, tsumogiri=tsumogiri))
            sim.drawn = None
            self._flush_dora(sim)
            callers = self._callers(sim, a, pai)
            if not callers:
                self._pass(sim, a, riichi)
                phase = "draw"
                continue
            for caller in callers + [None]:
                branch = sim.copy()
                if caller is None:
                    self._pass(branch, a, riichi)
                    result = self._walk(branch, "draw")
                else:
                    if riichi:
                        branch.events.append(ReachAccepted(actor=a))
                    if not self._open_call(branch, caller, a):
                        continue
                    result = self._walk(branch, "discard")
                if result is not None:
                    return result
            return None

    def _draw(self, sim: _Sim, a: int) -> bool:
        take = self.takes[a][sim.tp[a]]
        if isinstance(take, str):
            return False
        sim.tp[a] += 1
        sim.drawn = _code(take)
        sim.events.append(Tsumo(actor=a, pai=sim.drawn))
        return True

    def _pass(self, sim: _Sim, a: int, riichi: bool) -> None:
        nxt = (a + 1) % 4
        ends_here = sim.tp[nxt] == len(self.takes[nxt])
        if riichi and not (ends_here and a in self.ron_targets):
            sim.events.append(ReachAccepted(actor=a))
        sim.actor = nxt

    def _callers(self, sim: _Sim, a: int, pai: str) -> list[int]:
        """Seats whose next take is a call on this discard, pon/kan before chi."""
        found = []
        for offset in (1, 2, 3):
            q = (a + offset) % 4
            if sim.tp[q] >= len(self.takes[q]) or not isinstance(self.takes[q][sim.tp[q]], str):
                continue
            call = _split_call(self.takes[q][sim.tp[q]])
            if call.letter == "c":
                target = (q + 3) % 4
            elif call.letter == "p":
                target = (q + _PON_TARGET.get(call.position, -1)) % 4
            elif call.letter == "m":
                target = (q + _MINKAN_READ.get(call.position, -1)) % 4
            else:
                continue
            if target == a and _code(call.called) == pai:
                found.append((call.letter == "c", offset, q))
        return [q for _, _, q in sorted(found)]

    def _open_call(self, sim: _Sim, q: int, a: int) -> bool:
        call = _split_call(self.takes[q][sim.tp[q]])
        sim.tp[q] += 1
        sim.actor = q
        pai = _code(call.called)
        consumed = [_code(v) for v in call.others]
        if call.letter == "c":
            sim.events.append(Chi(actor=q, target=a, pai=pai, consumed=consumed))
        elif call.letter == "p":
            sim.events.append(Pon(actor=q, target=a, pai=pai, consumed=consumed))
        else:
            sim.events.append(Daiminkan(actor=q, target=a, pai=pai, consumed=consumed))
            if sim.dp[q] >= len(self.discards[q]) or self.discards[q][sim.dp[q]] != 0:
                return False
            sim.dp[q] += 1  # tenhou writes a 0 where the daiminkan's discard would be
            sim.pending_dora += 1
            if sim.tp[q] == len(self.takes[q]):
                return False
            return self._draw_rinshan(sim, q, keep=1)
        return True

    def _closed_kan(self, sim: _Sim, a: int, call: _Call) -> bool:
        """Kakan or ankan from the discard list; False when the kyoku ends at it (chankan)."""
        if call.letter == "k":
            pai = _code(call.called)
            sim.events.append(Kakan(actor=a, pai=pai, consumed=[_code(v) for v in call.others]))
            sim.pending_dora += 1
        else:
            consumed = [_code(v) for v in call.others]
            consumed.insert(call.position // 2, _code(call.called))
            sim.events.append(Ankan(actor=a, consumed=consumed))
        if sim.tp[a] == len(self.takes[a]):
            return False
        if call.letter == "a":
            self._flush_dora(sim)
            self._reveal(sim)
            return self._draw_rinshan(sim, a, keep=0)
        return self._draw_rinshan(sim, a, keep=1)

    def _draw_rinshan(self, sim: _Sim, a: int, keep: int) -> bool:
        """Before the replacement draw, earlier open kans show their indicators."""
        while sim.pending_dora > keep:
            self._reveal(sim)
            sim.pending_dora -= 1
        return self._draw(sim, a)

    def _flush_dora(self, sim: _Sim) -> None:
        while sim.pending_dora:
            self._reveal(sim)
            sim.pending_dora -= 1

    def _reveal(self, sim: _Sim) -> None:
        if sim.doras_shown < len(self.doras):
            sim.events.append(Dora(dora_marker=_code(self.doras[sim.doras_shown])))
            sim.doras_shown += 1

    def _finish(self, sim: _Sim) -> list | None:
        for p in range(4):
            if sim.tp[p] != len(self.takes[p]) or sim.dp[p] != len(self.discards[p]):
                return None
        # a win on the replacement tile of an open kan: tables that turn open-kan indicators at
        # once (M-League) list that indicator, tenhou does not; _reveal only shows listed ones
        self._flush_dora(sim)
        if sim.doras_shown != len(self.doras):
            return None
        events = sim.events
        name = self.result[0]
        if name == AGARI:
            uras = [_code(v) for v in self.uras] or None
            items = self.result[1:]
            if len(items) % 2:
                raise ValueError("result 和了 needs (deltas, detail) pairs")
            for deltas, detail in zip(items[::2], items[1::2]):
                who, src, pao, *words = detail
                events.append(
                    Hora(
                        actor=who,
                        target=src,
                        deltas=list(deltas),
                        ura_markers=uras,
                        pao=pao,
                        score_text=words[0] if words else None,
                        yaku_text=list(words[1:]),
                    )
                )
        else:
            deltas = list(self.result[1]) if len(self.result) > 1 else None
            events.append(Ryukyoku(deltas=deltas, reason=name))
        events.append(EndKyoku())
        return events


def tenhou6_to_events(data: dict, source: str = "<tenhou6>") -> list:
    """mjai events (start_game .. end_game) of a tenhou.net/6 game."""
    if not isinstance(data, dict) or not isinstance(data.get("log"), list):
        raise LogError(source, "", "not a tenhou.net/6 log (no 'log' array)")
    header = {k: v for k, v in data.items() if k not in ("log", "name")}
    events: list = [StartGame(names=data.get("name"), tenhou=header or None)]
    for index, entry in enumerate(data["log"]):
        where = f"kyoku {index}"
        try:
            events.extend(_KyokuReader(entry, where).read())
        except (ValueError, TypeError, IndexError) as err:
            raise LogError(source, where, str(err)) from None
    events.append(EndGame())
    return events


# --- writing ------------------------------------------------------------------------------


def _num(code: str) -> int:
    try:
        return tiles.to_tenhou(code)
    except ValueError:
        raise ValueError(
            f"tile {code!r} cannot be written to tenhou.net/6 (every tile must be known)"
        ) from None


def _chain(values: list[int]) -> str:
    return "".join(str(v) for v in values)


class _KyokuWriter:
    def __init__(self, start: StartKyoku):
        self.entry_head = [
            [WINDS.index(start.bakaze) * 4 + start.kyoku - 1, start.honba, start.kyotaku],
            list(start.scores),
            [_num(start.dora_marker)],
            [],
        ]
        self.haipai = [[_num(t) for t in h] for h in start.tehais]
        self.takes: list[list] = [[], [], [], []]
        self.discards: list[list] = [[], [], [], []]
        self.reaching = [False] * 4
        self.pons: dict[tuple[int, int], str] = {}  # (seat, kind34) -> pon string
        self.result: list | None = None

    def add(self, e) -> None:
        if isinstance(e, Tsumo):
            self.takes[e.actor].append(_num(e.pai))
        elif isinstance(e, Reach):
            self.reaching[e.actor] = True
        elif isinstance(e, Dahai):
            value: Any = TSUMOGIRI if e.tsumogiri else _num(e.pai)
            if self.reaching[e.actor]:
                value = f"r{value}"
                self.reaching[e.actor] = False
            self.discards[e.actor].append(value)
        elif isinstance(e, Chi):
            self.takes[e.actor].append("c" + _chain([_num(e.pai)] + [_num(t) for t in e.consumed]))
        elif isinstance(e, Pon):
            text = self._insert(e.consumed, "p", e.pai, _PON_POSITION[(e.target - e.actor) % 4])
            self.pons[(e.actor, tiles.kind34(e.pai))] = text
            self.takes[e.actor].append(text)
        elif isinstance(e, Daiminkan):
            pos = _MINKAN_POSITION[(e.target - e.actor) % 4]
            self.takes[e.actor].append(self._insert(e.consumed, "m", e.pai, pos))
            self.discards[e.actor].append(0)
        elif isinstance(e, Kakan):
            pon = self.pons.get((e.actor, tiles.kind34(e.pai)))
            if pon is None:
                raise ValueError(f"kakan of {e.pai} by seat {e.actor} without a pon")
            self.discards[e.actor].append(pon.replace("p", "k" + str(_num(e.pai)), 1))
        elif isinstance(e, Ankan):
            nums = [_num(t) for t in e.consumed]
            self.discards[e.actor].append(_chain(nums[:3]) + "a" + str(nums[3]))
        elif isinstance(e, Dora):
            self.entry_head[2].append(_num(e.dora_marker))
        elif isinstance(e, Hora):
            if not self.entry_head[3] and e.ura_markers:
                self.entry_head[3] = [_num(t) for t in e.ura_markers]
            detail = [e.actor, e.target, e.actor if e.pao is None else e.pao]
            if e.score_text is not None or e.yaku_text:
                detail += [e.score_text or ""] + list(e.yaku_text or [])
            self.result = (self.result or [AGARI]) + [list(e.deltas or [0] * 4), detail]
        elif isinstance(e, Ryukyoku):
            self.result = [e.reason or "流局"] + ([list(e.deltas)] if e.deltas is not None else [])

    @staticmethod
    def _insert(consumed: list[str], letter: str, pai: str, position: int) -> str:
        nums = [_num(t) for t in consumed]
        cut = position // 2
        return _chain(nums[:cut]) + letter + str(_num(pai)) + _chain(nums[cut:])

    def entry(self) -> list:
        body = []
        for p in range(4):
            body += [self.haipai[p], self.takes[p], self.discards[p]]
        return self.entry_head + body + [self.result or ["流局"]]


def events_to_tenhou6(events: list) -> dict:
    """The tenhou.net/6 JSON of a game; ``ValueError`` if a tile is unknown."""
    header: dict[str, Any] = {"title": ["", ""], "rule": {"disp": "", "aka": 1}}
    names = ["", "", "", ""]
    log = []
    writer: _KyokuWriter | None = None
    for e in events:
        if isinstance(e, StartGame):
            header = dict(e.tenhou) if e.tenhou is not None else header
            names = list(e.names or names)
        elif isinstance(e, StartKyoku):
            writer = _KyokuWriter(e)
        elif isinstance(e, EndKyoku):
            if writer is not None:
                log.append(writer.entry())
            writer = None
        elif writer is not None:
            writer.add(e)
    if writer is not None:  # a log cut off mid-kyoku still keeps what was played
        log.append(writer.entry())
    return {**header, "name": names, "log": log}
