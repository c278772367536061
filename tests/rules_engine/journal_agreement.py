"""Issue 30: the timeline shows the knockdowns, snapbacks and voids the game recorded, in every
mode. Each seeded game is played by the bots (the played game's journal is the record), and its
log's timeline (``judge``: a replay of its own) is compared with that journal, turn by turn.

``python -m tests.rules_engine.journal_agreement [GAMES]`` checks GAMES seeded games per mode
(1,000 unless told) and prints the disagreements; the tests check a few per mode.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from typing import Any

from rules_engine.cards import characters
from rules_engine.errors import EngineInvariantError
from rules_engine.game import Game
from rules_engine.journal import Knockdown, KnockdownAvoided, Voided
from rules_engine.judge import judge
from rules_engine.log import MatchLog
from rules_engine.selfplay import play_game, play_match
from rules_engine.team import Mode

MODES = (Mode.VERSUS, Mode.TRIPLE_THREAT, Mode.TAG_TEAM, Mode.DRAMATIC_BATTLE)


def seeded_game(mode: Mode, seed: int) -> tuple[Game, MatchLog]:
    """Game ``seed`` of ``mode``: characters drawn from the seed, greedy bots on even seeds and
    random ones on odd; Dramatic Battle's lone character on side A on even seeds, on side B
    on odd ones."""
    rng = random.Random(seed)
    ids = sorted(characters())
    bot = "random" if seed % 2 else "greedy"
    if mode is Mode.VERSUS:
        return play_game(rng.choice(ids), rng.choice(ids), seed, bot=bot)
    if mode is Mode.TRIPLE_THREAT:
        picks = rng.sample(ids, 6)
        return play_match(mode, tuple(picks[:3]), tuple(picks[3:]), seed, bot=bot)
    if mode is Mode.TAG_TEAM:
        picks = rng.sample(ids, 4)
        return play_match(mode, tuple(picks[:2]), tuple(picks[2:]), seed, bot=bot)
    picks = rng.sample(ids, 3)
    lone, pair = (picks[0],), (picks[1], picks[2])
    teams = (lone, pair) if seed % 2 == 0 else (pair, lone)
    return play_match(mode, *teams, seed, bot=bot)


SEEN: Counter[str] = Counter()  # what the checks met: knockdowns, snapbacks, voids


def disagreements(game: Game, log: MatchLog) -> list[str]:
    """Where the log's timeline says otherwise than the played game's journal about the
    knockdowns (by turn and seat), the combos' knockdowns and snapbacks, and the voids."""
    turns = {t.turn: t.to_dict() for t in judge(log).turns}
    out: list[str] = []
    SEEN.update(type(e).__name__ for e in game.journal
                if type(e) in (Knockdown, KnockdownAvoided, Voided))
    knocked: Counter[tuple[int, str]] = Counter()
    combat_knockdown: set[int] = set()
    snapbacks: dict[int, KnockdownAvoided] = {}
    voided: dict[tuple[int, str], Voided] = {}
    for e in game.journal:
        if type(e) is Knockdown:
            assert isinstance(e, Knockdown)
            knocked[e.turn, e.seat.name] += 1
            if e.combat:
                combat_knockdown.add(e.turn)
        elif type(e) is KnockdownAvoided:
            assert isinstance(e, KnockdownAvoided)
            if e.rule == "SB-2":
                snapbacks[e.turn] = e
        elif type(e) is Voided:
            assert isinstance(e, Voided)
            voided[e.turn, e.seat.name] = e  # the last of the turn: its final combat card's
    for n, t in turns.items():
        for seat, p in t["players"].items():
            shown = 1 if p["knocked_down_next"] else 0
            if shown != min(knocked[n, seat], 1):
                out.append(f"turn {n} {seat}: knocked down next {p['knocked_down_next']}, "
                           f"the journal has {knocked[n, seat]} knockdowns")
            card: dict[str, Any] | None = p["combat_card"]
            v = voided.get((n, seat))
            is_void = card is not None and card["played"] == "void"
            if v is not None and card is not None and card["card"] == (
                    None if v.card is None else v.card.code):
                if not is_void or card["void"] != {"rule_id": v.rule, "reason": v.reason}:
                    out.append(f"turn {n} {seat}: {card} but the journal voided it ({v.rule})")
            elif is_void:
                out.append(f"turn {n} {seat}: shown void, the journal has no such void")
            elif v is not None and v.rule != "CF-08":  # only CF-08 lets a seat choose again
                out.append(f"turn {n} {seat}: {card} but the journal voided {v.card} "
                           f"({v.rule})")
        combo = t["combo"]
        if combo is not None:
            if combo["knockdown"] != (n in combat_knockdown):
                out.append(f"turn {n}: combo knockdown {combo['knockdown']}, the journal "
                           f"{'has' if n in combat_knockdown else 'has none'}")
            snap = snapbacks.get(n)
            if ("snapback" in combo) != (snap is not None):
                out.append(f"turn {n}: combo snapback {combo.get('snapback')}, journal {snap}")
    return out


BROKEN: list[str] = []  # seeds whose self-play the engine could not finish (an engine error)


def check(mode: Mode, seeds: range) -> tuple[int, list[str]]:
    """(games whose timeline agrees with the journal, the disagreements of the others). A
    game the bots cannot finish because the engine contradicts itself (``EngineInvariantError``,
    our bug) has no journal to compare: it is listed in ``BROKEN`` and counts as neither."""
    agree, found = 0, []
    for seed in seeds:
        try:
            game, log = seeded_game(mode, seed)
        except EngineInvariantError as broken:
            BROKEN.append(f"{mode.value} seed {seed}: {broken}")
            continue
        wrong = disagreements(game, log)
        if wrong:
            found.extend(f"{mode.value} seed {seed}: {w}" for w in wrong)
        else:
            agree += 1
    return agree, found


def main(argv: list[str]) -> int:
    games = int(argv[0]) if argv else 1000
    failed = False
    for mode in MODES:
        agree, found = check(mode, range(games))
        print(f"{mode.value}: {agree} of {games} games agree (journal: "
              f"{dict(sorted(SEEN.items()))}); {len(BROKEN)} not playable (engine error)",
              flush=True)
        for line in BROKEN:
            print("   engine error:", line)
        SEEN.clear()
        BROKEN.clear()
        for line in found[:20]:
            print("  ", line)
        failed = failed or bool(found)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
