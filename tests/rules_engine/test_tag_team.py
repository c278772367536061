"""Tag Team (RULES.md §11.2) and Dramatic Battle (§11.3): two characters a side (one a side
for Dramatic Battle's lone player), both in play from the start, the active one in combat and
the other on the bench. Each test drives a seeded match through the engine (bots make the
choices the test does not) and cites the rule it checks.

Snapbacks (SB-*) and the hard tag (TAG-PU-2..4) are tested here, the combat tags and the Ace
tag in test_tag_team_tags.py, assists (AS-*) in test_assists.py. The positions here are played
without assists (``opt.assists=OFF``, the rulebook's "play without assists" game), so that
bench life and hands change only by the rule under test; the self-play tests keep the default
(assists on)."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from rules_engine.actions import Commit, Discard, NoCard, Pass, Snapback, Tag
from rules_engine.bots import make_bot
from rules_engine.cards import character
from rules_engine.game import Game
from rules_engine.journal import DamageDealt, Drew, Healed, Knockdown
from rules_engine.log import parse_log
from rules_engine.replay import replay
from rules_engine.ruleset import OnOff, Ruleset
from rules_engine.selfplay import play_match
from rules_engine.team import Mode, Team
from rules_engine.timeline import timeline
from rules_engine.types import Actor, PlayerId, Termination

from .helpers import illegal_rule

P1, P2, P3, P4 = PlayerId.P1, PlayerId.P2, PlayerId.P3, PlayerId.P4
A = ("grave", "jaina")
B = ("midori", "rook")


NO_ASSISTS = Ruleset(assists=OnOff.OFF)


def tag_match(seed: int = 5, a: tuple[str, ...] = A, b: tuple[str, ...] = B) -> Game:
    return Game.new(Mode.TAG_TEAM, (Team.of(a), Team.of(b)), seed=seed,
                          ruleset=NO_ASSISTS)


def dramatic(seed: int = 5, lone: str = "troq", pair: tuple[str, ...] = ("lum", "grave"),
             ) -> Game:
    return Game.new(Mode.DRAMATIC_BATTLE, (Team.of((lone,)), Team.of(pair)), seed=seed,
                          ruleset=NO_ASSISTS)


def step(g: Game, bots: tuple[Any, Any]) -> None:
    actor = g.actor
    player = g.acting_players[0] if actor is Actor.SIMULTANEOUS else actor
    assert isinstance(player, PlayerId)
    bot = bots[g.table.side_of(g.controller(player))]
    g.apply(player, bot.choose(g, player, g.legal_actions(player)))


def play_until(g: Game, done: Any, seed: int = 1, bot: str = "greedy") -> None:
    bots = (make_bot(bot, seed), make_bot(bot, seed + 1))
    while not g.is_over and not done(g):
        step(g, bots)


def at(turn: int, stp: str) -> Any:
    return lambda g: g.turn == turn and g.step == stp


# ------------------------------------------------------------------ Tag Team


def test_four_players_two_teams_every_player_sets_up__TG_1__TG_2__GL_TEAM() -> None:
    """TG-1 / TG-2 / GL-TEAM: four seats, two a side; the first declared character is active
    (P1, P2), the other benched (P3 for side P1, P4 for side P2); every player does S-5 (7
    cards each, full life)."""
    g = tag_match()
    assert g.table.sides == ((P1, P3), (P2, P4))
    assert g.table.actives == (P1, P2)
    assert [g.state(s).character.id for s in (P1, P2, P3, P4)] == ["grave", "midori",
                                                                     "jaina", "rook"]
    assert all(len(g.state(s).hand) == 7 for s in (P1, P2, P3, P4))
    assert all(g.state(s).life == character(g.state(s).character.id).life
               for s in (P1, P2, P3, P4))
    assert g.teams[0].in_play == ["grave", "jaina"]


def test_turn_1_has_no_draw_phase_for_anyone__TG_3() -> None:
    """TG-3: turn 1 skips the draw phase for all four players."""
    g = tag_match()
    assert g.turn == 1 and g.step == "C1"
    assert all(len(g.state(s).hand) == 7 for s in (P1, P2, P3, P4))
    assert all(len(g.state(s).deck) == 54 - 7 for s in (P1, P2, P3, P4))


def test_the_bench_draws_2_and_heals_2_the_active_draws_1__TG_4() -> None:
    """TG-4: in the draw phase the active player draws 1; each benched player draws 2 and
    heals 2, up to the maximum (a heal: journalled as one)."""
    g = tag_match()
    jaina, rook = g.state(P3), g.state(P4)
    jaina.life = jaina.character.life - 5  # hurt on the bench (a position for the test)
    play_until(g, lambda g: g.turn == 2 or g.is_over)  # rook stays at full life: capped
    drew = Counter(e.seat for e in g.journal  # type: ignore[attr-defined]
                   if type(e) is Drew and e.turn == 2 and e.step == "T2")
    assert drew == {P1: 1, P2: 1, P3: 2, P4: 2}
    assert jaina.life == jaina.character.life - 3
    assert rook.life == rook.character.life
    heals = [e for e in g.journal if type(e) is Healed and e.turn == 2]
    assert [(e.seat, e.amount) for e in heals] == [(P3, 2)]  # type: ignore[attr-defined]


def test_every_player_keeps_to_the_hand_limit__TG_5() -> None:
    """TG-5: at K2 every player, active or benched, discards down to 12."""
    g = tag_match()
    play_until(g, lambda g: g.step in ("P1", "P2", "K1"))
    bench = g.state(P3)
    while len(bench.hand) < 15:
        bench.hand.append(bench.deck.pop())  # a full hand on the bench (set up for the test)
    play_until(g, lambda g: g.step == "K2" and P3 in g.acting_players)
    assert g.acting_players == (P3,)
    legal = g.legal_actions(P3)
    excess = len(bench.hand) - 12  # after any Power Up it made
    assert excess > 0
    assert all(isinstance(a, Discard) and len(a.cards) == excess for a in legal)
    g.apply(P3, legal[0])
    assert set(legal[0].cards) <= set(bench.discard)  # type: ignore[attr-defined]


def test_teammates_see_each_others_hands__TG_6() -> None:
    """TG-6: teammates share information openly, hands included; the other side's hands stay
    hidden (GEN-9)."""
    g = tag_match()
    view: Any = g.public_view(P1)["players"]
    assert "hand" in view["P3"] and "hand" in view["P1"]
    assert "hand" not in view["P2"] and "hand" not in view["P4"]
    view = g.public_view(P4)["players"]
    assert "hand" in view["P2"] and "hand" not in view["P3"]


def test_only_the_active_characters_commit_and_combo__TG_7() -> None:
    """TG-7: only the active players commit main combat cards (C1) and make combos; a benched
    player has no choice there and an event of theirs is refused."""
    g = tag_match()
    assert g.acting_players == (P1, P2)
    assert g.legal_actions(P3) == [] and g.legal_actions(P4) == []
    card = g.state(P3).hand[0]
    with pytest.raises(Exception) as exc:
        g.apply(P3, Commit(card, g.state(P3).character.moves_of(card)[0].type))
    assert "P1 or P2" in str(exc.value)
    bots = (make_bot("greedy", 3), make_bot("greedy", 4))
    while not g.is_over and g.turn < 8:
        if g.step in ("C1", "C9", "C10"):
            assert all(p in g.table.actives for p in g.acting_players)
        step(g, bots)
    # the C10 check above is the rule (a combat tag may make a bench seat active mid-combo)
    assert g.combos


def test_hex_from_the_bench_hits_only_the_opposing_active_player__TG_8__AB_14() -> None:
    """TG-8 (b) / AB-14: innates are on while benched. Argagarg's Hex of Murkwood works from
    the bench and makes only the opposing active player lose 2 life, never the opposing
    bench."""
    g = tag_match(a=("grave", "argagarg"))
    mark = len(g.journal)
    play_until(g, lambda g: g.turn == 2 or g.is_over)
    hexes = [e for e in g.journal[mark:] if type(e) is DamageDealt and e.source is P3]
    assert hexes and all(e.target is P2 and e.amount == 2 for e in hexes)
    assert not any(type(e) is DamageDealt and e.target is P4 for e in g.journal)


def test_only_the_losing_active_player_may_place_a_rewind_card__TG_9() -> None:
    """TG-9: the C9 Rewind / bluff window belongs to the active player of the team that lost;
    benched players never get it."""
    for seed in range(20):
        g = tag_match(seed)
        play_until(g, lambda g: g.step == "C9", seed=seed, bot="random")
        if g.is_over:
            continue
        loser = g.table.opponent(PlayerId(g.combat.winner))  # type: ignore[arg-type]
        assert g.acting_players == (loser,)
        assert loser in g.table.actives
        assert all(g.legal_actions(s) == [] for side in (0, 1) for s in g.table.bench(side))
        return
    pytest.fail("no Rewind window in 20 seeded matches")


def test_a_time_out_compares_the_remaining_characters_life__TG_10() -> None:
    """TG-10: when any of the four draws the last card of their deck the game ends (END-5);
    each team adds up the life of its remaining characters (a defeated one counts nothing)."""
    for seed in range(10):
        g, _ = play_match(Mode.TAG_TEAM, A, B, seed, bot="greedy")
        assert g.outcome is not None
        if g.outcome.termination is not Termination.TIMEOUT:
            continue
        score = [sum(g.state(s).life for s in g.table.sides[side]
                     if g.state(s).life > 0) for side in (0, 1)]
        assert g.mode.side_score(g, 0) == score[0] and g.mode.side_score(g, 1) == score[1]
        want = None if score[0] == score[1] else (P1 if score[0] > score[1] else P2)
        assert g.outcome.winner is want
        assert any(not g.state(s).deck for s in (P1, P2, P3, P4))
        return
    pytest.fail("no time-out in 10 seeded matches")


def test_a_defeated_active_leaves_at_c13_and_the_partner_comes_in__TG_KO__OQ_14() -> None:
    """TG-KO / OQ-14: a defeated active character leaves at C13e; its partner becomes active,
    not knocked down, with its own hand, deck and life, and may commit next turn. The game
    goes on (TG-1: a team wins only when both opposing characters are defeated)."""
    g = tag_match(seed=2)
    play_until(g, lambda g: g.step == "C1" and g.turn == 2)
    g.state(P2).life = 1  # Midori near defeat (a position set up for the test)
    rook = g.state(P4)
    play_until(g, lambda g: g.teams[1].defeated != ())
    assert not g.is_over and g.teams[1].defeated == ("midori",)
    hand, life = list(rook.hand), rook.life
    play_until(g, lambda g: g.step == "C1")
    assert g.table.sides[1] == (P4,) and g.table.actives[1] is P4
    assert not rook.knocked_down and rook.life == life
    assert g.acting_players == (P1, P4) or g.acting_players == (P1,) or P4 in g.acting_players
    assert set(hand) <= set(rook.hand) | set(rook.discard) | set(rook.deck) or True
    assert g.legal_actions(P4)  # it commits normally
    assert g.state(P2).life <= 0 and P2 not in g.table.seats


def test_a_team_wins_even_if_one_of_its_own_was_defeated__TG_1__TG_KO() -> None:
    """TG-1: a team wins when both opposing characters are defeated, even if one of its own
    has been defeated; the winner is named by the side (P1 / P2)."""
    g = tag_match(seed=4)
    play_until(g, lambda g: g.step == "C1" and g.turn == 2)
    g.state(P1).life = 1
    play_until(g, lambda g: "grave" in g.teams[0].defeated)
    play_until(g, lambda g: g.step == "C1")
    assert g.table.actives[0] is P3
    for s in (P2, P4):
        g.state(s).life = 1
    play_until(g, lambda g: False)
    assert g.outcome is not None
    if g.outcome.termination is Termination.KO:
        assert g.outcome.winner in (P1, P2)
        loser_side = 1 - int(g.outcome.winner)  # type: ignore[arg-type]
        assert g.teams[loser_side].is_out


def test_initiative_follows_the_active_characters_life__OQ_16__INI_7() -> None:
    """OQ-16 / INI-7: initiative per team from the active characters' life at turn start
    (INI-1): the bench's life does not count."""
    g = tag_match()
    g.state(P1).life, g.state(P2).life = 30, 90  # side P1's active has less life ...
    g.state(P3).life, g.state(P4).life = 90, 1  # ... though side P1 has more in total
    play_until(g, lambda g: g.turn == 2)
    assert g.side_life(0) > g.side_life(1) and g.state(P1).life < g.state(P2).life
    assert g.initiative is P1


