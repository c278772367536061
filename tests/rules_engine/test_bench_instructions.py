"""The instruction-count benchmark's parts (python -m rules_engine bench-instructions): the
workloads it runs under callgrind and its report. Counts are not tested (valgrind is slow), only
that each workload runs on a real corpus and that the report divides by the right unit."""

import pickle

import pytest

from rules_engine import bench_instructions
from rules_engine.cli import bench_corpus


@pytest.fixture
def corpus_path(tmp_path):
    path = tmp_path / "corpus.pkl"
    path.write_bytes(pickle.dumps(bench_corpus(2)))
    return str(path)


@pytest.mark.parametrize("which", ["empty", "validate", "timeline"])
def test_each_workload_runs_on_the_corpus(corpus_path, which):
    bench_instructions.run_workload(which, corpus_path)


def test_an_unknown_workload_is_refused(corpus_path):
    with pytest.raises(ValueError, match="unknown workload 'replay'"):
        bench_instructions.run_workload("replay", corpus_path)


def test_report_gives_each_count_per_log_and_per_game():
    text = bench_instructions.report({"validate": 1_800_000_000, "selfplay": 1_200_000_000})
    assert "1,800M" in text and "18.0M per log" in text
    assert "1,200M" in text and "30.0M per game" in text


def test_the_command_refuses_an_unknown_workload_before_running_anything(capsys):
    from rules_engine.cli import main

    assert main(["bench-instructions", "replay"]) == 2
    assert "unknown workload 'replay'" in capsys.readouterr().err
