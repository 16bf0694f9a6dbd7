"""Agreement of the hand values with jansou's scorer: ``python -m rules_check.evaluate_values``.

jansou (a test dependency) plays M-League-rule hanchan; each game goes through its tenhou.net/6
dump, our reader and the live checker, and every win's :class:`HandValue` is compared with what
jansou scored: the score changes of the win, han, and fu (fu not compared on yakuman).

One known rule difference: M-League counts a pair of the double wind (seat and round wind) as
4 fu (000 ch.6 第3条 2, 连风牌对子计4符, as ``mahjong`` does); jansou's m-league preset counts 2
(``double_wind_fu=2``). Such wins are counted as ``explained`` when that is the whole difference:
the same han, and our fu equal to jansou's raw fu + 2 rounded up to ten.

The games are the same in every run (``tracker.logs.jansou_games``: the bots are seeded too).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field


@dataclass
class Agreement:
    wins: int = 0
    agree: int = 0
    explained: int = 0  # double-wind pair: 4 fu by the seed, 2 fu in jansou's preset
    alerts: int = 0
    games: int = 0
    mismatches: list[str] = field(default_factory=list)


def play(seed: int):
    """(tenhou.net/6 dict, jansou's Win events in order) of one m-league hanchan."""
    from tracker.logs.jansou_games import play_mleague

    data, env = play_mleague(seed)
    wins = [e for record in env.records for e in record if type(e).__name__ == "Win"]
    return data, wins


def compare(data: dict, wins: list, result: Agreement, seed: int) -> None:
    from rules_check.checker import RulesChecker
    from rules_check.ruleset import MLEAGUE
    from tracker.logs import tenhou6_to_events

    events = tenhou6_to_events(data)
    checker = RulesChecker(MLEAGUE)
    checker.feed_all(events)
    horas = [e for e in events if e.type == "hora"]
    result.games += 1
    result.alerts += len(checker.alerts)
    ordered = checker.values
    for i, (hora, win) in enumerate(zip(horas, wins)):
        result.wins += 1
        value = ordered[i] if i < len(ordered) else None
        score = win.result
        ok = (
            value is not None
            and value.deltas == list(hora.deltas or [])
            and (
                score.is_yakuman
                and value.yakuman > 0
                or value.han == score.han
                and value.fu == score.fu.total
            )
        )
        result.agree += ok
        if not ok and value is not None and _double_wind_pair_only(value, score, events, hora):
            result.explained += 1
        elif not ok:
            got = None if value is None else (value.han, value.fu, value.deltas)
            result.mismatches.append(
                f"seed {seed} win {i}: ours {got}, jansou {score.han} han {score.fu.total} fu {hora.deltas}"
            )
    if len(horas) != len(wins):
        result.mismatches.append(f"seed {seed}: {len(horas)} hora events, {len(wins)} jansou wins")


def _double_wind_pair_only(value, score, events: list, hora) -> bool:
    """True when the winner sits in the round wind and the fu differ only by the pair's 2 fu."""
    start = next(e for e in reversed(events[: events.index(hora)]) if e.type == "start_kyoku")
    seat_wind = "ESWN"[(value.seat - start.oya) % 4]
    pair_fu = [c.value for c in score.fu.components if c.reason == "pair"]
    raised = -(-(score.fu.raw + 2) // 10) * 10
    return seat_wind == start.bakaze and pair_fu == [2] and value.han == score.han and value.fu == raised


def run(games: int = 20) -> Agreement:
    result = Agreement()
    for seed in range(games):
        data, wins = play(seed)
        compare(data, wins, result, seed)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args(argv)
    try:
        import jansou  # noqa: F401
    except ImportError:
        print("jansou is not installed (pip install -e '.[test]')")
        return 2
    result = run(args.games)
    share = result.agree / result.wins if result.wins else 0.0
    print(
        f"hand values agree with jansou (m-league) on {result.agree}/{result.wins} wins "
        f"({share:.1%}) in {result.games} hanchan; {result.explained} differ only by the double-wind "
        f"pair (4 fu in the M-League seed, 2 in jansou's preset); unexplained: {len(result.mismatches)}; "
        f"alerts on these clean games: {result.alerts}"
    )
    for line in result.mismatches:
        print("  " + line)
    return 0 if not result.mismatches else 1


if __name__ == "__main__":
    raise SystemExit(main())
