"""Command line: ``python -m rules_engine play|validate|timeline|bench|bench-instructions|
bench-bots|coverage|combos``.

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

from rules_engine.bench_bots import TARGETS, character_pairs, self_play_rate, versus
from rules_engine.bots import BOTS
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
from rules_engine.log import MAX_SURVIVAL_BOTS, side_sizes
from rules_engine.replay import replay
from rules_engine.rng import SplitMix64
from rules_engine.selfplay import play, play_game, play_match
from rules_engine.team import Mode
from rules_engine.timeline import timeline
from rules_engine.training import survival_score

REPO = Path(__file__).resolve().parent.parent
DEFAULT_RULES = REPO / "docs" / "rules" / "RULES.md"
DEFAULT_TESTS = REPO / "tests" / "rules_engine"
EXIT = {"legal": 0, "result_mismatch": 1, "illegal": 1, "unreadable": 2, "engine_error": 3,
        "unverifiable": 4}


MODES = {"versus": Mode.VERSUS, "triple-threat": Mode.TRIPLE_THREAT,
         "tag-team": Mode.TAG_TEAM, "dramatic-battle": Mode.DRAMATIC_BATTLE,
         "training": Mode.TRAINING, "survival": Mode.SURVIVAL}


def random_opponents(n: int, seed: int, human: str) -> tuple[str, ...]:
    """TR-14: ``n`` different bots for a Survival run, drawn from ``seed`` (never the human's
    character), in the order they come."""
    pool = sorted(c for c in characters() if c != human)
    SplitMix64(seed ^ 0x5155_5256).shuffle(pool)
    return tuple(pool[:n])


def _sides(args: argparse.Namespace, mode: Mode) -> tuple[tuple[str, ...], tuple[str, ...]] | str:
    """The two sides the flags declare, or what is wrong with them."""
    if mode is not Mode.SURVIVAL:
        if not args.p2:
            return "--p2 is required"
        return tuple(args.p1.split(",")), tuple(args.p2.split(","))
    if args.random_opponents:
        if not 1 <= args.random_opponents <= MAX_SURVIVAL_BOTS:
            return f"--random-opponents: 1 to {MAX_SURVIVAL_BOTS} bots (TR-14)"
        return (args.p1,), random_opponents(args.random_opponents, args.seed, args.p1)
    bots = args.opponents or args.p2
    if not bots:
        return "a Survival run needs --opponents a,b,c (or --random-opponents N)"
    return (args.p1,), tuple(bots.split(","))


def _play(args: argparse.Namespace) -> int:
    known = characters()
    mode = MODES[args.mode]
    sides = _sides(args, mode)
    if isinstance(sides, str):
        print(sides, file=sys.stderr)
        return 2
    teams = sides
    for flag, team, size in zip(("--p1", "--p2"), teams, side_sizes(mode), strict=True):
        size = len(team) if mode is Mode.SURVIVAL and flag == "--p2" else size
        for cid in team:
            if cid not in known:
                print(f"unknown character {cid!r} in {flag}; choose from "
                      f"{', '.join(sorted(known))}", file=sys.stderr)
                return 2
        if len(team) != size or len(set(team)) != size:
            print(f"{flag}: a {mode.label} side is {size} different character"
                  f"{'s' if size > 1 else ''} (comma-separated)", file=sys.stderr)
            return 2
    game, log = play(mode, teams, args.seed, bot=args.bot)
    text = log.dumps()
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    assert game.outcome is not None
    winner = "draw" if game.outcome.winner is None else f"{game.outcome.winner.name} wins"
    bouts = f" in {len(game.bouts)} bouts" if game.bouts else ""
    if mode is Mode.SURVIVAL:
        bouts += f", {survival_score(game)} of {len(teams[1])} bots beaten"
    print(f"{','.join(teams[0])} vs {','.join(teams[1])}, seed {args.seed}: {winner} by "
          f"{game.outcome.termination.value} after {game.turn} turns{bouts}, life {game.life}",
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


def triple_threat_corpus(size: int = 20) -> list[bytes]:
    """A fixed corpus of Triple Threat matches (version 2) over rotating teams."""
    ids = sorted(characters())
    corpus = []
    for i in range(size):
        team1 = tuple(ids[(i + k) % 20] for k in (0, 5, 10))
        team2 = tuple(ids[(i * 7 + 3 + k) % 20] for k in (0, 6, 13))
        _, log = play_match(Mode.TRIPLE_THREAT, team1, team2, 2000 + i,
                            bot="greedy" if i % 2 else "random")
        corpus.append(log.dumps().encode())
    return corpus


def training_corpus(mode: Mode, size: int = 40) -> list[bytes]:
    """A fixed corpus of Training games (or Survival runs of three bots): every character as
    the human and as a bot, the human played by the greedy or random bot."""
    ids = sorted(characters())
    corpus = []
    for i in range(size):
        human = ids[i % 20]
        bots = (ids[(i * 7 + 3) % 20],) if mode is Mode.TRAINING else tuple(
            ids[(i * 7 + 3 + k) % 20] for k in (0, 6, 13))
        _, log = play_match(mode, (human,), bots, 3000 + i, bot="greedy" if i % 2 else "random")
        corpus.append(log.dumps().encode())
    return corpus


def team_corpus(mode: Mode, size: int = 20) -> list[bytes]:
    """A fixed corpus of Tag Team or Dramatic Battle matches (version 2) over rotating teams
    (Dramatic Battle: the lone character first)."""
    ids = sorted(characters())
    a, b = side_sizes(mode)
    corpus = []
    for i in range(size):
        team1 = tuple(ids[(i + k) % 20] for k in (0, 5)[:a])
        team2 = tuple(ids[(i * 7 + 3 + k) % 20] for k in (0, 6)[:b])
        _, log = play_match(mode, team1, team2, 3000 + i, bot="greedy" if i % 2 else "random")
        corpus.append(log.dumps().encode())
    return corpus


def _bench_training(args: argparse.Namespace, mode: Mode) -> int:
    """Training games (Survival runs) played per second, then verified per second."""
    ids = sorted(characters())
    played = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        i = played
        human = ids[i % 20]
        bots = (ids[(i * 7 + 3) % 20],) if mode is Mode.TRAINING else tuple(
            ids[(i * 7 + 3 + k) % 20] for k in (0, 6, 13))
        play_match(mode, (human,), bots, 3000 + i, bot="greedy" if i % 2 else "random")
        played += 1
    play_rate = played / (time.perf_counter() - start)
    unit = "Training games" if mode is Mode.TRAINING else "Survival runs (3 bots)"
    print(f"played {played} {unit} (human: greedy/random bot; bot: derived) in "
          f"{args.seconds:.2f}s: {play_rate:.1f}/s (one core)")
    return 0


def _bench(args: argparse.Namespace) -> int:
    mode = MODES[args.mode]
    if mode in (Mode.TRAINING, Mode.SURVIVAL):
        if _bench_training(args, mode):
            return 1
        corpus = training_corpus(mode, args.logs)
    else:
        corpus = (bench_corpus(args.logs) if mode is Mode.VERSUS
                  else triple_threat_corpus(args.logs) if mode is Mode.TRIPLE_THREAT
                  else team_corpus(mode, args.logs))
    events = sum(len(json.loads(t)["events"]) for t in corpus)
    if mode is Mode.VERSUS:
        # issue 17's figures: validation beside the python-chess anchor, greedy self-play,
        # each against its target (CPU time, alternating passes; rules_engine/bench.py)
        from rules_engine import bench

        try:
            figures = bench.measure(corpus, events, args.seconds)
        except bench.AnchorMissing as exc:
            print(exc, file=sys.stderr)
            return 2
        except RuntimeError as exc:
            print(exc, file=sys.stderr)
            return 1
        print(bench.report(figures, len(corpus), events))
        return 0
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
    print(f"validated {logs} {mode.label} matches ({rounds} x {len(corpus)}, "
          f"{events // len(corpus)} events each on average) in {elapsed:.2f}s: "
          f"{logs / elapsed:.0f} logs/s, {rounds * events / elapsed:.0f} events/s (one core)")
    return 0


def _bench_instructions(args: argparse.Namespace) -> int:
    from rules_engine import bench_instructions

    workloads = tuple(args.workloads) or bench_instructions.WORKLOADS
    unknown = [w for w in workloads if w not in bench_instructions.WORKLOADS]
    if unknown:
        print(f"unknown workload {unknown[0]!r}: choose from "
              f"{', '.join(bench_instructions.WORKLOADS)}", file=sys.stderr)
        return 2
    try:
        counts = bench_instructions.measure(workloads)
    except RuntimeError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(bench_instructions.report(counts))
    return 0


def _bench_bots(args: argparse.Namespace) -> int:
    pairs = character_pairs(args.pairs)
    if args.opponents:
        print(f"{args.bot} bot vs {', '.join(args.opponents)}: {len(pairs)} character pairs x "
              f"{args.games_per_pair} seeds x 2 seatings (mirrored), one core")
    for opponent in args.opponents:
        s = versus(opponent, pairs, args.games_per_pair, bot=args.bot)
        lo, hi = s.interval
        target = TARGETS.get(opponent)
        verdict = "" if target is None else (
            f"  target >= {target:.0%}: {'met' if s.rate >= target else 'NOT met'}")
        print(f"vs {opponent:7} {s.rate:6.1%} (95% {lo:.1%}..{hi:.1%}) over {s.games} games "
              f"(W {s.wins} D {s.draws} L {s.losses}); {s.decisions_per_second:.0f} "
              f"decisions/s ({1000 / max(s.decisions_per_second, 1e-9):.2f} ms CPU each), "
              f"{s.games / s.seconds:.2f} games/s{verdict}")
        if args.per_character:
            print("  per character it played: " + ", ".join(
                f"{c} {rate:.0%} ({n})" for c, rate, n in s.by_character))
            print("  per character, in its pairs' games (either side played it: its own "
                  "strength cancels): " + ", ".join(
                      f"{c} {rate:.0%} ({n})" for c, rate, n in s.in_pairs))
    if args.selfplay_games:
        games, decisions = self_play_rate(args.selfplay_games, bot=args.bot)
        print(f"{args.bot} vs {args.bot} self-play: {games:.2f} games/s "
              f"({1000 / games:.0f} ms CPU a game), {decisions:.0f} decisions/s "
              f"({args.selfplay_games} games)")
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
    p.add_argument("--mode", choices=tuple(MODES), default="versus")
    p.add_argument("--p1", required=True, help="a character id (Triple Threat: three, a,b,c)")
    p.add_argument("--p2", help="the other side (Training: the bot's character)")
    p.add_argument("--opponents", help="Survival: the bots, in order (a,b,c)")
    p.add_argument("--random-opponents", type=int, default=0, metavar="N",
                   help="Survival: N different bots drawn from the seed")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bot", choices=BOTS, default="random")
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
    b = sub.add_parser("bench", help="validation and self-play throughput, with the "
                                     "python-chess anchor (issue 17's targets)")
    b.add_argument("--logs", type=int, default=100)
    b.add_argument("--mode", choices=tuple(MODES), default="versus",
                   help="the corpus: Versus logs (default), Triple Threat, Tag Team or "
                        "Dramatic Battle matches, Training games or Survival runs (these two "
                        "also print games played per second)")
    b.add_argument("--seconds", type=float, default=10.0,
                   help="CPU seconds to spend (Versus: validation, the python-chess anchor and "
                        "self-play in alternating passes, at least three each)")
    b.set_defaults(func=_bench)
    bi = sub.add_parser("bench-instructions",
                        help="instructions (callgrind) per replayed log, timeline and greedy "
                             "self-play game: the figures a loaded machine does not move")
    bi.add_argument("workloads", nargs="*", metavar="WORKLOAD",
                    help="validate, timeline, selfplay (default: all three)")
    bi.set_defaults(func=_bench_instructions)
    bb = sub.add_parser("bench-bots", help="the strong bot's win rates, decisions/s, games/s")
    bb.add_argument("--games-per-pair", type=int, default=1, metavar="N",
                    help="seeds per character pair, each played in both seatings")
    bb.add_argument("--pairs", choices=("all", "sample"), default="all")
    bb.add_argument("--bot", choices=BOTS, default="strong", help="the bot measured")
    bb.add_argument("--opponents", nargs="*", choices=BOTS, default=["greedy", "random"],
                    help="none: only the self-play rate")
    bb.add_argument("--per-character", action="store_true",
                    help="the measured bot's score per character it played")
    bb.add_argument("--selfplay-games", type=int, default=20, metavar="M",
                    help="strong-vs-strong games timed for games/s (0: skip)")
    bb.set_defaults(func=_bench_bots)
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
