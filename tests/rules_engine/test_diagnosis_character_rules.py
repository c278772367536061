"""Illegal logs that break a character's or a mode's own rule: before "this event does not fit
here" or the end of the game, the diagnosis asks the characters and the mode
(``CharacterRules.rule_broken``, ``ModeRules.rule_broken``), so the verdict names the sources'
rule (Defense Mastery, SB-1, SB-5, TAG-PU-2, a counter with nothing to counter), and a refusal
names only abilities the player holds."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules_engine.actions import Commit, Draw, Snapback, Tag, UseAbility
from rules_engine.cards import card
from rules_engine.errors import RuleViolation
from rules_engine.game import Game
from rules_engine.log import LogEvent, MatchLog
from rules_engine.replay import replay
from rules_engine.selfplay import play_match
from rules_engine.team import Mode

from .helpers import P1, P2, cards, commit, fight, first_error, recorded_game


def _team_error(log: MatchLog, upto: int, event: LogEvent) -> dict[str, Any]:
    """The first error of ``log``'s first ``upto`` events plus ``event``."""
    verdict = replay(replace(log, events=(*log.events[:upto], event), result=None))
    assert verdict.status == "illegal" and verdict.first_error is not None
    assert verdict.first_error["index"] == upto
    return verdict.first_error


def _position(log: MatchLog, upto: int) -> Game:
    g = Game.for_log(log)
    for e in log.events[:upto]:
        g.apply(e.player, e.action)
    return g


def test_a_draw_defense_mastery_took_away_names_it__AB_1() -> None:
    """rook.md, Defense Mastery: "Opponents don't draw when you block their normal attacks".
    Grave records the C7 draw for his blocked 2 anyway: the verdict names Defense Mastery,
    not "this event does not fit here"."""
    g = recorded_game("8C 5H 6C 7C 2H 3S 8S", "2D 3D 4D 5D 6D 8D 9D", p1="rook")
    fight(g, commit("8C", "block"), commit("2D", "attack"))
    assert (g.step, g.actor) == ("C8", P1)  # Rook's block draw is due, Grave's draw is not
    error = first_error(g, P2, Draw(card("KD")))
    assert error["rule_id"] == "AB-1"
    assert "Defense Mastery" in error["reason"] and "does not fit" not in error["reason"]


def test_a_counter_with_nothing_to_counter_names_the_counter_only__CTR_2() -> None:
    """setsuki.md: Smoke Bomb is a Reaction. Logged at Combat Reveal with no ability being
    played, the verdict says so, and names no card she does not hold (Bag of Tricks)."""
    g = recorded_game("TC 2C 3C 4C 5C 6C 8C", "2D 3D 4D 5D 6D 8D 9D", p1="setsuki")
    fight(g, commit("6C", "block"), commit("5D", "block"))
    error = first_error(g, P1, UseAbility("Smoke Bomb", card("TC"), cards("2C 3C")))
    assert error["rule_id"] == "CTR-2"
    assert "Smoke Bomb" in error["reason"] and "Bag of Tricks" not in error["reason"]


def test_a_window_refusal_names_only_abilities_held__AB_2() -> None:
    """A refusal lists what the player could play here, never a card they do not hold: Grave
    without a 7 is told he has nothing to play but pass, not "only Martial Mastery"."""
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", "2D 3D 4D 5D 6D 8D 9D")
    with pytest.raises(RuleViolation) as why:
        g.rules[P1].check(g, g.state(P1), "draw_phase", UseAbility("Bag of Tricks", card("2C")))
    assert why.value.rule_id == "AB-2" and "Martial Mastery" not in why.value.reason
    # Setsuki without a 7 is not told about Bag of Tricks either
    g = recorded_game("TC 2C 3C 4C 5C 6C 8C", "2D 3D 4D 5D 6D 8D 9D", p1="setsuki")
    with pytest.raises(RuleViolation) as why:
        g.rules[P1].check(g, g.state(P1), "end_of_turn", UseAbility("Shenanigans"))
    assert why.value.rule_id == "AB-2" and "Bag of Tricks" not in why.value.reason


