"""Triple Threat (RULES.md §11.1): three characters a side, bouts under Versus rules, the
winner carrying on. Each test drives a seeded match through the engine (bots make the choices
the test does not) and cites the rule it checks."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from rules_engine.actions import Action, Draw, Pick
from rules_engine.bots import make_bot
from rules_engine.game import Game
from rules_engine.journal import Drew, Healed
from rules_engine.log import parse_log
from rules_engine.replay import replay
from rules_engine.ruleset import Ruleset
from rules_engine.selfplay import play_match
from rules_engine.team import Mode, Team
from rules_engine.types import Actor, PlayerId, Termination

from .helpers import illegal_rule

P1, P2 = PlayerId.P1, PlayerId.P2
A = ("grave", "jaina", "midori")
B = ("rook", "troq", "gwen")


def new_match(seed: int = 5, ruleset: Ruleset | None = None) -> Game:
    return Game.new(Mode.TRIPLE_THREAT, (Team.of(A), Team.of(B)), seed=seed,
                          ruleset=ruleset or Ruleset())


def step(g: Game, bots: tuple[Any, Any]) -> None:
    actor = g.actor
    player = g.acting_players[0] if actor is Actor.SIMULTANEOUS else actor
    assert isinstance(player, PlayerId)
    g.apply(player, bots[player].choose(g, player, g.legal_actions(player)))


def play_until(g: Game, done: Any, seed: int = 1, bot: str = "greedy") -> None:
    bots = (make_bot(bot, seed), make_bot(bot, seed + 1))
    while not g.is_over and not done(g):
        step(g, bots)


def pick_firsts(g: Game, first_a: str = "grave", first_b: str = "rook") -> None:
    g.apply(P1, Pick(first_a))
    g.apply(P2, Pick(first_b))


def near_ko(g: Game, seat: PlayerId, life: int = 1) -> None:
    """Set a character's life low, so the bout ends soon (a position set up for the test)."""
    g.state(seat).life = life


def test_a_side_is_three_different_characters__TT_1() -> None:
    """TT-1: each side is a team of three characters; a log declaring two, or the same one
    twice, is refused with the path of the side."""
    _, log = play_match(Mode.TRIPLE_THREAT, A, B, 3, bot="greedy")
    doc = log.to_json()
    assert doc["version"] == 2 and doc["sides"]["P1"]["characters"] == list(A)
    assert replay(doc).status == "legal"
    bad = json.loads(json.dumps(doc))
    bad["sides"]["P2"]["characters"] = ["rook", "troq"]
    verdict = replay(bad)
    assert verdict.status == "unreadable"
    assert verdict.first_error is not None
    assert verdict.first_error["json_path"] == "$.sides.P2.characters"
    assert "TT-1" in verdict.first_error["reason"]
    bad["sides"]["P2"]["characters"] = ["rook", "rook", "gwen"]
    assert replay(bad).first_error["json_path"] == "$.sides.P2.characters"  # type: ignore[index]


def test_the_first_pick_is_secret_and_simultaneous__TT_2() -> None:
    """TT-2: both sides choose their first character at once (GEN-5), from their own team;
    nothing of a pick shows before both are in."""
    g = new_match()
    assert g.step == "TT-2" and g.actor is Actor.SIMULTANEOUS
    assert g.legal_actions(P1) == [Pick(c) for c in A]
    assert g.legal_actions(P2) == [Pick(c) for c in B]
    assert illegal_rule(g, P1, Pick("rook")) == "TT-2"  # not P1's character
    g.apply(P2, Pick("gwen"))
    for viewer in (P1, None):  # the opponent and spectators
        view = g.public_view(viewer)
        p2 = view["players"]["P2"]  # type: ignore[index]
        assert p2["character"] is None  # P2's pick is hidden until P1 has picked too
        assert p2["team"] == {"characters": list(B), "defeated": []}  # the team is public
    g.apply(P1, Pick("jaina"))
    assert g.active_characters() == ("jaina", "gwen")
    assert g.step != "TT-2"  # the bout has begun: S-5 dealt the opening hands
    assert len(g.state(P1).hand) == 7 and len(g.state(P2).hand) == 7