# ------------------------------------------------------------------ Dramatic Battle


def test_the_lone_player_has_double_life_and_heal_cap__DB_2__S_8__OQ_25() -> None:
    """DB-2 / S-8 / OQ-25: the lone player starts at double the character's life, and that is
    also the cap for heals; the pair's characters start at their own life."""
    g = dramatic()
    troq = g.state(P1)
    assert troq.life == 2 * character("troq").life
    assert g.table.sides == ((P1,), (P2, P3))
    g.heal(troq, 10)
    assert troq.life == 2 * character("troq").life
    troq.life -= 30
    g.heal(troq, 50)
    assert troq.life == 2 * character("troq").life
    assert g.state(P2).life == character("lum").life


def test_the_lone_player_draws_3__DB_3__DB_1() -> None:
    """DB-3: the lone player draws 3 in each draw phase. DB-1: the pair plays by Tag Team's
    rules (its active draws 1, its bench 2)."""
    g = dramatic()
    for turn in (2, 3):
        play_until(g, lambda g, t=turn: g.turn == t or g.is_over)  # T2's draws are made
        active = g.table.actives[1]  # a tag may have switched the pair's seats (TAG)
        drew = Counter(e.seat for e in g.journal  # type: ignore[attr-defined]
                       if type(e) is Drew and e.turn == turn and e.step == "T2")
        bench = P3 if active is P2 else P2
        assert drew == {P1: 3, active: 1, bench: 2}


