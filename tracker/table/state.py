"""TableState: what lies on the table, folded from game events (``state.update(event)``).

Per seat the river as slots, the melds as laid out, the concealed hand; dora indicators; wall
counts; scores. ``validate()`` recomputes all of it from the kyoku's events by a separate route
and raises :class:`StateError` on any disagreement or impossible count.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from tracker import events as ev
from tracker import tiles
from tracker.table import layout
from tracker.table.layout import TableRules


class StateError(ValueError):
    """An event that cannot happen in the current state, or a failed ``validate()``."""


@dataclass
class RiverSlot:
    row: int
    col: int
    code: str
    sideways: bool = False
    called_away: bool = False
    tsumogiri: bool = False
    taken_back: bool = False  # a camera took it back as never made (``TableState._take_back_discard``)


@dataclass
class Meld:
    type: str  # chi | pon | daiminkan | kakan | ankan
    tiles: list[str]  # left to right as the owner sees them (kakan: the pon's three)
    called: str | None = None
    source: int | None = None  # seat the called tile came from
    sideways: int | None = None  # index in ``tiles`` of the tile lying sideways
    added: str | None = None  # kakan: the tile laid on the sideways one
    face_down: tuple[int, ...] = ()  # ankan: indices lying face down

    @property
    def all_tiles(self) -> list[str]:
        return self.tiles + ([self.added] if self.added else [])


@dataclass
class Seat:
    river: list[RiverSlot] = field(default_factory=list)
    melds: list[Meld] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)  # concealed tiles, ``?`` where unknown
    drawn: str | None = None  # the tile drawn this turn, still set apart
    riichi: bool = False  # declared
    riichi_accepted: bool = False
    sideways_next: bool = False  # riichi tile was called away: the next discard lies sideways
    discarded_last: bool = False  # its last play was a discard (a reach now was read after it)
    flowers: list[str] = field(default_factory=list)
    seen_hand_count: int | None = None  # last standing-tile count the camera reported

    @property
    def hand_count(self) -> int:
        return len(self.hand)

    @property
    def river_kept(self) -> list[RiverSlot]:
        """The river as the record has it: discards a camera took back as never made left out."""
        return [s for s in self.river if not s.taken_back]

    @property
    def river_present(self) -> list[RiverSlot]:
        return [s for s in self.river_kept if not s.called_away]


#: events after which the last draw stood: its retraction no longer moves tiles
_PLAYS_AFTER_A_DRAW = frozenset(
    "start_kyoku dahai chi pon daiminkan kakan ankan flower hora ryukyoku end_kyoku".split()
)


class TableState:
    """The table after each event. ``rules`` sets tile count, dead wall and ankan style."""

    def __init__(self, rules: TableRules = layout.MLEAGUE):
        self.rules = rules
        self.names: list[str] = ["", "", "", ""]
        self.scores: list[int] = [25000] * 4
        self._reset_kyoku()
        self.kyoku_events: list = []
        self.in_kyoku = False
        self.game_over = False

    def _reset_kyoku(self) -> None:
        self.seats = [Seat() for _ in range(4)]
        self.bakaze = "E"
        self.kyoku = 1
        self.honba = 0
        self.kyotaku = 0
        self.oya = 0
        self.dora_indicators: list[str] = []
        self.draws = 0  # every tile taken from the wall, replacements included
        self.replacement_draws = 0
        self.kans = 0
        self.actor: int | None = None  # whose turn it is
        self.last_discard: tuple[int, int] | None = None  # (seat, river index) still callable
        # a camera reads the table between plays: the discards read on the last one's frame (two
        # rivers changed between reads, play cannot order them) may each be the one a call takes
        # (``_callable``); None once a call or a later read's draw closed them
        self._last_discard_frame: int | None = None
        # (seat, frame) of the latest discard -> the discard (seat, index) callable before its turn
        # (its draw closed it): a camera may take the latest back as read late, a call having
        # taken the one before it; that one is then callable too (``_late_prior``)
        self._latest: tuple = (None, None)
        self._late_prior: tuple[int, int] | None = None
        self._expect_replacement: int | None = None
        self._call_melds: list[tuple[Any, Meld]] = []  # each call (or ankan) event and its meld
        self._discards: dict[tuple[int, int], RiverSlot] = {}  # (seat, frame) of a seen discard -> its slot
        # (seat, frame) of the last draw -> (its tile, the discard it closed, that one's frame): a
        # camera may take it back (a call took that discard first)
        self._last_draw: tuple[tuple[int, int], str, tuple[int, int] | None, int | None] | None = None
        # (seat, frame) of a camera's retraction of a discard as gone -> each discard taken back
        # there, with the tile of the draw taken back with it (None: none), in order: a retraction
        # of that retraction gives the latest back (``events.apply_retractions``)
        self._gone: dict[tuple[int, int], list[list]] = {}

    # --- derived counts ---------------------------------------------------------------------

    @property
    def live_wall(self) -> int:
        """Draws left before the last tile (haitei)."""
        start = layout.live_wall_at_start(self.rules)
        normal = self.draws - self.replacement_draws
        if self.rules.dead_wall:
            return start - normal - self.kans
        return start - self.draws

    @property
    def dead_wall(self) -> int:
        """Tiles physically left in the dead wall (replacement draws take from it)."""
        return max(self.rules.dead_wall - self.replacement_draws, 0)

    @property
    def wall_tiles(self) -> int:
        """Tiles physically left in the wall, dead wall included."""
        return self.rules.tiles - 13 * 4 - self.draws

    # --- folding ----------------------------------------------------------------------------

    def update(self, event: Any) -> None:
        """Apply one event. Raises :class:`StateError` if the event cannot happen here."""
        handler = getattr(self, f"_on_{event.type}", None)
        if handler is None:
            raise StateError(f"no handler for event type {event.type!r}")
        if event.type not in ("start_game", "start_kyoku", "end_game") and not self.in_kyoku:
            raise StateError(f"{event.type} outside a kyoku")
        try:
            handler(event)  # (a discard reads the draw it follows: ``_on_dahai``)
        finally:
            if event.type in _PLAYS_AFTER_A_DRAW:
                self._last_draw = None  # a draw played on is no longer taken back
        if self.in_kyoku or event.type == "end_kyoku":
            self.kyoku_events.append(event)

    def _on_start_game(self, e: ev.StartGame) -> None:
        if e.names:
            self.names = list(e.names)

    def _on_start_kyoku(self, e: ev.StartKyoku) -> None:
        if len(e.tehais) != 4 or len(e.scores) != 4:
            raise StateError("start_kyoku needs four hands and four scores")
        self._reset_kyoku()
        self.kyoku_events = []
        self.in_kyoku = True
        self.bakaze, self.kyoku, self.honba, self.kyotaku, self.oya = (
            e.bakaze,
            e.kyoku,
            e.honba,
            e.kyotaku,
            e.oya,
        )
        self.scores = list(e.scores)
        self.dora_indicators = [e.dora_marker]
        for index, (seat, hand) in enumerate(zip(self.seats, e.tehais)):
            if len(hand) != 13:
                raise StateError(f"seat {index} is dealt {len(hand)} tiles, not 13")
            seat.hand = list(hand)
        self.actor = e.oya

    def _on_tsumo(self, e: ev.Tsumo) -> None:
        seat = self.seats[e.actor]
        if self.wall_tiles <= 0:
            raise StateError(f"seat {e.actor} draws from an empty wall")
        self.draws += 1
        if self._expect_replacement == e.actor:
            self.replacement_draws += 1
        replacement = self._expect_replacement == e.actor
        self._expect_replacement = None
        closed = None if replacement else (self.last_discard, self._last_discard_frame)
        self._last_draw = ((e.actor, e.frame), e.pai, *closed) if closed else None
        if e.frame is None or e.frame != self._last_discard_frame:
            self._close_last_discard()
        else:  # the next turn, read on the same frame as the discard: it stays callable
            self.last_discard = None
        seat.hand.append(e.pai)
        seat.drawn = e.pai
        seat.discarded_last = False
        self.actor = e.actor

    def _on_dahai(self, e: ev.Dahai) -> None:
        seat = self.seats[e.actor]
        self._take_from_hand(e.actor, [e.pai])
        seat.drawn = None
        row, col = layout.river_position(len(seat.river_present))
        sideways = seat.sideways_next
        seat.sideways_next = False
        seat.river.append(RiverSlot(row, col, e.pai, sideways, False, e.tsumogiri))
        seat.discarded_last = True
        if e.frame is not None:
            self._discards[(e.actor, e.frame)] = seat.river[-1]  # a correction names it so
        drew = self._last_draw  # (cleared once this discard is applied: ``update``)
        before = drew[2] if drew is not None and drew[0][0] == e.actor else self.last_discard
        self._latest = ((e.actor, e.frame), before)
        self._late_prior = None
        self.last_discard = (e.actor, len(seat.river) - 1)
        self._last_discard_frame = e.frame
        self.actor = e.actor

    def _on_reach(self, e: ev.Reach) -> None:
        seat = self.seats[e.actor]
        if seat.riichi:
            raise StateError(f"seat {e.actor} declares riichi twice")
        seat.riichi = True
        # declared holding the tile to discard, as the record has it; a reach read after its
        # declaration tile (a camera that saw the stick, the tile lying upright) leaves the river
        # as it lies, unless a call took that tile: then the seat's next discard lies sideways
        late = seat.discarded_last  # (as validate() reads it: not by the hand's count)
        seat.sideways_next = not late or bool(seat.river_kept and seat.river_kept[-1].called_away)

    def _on_reach_accepted(self, e: ev.ReachAccepted) -> None:
        seat = self.seats[e.actor]
        seat.riichi_accepted = True
        if e.scores is not None:
            self.scores = list(e.scores)
        else:
            deltas = e.deltas or [-1000 if s == e.actor else 0 for s in range(4)]
            self.scores = [a + b for a, b in zip(self.scores, deltas)]
        self.kyotaku += 1

    def _on_chi(self, e: ev.Chi) -> None:
        self._open_call("chi", e)

    def _on_pon(self, e: ev.Pon) -> None:
        self._open_call("pon", e)

    def _on_daiminkan(self, e: ev.Daiminkan) -> None:
        self._open_call("daiminkan", e)
        self.kans += 1
        self._expect_replacement = e.actor

    def _open_call(self, kind: str, e: Any) -> None:
        slot = self._callable(e.target)
        if slot is None:
            raise StateError(f"seat {e.actor} calls {kind} on seat {e.target}, who has no callable discard")
        self._late_prior = None
        target = self.seats[e.target]
        if tiles.deaka(slot.code) != tiles.deaka(e.pai) and "?" not in (slot.code, e.pai):
            raise StateError(f"seat {e.actor} calls {e.pai} but the discard is {slot.code}")
        try:
            order, sideways = _laid_out(
                kind, e.pai, list(e.consumed), layout.relative(e.actor, e.target), e.laid
            )
        except ValueError as err:
            raise StateError(f"seat {e.actor}: {err}") from None
        self._take_from_hand(e.actor, e.consumed)  # (raises before anything moves)
        if slot.taken_back:  # a discard taken back as gone that a call took: it was there
            self._give_back(e.target, self._pop_gone(slot))
        slot.called_away = True
        if slot.sideways:  # the riichi tile was taken: the next discard lies sideways instead
            target.sideways_next = True
        self._close_last_discard()
        meld = Meld(kind, order, called=e.pai, source=e.target, sideways=sideways)
        self.seats[e.actor].melds.append(meld)
        self.seats[e.actor].discarded_last = False
        self._call_melds.append((e, meld))  # a correction names it by (seat, frame)
        self.actor = e.actor

    def _on_kakan(self, e: ev.Kakan) -> None:
        seat = self.seats[e.actor]
        for meld in seat.melds:
            # the called tile names the pon (a wrongly laid pon, 错碰, holds another tile too)
            if meld.type == "pon" and tiles.deaka(meld.called or meld.tiles[0]) == tiles.deaka(e.pai):
                break
        else:
            raise StateError(f"seat {e.actor} adds {e.pai} to a pon it does not have")
        self._take_from_hand(e.actor, [e.pai])
        seat.drawn = None
        seat.discarded_last = False
        meld.type = "kakan"
        meld.added = e.pai
        self.kans += 1
        self._expect_replacement = e.actor
        self._close_last_discard()

    def _on_ankan(self, e: ev.Ankan) -> None:
        seat = self.seats[e.actor]
        self._take_from_hand(e.actor, e.consumed)
        seat.drawn = None
        seat.discarded_last = False
        meld = Meld("ankan", list(e.consumed), face_down=layout.ankan_face_down(self.rules))
        seat.melds.append(meld)
        self._call_melds.append((e, meld))  # a correction names it by (seat, frame)
        self.kans += 1
        self._expect_replacement = e.actor
        self._close_last_discard()

    def _on_flower(self, e: ev.Flower) -> None:
        seat = self.seats[e.actor]
        self._take_from_hand(e.actor, [e.pai])
        seat.flowers.append(e.pai)
        self._expect_replacement = e.actor

    # camera observations: recorded for the rules checker, they move no tile in the record
    def _on_wall_take(self, e: ev.WallTake) -> None:
        pass

    def _on_hand_count(self, e: ev.HandCount) -> None:
        self.seats[e.actor].seen_hand_count = e.count

    def _on_tile_exposed(self, e: ev.TileExposed) -> None:
        pass

    def _on_retract(self, e: ev.Retract) -> None:
        """The camera corrects itself; the record's readers apply it (events.apply_retractions).
        A riichi taken back also unwinds the seat's riichi (and its deposit), so what follows is
        not judged as a hand in riichi. A call read again is laid out anew with its corrected
        tiles (what follows judges those: a kakan, a kuikae), an ankan read again holds its
        corrected tiles, a discard read again lies in the river as that tile (a call on it takes
        that tile)."""
        if e.actor is None:
            return
        seat = self.seats[e.actor]
        meld = self.call_meld(e.actor, e.target_frame)
        slot = self._discards.get((e.actor, e.target_frame))
        if e.target_type in ("chi", "pon", "daiminkan") and e.corrects and meld is not None:
            self._relay(e.actor, meld, e)
        elif (
            e.target_type == "ankan" and e.consumed is not None and meld is not None and meld.type == "ankan"
        ):
            meld.tiles = list(e.consumed)
        elif e.target_type == "dahai" and e.corrects and slot is not None:
            slot.code = e.pai or slot.code
            slot.sideways = e.slot.sideways if e.slot is not None else slot.sideways
        elif e.target_type == "dahai" and not e.corrects:
            if self._latest[0] == (e.actor, e.target_frame):
                # the latest discard taken back (read late, or gone): the one before it may be called
                self._late_prior = self._latest[1]
            if slot is not None and not slot.taken_back and not slot.called_away:
                self._take_back_discard(e, slot)
        elif e.target_type == "tsumo" and self._last_draw and self._last_draw[0] == (e.actor, e.target_frame):
            self._draw_taken_back()
        elif e.target_type == "tsumo" and self._closed_by_discard_taken_back(e):
            self._take_back_played_draw(e)
        elif e.target_type == "retract" and self._gone.get((e.actor, e.target_frame)):
            lost = self._gone[(e.actor, e.target_frame)]
            self._give_back(e.actor, lost[-1])
            lost.pop()
        elif e.target_type == "reach" and seat.riichi:
            seat.riichi = False
            seat.sideways_next = False
            for slot in seat.river:  # no riichi: the rules lay no tile sideways
                slot.sideways = False
        elif e.target_type == "reach_accepted" and seat.riichi_accepted:
            seat.riichi_accepted = False
            self.scores[e.actor] += 1000
            self.kyotaku -= 1

    def _take_back_discard(self, fix: ev.Retract, slot: RiverSlot) -> None:
        """A discard a camera took back as never made leaves the river (the tiles after it close
        up) and its tile stays in the hand."""
        seat = self.seats[fix.actor]
        slot.taken_back = True
        seat.hand.append(slot.code)
        if slot.sideways:  # the riichi turn it took is still owed: the next discard lies sideways
            _pass_turn(seat, slot, True)
        _close_up(seat)
        self._gone.setdefault((fix.actor, fix.frame), []).append([slot, None])

    def _closed_by_discard_taken_back(self, fix: ev.Retract) -> bool:
        """Does ``fix`` take back the draw of the discard the retraction before it took back?"""
        lost = self._gone.get((fix.actor, fix.frame))
        before = self.kyoku_events[-1] if self.kyoku_events else None
        return (
            bool(lost)
            and before is not None
            and ev.its_draw_taken_back(fix, before)
            and lost[-1][0] is self._discards.get((before.actor, before.target_frame))
        )

    def _take_back_played_draw(self, fix: ev.Retract) -> None:
        """The draw a discard taken back as never made closed, taken back with it: its tile goes
        back to the wall."""
        draw = ev.named_event(fix, self.kyoku_events)
        pai = draw.pai if draw is not None else "?"
        self._take_from_hand(fix.actor, [pai])
        self.draws -= 1
        self._gone[(fix.actor, fix.frame)][-1][1] = pai

    def _give_back(self, actor: int, gone: list) -> None:
        """A discard taken back as gone was there after all (seen again, or a call took it): it
        lies in the river again, with the draw it closed."""
        slot, pai = gone
        seat = self.seats[actor]
        held = list(seat.hand)
        seat.hand += [pai] if pai is not None else []  # (the drawn tile first: a tsumogiri's)
        try:
            self._take_from_hand(actor, [slot.code])
        except StateError:
            seat.hand[:] = held
            raise
        self.draws += pai is not None
        slot.taken_back = False
        if slot.sideways:  # it takes its riichi turn back from the discard that had it
            _pass_turn(seat, slot, False)
        _close_up(seat)

    def _pop_gone(self, slot: RiverSlot) -> list:
        for lost in self._gone.values():
            for i, gone in enumerate(lost):
                if gone[0] is slot:
                    return lost.pop(i)
        raise StateError("a discard taken back that no retraction took back")  # (cannot happen)

    def _draw_taken_back(self) -> None:
        """The last draw did not stand (a call took the discard before it): its tile leaves the
        hand, the wall has it again and the discard it closed can be called."""
        (actor, _), pai, last, last_frame = self._last_draw
        self._last_draw = None
        self._take_from_hand(actor, [pai])
        self.seats[actor].drawn = None
        self.draws -= 1
        self.last_discard, self._last_discard_frame = last, last_frame

    def call_meld(self, seat: int, frame: int) -> Meld | None:
        """The meld the call (or ankan) of ``seat`` emitted at ``frame`` made this kyoku, as it lies now."""
        return next((m for c, m in reversed(self._call_melds) if (c.actor, c.frame) == (seat, frame)), None)

    def meld_of(self, call: Any) -> Meld | None:
        """The meld the call event ``call`` made this kyoku, as it lies now (found by the event
        itself: a record's calls without frames share one (seat, frame) key)."""
        return next((m for c, m in self._call_melds if c is call), None)

    def _relay(self, actor: int, meld: Meld, e: ev.Retract) -> None:
        """Lay ``meld`` out again as corrected by ``e`` (its tiles, its type); a correction that
        makes no meld the layout knows leaves it as it was."""
        if meld.type not in ("chi", "pon", "daiminkan") or meld.source is None:
            return  # (since added to: a kakan keeps its pon's tiles)
        kind = e.as_type or e.target_type  # (no as_type: the type it was first emitted as)
        called = e.pai or meld.called or tiles.UNKNOWN
        rest = [t for i, t in enumerate(meld.tiles) if i != meld.sideways]
        consumed = list(e.consumed) if e.consumed is not None else rest
        try:
            order, sideways = _laid_out(kind, called, consumed, layout.relative(actor, meld.source), e.laid)
        except ValueError:
            return
        meld.type, meld.tiles, meld.called, meld.sideways = kind, order, called, sideways

    def _on_dora(self, e: ev.Dora) -> None:
        if len(self.dora_indicators) > self.kans:
            raise StateError("a new dora indicator without a kan")
        self.dora_indicators.append(e.dora_marker)

    def _on_hora(self, e: ev.Hora) -> None:
        if e.deltas is not None:
            self.scores = [a + b for a, b in zip(self.scores, e.deltas)]
        self.kyotaku = 0
        self._close_last_discard()

    def _on_ryukyoku(self, e: ev.Ryukyoku) -> None:
        if e.deltas is not None:
            self.scores = [a + b for a, b in zip(self.scores, e.deltas)]

    def _on_end_kyoku(self, e: ev.EndKyoku) -> None:
        self.in_kyoku = False

    def _on_end_game(self, e: ev.EndGame) -> None:
        if e.scores is not None:
            self.scores = list(e.scores)
        self.game_over = True

    def _callable(self, seat: int) -> RiverSlot | None:
        """``seat``'s discard a call may take: the last discard, the one before the latest when
        that was taken back (``_late_prior``), or its latest read on the last one's frame."""
        river = self.seats[seat].river
        if self.last_discard is not None and self.last_discard[0] == seat:
            return river[self.last_discard[1]]
        prior = self._late_prior
        if prior is not None and prior[0] == seat and not river[prior[1]].called_away:
            return river[prior[1]]
        if self._last_discard_frame is None or not river:
            return None
        slot = self._discards.get((seat, self._last_discard_frame))
        return slot if slot is river[-1] and not slot.called_away else None

    def _close_last_discard(self) -> None:
        self.last_discard = None
        self._last_discard_frame = None

    def _take_from_hand(self, seat_index: int, codes: list[str]) -> None:
        """Remove tiles from a concealed hand; an unknown ``?`` stands in for any tile. All or
        none: a tile the hand lacks raises before the hand changes."""
        seat = self.seats[seat_index]
        hand = list(seat.hand)
        for code in codes:
            if code in hand:
                hand.remove(code)
            elif "?" in hand:
                hand.remove("?")
            elif code == "?" and hand:
                hand.pop()
            else:
                raise StateError(f"seat {seat_index} has no {code} in hand {tiles.dump(seat.hand)}")
        seat.hand[:] = hand

    # --- checking ---------------------------------------------------------------------------

    def validate(self) -> None:
        """Recompute the kyoku from its events by a separate route and compare; check counts."""
        if not self.kyoku_events:
            return
        fresh = _recompute(self.kyoku_events, self.rules)
        for s, (seat, want) in enumerate(zip(self.seats, fresh["seats"])):
            for key in ("river", "melds", "hand_count", "riichi"):
                got = _seat_view(seat)[key]
                if got != want[key]:
                    raise StateError(f"seat {s} {key}: incremental {got} != recomputed {want[key]}")
        for key in ("dora_indicators", "live_wall", "dead_wall", "wall_tiles", "scores", "kyotaku"):
            got = getattr(self, key)
            if got != fresh[key]:
                raise StateError(f"{key}: incremental {got} != recomputed {fresh[key]}")
        self._check_counts()

    def _check_counts(self) -> None:
        total = self.wall_tiles + sum(
            seat.hand_count
            + len(seat.river_present)
            + sum(len(m.all_tiles) for m in seat.melds)
            + len(seat.flowers)
            for seat in self.seats
        )
        if total != self.rules.tiles:
            raise StateError(f"tiles do not add up: {total} on the table, the set has {self.rules.tiles}")
        seen = Counter(tiles.kind34(c) for c in self.visible_tiles() if c != "?" and not tiles.is_bonus(c))
        over = [tiles.from_kind34(k) for k, n in seen.items() if n > 4]
        if over:
            raise StateError(f"more than four of {', '.join(over)} on the table")
        if len(self.dora_indicators) > 1 + self.kans:
            raise StateError(f"{len(self.dora_indicators)} dora indicators after {self.kans} kans")

    def visible_tiles(self) -> list[str]:
        out = list(self.dora_indicators)
        for seat in self.seats:
            out += seat.hand + [s.code for s in seat.river_present]
            for meld in seat.melds:
                out += meld.all_tiles
        return out

    # --- output -----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """A snapshot for ``state.jsonl`` and overlays."""
        return {
            "bakaze": self.bakaze,
            "kyoku": self.kyoku,
            "honba": self.honba,
            "kyotaku": self.kyotaku,
            "oya": self.oya,
            "scores": list(self.scores),
            "dora_indicators": list(self.dora_indicators),
            "live_wall": self.live_wall,
            "dead_wall": self.dead_wall,
            "wall_tiles": self.wall_tiles,
            "actor": self.actor,
            "seats": [
                {
                    **_seat_view(seat),
                    "hand": list(seat.hand),
                    "drawn": seat.drawn,
                    "flowers": list(seat.flowers),
                }
                for seat in self.seats
            ],
        }


def _pass_turn(seat: Seat, slot: RiverSlot, sideways: bool) -> None:
    """The riichi turn ``slot`` took goes to (``sideways``) or comes back from the discards after
    it: each the record keeps lies so, up to the first no call took (a called one passes it on
    again), else the seat's next discard."""
    at = next(i for i, s in enumerate(seat.river) if s is slot)
    for later in seat.river[at + 1 :]:
        if later.taken_back:
            continue
        later.sideways = sideways
        if not later.called_away:
            return
    seat.sideways_next = sideways


def _close_up(seat: Seat) -> None:
    """Each discard kept where the rules lay it: six a row, a called tile's place taken by the
    next (discards taken back as never made have none)."""
    present = 0
    for slot in seat.river_kept:
        slot.row, slot.col = layout.river_position(present)
        present += not slot.called_away


def _seat_view(seat: Seat) -> dict[str, Any]:
    return {
        "river": [{k: v for k, v in asdict(s).items() if k != "taken_back"} for s in seat.river_kept],
        "melds": [{**asdict(m), "face_down": list(m.face_down)} for m in seat.melds],
        "hand_count": seat.hand_count,
        "riichi": seat.riichi,
    }


# --- the from-scratch route used by validate() --------------------------------------------

_CONSUMES = {"chi": 2, "pon": 2, "daiminkan": 3, "kakan": 1, "ankan": 4, "flower": 1}


def _draws_taken_back(seq: list) -> set[int]:
    """Indices of the draws a ``retract`` took back before anything was played on them (not
    replacement draws: their retraction, a kakan robbed, moves no tile)."""
    out: set[int] = set()
    for j, r in enumerate(seq):
        if r.type != "retract" or r.target_type != "tsumo":
            continue
        i = next((i for i in range(j - 1, -1, -1) if ev.event_key(seq[i]) == r.names), None)
        if i is None or any(x.type in _PLAYS_AFTER_A_DRAW for x in seq[i + 1 : j]):
            continue
        before = next(
            (x for x in reversed(seq[:i]) if x.type in ("tsumo", "daiminkan", "kakan", "ankan", "flower")),
            None,
        )
        if before is None or before.type == "tsumo" or before.actor != seq[i].actor:
            out.add(i)
    return out


def _recompute(kyoku_events: list, rules: TableRules) -> dict[str, Any]:
    """Rebuild a kyoku's table by scanning its event list as a whole, not event by event."""
    start = kyoku_events[0]
    riichi_taken_back = {
        i for i in ev.taken_back(kyoku_events) if kyoku_events[i].type in ("reach", "reach_accepted")
    }
    gone = _draws_taken_back(kyoku_events) | ev.discards_taken_back(kyoku_events) | riichi_taken_back
    seq = [e for i, e in enumerate(kyoku_events) if i not in gone]
    n = len(seq)

    def called(i: int, seat: int) -> bool:
        """Did a call take the discard at i: the next play after it, or after plays read on its
        frame (a camera's read of two rivers changed at once), is a call on ``seat``."""
        frame = seq[i].frame
        for j in range(i + 1, n):
            x = seq[j]
            if x.type in ("dora", "reach_accepted") or x.type in ev.VISION_TYPES:
                continue
            if x.type in ("chi", "pon", "daiminkan"):
                return x.target == seat
            if frame is None or x.frame != frame or x.type not in ("tsumo", "dahai", "reach"):
                return False
        return False

    seats = []
    for s in range(4):
        mine = [(i, e) for i, e in enumerate(seq) if getattr(e, "actor", None) == s]
        draws = sum(1 for _, e in mine if e.type == "tsumo")
        used = sum(_CONSUMES.get(e.type, 0) for _, e in mine)
        discards = [(i, e) for i, e in mine if e.type == "dahai"]
        count = 13 + draws - len(discards) - used
        reach_at = next((i for i, e in mine if e.type == "reach"), None)
        river, present, phase = [], 0, "before"  # riichi tile: before -> pending -> done
        before = [
            e.type for i, e in mine if reach_at is not None and i < reach_at and e.type not in ev.VISION_TYPES
        ]
        if before and before[-1] == "dahai":
            # a reach read after its declaration tile: the river as it lies, unless a call took
            # that tile (the next discard lies sideways then)
            last = max(i for i, _ in discards if i < reach_at)
            phase = "before" if called(last, s) else "done"
        for i, e in discards:
            if phase == "before" and reach_at is not None and i > reach_at:
                phase = "pending"
            taken = called(i, s)
            sideways = phase == "pending"
            if sideways and not taken:
                phase = "done"
            river.append(
                {
                    "row": present // 6,
                    "col": present % 6,
                    "code": e.pai,
                    "sideways": sideways,
                    "called_away": taken,
                    "tsumogiri": e.tsumogiri,
                }
            )
            if not taken:
                present += 1
        melds = []
        for _, e in mine:
            if e.type in ("chi", "pon", "daiminkan"):
                offset = (e.target - s) % 4
                if e.type == "chi":
                    pos = 0
                elif e.type == "pon":
                    pos = {3: 0, 2: 1, 1: 2}[offset]
                else:
                    pos = {3: 0, 2: 1, 1: 3}[offset]
                rest = sorted(e.consumed, key=lambda c: (c[:2], c)) if e.type == "chi" else list(e.consumed)
                melds.append(
                    {
                        "type": e.type,
                        "tiles": rest[:pos] + [e.pai] + rest[pos:],
                        "called": e.pai,
                        "source": e.target,
                        "sideways": pos,
                        "added": None,
                        "face_down": [],
                    }
                )
            elif e.type == "kakan":
                meld = next(m for m in melds if m["type"] == "pon" and m["called"][:2] == e.pai[:2])
                meld["type"], meld["added"] = "kakan", e.pai
            elif e.type == "ankan":
                down = [1, 2] if rules.ankan_face_down == "middle" else [0, 3]
                melds.append(
                    {
                        "type": "ankan",
                        "tiles": list(e.consumed),
                        "called": None,
                        "source": None,
                        "sideways": None,
                        "added": None,
                        "face_down": down,
                    }
                )
        seats.append({"river": river, "melds": melds, "hand_count": count, "riichi": reach_at is not None})
    kans = sum(1 for e in seq if e.type in ("daiminkan", "kakan", "ankan"))
    draws = sum(1 for e in seq if e.type == "tsumo")
    replacements = 0
    for i, e in enumerate(seq):
        if e.type in ("daiminkan", "kakan", "ankan", "flower"):
            follow = next((x for x in seq[i + 1 :] if x.type != "dora"), None)
            if follow is not None and follow.type == "tsumo" and follow.actor == e.actor:
                replacements += 1
    start_live = rules.tiles - rules.dead_wall - 52
    live = start_live - (draws - replacements) - kans if rules.dead_wall else start_live - draws
    scores = list(start.scores)
    kyotaku = start.kyotaku
    for e in seq:
        if e.type == "reach_accepted":
            if e.scores is not None:
                scores = list(e.scores)
            else:
                d = e.deltas or [-1000 if k == e.actor else 0 for k in range(4)]
                scores = [a + b for a, b in zip(scores, d)]
            kyotaku += 1
        elif e.type in ("hora", "ryukyoku") and e.deltas is not None:
            scores = [a + b for a, b in zip(scores, e.deltas)]
        if e.type == "hora":
            kyotaku = 0
    return {
        "seats": seats,
        "dora_indicators": [start.dora_marker] + [e.dora_marker for e in seq if e.type == "dora"],
        "live_wall": live,
        "dead_wall": max(rules.dead_wall - replacements, 0),
        "wall_tiles": rules.tiles - 52 - draws,
        "scores": scores,
        "kyotaku": kyotaku,
    }


def _laid_out(
    kind: str, called: str, consumed: list[str], offset: int, laid: ev.MeldPlacement | None
) -> tuple[list[str], int | None]:
    """A call's tiles left to right and its sideways index, as the rules lay them; a call the rules
    cannot lay (a chi from another seat than kamicha) that a camera saw (``laid``) lies as it was
    seen: its tiles are on the table all the same, for the calls and checks that follow."""
    try:
        return layout.open_meld_order(kind, called, consumed, offset)
    except ValueError:
        if laid is None:
            raise
        return list(laid.tiles), (laid.sideways[0] if laid.sideways else None)
