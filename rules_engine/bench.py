"""The engine's benchmark (``python -m rules_engine bench``, ``make bench``): validation and
self-play throughput beside their targets (issue 17) and the python-chess anchor.

Figures, not tests. Every figure is CPU time (``time.process_time``) of this process, so other
work on a shared machine inflates it less than wall-clock time would; the engine and the anchor
are measured in alternating passes in the same run, and each figure is the median of its
passes, so a burst of load hits both sides alike.

- *validation*: :func:`rules_engine.replay.replay` of a fixed corpus of self-play logs
  (events/s and logs/s);
- *anchor*: python-chess reading a fixed PGN corpus with ``chess.pgn.read_game`` and pushing
  every move on a board (plies/s). The corpus is random legal games drawn from the engine's own
  portable PRNG (:mod:`rules_engine.rng`), so it is the same on every machine and run;
- *self-play*: greedy-bot games (:func:`rules_engine.selfplay.play_game`) over rotating
  character pairs, games/s on one core.

The engine itself never imports python-chess (import-linter checks it): only
:func:`chess_corpus` and :func:`replay_pgn` do, lazily, when the bench runs.
"""

from __future__ import annotations

import io
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules_engine.cards import characters
from rules_engine.replay import replay
from rules_engine.rng import SplitMix64
from rules_engine.selfplay import play_game

VALIDATION_TARGET = 1.5  # engine events/s over python-chess plies/s, same run (issue 17)
SELFPLAY_TARGET = 600.0  # greedy self-play games/s on one core (issue 17)
CHESS_GAMES = 100  # PGN corpus: games ...
CHESS_MAX_PLIES = 120  # ... of at most this many plies (random legal moves, a fixed seed)
CHESS_SEED = 17
SELFPLAY_GAMES = 40  # greedy games per self-play pass


class AnchorMissing(RuntimeError):
    """python-chess is not installed (it is a dev dependency: ``pip install -e '.[dev]'``)."""


def _chess() -> Any:
    try:
        import chess.pgn
    except ImportError:
        raise AnchorMissing(
            "the python-chess anchor needs the 'chess' package, a dev dependency: "
            "pip install -e '.[dev]' (or: pip install chess)") from None
    return chess


def chess_corpus(games: int = CHESS_GAMES, max_plies: int = CHESS_MAX_PLIES,
                 seed: int = CHESS_SEED) -> list[str]:
    """A fixed PGN corpus: ``games`` random legal games (moves drawn by :class:`SplitMix64`
    from ``seed`` among the legal moves in python-chess's order), each cut at ``max_plies``."""
    chess = _chess()
    rng = SplitMix64(seed)
    corpus = []
    for _ in range(games):
        board = chess.Board()
        game = chess.pgn.Game()
        node = game
        while not board.is_game_over() and board.ply() < max_plies:
            moves = list(board.legal_moves)
            move = moves[rng.below(len(moves))]
            board.push(move)
            node = node.add_variation(move)
        corpus.append(str(game))
    return corpus


def replay_pgn(corpus: list[str]) -> int:
    """Read each PGN game and push its moves on a board (each checked legal by the SAN
    parser); return the plies replayed."""
    chess = _chess()
    plies = 0
    for text in corpus:
        game = chess.pgn.read_game(io.StringIO(text))
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
            plies += 1
    return plies


def validate_corpus(corpus: list[bytes]) -> None:
    for text in corpus:
        verdict = replay(text)
        if verdict.status != "legal":
            raise RuntimeError(f"bench corpus log is not legal: {verdict.summary()}")


def selfplay_pass(start: int, games: int = SELFPLAY_GAMES) -> None:
    """``games`` greedy self-play games over rotating character pairs, seeds from ``start``."""
    ids = sorted(characters())
    for i in range(start, start + games):
        play_game(ids[i % len(ids)], ids[(i * 7 + 3) % len(ids)], 5000 + i, bot="greedy")


def _cpu(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


@dataclass(frozen=True)
class Figures:
    events_per_s: float
    logs_per_s: float
    plies_per_s: float
    games_per_s: float
    passes: int

    @property
    def ratio(self) -> float:
        return self.events_per_s / self.plies_per_s


def measure(corpus: list[bytes], events: int, seconds: float,
            pgn: list[str] | None = None) -> Figures:
    """Alternate passes (engine validation, python-chess replay, greedy self-play) until
    ``seconds`` of CPU time are spent (at least three passes each); medians of the passes."""
    pgn = chess_corpus() if pgn is None else pgn
    plies = replay_pgn(pgn)  # also warms both sides up
    validate_corpus(corpus)
    engine: list[float] = []
    anchor: list[float] = []
    selfplay: list[float] = []
    spent = 0.0
    while len(engine) < 3 or spent < seconds:
        engine.append(_cpu(lambda: validate_corpus(corpus)))
        anchor.append(_cpu(lambda: replay_pgn(pgn)))
        selfplay.append(_cpu(lambda: selfplay_pass(len(selfplay) * SELFPLAY_GAMES)))
        spent += engine[-1] + anchor[-1] + selfplay[-1]
    e, a, s = (statistics.median(x) for x in (engine, anchor, selfplay))
    return Figures(events / e, len(corpus) / e, plies / a, SELFPLAY_GAMES / s, len(engine))


def engine_build() -> str:
    """Which build of the engine this process runs: pure Python, or the opt-in copy compiled
    by mypyc (``make bench-compiled``, :mod:`rules_engine.tools.compile`)."""
    import sys

    loaded = [m for name, m in list(sys.modules.items())
              if name == "rules_engine" or name.startswith("rules_engine.")]
    compiled = sum(1 for m in loaded if str(getattr(m, "__file__", "")).endswith(".so"))
    if not compiled:
        return "engine: pure Python"
    return f"engine: compiled by mypyc ({compiled} of {len(loaded)} loaded modules)"


def report(f: Figures, corpus_logs: int, events: int) -> str:
    ok = "met" if f.ratio >= VALIDATION_TARGET else "NOT met"
    sp_ok = "met" if f.games_per_s >= SELFPLAY_TARGET else "NOT met"
    return "\n".join([
        engine_build(),
        f"CPU time, median of {f.passes} alternating passes (one core)",
        f"validation:   {f.events_per_s:9,.0f} events/s  {f.logs_per_s:7,.0f} logs/s  "
        f"({corpus_logs} Versus self-play logs, {events // corpus_logs} events each on average)",
        f"anchor:       {f.plies_per_s:9,.0f} plies/s  python-chess: read_game + push "
        f"({CHESS_GAMES} random games, seed {CHESS_SEED})",
        f"ratio:        {f.ratio:9.2f}x  engine events/s over chess plies/s; target "
        f"{VALIDATION_TARGET}x: {ok}",
        f"self-play:    {f.games_per_s:9,.0f} games/s per core (greedy bots); target "
        f"{SELFPLAY_TARGET:.0f}: {sp_ok} (400,000 games on 2 workers: "
        f"{400_000 / (2 * f.games_per_s) / 60:.1f} min)",
    ])
