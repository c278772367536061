"""Self-play as the test oracle: thousands of seeded games replay as legal with the same result,
and single-event mutations of legal logs are rejected or change the result (STYLE.md D, 10).

A mutation can also turn a log into another legal game with the same result (blocking with
5H instead of 5D when both are in hand); the verifier must accept that, so the mutation test
then checks that the game really is a different one (its positions differ)."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_engine.cards import CARDS_BY_CODE, characters
from rules_engine.log import parse_log
from rules_engine.replay import new_game_for, replay
from rules_engine.selfplay import play_game

IDS = sorted(characters())
PAIRS = list(product(IDS, IDS))  # all 20 x 20 pairs, mirrors included


@cache
def _game_mismatches(n: int) -> tuple[tuple[int, str, object, object], ...]:
    """Where game ``n``'s outcome, position, verdict or timeline differ from the frozen record.
    The game is played once and its log replayed once (the verdict, and the timeline of a
    detailed game, come from that replay: it used to be replayed three times). Cached: the
    quick test's 200 games are the first 200 of the 2,000, checked once a process."""
    from .frozen.freeze import DETAILED, frozen_games, record_of, replayed

    p1, p2 = PAIRS[n % 400]
    game, log = play_game(p1, p2, n, bot="random" if n % 2 else "greedy")
    text = log.dumps()
    # the log goes through text and back: the verdict is the game's own result and position
    verdict, turns = replayed(text, detailed=n < DETAILED)
    got = record_of(game, text, detailed=n < DETAILED, verdict=verdict, turns=turns)
    out: list[tuple[int, str, object, object]] = []
    claimed = (got["winner"], got["how"], got["turns"], got["position"])
    replayed_result = None if verdict.final is None else (
        verdict.final["winner"], verdict.final["how"], verdict.final["turns"],
        verdict.final["position"])
    if verdict.status != "legal" or replayed_result != claimed:
        out.append((n, "replay", verdict.summary(), claimed))
    for key, value in frozen_games()[n].items():
        if got.get(key) != value:
            out.append((n, key, got.get(key), value))
    return tuple(out)


def _frozen_mismatches(games: range) -> list[tuple[int, str, object, object]]:
    """Games whose outcome, position, verdict or timeline differ from the frozen record."""
    return [m for n in games for m in _game_mismatches(n)]


@pytest.mark.slow
def test_2000_seeded_self_play_games_replay_legal_and_match_the_frozen_record() -> None:
    # given 2,000 games: every one of the 400 pairs five times, random and greedy bots
    # when each is played, written, read back and replayed
    # then it is legal with the game's own result, and outcome, position, verdict and timeline
    # are those frozen before the engine refactor (tests/rules_engine/frozen/)
    assert _frozen_mismatches(range(2000)) == []


def test_200_seeded_self_play_games_replay_legal_and_match_the_frozen_record() -> None:
    # the quick version of the test above, for `make test`: all 200 with verdict and timeline
    assert _frozen_mismatches(range(200)) == []


def test_golden_logs_give_the_frozen_verdicts_and_timelines() -> None:
    from .frozen.freeze import FROZEN, GOLDEN_DIR, golden_record

    frozen = json.loads(FROZEN.read_text(encoding="utf-8"))["golden"]
    got = {p.name: golden_record(p) for p in sorted(GOLDEN_DIR.glob("*.yomilog"))}
    assert got == frozen


OTHER_OPTION = {"attack": "block", "block": "throw", "throw": "dodge", "dodge": "attack"}