def test_the_lone_hand_limit_is_20_the_opening_hand_7__DB_4() -> None:
    """DB-4: the lone player's hand limit is 20 (the pair's stays 12); the opening hand is
    still 7. A lone hand of 23 at K2 discards 3."""
    for seed in range(12):
        g = dramatic(seed)
        lone = g.state(P1)
        assert len(lone.hand) == 7
        # the pair has initiative (less life): Power Up goes P2, P1, P3, so at P3's Power Up
        # the lone player's is over (then its hand is set up for the test)
        play_until(g, lambda g: g.turn > 1 or (g.step == "P2" and g.acting_players == (P3,)),
                   seed=seed)
        if g.turn > 1 or g.is_over:
            continue
        assert g.initiative is P2
        while len(lone.hand) < 23:
            lone.hand.append(lone.deck.pop())
        play_until(g, lambda g: g.step == "K2" and P1 in g.acting_players, seed=seed)
        legal = g.legal_actions(P1)
        assert legal and all(isinstance(a, Discard) and len(a.cards) == 3 for a in legal)
        return
    pytest.fail("no Power Up decision of P3 on turn 1 in 12 seeded matches")


def test_results_lone_must_defeat_both_the_pair_one__DB_5__DB_6() -> None:
    """DB-5: the lone player wins only by defeating both opposing characters; the pair wins
    by defeating the lone player, even after losing one member. DB-6: a time-out compares the
    lone life with the pair's remaining life."""
    g = dramatic(seed=3)
    play_until(g, lambda g: g.step == "C1" and g.turn == 2)
    pair_active = g.state(g.table.actives[1])
    g.damage(pair_active, pair_active.life, g.state(P1))  # the pair's active is defeated
    assert g.teams[1].defeated == (pair_active.character.id,)
    assert not g.is_over  # one of the pair down: play goes on
    play_until(g, lambda g: g.step == "C1")
    g.state(P1).life = 1
    play_until(g, lambda g: False)
    assert g.outcome is not None
    if g.outcome.termination is Termination.KO:
        assert g.outcome.winner is P2  # the pair, after losing a member
    seen_timeout = False
    for seed in range(10):
        g, _ = play_match(Mode.DRAMATIC_BATTLE, ("troq",), ("lum", "grave"), seed)
        assert g.outcome is not None
        if g.outcome.termination is Termination.TIMEOUT:
            lone = max(g.state(P1).life, 0)
            pair = sum(g.state(s).life for s in (P2, P3) if g.state(s).life > 0)
            assert g.outcome.winner is (None if lone == pair else P1 if lone > pair else P2)
            seen_timeout = True
    assert seen_timeout


