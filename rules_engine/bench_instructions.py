"""Instruction counts of the engine's workloads (``python -m rules_engine bench-instructions``,
``make bench-instructions``): the figure issue 17's engine work was measured with.

CPU time on the shared 2-core machine moves by 10% between runs of the same code, more than most
single changes gain. ``valgrind --tool=callgrind`` counts instructions instead: repeatable
whatever else the machine is doing (two runs of the same code differ by about 0.5%, from hash
randomization; ``PYTHONHASHSEED=0`` is set). Each workload runs in its own process under
callgrind, and an empty run of the same script (imports, the card data and loading the corpus)
is subtracted:

- *validate*: :func:`rules_engine.replay.replay` of each log of the bench corpus, once (the
  corpus of ``python -m rules_engine bench``: 100 Versus self-play logs);
- *timeline*: :func:`rules_engine.judge.judge` of each log and ``to_dict`` of the verdict and
  every turn (what a verification worker computes per log: one replay);
- *selfplay*: the bench's first greedy self-play pass (40 games, seeds 5000 to 5039).

Figures, not tests; valgrind must be installed (it is on every machine of this workplace).
"""

from __future__ import annotations

import json
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

WORKLOADS = ("validate", "timeline", "selfplay")
_COLLECTED = re.compile(r"Collected : (\d+)")


def run_workload(which: str, corpus_path: str) -> None:
    """The body measured: one workload over the pickled corpus (``empty``: the imports and the
    corpus only, so that importing the engine is not counted in any workload)."""
    from rules_engine.bench import selfplay_pass
    from rules_engine.cards import characters
    from rules_engine.judge import judge
    from rules_engine.replay import replay

    with open(corpus_path, "rb") as f:
        corpus: list[bytes] = pickle.load(f)  # our own file, written by measure()
    # the card data is read once per process (66M instructions), as a worker reads it once:
    # loaded here, it is part of the empty run and of no workload
    characters()
    if which == "validate":
        for text in corpus:
            replay(text)
    elif which == "timeline":
        for text in corpus:
            judged = judge(json.loads(text))
            judged.verdict.to_dict()
            for turn in judged.turns:
                turn.to_dict()
    elif which == "selfplay":
        selfplay_pass(5000)
    elif which != "empty":
        raise ValueError(f"unknown workload {which!r}")


_RUN = ("import sys; from rules_engine.bench_instructions import run_workload; "
        "run_workload(sys.argv[1], sys.argv[2])")
_ENV = {"PYTHONHASHSEED": "0", "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(Path(__file__).resolve().parents[1])}


def _instructions(which: str, corpus_path: str) -> int:
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         "-c", _RUN, which, corpus_path],
        capture_output=True, text=True, check=True, env=_ENV)
    found = _COLLECTED.search(done.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no instruction count:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def measure(workloads: tuple[str, ...] = WORKLOADS) -> dict[str, int]:
    """Instructions of each workload minus the empty run's."""
    if shutil.which("valgrind") is None:
        raise RuntimeError("valgrind is not installed (apt-get install valgrind)")
    from rules_engine.cli import bench_corpus

    with tempfile.TemporaryDirectory() as tmp:
        corpus_path = str(Path(tmp) / "corpus.pkl")
        with open(corpus_path, "wb") as f:
            pickle.dump(bench_corpus(100), f)
        # a first plain run compiles the modules' bytecode (a fresh checkout has none), so
        # that no measured run counts the compiling
        subprocess.run([sys.executable, "-c", _RUN, "empty", corpus_path], check=True, env=_ENV)
        empty = _instructions("empty", corpus_path)
        return {w: _instructions(w, corpus_path) - empty for w in workloads}


def report(counts: dict[str, int]) -> str:
    units = {"validate": (100, "log"), "timeline": (100, "log"), "selfplay": (40, "game")}
    lines = ["instructions (callgrind, minus an empty run; ~0.5% between runs of the same code)"]
    for w, n in counts.items():
        per, unit = units[w]
        lines.append(f"{w:>9}: {n / 1e6:8,.0f}M   {n / per / 1e6:6.1f}M per {unit}")
    return "\n".join(lines)
