"""Training and Survival (RULES.md §12): the rulebook's solo bot. Every test drives a seeded
game through the engine: the human's seat (P1) is played by the test or a greedy bot, the bot's
seat (P2) by the engine itself (its choices are derived, never logged), and cites the rule it
checks."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest

from rules_engine.actions import Action, Combo, Commit, Discard, NoCard, PowerUp, Pump, Stop
from rules_engine.bots import GreedyBot
from rules_engine.cards import MoveType, card, characters
from rules_engine.errors import LogSyntaxError
from rules_engine.game import Game
from rules_engine.journal import Drew
from rules_engine.log import LogEvent, parse_log
from rules_engine.replay import replay
from rules_engine.ruleset import Jokers, OnOff, Ruleset
from rules_engine.selfplay import play_match
from rules_engine.state import Decision
from rules_engine.team import Mode, Team
from rules_engine.training import (
    BOT_RULES_IMPLEMENTED,
    SURVIVAL_HEAL,
    Survival,
    Training,
    survival_score,
)
from rules_engine.types import PlayerId, Termination

from .helpers import records_training_bot

P1, P2 = PlayerId.P1, PlayerId.P2
ALL = sorted(characters())


def new_training(human: str = "grave", bot: str = "jaina", seed: int = 1,
                 ruleset: Ruleset | None = None) -> Game:
    return Game.new(Mode.TRAINING, (Team.of((human,)), Team.of((bot,))), seed=seed,
                          ruleset=ruleset or Ruleset())


def new_survival(human: str = "grave", bots: tuple[str, ...] = ("jaina", "rook", "lum"),
                 seed: int = 1) -> Game:
    return Game.new(Mode.SURVIVAL, (Team.of((human,)), Team.of(bots)), seed=seed)


def human_until(g: Game, done: Callable[[Game], bool], seed: int = 1) -> None:
    """The human's seat played by a greedy bot until ``done`` (or the game ends)."""
    bot = GreedyBot(seed)
    while not g.is_over and not done(g):
        assert g.acting_players == (P1,), "only the human is ever asked (TR-3)"
        g.apply(P1, bot.choose(g, P1, g.legal_actions(P1)))


def put_on_top(g: Game, seat: PlayerId, *codes: str) -> None:
    """Arrange the top of a seat's deck (a position set up for the test)."""
    ps = g.state(seat)
    wanted = [card(c) for c in codes]
    for c in wanted:
        if c in ps.hand:
            ps.hand.remove(c)
        elif c in ps.deck:
            ps.deck.remove(c)
    ps.deck[:0] = wanted


@contextmanager
def watching(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[Decision, list[Action],
                                                                     Action]]]:
    """Record every bot decision: (decision, its legal choices, the bot's choice)."""
    seen: list[tuple[Decision, list[Action], Action]] = []
    original = Training.derive

    def derive(self: Training, game: Any, decision: Decision, seat: PlayerId) -> Action:
        legal = decision.options(seat)
        choice = original(self, game, decision, seat)
        seen.append((decision, legal, choice))
        return choice
    monkeypatch.setattr(Training, "derive", derive)
    yield seen


def test_jokers_removed_and_the_bot_hand_public__TR_1_TR_2() -> None:
    """TR-1: no Joker in either deck, whatever opt.jokers says; TR-2: the bot's opening 7 are
    public (every viewer sees them), the human's are not."""
    g = new_training(ruleset=Ruleset(jokers=Jokers.INCLUDED))
    for ps in g.players:
        assert not any(c.is_joker for c in [*ps.deck, *ps.hand])
        assert len(ps.hand) == 7
    view = g.public_view(P1)["players"]
    assert isinstance(view, dict)
    assert view["P2"]["hand"] == [c.code for c in g.state(P2).hand]
    assert view["P2"]["bot"] is True
    assert "hand" in g.public_view(None)["players"]["P2"]  # type: ignore[index]
    assert "hand" not in g.public_view(P2)["players"]["P1"]  # type: ignore[index]


