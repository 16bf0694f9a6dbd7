"""What a check sees: the table before the event, the ruleset, and the seats already dead."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules_check.ruleset import RuleSet
from tracker.table.state import TableState

#: events that move play on (everything but bookkeeping and camera observations)
PLAY = frozenset(
    {"tsumo", "dahai", "chi", "pon", "daiminkan", "kakan", "ankan", "flower", "hora", "ryukyoku"}
)
CALLS = frozenset({"chi", "pon", "daiminkan"})
KANS = frozenset({"daiminkan", "kakan", "ankan"})

#: ryukyoku reasons that are abortive draws (no hands shown, no tenpai judged)
ABORTIVE = frozenset(
    {"九種九牌", "四家立直", "三家和了", "四槓散了", "四風連打", "yao9", "reach4", "ron3", "kan4", "kaze4"}
)


@dataclass(frozen=True)
class Finding:
    """One irregularity a check found. ``case`` picks a per-case penalty; ``once`` (with code and
    seat) makes it be reported once per kyoku. ``frame``/``t``: where the evidence was first seen
    when the check needed several observations to be sure (default: the event's)."""

    code: str
    seat: int | None
    message: str
    case: str | None = None
    once: tuple | None = None
    frame: int | None = None
    t: float | None = None


@dataclass(frozen=True)
class Situation:
    """``table`` is the TableState BEFORE the event is applied: the event is judged against the
    table it acts on, and ``table.kyoku_events`` is everything earlier in the kyoku."""

    table: TableState
    ruleset: RuleSet
    dead: frozenset[int] = frozenset()
    #: per-kyoku memory of the checks that weigh evidence over several events (keyed by check);
    #: ``notes["refuted"]`` holds (code, seat) of findings later evidence contradicted: a seat
    #: made dead by one of them is alive again (no cascade from a doubtful reading)
    notes: dict = field(default_factory=dict)

    @property
    def history(self) -> list:
        return self.table.kyoku_events

    def article(self, articles: dict[str, str]) -> str:
        """The article of the active ruleset's seed document, for the alert message."""
        return articles.get(self.ruleset.name, "")
