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
    assert text.splitlines()[0] == bench.engine_build()  # the build it measured, named first


def test_the_build_line_counts_compiled_modules(monkeypatch):
    """A module loaded from an extension file (as in the copy ``make bench-compiled`` makes) is
    counted as compiled."""
    import sys
    import types

    before = bench.engine_build()  # "engine: pure Python", or the compiled copy's count
    compiled = 0 if before == "engine: pure Python" else int(before.split("(")[1].split()[0])
    fake = types.ModuleType("rules_engine._compiled_for_test")
    fake.__file__ = "/x/rules_engine/_compiled_for_test.cpython-311-x86_64-linux-gnu.so"
    monkeypatch.setitem(sys.modules, fake.__name__, fake)
    line = bench.engine_build()
    assert line.startswith(f"engine: compiled by mypyc ({compiled + 1} of ")


def test_the_compile_tool_leaves_out_the_tools_and_the_listed_modules(tmp_path):
    """Which modules ``make compile`` compiles (the build itself takes minutes and a C
    compiler: CI runs it, and ``make check-compiled`` compares its verdicts)."""
    from rules_engine.build import PACKAGE
    from rules_engine.tools.compile import INTERPRETED, modules

    chosen = {p.relative_to(PACKAGE).as_posix() for p in modules(PACKAGE)}
    assert "game/core.py" in chosen and "game/turn.py" in chosen and "timeline.py" in chosen
    assert "build.py" not in chosen  # it chooses the build, from the source
    assert not chosen & set(INTERPRETED)
    assert not any(c.startswith("tools/") or c.endswith("__init__.py") for c in chosen)