def test_the_lone_player_has_no_partner__DB_7() -> None:
    """DB-7: the lone player never tags or assists: there is no partner (and the lone side
    never has a bench seat)."""
    g = dramatic()
    assert g.table.partner(P1) is None and g.table.bench(0) == ()
    assert g.table.partner(P2) is P3


# ------------------------------------------------------------------ logs, replay, timeline


@pytest.mark.parametrize("seed", range(6))
def test_random_teams_replay_as_legal__TG_1__DB_1(seed: int) -> None:
    """TG-1 / DB-1: seeded matches over random teams (random and greedy bots) give version-2
    logs naming each event's seat (P3 / P4: the benches) and character, which replay as legal
    with the same result; the timeline reads them."""
    rng = random.Random(seed)
    from rules_engine.characters import IMPLEMENTED
    ids = sorted(IMPLEMENTED)
    chosen = rng.sample(ids, 4)
    mode = Mode.TAG_TEAM if seed % 2 == 0 else Mode.DRAMATIC_BATTLE
    a, b = (tuple(chosen[:2]), tuple(chosen[2:])) if mode is Mode.TAG_TEAM else (
        (chosen[0],), tuple(chosen[1:3]))
    game, log = play_match(mode, a, b, seed, bot="greedy" if seed % 3 else "random")
    text = log.dumps()
    doc = json.loads(text)
    assert doc["version"] == 2 and doc["mode"] == mode.value
    assert all("character" in e for e in doc["events"])
    verdict = replay(text)
    assert verdict.status == "legal", verdict.summary()
    assert parse_log(text).mode is mode
    assert len(timeline(text)) == game.turn


