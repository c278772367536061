"""The compiled build judges exactly as the interpreted one: the same bytes for every log.

    python -m tests.rules_engine.builds_agree [--every N]     (make check-compiled; CI)

Needs the compiled build of the current source (``make compile``). Runs itself twice as a child
process, once per build (``YOMI_ENGINE=interpreted``, ``YOMI_ENGINE=compiled``; each child checks
that it runs the build asked for), and compares the two outputs byte for byte. For every log a
child writes one JSON line: what a worker stores for it (``matches.engine.log_judge``: the
verdict, the timeline, the board before the first error). The logs:

- the golden logs (``tests/rules_engine/data/*.yomilog``);
- every N-th game of the frozen self-play corpus (``tests/rules_engine/frozen/freeze.py``: its
  pairs, seeds and bots), played by the build under test (so self-play's logs and end
  positions are compared too: they are in the line);
- and each of those games with one event taken out of the middle, so that illegal logs, their
  diagnosis and their board are compared as well;
- ``--strong M`` strong-vs-strong games (the bench's pairs and seeds,
  :func:`rules_engine.bench_bots.self_play_rate`) and ``--lookahead L`` games of the look-ahead
  bot against the strong bot, played by the build under test: the bots (compiled like the rest)
  must choose the same actions, so their logs must be the same bytes.

Nothing here is tied to today's engine: whatever the source says, both builds are made from it
and must agree. The first difference found is printed with the log it came from.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "data"
GAMES = 2000  # the frozen corpus (freeze.GAMES)


def logs(every: int, strong: int = 0, lookahead: int = 0) -> Iterator[tuple[str, str]]:
    """(name, log text) of every log compared, in a fixed order."""
    from rules_engine.bench_bots import character_pairs
    from rules_engine.bots import make_bot
    from rules_engine.selfplay import play_game
    from tests.rules_engine.frozen.freeze import pairs

    for path in sorted(GOLDEN.glob("*.yomilog")):
        yield path.name, json.dumps(json.loads(path.read_text("utf-8"))["log"])
    all_pairs = pairs()
    for n in range(0, GAMES, every):
        p1, p2 = all_pairs[n % len(all_pairs)]
        game, log = play_game(p1, p2, n, bot="random" if n % 2 else "greedy")
        text = log.dumps()
        yield f"game {n} ({p1} v {p2}) position {game.fingerprint()}", text
        document = json.loads(text)
        events = document.get("events", [])
        if len(events) > 2:
            del events[len(events) // 2]
            yield f"game {n} without event {len(events) // 2 + 1}", json.dumps(document)
    bench_pairs = character_pairs("all")
    for k in range(strong + lookahead):
        p1, p2 = bench_pairs[(k * 37) % len(bench_pairs)]
        seed = 29_000 + k
        first = "strong" if k < strong else "lookahead"
        game, log = play_game(p1, p2, seed, bots=(make_bot(first, seed * 2 + 1),
                                                  make_bot("strong", seed * 2 + 2)))
        yield f"{first} v strong, seed {seed} ({p1} v {p2}) position {game.fingerprint()}", \
            log.dumps()


def emit(out: Path, every: int, build: str, strong: int = 0, lookahead: int = 0) -> int:
    """A child: write one line per log, judged by this process's build."""
    import rules_engine
    from matches.engine import log_judge

    if rules_engine.BUILD.kind != build:
        print(f"asked for the {build} build, running {rules_engine.BUILD.kind}", file=sys.stderr)
        return 2
    with out.open("w", encoding="utf-8") as f:
        for name, text in logs(every, strong, lookahead):
            judged = log_judge(text)
            f.write(json.dumps({"log": name, "text": text, "verdict": judged.verdict,
                                "timeline": judged.turns, "board": judged.board},
                               sort_keys=True) + "\n")
    return 0


def first_difference(a: Path, b: Path) -> str | None:
    """Where two outputs first differ (the log and the part), or None when they are the same
    bytes."""
    if a.read_bytes() == b.read_bytes():
        return None
    lines_a, lines_b = a.read_text("utf-8").splitlines(), b.read_text("utf-8").splitlines()
    for line_a, line_b in zip(lines_a, lines_b, strict=False):
        if line_a != line_b:
            x, y = json.loads(line_a), json.loads(line_b)
            parts = [key for key in sorted(x.keys() | y.keys()) if x.get(key) != y.get(key)]
            return f"{x.get('log')}: {', '.join(parts)} differ"
    return f"{len(lines_a)} lines against {len(lines_b)}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--every", type=int, default=10,
                        help="compare every N-th game of the 2,000 of the frozen corpus")
    parser.add_argument("--strong", type=int, default=20,
                        help="strong-vs-strong games compared (0: none)")
    parser.add_argument("--lookahead", type=int, default=2,
                        help="games of the look-ahead bot against the strong bot compared")
    parser.add_argument("--emit", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--build", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.emit:
        return emit(args.emit, args.every, args.build, args.strong, args.lookahead)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="builds-agree-") as tmp:
        outputs = {}
        for build, choice in (("interpreted", "interpreted"), ("mypyc", "compiled")):
            out = Path(tmp) / f"{build}.jsonl"
            child = subprocess.run(
                [sys.executable, "-m", "tests.rules_engine.builds_agree", "--every",
                 str(args.every), "--strong", str(args.strong), "--lookahead",
                 str(args.lookahead), "--emit", str(out), "--build", build],
                cwd=REPO, env={**os.environ, "YOMI_ENGINE": choice})
            if child.returncode != 0:
                print(f"builds_agree: the {build} build's run failed ({child.returncode})",
                      file=sys.stderr)
                return 1
            outputs[build] = out
        difference = first_difference(outputs["interpreted"], outputs["mypyc"])
        count = sum(1 for _ in outputs["interpreted"].open(encoding="utf-8"))
        size = outputs["interpreted"].stat().st_size
    if difference is not None:
        print(f"builds_agree: the compiled build differs: {difference}", file=sys.stderr)
        return 1
    print(f"builds_agree: {count} logs (the golden logs, every {args.every}th game of the "
          f"frozen corpus and each with an event taken out, {args.strong} strong-vs-strong "
          f"games, {args.lookahead} look-ahead-vs-strong): verdicts, timelines and boards "
          f"byte-identical in both builds ({size:,} bytes each) in "
          f"{time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
