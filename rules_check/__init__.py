"""Rules checker: event stream in, referee alerts out (``rules.check(event, state)``).

See ``checker`` (Rules, RulesChecker), ``ruleset`` (profiles and penalties), ``checks`` (one
check per file), ``value`` (the value of each win), ``alert`` (Alert, alerts.jsonl).
"""