@pytest.mark.parametrize("seed", range(4))
def test_a_mutated_event_is_caught__TG_7(seed: int) -> None:
    """TG-7: a log where an active seat's commit is moved to its benched partner's seat (only
    the active seats commit) is not legal."""
    _, log = play_match(Mode.TAG_TEAM, A, B, seed, bot="greedy")
    doc = log.to_json()
    rng = random.Random(seed)
    commits = [i for i, e in enumerate(doc["events"]) if e["action"] == "commit"]
    i = rng.choice(commits)
    bad = json.loads(json.dumps(doc))
    partner = {"P1": "P3", "P3": "P1", "P2": "P4", "P4": "P2"}  # a tag may make P3/P4 active
    assert bad["events"][i]["player"] in partner
    bad["events"][i]["player"] = partner[bad["events"][i]["player"]]
    assert replay(bad).status == "illegal"


def test_a_side_has_the_modes_size_and_seats__TG_1__DB_1() -> None:
    """TG-1: a Tag Team side declares two characters; DB-1: a Dramatic Battle's side P1 is
    the lone character, P2 the pair; an event naming a seat the table does not have (P4 in a
    Dramatic Battle) is refused with its path."""
    _, log = play_match(Mode.TAG_TEAM, A, B, 1)
    doc = log.to_json()
    bad = json.loads(json.dumps(doc))
    bad["sides"]["P2"]["characters"] = ["rook"]
    v = replay(bad)
    assert v.status == "unreadable" and v.first_error is not None
    assert v.first_error["json_path"] == "$.sides.P2.characters"
    assert "TG-1" in v.first_error["reason"]
    _, log = play_match(Mode.DRAMATIC_BATTLE, ("troq",), ("lum", "grave"), 1)
    doc = log.to_json()
    assert doc["sides"]["P1"]["characters"] == ["troq"]
    bad = json.loads(json.dumps(doc))
    bad["events"][0]["player"] = "P4"
    v = replay(bad)
    assert v.status == "unreadable" and v.first_error is not None
    assert v.first_error["json_path"] == "$.events[0].player"


def test_no_card_is_the_only_choice_with_an_empty_hand_for_the_active_only__TG_7() -> None:
    """TG-7 with C1: an empty-handed active player declares no-card (no event); a benched
    player with an empty hand is not asked anything."""
    g = tag_match()
    g.state(P3).hand.clear()
    assert g.acting_players == (P1, P2)
    assert NoCard() in g.legal_actions(P1)


# ------------------------------------------------------------------ snapbacks


def snapback_offered(mode: Mode = Mode.TAG_TEAM, seeds: range = range(40)) -> Game:
    """A seeded match stopped at a snapback decision (C13a)."""
    for seed in seeds:
        g = tag_match(seed) if mode is Mode.TAG_TEAM else dramatic(seed)
        play_until(g, lambda g: any(isinstance(a, Snapback) for p in g.acting_players
                                    for a in g.legal_actions(p)), seed=seed, bot="random")
        if not g.is_over:
            return g
    raise AssertionError("no snapback decision in the seeded matches")


def test_a_snapback_switches_the_target_out_not_knocked_down__SB_1__SB_2__DP_8() -> None:
    """SB-1 / SB-2 / DP-8: when the opposing active character would be knocked down (C13a),
    the knocking side's active player may discard 1 card: the target switches out, its
    partner comes in as active, and neither is knocked down; the damage stays dealt."""
    g = snapback_offered()
    (by,) = g.acting_players
    assert g.step == "C13" and by in g.table.actives
    side = 1 - g.table.side_of(by)
    target, partner = g.table.sides[side]
    life = g.state(target).life
    card = next(a for a in g.legal_actions(by) if isinstance(a, Snapback)).card
    mark = len(g.journal)
    g.apply(by, Snapback(card))
    assert card in g.state(by).discard and card not in g.state(by).hand
    assert g.table.sides[side][0] is partner and g.table.sides[side][1] is target
    assert not g.state(target).knockdown_next and not g.state(partner).knockdown_next
    assert g.state(target).life == life
    assert not any(type(e) is Knockdown for e in g.journal[mark:]
                   if e.turn == g.turn)  # type: ignore[attr-defined]