def test_only_the_human_acts_and_the_log_holds_only_the_human__TR_3() -> None:
    """TR-3: the bot's decisions are taken by the engine; the log holds the human's only and
    replays to the same result."""
    g, log = play_match(Mode.TRAINING, ("grave",), ("jaina",), 3, bot="greedy")
    assert g.derived and all(e.player is P1 for e in log.events)
    verdict = replay(parse_log(log.dumps()))
    assert verdict.status == "legal", verdict.to_dict()
    assert verdict.to_dict()["final"]["winner"] == (None if g.outcome is None or
                                                    g.outcome.winner is None
                                                    else g.outcome.winner.name)


def test_a_logged_bot_choice_is_rejected__TR_5() -> None:
    """TR-5: a log that makes a choice for the bot (here its C1 commit) is illegal: the bot's
    choices are derived, never logged; the verdict cites the TR rule of that step."""
    g = new_training(seed=2)
    rule = None
    from rules_engine.errors import IllegalActionError
    with pytest.raises(IllegalActionError) as err:
        g.apply(P2, NoCard())
    rule = err.value.rule_id
    assert rule == "TR-5"
    _, log = play_match(Mode.TRAINING, ("grave",), ("jaina",), 2, bot="greedy")
    events = list(log.events)
    events.insert(1, LogEvent(P2, NoCard(), "jaina"))
    bad = replace(log, events=tuple(events))
    verdict = replay(parse_log(bad.dumps()))
    assert verdict.status == "illegal"
    assert verdict.first_error is not None and verdict.first_error["rule_id"].startswith("TR-")


def test_the_bot_does_not_draw_in_the_draw_phase__TR_4() -> None:
    """TR-4: in T2 the human draws 1 and the bot none."""
    g = new_training(seed=4)
    human_until(g, lambda g: g.turn == 2 and g.step == "C1")
    if g.is_over:
        pytest.skip("the game ended on turn 1")
    t2 = [e for e in g.journal if isinstance(e, Drew) and e.turn == 2 and e.step == "T2"]
    assert [e.seat for e in t2] == [P1]


def test_the_combat_card_is_the_top_card_of_the_deck__TR_5() -> None:
    """TR-5: after the human commits, the bot turns over the top card of its deck and plays
    it; its orientation is a seeded 50/50 (both ends turn up over many seeds)."""
    ends: set[int] = set()
    for seed in range(30):
        g = new_training("grave", "jaina", seed=seed)
        top = g.state(P2).deck[0]
        g.apply(P1, NoCard())
        first = g.derived[0][2]
        assert isinstance(first, Commit) and first.card is top
        printed = [m.type for m in g.state(P2).character.moves_of(top)]
        if len(set(printed)) == 2:  # which printed end turned up
            ends.add(printed.index(first.move))  # type: ignore[arg-type]
    assert len(ends) == 2


def test_an_illegal_card_is_rotated_then_skipped__TR_6() -> None:
    """TR-6: Geiger's Ace needs another Ace on either end; with none in hand the bot puts it
    into its hand and turns over the next card. Grave's Ace is illegal on its True Power of
    Storms end only: it is rotated to True-Spark Arc."""
    g = new_training("grave", "geiger", seed=5)
    ps = g.state(P2)
    for c in [c for c in ps.hand if c.is_ace]:
        ps.hand.remove(c)
        ps.deck.append(c)
    put_on_top(g, P2, "AC", "5H")
    g.apply(P1, NoCard())
    commit = g.derived[0][2]
    assert isinstance(commit, Commit) and commit.card is card("5H")
    assert card("AC") in g.state(P2).hand or card("AC") in g.state(P2).discard
    for seed in range(8):
        g = new_training("jaina", "grave", seed=seed)
        ps = g.state(P2)
        for c in [c for c in ps.hand if c.is_ace]:
            ps.hand.remove(c)
            ps.deck.append(c)
        put_on_top(g, P2, "AS")
        g.apply(P1, NoCard())
        commit = g.derived[0][2]
        assert isinstance(commit, Commit) and commit.card is card("AS")
        assert commit.name == "True-Spark Arc"


def _bot_end_against_a_block(hard: OnOff, seed: int) -> MoveType | None:
    g = new_training("grave", "grave", seed=seed, ruleset=Ruleset(hardBot=hard))
    put_on_top(g, P2, "7C")  # Grave's 7: throw / block
    human = g.state(P1)
    block = next(a for a in g.legal_actions(P1) if isinstance(a, Commit)
                 and a.move is MoveType.BLOCK)
    del human
    g.apply(P1, block)
    commit = g.derived[0][2]
    assert isinstance(commit, Commit) and commit.card is card("7C")
    return commit.move


