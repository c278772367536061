"""Command line: ``python -m rules_engine play|validate|timeline|bench|coverage|combos``.

Responsibility: argument parsing, files and exit codes. ``validate`` exits 0 when every log is
legal with a matching result, 1 when one is illegal or its result does not match, 2 when one is
unreadable, 3 on an engine error (our bug), 4 when one is not verifiable yet (a character or a
mode the engine does not play yet). ``timeline`` prints a log turn by turn (exit 0, 1 if
the log stops at an illegal event or before the end, 2 if unreadable). The game logic lives
elsewhere. ``combos`` prints the combo reference of a character (:mod:`rules_engine.combos`;
exit 2 for an unknown character).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from rules_engine.cards import characters
from rules_engine.combos import combos
from rules_engine.combos import to_json as combos_json
from rules_engine.combos import to_text as combos_text
from rules_engine.coverage import (
    Coverage,
    citations,
    coverage,
    game_driving_tests,
    load_rule_ids,
)
from rules_engine.errors import LogSyntaxError
from rules_engine.replay import replay
from rules_engine.selfplay import play_game
from rules_engine.timeline import timeline

REPO = Path(__file__).resolve().parent.parent
DEFAULT_RULES = REPO / "docs" / "rules" / "RULES.md"
DEFAULT_TESTS = REPO / "tests" / "rules_engine"
EXIT = {"legal": 0, "result_mismatch": 1, "illegal": 1, "unreadable": 2, "engine_error": 3,
        "unverifiable": 4}


def _play(args: argparse.Namespace) -> int:
    known = characters()
    for cid in (args.p1, args.p2):
        if cid not in known:
            print(f"unknown character {cid!r}; choose from {', '.join(sorted(known))}",
                  file=sys.stderr)
            return 2
    game, log = play_game(args.p1, args.p2, args.seed, bot=args.bot)
    text = log.dumps()
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    assert game.outcome is not None
    winner = "draw" if game.outcome.winner is None else f"{game.outcome.winner.name} wins"
    print(f"{args.p1} vs {args.p2}, seed {args.seed}: {winner} by "
          f"{game.outcome.termination.value} after {game.turn} turns, life {game.life}",
          file=sys.stderr)
    return 0


def _validate(args: argparse.Namespace) -> int:
    worst = 0
    results = []
    for name in args.files:
        try:
            text = Path(name).read_bytes()
        except OSError as exc:
            verdict_dict = {"status": "unreadable",
                            "first_error": {"json_path": "$", "reason": f"cannot read: {exc}"}}
            results.append({"file": name, **verdict_dict})
            if not args.json:
                print(f"{name}: unreadable: cannot read the file ({exc.strerror})")
            worst = max(worst, 2)
            continue
        verdict = replay(text)
        results.append({"file": name, **verdict.to_dict()})
        if not args.json:
            print(f"{name}: {verdict.summary()}")
        worst = max(worst, EXIT[verdict.status])
    if args.json:
        print(json.dumps(results if len(results) != 1 else results[0], indent=1))
    return worst


def _timeline(args: argparse.Namespace) -> int:
    try:
        turns = timeline(Path(args.file).read_bytes())
    except (OSError, LogSyntaxError) as exc:
        print(f"{args.file}: unreadable: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([t.to_dict() for t in turns], indent=1))
    else:
        for t in turns:
            print(t.summary())
    return 1 if turns and turns[-1].stopped is not None else 0


def bench_corpus(size: int = 100) -> list[bytes]:
    """A fixed corpus of self-play logs over many character pairs (random and greedy bots)."""
    ids = sorted(characters())
    corpus = []
    for i in range(size):
        p1, p2 = ids[i % 20], ids[(i * 7 + 3) % 20]
        _, log = play_game(p1, p2, 1000 + i, bot="greedy" if i % 2 else "random")
        corpus.append(log.dumps().encode())
    return corpus


def _bench(args: argparse.Namespace) -> int:
    corpus = bench_corpus(args.logs)
    events = sum(len(json.loads(t)["events"]) for t in corpus)
    rounds = 0
    start = time.perf_counter()
    while True:
        for text in corpus:
            v = replay(text)
            if v.status != "legal":
                print(f"bench corpus log is not legal: {v.summary()}", file=sys.stderr)
                return 1
        rounds += 1
        elapsed = time.perf_counter() - start
        if elapsed >= args.seconds:
            break
    logs = rounds * len(corpus)
    print(f"validated {logs} Versus logs ({rounds} x {len(corpus)}, "
          f"{events // len(corpus)} events each on average) in {elapsed:.2f}s: "
          f"{logs / elapsed:.0f} logs/s, {rounds * events / elapsed:.0f} events/s (one core)")
    return 0


def _coverage(args: argparse.Namespace) -> int:
    ids, source = load_rule_ids(Path(args.rules))
    tests = Path(args.tests)
    cov = coverage(ids, citations(tests, ids), driving=game_driving_tests(tests))
    if args.json:
        print(json.dumps({"source": source, "cited": cov.cited, "uncited": cov.uncited,
                          "helper_only": cov.helper_only,
                          "deferred": {rid: {"reason": reason,
                                             "cited": cov.deferred_citations[rid]}
                                       for rid, reason in cov.deferred.items()}}, indent=1))
    else:
        for rid in ids:
            if rid in cov.deferred:
                continue
            if rid in cov.helper_only:
                print(f"{rid:22} -- HELPER TESTS ONLY -- {', '.join(cov.helper_only[rid])}")
                continue
            cited = cov.cited.get(rid)
            print(f"{rid:22} {', '.join(cited) if cited else '-- NOT CITED --'}")
        print("\nDeferred (the engine does not implement what they need yet):")
        for rid, reason in cov.deferred.items():
            print(f"{rid:22} {reason}")
        in_scope = len(ids) - len(cov.deferred)
        todo = todo_ids(cov)
        print(f"\n{len(cov.cited)} of {in_scope} in-scope Versus rule IDs covered by a test that "
              f"drives the game ({source}); {len(cov.deferred)} deferred; "
              f"{len(cov.helper_only)} cited by helper tests only; {len(cov.uncited)} uncited "
              "in scope (the remaining work)" + (":" if todo else "."))
        if todo:
            print(" ".join(todo))
    return 1 if (todo_ids(cov) and args.strict) else 0


def _combos(args: argparse.Namespace) -> int:
    known = characters()
    if args.character not in known:
        print(f"unknown character {args.character!r}; choose from {', '.join(sorted(known))}",
              file=sys.stderr)
        return 2
    lines = combos(args.character, hand_difference=args.hand_difference)
    print(combos_json(lines) if args.json else combos_text(args.character, lines))
    return 0


def todo_ids(cov: Coverage) -> list[str]:
    """In-scope IDs no game-driving test cites: uncited, then cited by helper tests only."""
    return [*cov.uncited, *cov.helper_only]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules_engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play a self-play game and write its log")
    p.add_argument("--p1", required=True)
    p.add_argument("--p2", required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bot", choices=("random", "greedy"), default="random")
    p.add_argument("--out", help="write the log here (default: standard output)")
    p.set_defaults(func=_play)
    v = sub.add_parser("validate", help="replay logs and report the first illegal event")
    v.add_argument("files", nargs="+")
    v.add_argument("--json", action="store_true", help="print the verdicts as JSON")
    v.set_defaults(func=_validate)
    t = sub.add_parser("timeline", help="explain a log turn by turn (docs/timeline.md)")
    t.add_argument("file")
    t.add_argument("--json", action="store_true", help="print the turns as JSON")
    t.set_defaults(func=_timeline)
    b = sub.add_parser("bench", help="validation throughput on a fixed self-play corpus")
    b.add_argument("--logs", type=int, default=100)
    b.add_argument("--seconds", type=float, default=3.0)
    b.set_defaults(func=_bench)
    c = sub.add_parser("coverage", help="Versus rule IDs and the tests that cite them")
    c.add_argument("--rules", default=str(DEFAULT_RULES))
    c.add_argument("--tests", default=str(DEFAULT_TESTS))
    c.add_argument("--json", action="store_true")
    c.add_argument("--strict", action="store_true",
                   help="exit 1 if no test that drives the game cites some in-scope ID")
    c.set_defaults(func=_coverage)
    k = sub.add_parser("combos", help="the highest-damage combo from each attack and throw")
    k.add_argument("character", help="a character id (grave, degrey, ...)")
    k.add_argument("--json", action="store_true",
                   help='print [{"start": {...}, "cards": [...], "damage": N}, ...]')
    k.add_argument("--hand-difference", type=int, default=0, metavar="N",
                   help="the opponent holds N more cards once the combo is finished "
                        "(DeGrey's Moral High Ground); default 0")
    k.set_defaults(func=_combos)
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result