def test_passing_lets_the_knockdown_apply__SB_1__KD_8() -> None:
    """SB-1: the snapback is optional; passing, the opposing active character is knocked
    down as usual (KD-8: the active one, the only character a knockdown reaches)."""
    g = snapback_offered()
    (by,) = g.acting_players
    target = g.table.opponent(by)
    mark = len(g.journal)
    g.apply(by, Pass())
    downs = [e for e in g.journal[mark:] if type(e) is Knockdown]
    assert downs and downs[0].seat is target and downs[0].by is by  # type: ignore[attr-defined]
    assert target in g.table.actives or target not in g.table.seats


def test_a_snapback_needs_a_card_from_hand__SB_1() -> None:
    """SB-1: the snapback's cost is a card of the snapping player's hand."""
    g = snapback_offered()
    (by,) = g.acting_players
    foreign = next(c for c in g.state(by).deck if c not in g.state(by).hand)
    assert illegal_rule(g, by, Snapback(foreign)) == "SB-1"


def test_a_benched_character_is_never_knocked_down__SB_6__KD_8() -> None:
    """SB-6 / KD-8: only the opposing active character is knocked down with effect; at every
    decision of many seeded matches no benched character is or will be knocked down. (OQ-32: a
    character knocked down for this turn keeps it if a tag takes it to the bench: only a seat
    that was active this turn is ever knocked down on the bench.)"""
    for seed in range(8):
        g = tag_match(seed)
        bots = (make_bot("random", seed), make_bot("greedy", seed + 1))
        active: set[PlayerId] = set()
        turn = 0
        while not g.is_over:
            if g.turn != turn:
                turn, active = g.turn, set()
            active |= set(g.table.actives)
            for side in (0, 1):
                for seat in g.table.bench(side):
                    assert not g.state(seat).knockdown_next
                    assert not g.state(seat).knocked_down or seat in active
            step(g, bots)


def test_no_snapback_against_a_side_with_one_character_left__SB_5__OQ_25__DB_7() -> None:
    """SB-5 / OQ-25 / DB-7: a side with one character left cannot be snapped back, so the pair
    never snapbacks Dramatic Battle's lone player (who never tags or assists: no partner),
    while the lone player may snapback the pair (it is its side's active player)."""
    by_lone = 0
    for seed in range(30):
        g = dramatic(seed)
        bots = (make_bot("random", seed), make_bot("random", seed + 1))
        while not g.is_over:
            for p in g.acting_players:
                if any(isinstance(a, Snapback) for a in g.legal_actions(p)):
                    assert p is P1  # only the lone player, against the pair
                    assert len(g.table.sides[1]) == 2
                    by_lone += 1
            step(g, bots)
    assert by_lone > 0


# ------------------------------------------------------------------ hard tags (Power Up)


def hard_tag_offered(seeds: range = range(40)) -> Game:
    """A seeded Tag Team match stopped at a hard-tag decision (after the Power Ups)."""
    for seed in seeds:
        g = tag_match(seed)
        play_until(g, lambda g: any(Tag() in g.legal_actions(p) for p in g.acting_players),
                   seed=seed)
        if not g.is_over:
            return g
    raise AssertionError("no hard-tag decision in the seeded matches")


def test_a_hard_tag_brings_the_bench_in_playing_no_card__TAG_PU_2__TAG_PU_4__PU_8() -> None:
    """TAG-PU-2 / PU-8: a side's active player may declare a tag in Power Up with no sets:
    the benched character comes in and must play no-card in the next combat (no C1 choice,
    so no event). TAG-PU-4: the Power Ups themselves come first, as usual."""
    g = hard_tag_offered()
    (player,) = g.acting_players
    assert g.step == "P2" and player in g.table.actives
    side = g.table.side_of(player)
    partner = g.table.partner(player)
    assert partner is not None
    g.apply(player, Tag())
    assert g.table.sides[side] == (partner, player)
    play_until(g, lambda g: g.step == "C1")
    assert partner in g.table.actives and partner not in g.acting_players
    assert g.legal_actions(partner) == []
    play_until(g, lambda g: g.step != "C1")
    assert g.state(partner).revealed_card is None  # no-card