def test_the_bout_is_played_under_versus_rules_and_names_its_character__TT_3() -> None:
    """TT-3: the two current characters play a Versus bout; a version-2 event naming a
    character that is not in play is illegal with TT-3, at its path."""
    _g, log = play_match(Mode.TRIPLE_THREAT, A, B, 11, bot="greedy")
    doc = log.to_json()
    assert replay(doc).status == "legal"
    i = next(i for i, e in enumerate(doc["events"]) if e["action"] == "commit")
    event = doc["events"][i]
    others = [c for c in (A if event["player"] == "P1" else B) if c != event["character"]]
    event["character"] = others[0]
    verdict = replay(doc)
    assert verdict.status == "illegal" and verdict.first_error is not None
    assert verdict.first_error["rule_id"] == "TT-3"
    assert verdict.first_error["json_path"] == f"$.events[{i}].character"
    assert verdict.first_error["bout"] == 1


def test_the_losing_side_picks_the_incoming_character__TT_4() -> None:
    """TT-4: after a knockout only the losing side chooses, among its remaining characters;
    a defeated character cannot come back."""
    g = new_match()
    pick_firsts(g)
    near_ko(g, P2)
    play_until(g, lambda g: g.step == "TT-4")
    assert g.teams[1].defeated == ("rook",)
    assert g.acting_players == (P2,)  # the winner's side is not asked
    assert g.legal_actions(P2) == [Pick("troq"), Pick("gwen")]
    assert illegal_rule(g, P2, Pick("rook")) == "TT-4"
    g.apply(P2, Pick("gwen"))
    assert g.active_characters() == ("grave", "gwen")


def test_with_one_character_left_the_pick_is_no_event__TT_4() -> None:
    """TT-4 with one character left: a decision with one choice is the engine's (no event)."""
    g = new_match()
    pick_firsts(g)
    near_ko(g, P2)
    play_until(g, lambda g: g.step == "TT-4")
    g.apply(P2, Pick("troq"))
    near_ko(g, P2)
    events_before = g.events_applied
    play_until(g, lambda g: len(g.teams[1].defeated) == 2)
    assert g.active_characters()[1] == "gwen"
    assert not any(isinstance(a, Pick) for _, a in g.history[events_before:])