def _mutations(doc: dict, choice: int, rng_card: str) -> list[tuple[str, dict]]:
    events = doc["events"]
    out = []
    i = choice % len(events)
    dropped = json.loads(json.dumps(doc))
    del dropped["events"][i]
    out.append((f"drop {i}", dropped))
    if i + 1 < len(events):
        a, b = events[i], events[i + 1]
        simultaneous = {a["action"], b["action"]} <= {"commit", "no_card"} \
            and a["player"] != b["player"]
        if not simultaneous and a != b:  # C1 commits are hidden and simultaneous (GEN-5)
            swapped = json.loads(json.dumps(doc))
            swapped["events"][i], swapped["events"][i + 1] = b, a
            out.append((f"swap {i}", swapped))
    for j in list(range(i, len(events))) + list(range(i)):
        e = events[j]
        if "card" in e and e["card"] != rng_card:
            altered = json.loads(json.dumps(doc))
            altered["events"][j]["card"] = rng_card
            out.append((f"card {j} -> {rng_card}", altered))
            break
    for j in list(range(i, len(events))) + list(range(i)):
        e = events[j]
        if e.get("cards") and e["cards"][0] != rng_card:  # pumps, sets, ability costs
            altered = json.loads(json.dumps(doc))
            altered["events"][j]["cards"][0] = rng_card
            out.append((f"cards {j} -> {rng_card}", altered))
            break
    for j in list(range(i, len(events))) + list(range(i)):
        if events[j].get("option"):  # an ability's named option
            altered = json.loads(json.dumps(doc))
            altered["events"][j]["option"] = OTHER_OPTION.get(events[j]["option"], "other")
            out.append((f"option {j}", altered))
            break
    for j in list(range(i, len(events))) + list(range(i)):
        if "target" in events[j]:
            altered = json.loads(json.dumps(doc))
            altered["events"][j]["target"] += 1
            out.append((f"target {j}", altered))
            break
    altered = json.loads(json.dumps(doc))
    altered["result"]["turns"] += 1
    out.append(("result turns", altered))
    return out


def _positions(doc: dict) -> list[str]:
    """The position after every event of a legal log."""
    log = parse_log(doc)
    game = new_game_for(log)
    out = []
    for e in log.events:
        game.apply(e.player, e.action)
        out.append(game.fingerprint())
    return out


# derandomize: a choice that changes nothing (an option of a countered ability, a pump on an
# equivalent move) is a legal game with the same positions, which this property cannot tell
# from a missed check; fixed examples keep CI stable (a sharper oracle is open work).
@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), pair=st.integers(0, 399), choice=st.integers(0, 10_000),
       new_card=st.sampled_from(sorted(CARDS_BY_CODE)))
def test_single_event_mutations_are_rejected_or_change_the_result(
    seed: int, pair: int, choice: int, new_card: str,
) -> None:
    # given a legal self-play log
    p1, p2 = PAIRS[pair]
    _, log = play_game(p1, p2, seed, bot="random" if seed % 2 else "greedy")
    doc = log.to_json()
    original = replay(doc)
    assert original.status == "legal" and original.final is not None
    for label, mutated in _mutations(doc, choice, new_card):
        # when one event is dropped, swapped, or has a card or number altered
        verdict = replay(mutated)
        # then the log is rejected, or its result (or final position) is different, or it is
        # another legal game: a different card of the same kind, say (a verifier must accept
        # those; the positions along the way show it is not the original game)
        if verdict.status == "legal" and verdict.final == original.final:
            assert _positions(mutated) != _positions(doc), label