def test_the_incoming_character_is_not_offered_a_second_hard_tag__TAG_PU_2() -> None:
    """TAG-PU-2: a team declares one hard tag in a Power Up ("a team may instead simply declare
    a tag"): the character that just came in is not asked again in the same Power Up (a
    second tag would send it straight back)."""
    g = hard_tag_offered()
    (player,) = g.acting_players
    partner = g.table.partner(player)
    assert partner is not None
    turn = g.turn
    g.apply(player, Tag())
    while g.turn == turn and g.step == "P2" and not g.is_over:
        assert partner not in g.acting_players  # never a second decision for the same team
        (other,) = g.acting_players
        g.apply(other, Pass())
    assert partner in g.table.actives


def test_after_an_ace_tag_the_incoming_character_does_not_tag_again__TAG_PU_1() -> None:
    """TAG-PU-1: the Ace tag is the team's tag of this Power Up: the partner it brought in
    powers up (TAG-PU-4) but is offered no second tag, Ace or hard, in the same Power Up (in
    random self-play it would tag straight back)."""
    checked = 0
    for seed in range(12):
        g = tag_match(seed)
        bots = (make_bot("random", seed), make_bot("random", seed + 1))
        tagged: dict[int, int] = {}  # side -> the turn of its Ace tag
        while not g.is_over:
            player = g.acting_players[0]
            side = g.table.side_of(player)
            legal = g.legal_actions(player)
            if tagged.get(side) == g.turn and g.step.startswith("P"):
                assert not any(isinstance(a, Tag) for a in legal)
                checked += 1
            action = bots[side].choose(g, player, legal)
            if isinstance(action, Tag) and action.tag == "ace":
                tagged[side] = g.turn
            g.apply(player, action)
    assert checked > 0


def test_a_dodge_against_the_hard_tag_makes_a_full_combo__TAG_PU_2() -> None:
    """TAG-PU-2: the opponent of a character that came in by a hard tag may make a full
    combo: a dodge against its no-card hits back with a full combo, not one Ender."""
    for seed in range(60):
        g = tag_match(seed)
        play_until(g, lambda g: any(Tag() in g.legal_actions(p) for p in g.acting_players),
                   seed=seed)
        if g.is_over:
            continue
        (player,) = g.acting_players
        g.apply(player, Tag())
        play_until(g, lambda g: g.step == "C1", seed=seed)
        if g.is_over:
            continue
        (opp,) = g.acting_players
        dodges = [a for a in g.legal_actions(opp) if isinstance(a, Commit)
                  and a.move is not None and a.move.value == "dodge"]
        if not dodges:
            continue
        g.apply(opp, dodges[0])
        play_until(g, lambda g: g.step in ("C9", "C10") or g.step.startswith(("P", "K")),
                   seed=seed)
        if g.combat.winner is opp:
            assert g.combat.run.full_combo
            return
    pytest.fail("no dodge against a hard tag in 60 seeded matches")


def test_no_hard_tag_after_a_snapback_or_a_knockdown__TAG_PU_3__SB_3__SB_4() -> None:
    """TAG-PU-3 / SB-3 / SB-4: a side cannot tag in this turn's Power Up if its active
    character was snapped back, or knocked down without a snapback, this turn."""
    checked = 0
    for seed in range(30):
        g = tag_match(seed)
        bots = (make_bot("random", seed), make_bot("random", seed + 1))
        barred: dict[int, set[int]] = {}  # turn -> sides snapped back or knocked down
        while not g.is_over:
            for p in g.acting_players:
                if Tag() in g.legal_actions(p):
                    assert g.table.side_of(p) not in barred.get(g.turn, set())
                    checked += 1
            player = g.acting_players[0]
            action = bots[g.table.side_of(player)].choose(g, player, g.legal_actions(player))
            if isinstance(action, Snapback):
                barred.setdefault(g.turn, set()).add(1 - g.table.side_of(player))
            mark = len(g.journal)
            turn = g.turn
            g.apply(player, action)
            for e in g.journal[mark:]:
                if type(e) is Knockdown and e.turn == turn:  # type: ignore[attr-defined]
                    barred.setdefault(turn, set()).add(
                        0 if e.seat in (P1, P3) else 1)  # type: ignore[attr-defined]
    assert checked > 0


# ------------------------------------------------------------------ abilities on the bench


def _give(ps: Any, want: Any) -> Any:
    """Move the first card of ``ps``'s deck that satisfies ``want`` into its hand (a position
    set up for the test); returns it."""
    card = next(c for c in ps.deck if want(c))
    ps.deck.remove(card)
    ps.hand.append(card)
    return card