def test_the_hard_bot_throws_when_that_wins__TR_7() -> None:
    """TR-7: with opt.hardBot=ON a block/throw card turns to its throw end when the throw beats
    the human's revealed card (a block); OFF, the orientation stays 50/50."""
    hard = {_bot_end_against_a_block(OnOff.ON, s) for s in range(12)}
    soft = {_bot_end_against_a_block(OnOff.OFF, s) for s in range(12)}
    assert hard == {MoveType.THROW}
    assert soft == {MoveType.THROW, MoveType.BLOCK}


def _bot_games(monkeypatch: pytest.MonkeyPatch, n: int = 24,
               ) -> list[tuple[Decision, list[Action], Action]]:
    with watching(monkeypatch) as seen:
        for k in range(n):
            g = new_training(ALL[k % len(ALL)], ALL[(k * 7 + 3) % len(ALL)], seed=100 + k)
            human_until(g, lambda g: False, seed=k)
    return seen


@records_training_bot
def test_the_bot_always_combos_and_pumps_lowest__TR_8_TR_9_TR_10(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """TR-8: when a combo move is legal the bot never stops a combo that has not dealt its
    most damaging move (a single legal move is always at least as good as stopping, so it
    never stops at the first C10 decision with a move available); TR-10: the hit-back after a
    dodge is a combo move too. TR-9: every pump uses the lowest ranks that qualify."""
    seen = _bot_games(monkeypatch)
    combos = pumps = 0
    for d, legal, choice in seen:
        if d.step != "C10":
            continue
        moves = [a for a in legal if isinstance(a, Combo)]
        if moves and isinstance(choice, Stop):
            damaging = [a for a in moves]
            assert not damaging, (legal, choice)
        if isinstance(choice, Combo):
            combos += 1
        if isinstance(choice, Pump):
            pumps += 1
            same = [a for a in legal if isinstance(a, Pump) and a.target == choice.target
                    and len(a.cards) == len(choice.cards)]
            ranks = sorted(int(c.rank) for c in choice.cards if c.rank is not None)
            for other in same:
                assert ranks <= sorted(int(c.rank) for c in other.cards
                                       if c.rank is not None)
    assert combos > 0 and pumps > 0


@records_training_bot
def test_power_up_only_from_the_discard_pile__TR_12(monkeypatch: pytest.MonkeyPatch) -> None:
    """TR-12 (PU-9): the bot never takes an Ace from its deck; it takes as many from the
    discard pile as it may; among sets reaching that, the lowest ranks."""
    seen = _bot_games(monkeypatch)
    ups = 0
    for _, legal, choice in seen:
        if not isinstance(choice, PowerUp):
            continue
        assert choice.from_deck == ()
        options = [a for a in legal if isinstance(a, PowerUp) and not a.from_deck]
        if any(not c.is_ace for a in options for c in a.from_discard):
            continue  # Menelker's black face cards: his BOT rule's Power Up (tested on its own)
        most = max(len(a.from_discard) for a in options)
        assert len(choice.from_discard) == most
        if most:
            ups += 1
            best = min(sorted((int(c.rank) for c in a.sets if c.rank), reverse=True)
                       for a in options if len(a.from_discard) == most)
            assert sorted((int(c.rank) for c in choice.sets if c.rank), reverse=True) == best
    assert ups > 0


@records_training_bot
def test_hand_limit_discards_lowest_first__OQ_27_HL_4(monkeypatch: pytest.MonkeyPatch) -> None:
    """OQ-27 (HL-4): at the hand limit the bot discards its lowest ranks, keeping Aces."""
    seen = _bot_games(monkeypatch, n=40)
    discards = 0
    for _, legal, choice in seen:
        if not isinstance(choice, Discard):
            continue
        discards += 1
        key = sorted((int(c.rank) for c in choice.cards if c.rank), reverse=True)
        for other in legal:
            if isinstance(other, Discard):
                assert key <= sorted((int(c.rank) for c in other.cards if c.rank),
                                     reverse=True)
    assert discards > 0


def test_four_aces_draw_two_and_one_goes_back__TR_13() -> None:
    """TR-13: at the end of the turn a bot holding all four Aces draws 2, then one of its Aces
    (seeded) is shuffled into its deck."""
    g = new_training("grave", "jaina", seed=7)
    ps = g.state(P2)
    aces = [c for c in [*ps.deck] if c.is_ace]
    for c in aces:
        ps.deck.remove(c)
        ps.hand.append(c)
    size, deck = len(ps.hand), len(ps.deck)
    steps = list(g.mode.end_of_turn(g))
    assert steps == []  # seeded: nothing to ask
    assert len(ps.hand) == size + 2 - 1
    assert sum(1 for c in ps.hand if c.is_ace) == 3
    assert len(ps.deck) == deck - 2 + 1
    assert sum(1 for c in ps.deck if c.is_ace) == 1


def test_the_bots_deck_runs_out_time_out__TR_15_OQ_26() -> None:
    """TR-15 / OQ-26: the time-out applies to the bot as usual: turning over its last card
    (END-4) ends the game at the end of the turn, scored by life."""
    g = new_training("grave", "jaina", seed=8)
    ps = g.state(P2)
    ps.deck[:] = ps.deck[:1]
    g.apply(P1, NoCard())
    human_until(g, lambda g: False)
    assert g.outcome is not None and g.outcome.termination is Termination.TIMEOUT
    assert g.turn == 1


@records_training_bot
def test_survival_heals_30_and_brings_the_next_bot__TR_14(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """TR-14: after each win the human heals 30 (capped at maximum life, OQ-26) and faces the
    next bot, fresh with 7 cards; the score is the number of bots beaten."""
    heals: list[tuple[int, int, int]] = []
    original = Survival.between_bouts

    def between_bouts(self: Survival, game: Any, sides: tuple[int, ...]) -> Any:
        before = game.actives[0].life
        yield from original(self, game, sides)
        heals.append((before, game.actives[0].life, game.actives[0].character.life))
    monkeypatch.setattr(Survival, "between_bouts", between_bouts)
    capped = uncapped = 0
    for seed in range(12):
        g = new_survival(seed=seed)
        g.state(P2).life = 1  # the first bot is nearly beaten (a position set up for the test)
        if seed % 2:
            g.state(P1).life = 25  # and the human hurt: the heal is not capped
        human_until(g, lambda g: len(g.bouts) >= 2, seed=seed)
        if len(g.bouts) < 2:
            continue
        assert g.bouts[0].defeated == ("jaina",)
        assert g.state(P2).character.id == "rook" and len(g.state(P2).hand) == 7
        assert g.state(P2).life == g.state(P2).character.life
        assert survival_score(g) == 1
    assert heals
    for before, after, most in heals:
        assert after == min(before + SURVIVAL_HEAL, most)
        capped += after == most
        uncapped += after == before + SURVIVAL_HEAL
    assert uncapped and capped


def test_a_survival_run_replays_with_its_score__TR_14() -> None:
    """TR-14: the run's log (mode survival, the bots in order) replays as legal, and the
    verdict's facts carry the score."""
    for seed in range(6):
        g, log = play_match(Mode.SURVIVAL, ("grave",), ("jaina", "rook", "lum"), seed,
                            bot="greedy")
        text = log.dumps()
        assert json.loads(text)["mode"] == "survival"
        verdict = replay(parse_log(text)).to_dict()
        assert verdict["status"] == "legal", verdict
        assert verdict["facts"]["survival"]["score"] == survival_score(g)


def test_bot_rules_without_changes__BOT_ARGAGARG_BOT_TROQ() -> None:
    """BOT-ARGAGARG and BOT-TROQ: "No changes": the generic procedure is their bot; the verdict
    names the BOT rule it played; every character has a BOT rule now."""
    for bot in ("argagarg", "troq"):
        _, log = play_match(Mode.TRAINING, ("grave",), (bot,), 1, bot="greedy")
        facts = replay(log).to_dict()["facts"]
        assert facts["training"]["bot_rules"] == {bot: f"BOT-{bot.upper()}"}
    assert set(ALL) <= BOT_RULES_IMPLEMENTED


@pytest.mark.parametrize("bot", ALL)
def test_selfplay_of_training_replays_as_legal__TR_3(bot: str) -> None:
    """TR-3: Training self-play with every implemented character as the bot (and as the
    human) replays as legal."""
    for k, human in enumerate((bot, ALL[(ALL.index(bot) + 5) % len(ALL)])):
        _, log = play_match(Mode.TRAINING, (human,), (bot,), 40 + k, bot="greedy")
        verdict = replay(parse_log(log.dumps()))
        assert verdict.status == "legal", verdict.to_dict()["first_error"]
        _, log = play_match(Mode.TRAINING, (human,), (bot,), 60 + k, bot="random")
        assert replay(log).status == "legal"


def test_training_logs_are_seeded() -> None:
    """TR-5: a Training log with recorded draws cannot be read (the bot's cards come from the
    seed)."""
    _, log = play_match(Mode.TRAINING, ("grave",), ("jaina",), 1, bot="greedy")
    data = json.loads(log.dumps())
    data["draws"] = {"mode": "recorded"}
    with pytest.raises(LogSyntaxError):
        parse_log(json.dumps(data))


def test_the_cli_plays_training_and_survival__TR_14(tmp_path: Any,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """TR-14 / TR-3: ``play --mode training`` and ``--mode survival`` (chosen bots, or drawn
    from the seed) write logs ``validate`` replays as legal."""
    from rules_engine.cli import main, random_opponents

    out = tmp_path / "t.json"
    assert main(["play", "--mode", "training", "--p1", "grave", "--p2", "jaina", "--bot",
                 "greedy", "--out", str(out)]) == 0
    assert main(["validate", str(out)]) == 0
    out = tmp_path / "s.json"
    assert main(["play", "--mode", "survival", "--p1", "grave", "--opponents",
                 "jaina,rook,lum", "--bot", "greedy", "--seed", "3", "--out", str(out)]) == 0
    assert json.loads(out.read_text())["sides"]["P2"]["characters"] == ["jaina", "rook", "lum"]
    assert main(["validate", str(out)]) == 0
    assert main(["play", "--mode", "survival", "--p1", "grave", "--random-opponents", "4",
                 "--seed", "9", "--out", str(out)]) == 0
    bots = json.loads(out.read_text())["sides"]["P2"]["characters"]
    assert tuple(bots) == random_opponents(4, 9, "grave") and "grave" not in bots
    assert len(set(bots)) == 4
    assert main(["play", "--mode", "survival", "--p1", "grave"]) == 2
    assert "Survival" in capsys.readouterr().err


def test_training_and_survival_logs_match_the_version_2_schema__TR_3() -> None:
    """TR-3 / TR-14: Training and Survival logs (with opt.hardBot) validate against the
    published version-2 schema, built from version 1."""
    from importlib import resources

    from jsonschema import Draft202012Validator

    from rules_engine.tools import build_schema_v2

    assert build_schema_v2.main(["--check"]) == 0
    schema = json.loads(resources.files("rules_engine").joinpath(
        "schema", "match-log-v2.json").read_text("utf-8"))
    validator = Draft202012Validator(schema)
    _, log = play_match(Mode.TRAINING, ("grave",), ("jaina",), 2, bot="greedy",
                        ruleset=Ruleset(hardBot=OnOff.ON))
    assert log.to_json()["ruleset"] == {"hardBot": "ON"}
    assert not list(validator.iter_errors(log.to_json()))
    _, log = play_match(Mode.SURVIVAL, ("grave",), tuple(ALL[1:8]), 2, bot="greedy")
    assert not list(validator.iter_errors(log.to_json()))
    assert replay(log).status == "legal"


def test_gwens_bot_rotates_a_jack_to_chains_of_ice__BOT_GWEN() -> None:
    """BOT-GWEN: a Jack the bot reveals in combat is always rotated to Chains of Ice (the
    generic bot would take either end, 50/50)."""
    names = set()
    for seed in range(10):
        g = new_training("grave", "gwen", seed=seed)
        put_on_top(g, P2, "JH")
        g.apply(P1, NoCard())
        commit = g.derived[0][2]
        assert isinstance(commit, Commit) and commit.card is card("JH")
        names.add(commit.name)
    assert names == {"Chains of Ice"}
    _, log = play_match(Mode.TRAINING, ("grave",), ("gwen",), 1, bot="greedy")
    assert replay(log).to_dict()["facts"]["training"]["bot_rules"] == {"gwen": "BOT-GWEN"}
