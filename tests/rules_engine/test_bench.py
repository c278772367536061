"""The benchmark's parts (python -m rules_engine bench): the fixed PGN anchor corpus and the
report of each figure beside its target. Figures are not tested, only that they are made."""

import pytest

from rules_engine import bench
from rules_engine.cli import bench_corpus

pytest.importorskip("chess")


def test_chess_corpus_is_fixed_and_replays():
    first = bench.chess_corpus(games=3, max_plies=20)
    assert first == bench.chess_corpus(games=3, max_plies=20)
    assert bench.replay_pgn(first) == 60


def test_measure_reports_each_figure_beside_its_target(monkeypatch):
    monkeypatch.setattr(bench, "SELFPLAY_GAMES", 2)
    corpus = bench_corpus(2)
    figures = bench.measure(corpus, 100, 0.0, pgn=bench.chess_corpus(games=2, max_plies=10))
    assert figures.passes == 3 and figures.events_per_s > 0 and figures.plies_per_s > 0
    text = bench.report(figures, 2, 100)
    assert "target 1.5x" in text and "target 600" in text and "python-chess" in text
