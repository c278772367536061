"""The proof of no change: what 2,000 self-play games and the golden logs give today.

``python -m tests.rules_engine.frozen.freeze`` writes ``selfplay.json`` beside this file. It was
run once before the engine refactor (issue: seats, ability context, modifiers, event journal,
game package) and must not be re-run to make a test pass: a refactor that changes a fingerprint,
a verdict or a timeline changed behaviour. Re-freeze only for a deliberate rules change, and say
so in the commit.

For every game n of the 2,000 (pair ``PAIRS[n % 400]``, greedy bots on even n, random on odd):
winner, termination, turns and position fingerprint. For the first ``DETAILED`` games and every
golden log: a digest of the whole verdict (facts included) and of the whole timeline, so the
journal that feeds facts and timelines is held to the same output.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from rules_engine.cards import characters
from rules_engine.game import Game
from rules_engine.log import parse_log
from rules_engine.replay import Verdict, replay
from rules_engine.selfplay import play_game
from rules_engine.timeline import replay_observed, timeline

HERE = Path(__file__).parent
FROZEN = HERE / "selfplay.json"
GOLDEN_DIR = HERE.parent / "data"
GAMES = 2000
DETAILED = 300


def pairs() -> list[tuple[str, str]]:
    ids = sorted(characters())
    return [(a, b) for a in ids for b in ids]


@cache
def frozen_games() -> list[dict[str, Any]]:
    """The frozen record of each of the 2,000 games (read once)."""
    games: list[dict[str, Any]] = json.loads(FROZEN.read_text(encoding="utf-8"))["games"]
    return games


def digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:20]


def verdict_digest(verdict: dict[str, Any]) -> str:
    """The verdict's digest without the engine version (a release changes only that)."""
    return digest({k: v for k, v in verdict.items() if k != "engine_version"})


def game_record(n: int) -> dict[str, Any]:
    """What game ``n`` gives: its outcome, and digests of its verdict and timeline."""
    p1, p2 = pairs()[n % 400]
    game, log = play_game(p1, p2, n, bot="random" if n % 2 else "greedy")
    return record_of(game, log.dumps(), detailed=n < DETAILED)


def replayed(text: str, *, detailed: bool) -> tuple[Verdict, list[dict[str, Any]] | None]:
    """The verdict of the log ``text`` and, when ``detailed``, its timeline (as dicts), from one
    replay: the timeline's replay (``replay_observed``, the judge's) gives ``replay``'s own
    verdict, so a detailed game is not replayed once for each."""
    if not detailed:
        return replay(text), None
    verdict, _, turns = replay_observed(parse_log(text))
    return verdict, [t.to_dict() for t in turns]


def record_of(game: Game, text: str, *, detailed: bool,
              verdict: Verdict | None = None,
              turns: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Game ``game``'s record; ``verdict`` and ``turns``, when given, are those of its log
    ``text`` (:func:`replayed`), else it is replayed here."""
    assert game.outcome is not None
    record: dict[str, Any] = {
        "winner": None if game.outcome.winner is None else game.outcome.winner.name,
        "how": game.outcome.termination.value,
        "turns": game.turn,
        "position": game.fingerprint(),
    }
    if detailed:
        if verdict is None or turns is None:
            verdict, turns = replayed(text, detailed=True)
        record["verdict"] = verdict_digest(verdict.to_dict())
        record["timeline"] = digest(turns)
    return record


def golden_record(path: Path) -> dict[str, str]:
    log = json.loads(path.read_text(encoding="utf-8"))["log"]
    return {"verdict": verdict_digest(replay(log).to_dict()),
            "timeline": digest([t.to_dict() for t in timeline(log)])}


def freeze() -> dict[str, Any]:
    return {
        "games": [game_record(n) for n in range(GAMES)],
        "golden": {p.name: golden_record(p) for p in sorted(GOLDEN_DIR.glob("*.yomilog"))},
    }


if __name__ == "__main__":
    FROZEN.write_text(json.dumps(freeze(), indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {FROZEN}")