def test_cli_round_trip_play_then_validate(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "game.json"
    played = subprocess.run(
        [sys.executable, "-m", "rules_engine", "play", "--p1", "grave", "--p2", "jaina",
         "--seed", "4", "--bot", "greedy", "--out", str(out)],
        capture_output=True, text=True, check=False)
    assert played.returncode == 0, played.stderr
    checked = subprocess.run([sys.executable, "-m", "rules_engine", "validate", str(out)],
                             capture_output=True, text=True, check=False)
    assert checked.returncode == 0
    assert "legal" in checked.stdout


def test_cli_validate_exit_codes(tmp_path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    """Exit 0 legal, 1 result mismatch, 2 unreadable, 4 not verifiable yet. ``main`` is what
    ``python -m rules_engine`` exits with (``raise SystemExit(main())``): one exit code is
    read from a real process (as is the round trip above), the others from ``main`` in-process
    (a Python process a call cost more than the validation)."""
    from rules_engine.cli import main

    _, log = play_game("grave", "jaina", 2)
    doc = log.to_json()
    bad = json.loads(json.dumps(doc))
    bad["result"]["winner"] = "P2" if doc["result"]["winner"] != "P2" else "P1"
    (tmp_path / "ok.json").write_text(log.dumps())
    (tmp_path / "mismatch.json").write_text(json.dumps(bad))
    (tmp_path / "broken.json").write_text('{"format": "yomi-match-log", "version": 1')
    assert main(["validate", str(tmp_path / "ok.json")]) == 0
    assert "legal" in capsys.readouterr().out
    assert main(["validate", str(tmp_path / "mismatch.json")]) == 1
    assert "mismatch" in capsys.readouterr().out
    broken = subprocess.run([sys.executable, "-m", "rules_engine", "validate",
                             str(tmp_path / "broken.json")], capture_output=True, text=True,
                            check=False)
    assert broken.returncode == 2 and "$" in broken.stdout
    # not verifiable yet (exit 4): every character and mode is played now, so the same
    # mismatch is judged in-process with Grave taken out of the registry for the test
    from rules_engine import characters as chars

    monkeypatch.delitem(chars.IMPLEMENTED, "grave")
    assert main(["validate", str(tmp_path / "mismatch.json")]) == 4
    assert "not verifiable yet" in capsys.readouterr().out


def test_cli_round_trip_for_every_character_pair(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """Every pair is played by ``play`` and its file validated; the 400 files by one
    ``validate`` call (its JSON lists each file's verdict): the command's argument parser,
    built anew each call, cost as much as a sixth of the test when called per file."""
    from rules_engine.cli import main

    failures: list[tuple[object, ...]] = []
    files: list[str] = []
    for i, (p1, p2) in enumerate(PAIRS):
        out = tmp_path / f"{p1}-{p2}.json"
        played = main(["play", "--p1", p1, "--p2", p2, "--seed", str(i), "--bot",
                       "greedy" if i % 2 else "random", "--out", str(out)])
        if played != 0:
            failures.append((p1, p2, "play", played))
        files.append(str(out))
    capsys.readouterr()
    validated = main(["validate", "--json", *files])
    verdicts = json.loads(capsys.readouterr().out)
    assert [v["file"] for v in verdicts] == files
    failures += [(v["file"], v["status"]) for v in verdicts if v["status"] != "legal"]
    assert failures == [] and validated == 0


def _variants() -> list[object]:
    from rules_engine import ruleset as r

    return [
        r.Ruleset(initiativeTie=r.InitiativeTie.RPS_EACH_TIE, rewindDraw=r.RewindDraw.ALWAYS,
                  neutralResult=r.NeutralResult.DE_BOTH_LOSE),
        r.Ruleset(timeout=r.Timeout.PLAY_ON, maxTurns=80),
        r.Ruleset(illegalAce=r.IllegalAce.PREVENT),
        r.Ruleset(illegalAce=r.IllegalAce.DE_VOID, knockdowns=r.OnOff.OFF),
        r.Ruleset(aceSource=r.AceSource.DISCARD_FIRST, chainReward=r.ChainReward.SUM,
                  moralHighGround=r.MoralHighGround.DIFFERENCE_PLUS_ONE,
                  protectiveWard=r.ProtectiveWard.DRAW_PHASE,
                  argagargLife=r.ArgagargLife.LIFE_90,
                  burstOfSpeed=r.BurstOfSpeed.FLOOR_0_0,
                  innateCounters=r.InnateCounters.FIRST_EDITION_FAQ,
                  entanglingVines=r.EntanglingVines.FASTER_5,
                  zaneThrowSpeed=r.ZaneThrowSpeed.X_4,
                  rollingPandaBlock=r.RollingPandaBlock.FIRST_EDITION_2),
        r.Ruleset(pumpTiming=r.PumpTiming.IMMEDIATE, voidTiming=r.VoidTiming.AFTER_REVEAL,
                  blockReturn=r.BlockReturn.IMMEDIATE, jokers=r.Jokers.REMOVED),
        r.Ruleset(rewindDraw=r.RewindDraw.IF_PREVENTED_MAY,
                  unstablePowerRotation=r.UnstablePowerRotation.ANY_CARD_WITH_ATTACK,
                  goldBurstSearch=r.GoldBurstSearch.FREE_UP_TO_2, jokerMirror=r.JokerMirror.TIE,
                  rewindScope=r.RewindScope.ALL_COMBO_DAMAGE),
        r.Ruleset(shuffleTrigger=r.ShuffleTrigger.SEARCHED_DECK, doubleKO=r.DoubleKO.HIGHER_LIFE,
                  faceBlockParity=r.FaceBlockParity.IMMUNE, timeout=r.Timeout.NO_DRAWS,
                  maxTurns=60, afterNormalAttackOnly=True, dodgeVsNoCardAttackOnly=True,
                  hardBot=r.OnOff.ON, botTieChoice=r.BotTieChoice.HUMAN,  # Training only
                  assists=r.OnOff.OFF),  # Tag Team only (AS): no effect in Versus
    ]


def test_the_variants_use_every_alternative_of_every_option__GEN_3() -> None:
    from dataclasses import fields
    from enum import Enum

    from rules_engine.ruleset import Ruleset

    used = {(f.name, getattr(v, f.name)) for v in _variants() for f in fields(Ruleset)}
    missing = [
        (f.name, value.value)
        for f in fields(Ruleset)
        if isinstance(getattr(Ruleset(), f.name), Enum)
        for value in type(getattr(Ruleset(), f.name))
        if value != getattr(Ruleset(), f.name) and (f.name, value) not in used
    ]
    assert missing == []


@pytest.mark.parametrize("variant", range(8))
def test_self_play_under_every_ruleset_option_replays_legal__GEN_3(variant: int) -> None:
    ruleset = _variants()[variant]
    for n in range(12):
        p1, p2 = PAIRS[(n * 37 + variant * 11) % 400]
        game, log = play_game(p1, p2, n, bot="random" if n % 2 else "greedy",
                              ruleset=ruleset)  # type: ignore[arg-type]
        verdict = replay(log.dumps())
        assert verdict.status == "legal", verdict.summary()
        assert verdict.final is not None and verdict.final["position"] == game.fingerprint()


def _zones(game, ps) -> list:  # type: ignore[no-untyped-def]
    from rules_engine.effects import cards_in_play

    cards = [*ps.hand, *ps.deck, *ps.discard, *cards_in_play(ps)]  # ongoing and attached too
    cards += ps.banished  # removed from the game (Into Oblivion), still counted
    cards += ps.face_up  # face up on the table (Bare Your Soul)
    cards += [c for c in (ps.combat_card, ps.face_down) if c is not None]
    if game.combo_seat is ps.player:  # the winner's combo, or one card text started
        cards += [e.card for e in game.combo if e.played_in_c10 and not e.returned]
    return cards


def _check_zones(games: list[tuple[int, str, str]]) -> None:
    from rules_engine.bots import make_bot
    from rules_engine.cards import FULL_DECK, character
    from rules_engine.game import Game
    from rules_engine.types import Actor

    for s, p1, p2 in games:
        game = Game(character(p1), character(p2), seed=s)
        bots = (make_bot("random" if s % 2 else "greedy", s), make_bot("random", s + 7))
        while not game.is_over:
            for ps in game.players:
                assert sorted(c.code for c in _zones(game, ps)) == sorted(
                    c.code for c in FULL_DECK), (s, game.turn, game.step, ps.player)
            actor = game.actor
            p = game.acting_players[0] if actor is Actor.SIMULTANEOUS else actor
            game.apply(p, bots[p].choose(game, p, game.legal_actions(p)))  # type: ignore[index,arg-type]


def test_every_card_is_in_exactly_one_zone_at_every_decision__GEN_6() -> None:
    _check_zones([(s, *(("grave", "jaina"), ("jaina", "jaina"), PAIRS[s * 7 % 400])[s % 3])
                  for s in range(120)])


def test_cards_in_play_are_in_exactly_one_zone_at_every_decision__GEN_6(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The ongoing area and attached cards count as zones: the test-only Tester (Dragon Form,
    Reinforce, Brace; tests/rules_engine/tester_character.py) moves cards in and out of them."""
    from rules_engine import characters as chars

    from .tester_character import TesterRules

    monkeypatch.setitem(chars.IMPLEMENTED, "midori", TesterRules)
    _check_zones([(s, *(("midori", "grave"), ("jaina", "midori"), ("midori", "midori"))[s % 3])
                  for s in range(24)])
