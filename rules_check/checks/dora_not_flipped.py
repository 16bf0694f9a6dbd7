"""A kan whose new dora indicator was not turned in time.

M-League ch.4 §5.5: the kan indicator is turned as soon as the kan is shown and confirmed (not
for a kan robbed by chankan); 004 七.2: turned with the replacement draw, or for open kans after
the discard. The check gives every kan until another seat's discard after the kan maker's (the
tenhou.net/6 order, which records carry, turns an open kan's indicator before the next play;
the extra discard is slack for a camera that reads the new indicator late), so both customs pass
and a forgotten indicator does not. ``warning`` (the referee has it turned); not in MCR.

Code ``dora_not_flipped``; once per kan.
"""

from __future__ import annotations

from rules_check.situation import KANS, PLAY, Finding, Situation

CODE = "dora_not_flipped"
ARTICLES = {"mleague": "M-League ch.4 §5.5", "riichi": "004 七.1.2.2, 七.2"}


def check(event, situation: Situation) -> list[Finding]:
    if not situation.ruleset.kan_dora or (event.type not in PLAY and event.type != "wall_take"):
        return []
    history = situation.history
    kans = [(i, e) for i, e in enumerate(history) if e.type in KANS]
    flipped = sum(1 for e in history if e.type == "dora")
    out = []
    for number, (index, kan) in enumerate(kans[flipped:], start=flipped):
        after = history[index + 1 :]
        discarded = any(e.type == "dahai" and e.actor == kan.actor for e in after)
        own = next((k for k, e in enumerate(after) if e.type == "dahai" and e.actor == kan.actor), None)
        due = own is not None and any(
            e.type == "dahai" and e.actor != kan.actor for e in after[own + 1 :] + [event]
        )
        if event.type == "hora" and event.target == kan.actor and not discarded:
            due = False  # robbed (chankan) or won on the replacement tile: no indicator owed yet
        if due:
            out.append(
                Finding(
                    CODE,
                    kan.actor,
                    f"{kan.type} by seat {kan.actor}: no new dora indicator turned "
                    f"({situation.article(ARTICLES)})",
                    once=("kan", number),
                )
            )
    return out