def _dramatic_log() -> MatchLog:
    _, log = play_match(Mode.DRAMATIC_BATTLE, ("troq",), ("lum", "grave"), 3, bot="greedy")
    return log


def test_no_snapback_against_the_lone_character__SB_5() -> None:
    """SB-5 / OQ-25: the pair can never snapback Dramatic Battle's lone character. A logged
    snapback by the pair (at turn 2's commits) is refused by SB-5, not "does not fit here"."""
    log = _dramatic_log()
    upto = next(i for i in range(len(log.events))
                if (g := _position(log, i)).turn == 2 and g.step == "C1")
    g = _position(log, upto)
    pair = g.table.actives[1]
    held = g.state(pair).hand[0]
    error = _team_error(log, upto, LogEvent(pair, Snapback(held), g.state(pair).character.id))
    assert error["rule_id"] == "SB-5"


def test_a_snapback_with_no_knockdown_names_the_snapback_rule__SB_1() -> None:
    """SB-1: a snapback is made when the opposing active character would be knocked down;
    logged at a commit, the verdict names SB-1."""
    _, log = play_match(Mode.TAG_TEAM, ("grave", "jaina"), ("midori", "rook"), 3, bot="greedy")
    upto = next(i for i in range(len(log.events))
                if (g := _position(log, i)).turn == 2 and g.step == "C1")
    g = _position(log, upto)
    seat = g.table.actives[0]
    error = _team_error(log, upto, LogEvent(seat, Snapback(g.state(seat).hand[0]),
                                            g.state(seat).character.id))
    assert error["rule_id"] == "SB-1"


def test_a_card_committed_after_a_hard_tag_names_the_no_card_rule__TAG_PU_2() -> None:
    """TAG-PU-2: the character a hard tag brought in must play no-card next combat; a log that
    commits a card for it is told so."""
    for seed in range(40):
        _, log = play_match(Mode.TAG_TEAM, ("grave", "jaina"), ("midori", "rook"), seed,
                            bot="random")
        tags = [i for i, e in enumerate(log.events) if isinstance(e.action, Tag)
                and e.action.tag is None]
        if tags:
            break
    else:  # pragma: no cover
        raise AssertionError("no hard tag in 40 seeded matches")
    tagged = _position(log, tags[0] + 1)
    side = tagged.table.side_of(log.events[tags[0]].player)
    incoming = tagged.table.actives[side]
    upto = next(i for i in range(tags[0] + 1, len(log.events))
                if (g := _position(log, i)).step == "C1")
    g = _position(log, upto)
    assert g.table.actives[side] == incoming and g.legal_actions(incoming) == []
    ps = g.state(incoming)
    committed = next(Commit(c, m.type, m.name) for c in ps.hand if not c.is_joker
                     for m in ps.character.moves_of(c))
    error = _team_error(log, upto, LogEvent(incoming, committed, ps.character.id))
    assert error["rule_id"] == "TAG-PU-2", error


def test_a_tag_after_a_knockdown_without_snapback_names_the_ban__SB_4() -> None:
    """SB-4 / TAG-PU-3: a team whose active character was knocked down (no snapback) this turn
    cannot tag in this Power Up; a log that tags anyway is told SB-4."""
    for seed in range(40):
        _, log = play_match(Mode.TAG_TEAM, ("grave", "jaina"), ("midori", "rook"), seed,
                            bot="random")
        found = None
        g = Game.for_log(log)
        for i, e in enumerate(log.events):
            if g.step == "P2" and not g.is_over:
                down = [ps for ps in g.table.actives if g.state(ps).knockdown_next]
                if down:
                    found = (i, down[0])
                    break
            g.apply(e.player, e.action)
        if found is not None:
            break
    else:  # pragma: no cover
        raise AssertionError("no Power Up after a knockdown in 40 seeded matches")
    upto, seat = found
    error = _team_error(log, upto, LogEvent(seat, Tag(), g.state(seat).character.id))
    assert error["rule_id"] == "SB-4", error

