"""MCR time limits (003 行牌规定 四): the dealer's first discard within 30 s of the end of the deal
(flower replacements included); after that every discard within 15 s of the previous player's
discard, calls and flower replacements included. A kan restarts the clock (the rule lists only
chi, pon and flowers as counted in the 15 s). ``warning``; MCR only (``first_discard_seconds``
and ``discard_seconds`` set in the ruleset).

Code ``time_limit``; needs ``t`` on the events.
"""

from __future__ import annotations

from rules_check.situation import KANS, Finding, Situation

CODE = "time_limit"
_DEAL = frozenset({"start_kyoku", "tsumo", "wall_take", "flower"})
ARTICLES = {"mcr": "003 行牌规定 四"}


def check(event, situation: Situation) -> list[Finding]:
    rules = situation.ruleset
    if event.type != "dahai" or event.t is None or rules.discard_seconds is None:
        return []
    history = situation.history
    discards = [e for e in history if e.type == "dahai"]
    if not discards:
        # the end of the deal: the last draw or flower replacement (camera observations such as
        # hand counts during the dealer's think do not restart the clock)
        timed = [e.t for e in history if e.t is not None and e.type in _DEAL]
        if not timed or rules.first_discard_seconds is None:
            return []
        start, limit, what = max(timed), rules.first_discard_seconds, "the dealer's first discard"
    else:
        start, limit, what = discards[-1].t, rules.discard_seconds, "discard"
        after = history[history.index(discards[-1]) + 1 :]
        kans = [e.t for e in after if e.type in KANS and e.actor == event.actor and e.t is not None]
        if kans:
            start = kans[-1]
        if start is None:
            return []
    elapsed = event.t - start
    if elapsed <= limit:
        return []
    return [
        Finding(
            CODE,
            event.actor,
            f"{what} took {elapsed:.1f} s, the limit is {limit:g} s ({situation.article(ARTICLES)})",
        )
    ]