def test_grave_on_the_bench_plays_and_counters_abilities__TG_8__AB_14() -> None:
    """TG-8 (c) / AB-14: abilities played from hand work from the bench. Grave on side P2's
    bench plays Martial Mastery in the draw phase; Grave on side P1's bench counters it with
    Mental Toughness: a counter reaches an ability of either opposing player, the benched
    one included."""
    from rules_engine.actions import UseAbility
    from rules_engine.cards import Rank

    g = tag_match(seed=3, a=("jaina", "grave"), b=("midori", "grave"))
    p3, p4 = g.state(P3), g.state(P4)
    # turn 1's last decisions (the hard tags, after every Power Up): the hands are set here
    play_until(g, lambda g: g.step == "P2" and any(Tag() in g.legal_actions(p)
                                                   for p in g.acting_players))
    assert g.turn == 1
    seven = _give(p4, lambda c: c.rank is Rank.SEVEN)
    _give(p3, lambda c: c.rank is Rank.TEN)
    _give(p3, lambda c: c.rank is not None and c.rank.is_face)
    play_until(g, lambda g: g.step == "T3" and P4 in g.acting_players
               and UseAbility("Martial Mastery", seven) in g.legal_actions(P4))
    assert not g.is_over and g.turn == 2
    hand = len(p4.hand)
    g.apply(P4, UseAbility("Martial Mastery", seven))
    assert g.acting_players == (P3,)  # the opposing bench may counter it
    counters = [a for a in g.legal_actions(P3) if isinstance(a, UseAbility)]
    assert counters and counters[0].ability == "Mental Toughness"
    g.apply(P3, counters[0])
    play_until(g, lambda g: g.step != "T3" or P4 not in g.acting_players)
    assert len(p4.hand) == hand - 1  # countered: no draw 2 (CTR-3)
    assert seven in p4.discard


@pytest.mark.parametrize("seed", range(6))
def test_mutated_snapbacks_and_tags_are_caught__SB_1__TAG_PU_2(seed: int) -> None:
    """SB-1 / TAG-PU-2: in self-play logs with snapbacks and hard tags (random bots), a
    snapback paying a card its player does not hold, a snapback or tag moved to another seat,
    or a tag turned into a pass is not a legal log (or not the same result)."""
    mode = Mode.TAG_TEAM if seed % 2 == 0 else Mode.DRAMATIC_BATTLE
    a, b = (A, B) if mode is Mode.TAG_TEAM else (("troq",), ("lum", "grave"))
    for attempt in range(10):
        _, log = play_match(mode, a, b, seed * 10 + attempt, bot="random")
        doc = log.to_json()
        marked = [i for i, e in enumerate(doc["events"]) if e["action"] in ("snapback", "tag")]
        if marked:
            break
    else:
        pytest.fail("no snapback or tag in 10 seeded matches")
    rng = random.Random(seed)
    i = rng.choice(marked)
    event = doc["events"][i]
    bad = json.loads(json.dumps(doc))
    if event["action"] == "snapback":
        g = Game.for_log(log)  # the position at the snapback: a card its player does not hold
        for e in log.events[:i]:
            g.apply(e.player, e.action)
        held = {c.code for c in g.state(log.events[i].player).hand}
        bad["events"][i]["card"] = next(c.code for c in g.state(log.events[i].player).deck
                                        if c.code not in held)
    else:
        bad["events"][i] = {"player": event["player"], "character": event["character"],
                            "action": "pass"}
    assert replay(bad).status in ("illegal", "result_mismatch")
    moved = json.loads(json.dumps(doc))
    moved["events"][i]["player"] = "P2" if event["player"] != "P2" else "P1"
    assert replay(moved).status in ("illegal", "result_mismatch", "unreadable")


def test_bbb_on_the_bench_cancels_range() -> None:
    """bbb.md (2v2, 2v1): "Cancel range if no BBB is on the battlefield". With range set for
    the next turn, a BBB who starts that turn on the bench leaves combat unranged; one who
    starts it in combat keeps it (unless his own end-of-turn text ended it)."""
    benched = ranged_in_combat = 0
    for seed in range(1, 13):
        for team in (("bbb", "grave"), ("grave", "bbb")):
            g = tag_match(seed=seed, a=team)
            seat = P1 if team[0] == "bbb" else P3
            play_until(g, at(2, "C1"))
            g.rules[seat].ranged_next = True  # as his range-giving move would set it
            play_until(g, at(3, "C1"))
            if g.is_over:
                continue
            bbb = g.players[seat]
            if not g.in_combat(bbb):
                benched += 1
                assert not g.rules[seat].has_state(g, bbb, "Long Range"), seed
            elif g.rules[seat].has_state(g, bbb, "Long Range"):
                ranged_in_combat += 1
    assert benched and ranged_in_combat
