"""The replay viewer's data: every position of a log, both hands revealed (issue 22, part 6).

A replay is for after the game: everything is shown, the seed and both hands. Each frame is the
position after one event: the event, and both seats' views merged (each seat's own view carries
its hand). The frames, the outcome and where an illegal log stops come from the engine's one
replay of the log (:func:`rules_engine.judge.judge`), never from a replay of the viewer's own.
"""

from __future__ import annotations

from typing import Any

from rules_engine.game import Game
from rules_engine.judge import judge
from rules_engine.log import LogEvent, parse_log
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
    """All frames of a log; ``problem`` says where replaying stopped if the log is illegal.
    ``seed`` is a string: a 64-bit seed does not survive a JavaScript number."""
    log = parse_log(text)
    frames: list[dict[str, Any]] = []

    def watch(game: Game, event: LogEvent | None) -> None:
        index = len(frames) - 1  # the event just applied (none before the first frame)
        frames.append(_frame(game, None if event is None else {
            "index": index, **event.to_json(), "text": str(event.action)}))

    verdict = judge(log, watch=watch).verdict
    problem = None
    error = verdict.first_error
    if verdict.status in ("illegal", "unverifiable", "engine_error") and error is not None:
        where = f"event {error['index']}: " if error.get("index") is not None else ""
        rule = f" [{error['rule_id']}]" if error.get("rule_id") else ""
        problem = f"The replay stops at {where}{error['reason']}{rule}"
    final = verdict.final
    outcome = None if final is None else {"winner": final["winner"], "how": final["how"]}
    return {
        "mode": log.mode.value,
        "characters": list(log.characters),
        "names": list(log.names),
        "seed": None if log.seed is None else str(log.seed),
        "frames": frames,
        "outcome": outcome,
        "problem": problem,
    }
