"""The replay viewer's data: every position of a log, both hands revealed (issue 22, part 6).

A replay is for after the game: everything is shown, the seed and both hands. Each frame is the
position after one event: the event, and both seats' views merged (each seat's own view carries
its hand).
"""

from __future__ import annotations

from typing import Any

from rules_engine.errors import RulesError
from rules_engine.game import Game
from rules_engine.log import parse_log
from rules_engine.types import PlayerId


def _frame(game: Game, event: dict[str, Any] | None) -> dict[str, Any]:
    seats = [ps.player for ps in game.players]  # P1, P2 (and a bench's P3, P4)
    views = {p: game.public_view(p) for p in seats}
    board: dict[str, Any] = dict(views[PlayerId.P1])
    board["players"] = {
        p.name: views[p]["players"][p.name]  # type: ignore[index]
        for p in seats
    }
    # Committed combat cards are shown at once in a replay (hidden only while playing).
    for ps in game.players:
        if ps.combat_card is not None:
            board["players"][ps.player.name]["combat_card"] = ps.combat_card.code
    return {"event": event, "turn": game.turn, "step": game.step, "board": board,
            "life": list(game.life)}


def replay_frames(text: str) -> dict[str, Any]:
    """All frames of a log; ``problem`` says where replaying stopped if the log is illegal."""
    log = parse_log(text)
    game = Game.for_log(log)  # the front door (Game.new), any mode
    frames = [_frame(game, None)]
    problem = None
    for i, event in enumerate(log.events):
        try:
            game.apply(event.player, event.action)
        except RulesError as exc:
            problem = f"event {i} could not be replayed: {exc}"
            break
        frames.append(_frame(game, {"index": i, **event.to_json(), "text": str(event.action)}))
    outcome = None
    if game.outcome is not None:
        outcome = {"winner": game.outcome.winner.name if game.outcome.winner else None,
                   "how": game.outcome.termination.value}
    return {
        "mode": log.mode.value,
        "characters": list(log.characters),
        "names": list(log.names),
        "seed": log.seed,
        "frames": frames,
        "outcome": outcome,
        "problem": problem,
    }