@pytest.mark.interpreted_only  # the step is watched by wrapping it
def test_the_winner_reshuffles_keeps_its_hand_and_heals_20__TT_5(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """TT-5: the winning character shuffles its discard pile into its deck, keeps its hand
    and effects, and heals 20 up to its maximum, with no heal event for card text (Gloria's
    Healing Sphere does not trigger)."""
    seen: dict[str, Any] = {}
    original = Game.winner_carries_on

    def watch(self: Game, ps: Any) -> None:
        seen["before"] = (list(ps.hand), Counter(ps.deck + ps.discard), ps.life)
        heals = sum(1 for e in self.journal if isinstance(e, Healed))
        original(self, ps)
        seen["after"] = (list(ps.hand), Counter(ps.deck), list(ps.discard), ps.life)
        seen["heal_events"] = sum(1 for e in self.journal if isinstance(e, Healed)) - heals
        seen["max"] = ps.character.life

    monkeypatch.setattr(Game, "winner_carries_on", watch)
    g = new_match()
    pick_firsts(g)
    near_ko(g, P2)
    g.state(P1).life = 50
    play_until(g, lambda g: g.step == "TT-4")
    hand, pool, life = seen["before"]
    hand_after, deck_after, discard_after, life_after = seen["after"]
    assert hand_after == hand and deck_after == pool and discard_after == []
    assert life_after == min(life + 20, seen["max"])
    assert seen["heal_events"] == 0


def test_the_heal_is_capped_at_the_maximum__TT_5() -> None:
    """TT-5 (d): no heal above the character's starting life (GEN-8)."""
    g = new_match()
    pick_firsts(g)
    near_ko(g, P2)
    play_until(g, lambda g: g.step == "TT-4")
    grave = g.state(P1)
    assert grave.life <= grave.character.life


def test_the_incoming_character_is_fresh__OQ_17() -> None:
    """OQ-17: the incoming character draws 7 from its fresh shuffled deck at full life;
    knockdowns from the previous bout are cleared; the next turn is a normal turn (its draw
    phase happens)."""
    g = new_match()
    pick_firsts(g)
    near_ko(g, P2)
    play_until(g, lambda g: g.step == "TT-4")
    mark = len(g.journal)
    g.apply(P2, Pick("troq"))
    drawn_at = [e.step for e in g.journal[mark:] if isinstance(e, Drew) and e.seat is P2]
    troq = g.state(P2)
    assert troq.character.id == "troq" and troq.life == troq.character.life
    # the opening 7, then the next turn's draw phase
    assert drawn_at[:7] == ["OQ-17"] * 7 and drawn_at[7] != "OQ-17"
    assert "T2" in drawn_at[7:]
    assert len(troq.hand) == 8 and len(troq.hand) + len(troq.deck) == 54
    assert troq.discard == []
    assert not any(ps.knocked_down or ps.knockdown_next for ps in g.players)


def test_opt_fresh_bout_turn_1_skips_the_draw_phase__OQ_17() -> None:
    """OQ-17 option ``opt.ttFreshBoutTurn1``: the turn after a knockout is played as a turn 1
    (no draw phase); by default it has one."""
    for fresh, expected in ((True, (0, 7)), (False, (1, 8))):
        g = new_match(ruleset=Ruleset(ttFreshBoutTurn1=fresh))
        pick_firsts(g)
        near_ko(g, P2)
        play_until(g, lambda g: g.step == "TT-4")
        winner_hand = len(g.state(P1).hand)
        g.apply(P2, Pick("troq"))
        # fresh: straight to the next turn's combat; default: the draw phase and its window
        assert g.step == "C1" if fresh else g.step in ("T3", "C1")
        assert (len(g.state(P1).hand) - winner_hand, len(g.state(P2).hand)) == expected


def test_a_double_ko_brings_in_both_secretly_without_heal__OQ_18() -> None:
    """OQ-18: both characters defeated at once: both sides pick at once (hidden, as TT-2);
    nobody gets TT-5's heal or reshuffle."""
    g = new_match()
    pick_firsts(g)
    play_until(g, lambda g: g.step == "C1" and g.turn == 2)
    g.state(P1).life = 0
    g.state(P2).life = 0
    # the next knockout check ends the bout with both defeated
    play_until(g, lambda g: g.step == "TT-4", bot="random")
    assert g.teams[0].defeated == ("grave",) and g.teams[1].defeated == ("rook",)
    assert g.actor is Actor.SIMULTANEOUS
    assert g.acting_players == (P1, P2)
    g.apply(P2, Pick("troq"))
    g.apply(P1, Pick("midori"))
    assert g.active_characters() == ("midori", "troq")
    assert all(ps.life == ps.character.life and len(ps.hand) + len(ps.deck) == 54
               and not ps.discard for ps in g.players)  # both fresh, neither healed
    assert g.bouts[0].defeated == ("grave", "rook")


def test_a_side_with_no_characters_left_loses__TT_6() -> None:
    """TT-6: a side loses when all three of its characters are defeated."""
    knockouts = 0
    for seed in range(6):
        g, _log = play_match(Mode.TRIPLE_THREAT, A, B, seed, bot="greedy")
        assert g.outcome is not None
        if g.outcome.termination is Termination.KO:
            loser = 1 - g.table.side_of(g.outcome.winner)  # type: ignore[arg-type]
            assert g.teams[loser].is_out and len(g.teams[loser].defeated) == 3
            assert not g.teams[1 - loser].is_out
            assert g.bouts[-1].defeated == (g.state(g.table.active(loser)).character.id,)
            knockouts += 1
    assert knockouts >= 3  # most greedy matches end by knockout

def test_a_time_out_scores_remaining_characters_at_full_life__OQ_18() -> None:
    """OQ-18: a time-out ends the match; each side scores the life of its remaining
    characters, unplayed ones at full life."""
    g = new_match()
    pick_firsts(g)
    a = g.mode.side_score(g, 0)
    assert a == g.state(P1).life + 85 + 90  # Jaina 85, Midori 90 in reserve
    g.state(P2).life = 1
    assert g.mode.side_score(g, 1) == 1 + sum(g.starting_life(c) for c in ("troq", "gwen"))


@pytest.mark.parametrize("seed", range(24))
def test_seeded_matches_over_random_teams_replay_as_legal__TT_3(seed: int) -> None:
    """Property: a seeded Triple Threat match between random teams, played by the random or
    the greedy bot, replays as legal with the same result; its text round-trips."""
    from rules_engine.characters import IMPLEMENTED
    from rules_engine.rng import SplitMix64

    pool = sorted(IMPLEMENTED)
    rng = SplitMix64(seed)
    rng.shuffle(pool)
    team1, team2 = tuple(pool[:3]), tuple(pool[3:6])
    bot = "greedy" if seed % 2 else "random"
    g, log = play_match(Mode.TRIPLE_THREAT, team1, team2, seed, bot=bot)
    text = log.dumps()
    verdict = replay(text)
    assert verdict.status == "legal", verdict.summary()
    assert verdict.final is not None and verdict.final["position"] == g.fingerprint()
    assert [b["characters"] for b in verdict.final["bouts"]] == [
        list(b.characters) for b in g.bouts]
    assert parse_log(text).dumps() == text


@pytest.mark.parametrize("seed", range(6))
def test_a_mutated_event_is_caught__TT_3(seed: int) -> None:
    """Mutation: changing one event of a legal match (a pick, a card, a character) makes the
    verdict illegal or changes the result."""
    from rules_engine.rng import SplitMix64

    _, log = play_match(Mode.TRIPLE_THREAT, A, B, seed, bot="random")
    doc = log.to_json()
    rng = SplitMix64(seed + 100)
    picks = [i for i, e in enumerate(doc["events"]) if e["action"] == "pick"]
    commits = [i for i, e in enumerate(doc["events"]) if e["action"] == "commit"]
    mutants: list[dict[str, Any]] = []
    for i in (picks[rng.below(len(picks))], picks[-1]):
        m = json.loads(json.dumps(doc))
        side = A if m["events"][i]["player"] == "P1" else B
        m["events"][i]["incoming"] = next(c for c in side if c != m["events"][i]["incoming"])
        mutants.append(m)
    i = commits[rng.below(len(commits))]
    m = json.loads(json.dumps(doc))
    m["events"][i]["card"] = "AS" if m["events"][i]["card"] != "AS" else "KS"
    mutants.append(m)
    original = replay(doc)
    for m in mutants:
        verdict = replay(m)
        assert verdict.status != "legal" or verdict.final != original.final


def test_version_1_logs_are_unchanged_and_cannot_pick() -> None:
    """A Versus log stays version 1, byte for byte; a pick event in a version-1 log is
    refused at its path."""
    from rules_engine.selfplay import play_game

    _, log = play_game("grave", "jaina", 4)
    doc = log.to_json()
    assert doc["version"] == 1 and "sides" not in doc
    doc["events"].insert(0, {"player": "P1", "action": "pick", "incoming": "grave"})
    verdict = replay(doc)
    assert verdict.status == "unreadable" and verdict.first_error is not None
    assert verdict.first_error["json_path"] == "$.events[0].action"


def test_recorded_draws_for_the_incoming_character() -> None:
    """OQ-17 in a tabletop log: the incoming character's opening 7 are recorded draws."""
    g = Game.new(Mode.TRIPLE_THREAT, (Team.of(A), Team.of(B)), seed=None)
    g.apply(P1, Pick("grave"))
    g.apply(P2, Pick("rook"))
    assert g.actor == P1 and isinstance(g.legal_actions(P1)[0], Draw)
    actions: list[Action] = g.legal_actions(P1)
    assert all(isinstance(a, Draw) for a in actions)


def test_the_version_2_schema_is_built_from_version_1_and_accepts_team_logs() -> None:
    """The published JSON Schema of format version 2 is derived from version 1 (one source of
    the ruleset options and event shapes) and accepts the engine's Triple Threat logs."""
    from importlib import resources

    from jsonschema import Draft202012Validator

    from rules_engine.tools import build_schema_v2

    assert build_schema_v2.main(["--check"]) == 0
    schema = json.loads(resources.files("rules_engine").joinpath(
        "schema", "match-log-v2.json").read_text("utf-8"))
    validator = Draft202012Validator(schema)
    _, log = play_match(Mode.TRIPLE_THREAT, A, B, 2, bot="greedy")
    assert not list(validator.iter_errors(log.to_json()))
    doc = log.to_json()
    doc["events"][0]["incoming"] = "chess"
    assert list(validator.iter_errors(doc))


def test_a_knockout_on_the_last_allowed_turn_ends_the_match__END_10() -> None:
    """END-10 (opt.maxTurns): the cap holds when the last allowed turn ends in a knockout that
    would start a new bout (TT-4): no turn past maxTurns is played; the match is scored as a
    time-out (OQ-18: remaining characters count at full life)."""
    game, _ = play_match(Mode.TRIPLE_THREAT, A, B, 5, bot="greedy")
    first_ko = game.bouts[0].last_turn
    assert first_ko is not None and len(game.bouts) > 1  # a bout ended by a knockout
    capped, _ = play_match(Mode.TRIPLE_THREAT, A, B, 5, bot="greedy",
                           ruleset=Ruleset(maxTurns=first_ko))
    assert capped.outcome is not None
    assert capped.outcome.termination is Termination.MAX_TURNS
    assert capped.turn == first_ko

