"""Pure algorithms for tournament formats: brackets, round robin, Swiss, standings.

Nothing in this package imports Django or any project app: the functions take plain values and
return plain values (frozen dataclasses, lists, tuples), deterministically. The `tournaments` app
stores what they return and feeds them results.

Modules:
- `types`: the shared value types (`SetSpec`, `SlotSource`, `GameResultRecord`, `StandingRow`, ...).
- `elimination`: standard seed order, single and double elimination brackets.
- `round_robin`: circle-method schedules, snake groups, group standings, group-to-playoff seeding.
- `swiss`: Swiss pairing (minimum-cost matching) and Swiss standings.
- `league`: a round robin spread over scheduled rounds.
- `standings`: the tie-break engine both standings functions share.
- `bench`: `python -m tournaments.formats.bench` prints timings.
"""
