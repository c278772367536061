"""How many controls the room shows at a decision, over seeded bot games of every character.

Before the cards (issue 34) the room showed a button per legal action (``len(legal)``); now it
shows a button per choice made on no card plus each card a choice can be made on, and after a
card is selected the choices made on exactly it (``rooms.presentation``). This plays ``games``
seeded games per character (its opponents in turn, the greedy bot against the random bot, the
seats swapped every other game) and reports the largest of each at any decision.

    python -m rooms.measure_buttons --games 200
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from rooms import games, presentation
from rules_engine.bots import make_bot
from rules_engine.cards import characters

MAX_EVENTS = 4000


def measure(games_per_character: int) -> dict[str, Any]:
    ids = sorted(characters())
    worst: dict[str, Any] = {"before": (0, ""), "after": (0, ""), "after_one": (0, ""),
                             "pickers": 0, "decisions": 0, "games": 0, "alike": 0}
    for cid in ids:
        others = [c for c in ids if c != cid]
        for seed in range(games_per_character):
            picks = [cid, others[seed % len(others)]]
            if seed % 2:
                picks.reverse()
            game = games.game_new(seed + 1, picks)
            bots = [make_bot("greedy", seed), make_bot("random", seed + 7)]
            for _ in range(MAX_EVENTS):
                if game.is_over:
                    break
                for seat in game.acting_players:
                    legal = game.legal_actions(seat)
                    choices, pickers = presentation.decision(game, seat, legal)
                    where = f"{picks[0]} vs {picks[1]} seed {seed + 1} turn {game.turn} " \
                            f"{game.step} {seat.name}"
                    worst["decisions"] += 1
                    offered: dict[tuple[str, ...], list[str]] = {}
                    for c in choices:  # offered together: the choices on one selection
                        offered.setdefault(tuple(sorted(c["keys"])), []).append(c["label"])
                    worst["alike"] += sum(len(v) - len(set(v)) for v in offered.values())
                    worst["pickers"] += len(pickers)
                    for key, value in (("before", len(legal)),
                                       ("after", presentation.buttons_at(choices, pickers)),
                                       ("after_one", presentation.buttons_after_one(choices))):
                        if value > worst[key][0]:
                            worst[key] = (value, where)
                seat = game.acting_players[0]
                bot = bots[(int(seat) + seed) % 2]
                game.apply(seat, bot.choose(game, seat, game.legal_actions(seat)))
            worst["games"] += 1
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per character")
    args = parser.parse_args()
    start = time.process_time()
    worst = measure(args.games)
    print(f"{worst['games']} games, {worst['decisions']} decisions "
          f"({worst['pickers']} pickers), {time.process_time() - start:.0f} s CPU")
    print(f"choices offered together that read alike: {worst['alike']}")
    print(f"buttons per decision before (one per legal action): {worst['before'][0]} "
          f"({worst['before'][1]})")
    print(f"controls per decision now (plain buttons + selectable cards): {worst['after'][0]} "
          f"({worst['after'][1]})")
    print(f"choices offered on one selected card: {worst['after_one'][0]} "
          f"({worst['after_one'][1]})")


if __name__ == "__main__":
    main()
