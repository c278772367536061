"""Training (RULES.md §12): the BOT rules of Menelker, Persephone, Gloria, Vendetta and Zane
(§12.2), TR-11 ("the bot plays abilities whenever possible, but only when they would have an
effect") for their other abilities and for Argagarg, Troq and Gwen, and
``opt.botTieChoice=HUMAN`` (TR-8, OQ-26).

Every test drives a seeded Training game: the position is set up (hands, discard piles, the top
of the bot's deck), the human's seat (P1) is played by the test or a greedy bot, the bot's seat
(P2) by the engine, and the test asserts what the derived bot did."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest

from rules_engine.actions import (
    Action,
    BotTie,
    Combo,
    Commit,
    NoCard,
    Pass,
    PowerUp,
    Pump,
    Stop,
    UseAbility,
)
from rules_engine.cards import MoveType, card, characters
from rules_engine.errors import IllegalActionError
from rules_engine.game import Game
from rules_engine.log import MatchLog, parse_log
from rules_engine.replay import replay
from rules_engine.ruleset import BotTieChoice, OnOff, Ruleset, Timeout
from rules_engine.selfplay import play_match
from rules_engine.state import Decision
from rules_engine.team import Mode, Team
from rules_engine.training import Training
from rules_engine.types import PlayerId

from .helpers import records_training_bot
from .test_training import human_until

P1, P2 = PlayerId.P1, PlayerId.P2
MINE = ("menelker", "persephone", "gloria", "vendetta", "zane")
TR11 = ("argagarg", "troq", "gwen")
HUMAN_TIES = Ruleset(botTieChoice=BotTieChoice.HUMAN)

Seen = list[tuple[Decision, list[Action], Action]]


def new_training(human: str, bot: str, *, seed: int, ruleset: Ruleset | None = None) -> Game:
    """A seeded Training game: ``human`` (P1) against the bot playing ``bot`` (P2)."""
    return Game.new(Mode.TRAINING, (Team.of((human,)), Team.of((bot,))), seed=seed,
                          ruleset=ruleset or Ruleset())


def arrange(g: Game, seat: PlayerId, hand: str, *, discard: str = "", top: str = "") -> None:
    """Set up a seat's cards: its hand, its discard pile and the top of its deck (the rest of
    its cards stay in the deck, in their order)."""
    ps = g.state(seat)
    h = [card(c) for c in hand.split()]
    d = [card(c) for c in discard.split()]
    t = [card(c) for c in top.split()]
    placed = set(h) | set(d) | set(t)
    rest = [c for c in [*ps.deck, *ps.hand, *ps.discard] if c not in placed]
    ps.hand[:], ps.discard[:], ps.deck[:] = h, d, [*t, *rest]


@contextmanager
def watching(monkeypatch: pytest.MonkeyPatch,
             before: Callable[[Any, Decision, PlayerId], None] | None = None,
             ) -> Iterator[Seen]:
    """Record every derived decision (the decision, its legal choices, the bot's choice);
    ``before`` may set up the position just before the bot decides."""
    seen: Seen = []
    original = Training.derive

    def derive(self: Training, game: Any, decision: Decision, seat: PlayerId) -> Action:
        if before is not None:
            before(game, decision, seat)
        legal = decision.options(seat)
        choice = original(self, game, decision, seat)
        seen.append((decision, legal, choice))
        return choice
    monkeypatch.setattr(Training, "derive", derive)
    yield seen


def bot_actions(g: Game, kind: type[Action] = Action) -> list[Action]:
    return [a for _, seat, a in g.derived if seat is P2 and isinstance(a, kind)]


def uses(g: Game, ability: str) -> list[UseAbility]:
    return [a for a in bot_actions(g, UseAbility)
            if isinstance(a, UseAbility) and a.ability == ability]


def offered(seen: Seen, ability: str) -> list[tuple[list[Action], Action]]:
    """The bot's decisions where ``ability`` was legal, with its choice."""
    return [(legal, choice) for _, legal, choice in seen
            if any(isinstance(a, UseAbility) and a.ability == ability for a in legal)]


# ---------------------------------------------------------------- BOT-MENELKER


def _menelker_power_up(hand: str, discard: str, seed: int) -> PowerUp:
    """The bot (Menelker, a pair of 2s in hand) loses turn 1's combat to Grave's Q (speed 0.0)
    and powers up for one card."""
    g = new_training("grave", "menelker", seed=seed)
    arrange(g, P1, "QD 3D 4D 5D 6D 8D 9D")
    arrange(g, P2, hand, discard=discard, top="QH")
    g.apply(P1, Commit(card("QD"), MoveType.ATTACK))
    human_until(g, lambda g: bool(bot_actions(g, PowerUp)) or g.turn > 1)
    ups = bot_actions(g, PowerUp)
    assert ups, "the bot powered up on turn 1"
    up = ups[0]
    assert isinstance(up, PowerUp)
    return up


def test_menelker_powers_up_for_black_face_cards_with_none_in_hand__BOT_MENELKER_TR_12() -> None:
    """BOT-MENELKER: with no black face card in hand he powers up for a black face card from
    his discard pile instead of an Ace (TR-12: from the discard pile only); with one in hand,
    for the Ace."""
    up = _menelker_power_up("2C 2D 3H 4H 5H 6D 8D", "KS AH", seed=1)
    assert up.from_discard == (card("KS"),) and up.from_deck == ()
    up = _menelker_power_up("2C 2D 3H 4H 5H 6D JC", "KS AH", seed=1)
    assert up.from_discard == (card("AH"),) and up.from_deck == ()


def test_menelker_picks_black_face_cards_at_random_from_the_seed__BOT_MENELKER() -> None:
    """BOT-MENELKER: the black face card is chosen at random from the game's seeded stream:
    over seeds more than one is taken, and the same seed takes the same card."""
    taken = set()
    for seed in range(12):
        up = _menelker_power_up("2C 2D 3H 4H 5H 6D 8D", "KS QC JS AH", seed=seed)
        assert len(up.from_discard) == 1 and up.from_discard[0] in (card("KS"), card("QC"),
                                                                    card("JS"))
        assert _menelker_power_up("2C 2D 3H 4H 5H 6D 8D", "KS QC JS AH",
                                  seed=seed).from_discard == up.from_discard
        taken.add(up.from_discard[0])
    assert len(taken) >= 2


def _bonecracker(human_hand: str, seed: int) -> tuple[Game, list[UseAbility]]:
    """Menelker's 7 throws the human's block (opt.hardBot turns it to the throw, TR-7)."""
    g = new_training("grave", "menelker", seed=seed, ruleset=Ruleset(hardBot=OnOff.ON))
    arrange(g, P1, human_hand)
    arrange(g, P2, "3H 4H 5H 6H 8H 9H TH", top="7C")
    g.apply(P1, Commit(card("5D"), MoveType.BLOCK))
    human_until(g, lambda g: bool(uses(g, "Bonecracker")) or g.turn > 1)
    return g, uses(g, "Bonecracker")


def test_bonecracker_takes_an_ace_else_a_random_card__BOT_MENELKER() -> None:
    """BOT-MENELKER: Bonecracker makes the human discard an Ace if they hold one (no Jokers in
    Training, TR-1), else a random card of their hand (seeded: several over seeds)."""
    g, cracked = _bonecracker("5D AH 3C 4C 6D 8D 9D", seed=1)
    assert [a.cards for a in cracked] == [(card("AH"),)]
    assert card("AH") in g.state(P1).discard
    named = set()
    for seed in range(10):
        g, cracked = _bonecracker("5D 2C 3C 4C 6D 8D 9D", seed=seed)
        assert len(cracked) == 1
        named.add(cracked[0].cards[0])
    assert len(named) >= 2


@records_training_bot
def test_into_oblivion_only_on_an_ace__BOT_MENELKER(monkeypatch: pytest.MonkeyPatch) -> None:
    """BOT-MENELKER: Into Oblivion (his 10, draw phase) only when it banishes an Ace from the
    human's discard pile: it targets the Ace; with no Ace there he passes though it is legal."""
    g = new_training("grave", "menelker", seed=3)
    arrange(g, P1, "2D 3D 4D 5D 6D 8D 9D", discard="AH 5C 7C")
    arrange(g, P2, "TC 3H 4H 5H 6H 8H 9H", top="QH")
    human_until(g, lambda g: g.turn == 2 and g.step == "C1")
    oblivion = uses(g, "Into Oblivion")
    assert [a.cards for a in oblivion] == [(card("AH"),)]
    assert card("AH") in g.state(P1).banished
    with watching(monkeypatch) as seen:
        g = new_training("grave", "menelker", seed=3)
        arrange(g, P1, "2D 3D 4D 5D 6D 8D 9D", discard="5C 7C")
        arrange(g, P2, "TC 3H 4H 5H 6H 8H 9H", top="QH")
        human_until(g, lambda g: g.turn == 2 and g.step == "C1")
    asked = offered(seen, "Into Oblivion")
    assert asked and all(choice == Pass() for _, choice in asked)
    assert not uses(g, "Into Oblivion")


# ---------------------------------------------------------------- BOT-VENDETTA


def _vendetta_commit(human: Action, bot_hand: str, seed: int, *,
                     knocked_down: bool = False) -> tuple[Game, Commit]:
    g = new_training("grave", "vendetta", seed=seed)
    arrange(g, P1, "4D 5D QD 3D 6D 8D 9D")
    arrange(g, P2, bot_hand, top="6H")
    g.state(P1).knocked_down = knocked_down
    g.apply(P1, human)
    commit = bot_actions(g, Commit)[0]
    assert isinstance(commit, Commit)
    return g, commit


def test_vendetta_swaps_in_the_fastest_normal_attack_that_wins__BOT_VENDETTA() -> None:
    """BOT-VENDETTA: his turned-over 6 (attack 6.2 / block) would lose on its attack end to
    Grave's 4 (4.6): he swaps in the fastest normal attack of his hand (2.2, not 3.2), which
    wins, and the 6 stays in his hand. On its block end it wins: no swap."""
    ends = set()
    for seed in range(12):
        g, commit = _vendetta_commit(Commit(card("4D"), MoveType.ATTACK),
                                     "3S 2S 8C TC 9C JC QC", seed)
        ends.add((commit.card.code, commit.move))
        if commit.card is card("2S"):
            assert card("6H") in g.state(P2).hand
    assert ends == {("2S", MoveType.ATTACK), ("6H", MoveType.BLOCK)}


def test_vendetta_keeps_a_losing_attack_when_no_swap_wins__BOT_VENDETTA() -> None:
    """BOT-VENDETTA: against Grave's block no normal attack wins, so the turned-over attack
    stays; with the human knocked down, the throw end of a King (Wall Dive Suplex, speed 1.0
    by Wall Dive Loop) beats the block and is swapped in."""
    attacks = kings = 0
    for seed in range(12):
        _, commit = _vendetta_commit(Commit(card("5D"), MoveType.BLOCK),
                                     "3S 2S 8C TC 9C JC QC", seed)
        if commit.move is MoveType.ATTACK:
            attacks += 1
            assert commit.card is card("6H")
        _, commit = _vendetta_commit(Commit(card("5D"), MoveType.BLOCK),
                                     "3S 2S 8C TC 9C JC KS", seed, knocked_down=True)
        if commit.card is card("KS"):
            kings += 1
            assert commit.move is MoveType.THROW
        else:
            assert commit == Commit(card("6H"), MoveType.BLOCK)
    assert attacks and kings


@records_training_bot
def test_vendetta_acrobatics_against_big_hits_only__BOT_VENDETTA(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """BOT-VENDETTA: Acrobatics when he would lose to a move doing 10 or more damage (Grave's
    Q, 10); not when he would lose to Grave's 2 (2 damage) nor when he would win. Its dodge is
    his lowest-rank one."""
    with watching(monkeypatch) as seen:
        for seed in range(8):
            g = new_training("grave", "vendetta", seed=seed)
            arrange(g, P1, "QD 2D 3D 5D 6D 8D 9D")
            arrange(g, P2, "8C 3S 2S 9C JC QC KC", top="6H")
            g.apply(P1, Commit(card("QD"), MoveType.ATTACK))
            commit = bot_actions(g, Commit)[0]
            acro = uses(g, "Acrobatics")
            assert isinstance(commit, Commit)
            if commit.move is MoveType.ATTACK:  # 6.2 loses to the Q (0.0, 10 damage)
                assert acro == [UseAbility("Acrobatics", card("8C"), (card("2S"),))]
            else:
                assert not acro  # the block wins
            g = new_training("grave", "vendetta", seed=seed)
            arrange(g, P1, "2D QD 3D 5D 6D 8D 9D")
            arrange(g, P2, "8C 3S 2S 9C JC QC KC", top="6H")
            g.apply(P1, Commit(card("2D"), MoveType.ATTACK))
            assert not uses(g, "Acrobatics")
    assert any(choice == Pass() for _, choice in offered(seen, "Acrobatics"))
    assert any(isinstance(choice, UseAbility) for _, choice in offered(seen, "Acrobatics"))


# ---------------------------------------------------------------- BOT-PERSEPHONE


def test_dominance_recurs_the_highest_rank__BOT_PERSEPHONE() -> None:
    """BOT-PERSEPHONE: her 7's throw (knockdown) beats Grave's block (opt.hardBot, TR-7) and
    knocks him down; Dominance fetches the highest rank of her discard pile, the Ace."""
    g = new_training("grave", "persephone", seed=1, ruleset=Ruleset(hardBot=OnOff.ON))
    arrange(g, P1, "5D 2D 3D 4D 6D 8D 9D")
    arrange(g, P2, "8S 9S 8H 9H KS KD 7S", discard="3H KC AH 9D", top="7C")
    g.apply(P1, Commit(card("5D"), MoveType.BLOCK))
    human_until(g, lambda g: bool(uses(g, "Dominance")) or g.turn > 1)
    assert [a.cards for a in uses(g, "Dominance")] == [(card("AH"),)]
    assert card("AH") in g.state(P2).hand


def _hit_back(bot_hand: str) -> list[Combo]:
    """Persephone's 2 (attack 2.4 / dodge) against Grave's 4 (attack 4.6): over seeds, the
    first move of each hit-back after her dodge."""
    out = []
    for seed in range(12):
        g = new_training("grave", "persephone", seed=seed)
        arrange(g, P1, "4D 2D 3D 5D 6D 8D 9D")
        arrange(g, P2, bot_hand, top="2H")
        g.apply(P1, Commit(card("4D"), MoveType.ATTACK))
        commit = bot_actions(g, Commit)[0]
        assert isinstance(commit, Commit)
        if commit.move is MoveType.DODGE:
            human_until(g, lambda g: g.turn > 1)
            first = bot_actions(g, Combo)[0]
            assert isinstance(first, Combo)
            out.append(first)
    assert out
    return out


def test_hit_back_after_a_dodge_with_mistress_command__BOT_PERSEPHONE_TR_10() -> None:
    """BOT-PERSEPHONE (TR-10 changed): after dodging an attack she hits back with the
    Mistress's Command Ace when she can (1 damage, not her Queen's 9)."""
    for first in _hit_back("AH QH 3S 5S 6S 8S 9S"):
        assert (first.card, first.name) == (card("AH"), "Mistress's Command")


def test_hit_back_with_a_knockdown_move_else__BOT_PERSEPHONE_TR_10() -> None:
    """BOT-PERSEPHONE: without the Ace, a knockdown move (her 7's throw, 7 damage) before her
    most damaging move (her Queen, 9, no knockdown)."""
    for first in _hit_back("QH 7C 3S 5S 6S 8S 9S"):
        assert (first.card, first.move) == (card("7C"), MoveType.THROW)


def test_mistress_command_makes_the_humans_worst_choices__BOT_PERSEPHONE() -> None:
    """BOT-PERSEPHONE: her Mistress's Command (the Ace; On Your Knees needs another Ace, TR-6)
    beats Grave's no-card and deals damage: next turn, up to the combat reveal, the bot makes
    the human's decisions (derived, never logged): his least damaging attack, his 2."""
    g = new_training("grave", "persephone", seed=2)
    arrange(g, P1, "2D 3D 4D 5D 7C 8D QD")
    arrange(g, P2, "2S 3S 4S 5S 6S 8S 9S", top="AH")
    g.apply(P1, NoCard())
    assert bot_actions(g, Commit)[0] == Commit(card("AH"), MoveType.ATTACK,
                                               "Mistress's Command")
    human_until(g, lambda g: (g.turn == 2 and g.step != "C1") or g.turn > 2)
    controlled = [a for _, seat, a in g.derived if seat is P1]
    assert controlled and isinstance(controlled[-1], Commit)
    assert controlled[-1].card.rank is not None and int(controlled[-1].card.rank) == 2
    assert controlled[-1].move is MoveType.ATTACK
    assert all(a != controlled[-1] for _, a in g.history)


def test_a_logged_decision_of_the_controlled_human_is_refused__BOT_PERSEPHONE() -> None:
    """BOT-PERSEPHONE: in a self-played Training game where her Mistress's Command hit, the
    log replays as legal without the human's controlled decisions (the engine derives them
    and goes on to the human's next decision of their own); a log that makes one of them
    itself is refused at that event."""
    for seed in range(300):
        g, log = play_match(Mode.TRAINING, ("grave",), ("persephone",), seed, bot="greedy")
        controlled = [(n, a) for n, seat, a in g.derived if seat is P1]
        if controlled:
            break
    else:
        pytest.fail("no self-played game where Mistress's Command hit")
    assert replay(parse_log(log.dumps())).status == "legal"
    n, action = controlled[0]
    events = list(log.events)
    events.insert(n, replace(events[0], player=P1, action=action, character="grave"))
    verdict = replay(parse_log(replace(log, events=tuple(events)).dumps()))
    assert verdict.status == "illegal"
    assert verdict.first_error is not None and verdict.first_error["index"] == n


def test_the_humans_mistress_command_leaves_the_bot_its_combat_card__TR_5() -> None:
    """TR-5: when the human plays Persephone and her Mistress's Command hits the bot, the bot's
    next combat card is still the top card of its deck (its seat stays derived; the bot's own
    control rules are for the human's seat only)."""
    checked = 0
    for seed in range(12):
        g = new_training("persephone", "grave", seed=seed)
        arrange(g, P1, "AH 2D 3D 4D 5D 6D 8D")
        arrange(g, P2, "2S 3S 4S 5S 6S 8S 9S", top="7C 5H")
        g.apply(P1, Commit(card("AH"), MoveType.ATTACK, "Mistress's Command"))
        if bot_actions(g, Commit)[0] != Commit(card("7C"), MoveType.THROW):
            continue  # the block end turned up and beat the attack: no control
        human_until(g, lambda g: (g.turn > 1 and g.step == "C1") or g.is_over)
        if g.is_over or g.turn > 2:
            continue
        checked += 1
        assert g.controller(P2) is P1  # she controls the bot's turn up to the reveal
        g.apply(P1, Commit(card("2D"), MoveType.ATTACK))
        second = bot_actions(g, Commit)[1]
        assert isinstance(second, Commit) and second.card is card("5H")
    assert checked


@records_training_bot
def test_bare_your_soul_only_with_cards_in_the_humans_deck__TR_11(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """TR-11 (BOT-PERSEPHONE leaves it): Bare Your Soul (her 10, draw phase) turns the top of
    the human's deck face up: she plays it while the deck holds cards, and passes (though it is
    legal) when it is empty (opt.timeout=PLAY_ON keeps the game going)."""
    ruleset = Ruleset(timeout=Timeout.PLAY_ON)
    g = new_training("grave", "persephone", seed=3, ruleset=ruleset)
    arrange(g, P1, "2D 3D 4D 5D 6D 8D 9D")
    arrange(g, P2, "TC 2S 3S 4S 5S 6S 8S", top="QH")
    human_until(g, lambda g: g.turn == 2 and g.step == "C1")
    assert [a.card for a in uses(g, "Bare Your Soul")] == [card("TC")]
    assert len(g.state(P1).face_up) == 3
    with watching(monkeypatch) as seen:
        g = new_training("grave", "persephone", seed=3, ruleset=ruleset)
        arrange(g, P1, "2D 3D 4D 5D 6D 8D 9D")
        arrange(g, P2, "TC 2S 3S 4S 5S 6S 8S", top="QH")
        g.state(P1).deck.clear()
        human_until(g, lambda g: g.turn == 2 and g.step == "C1")
    asked = offered(seen, "Bare Your Soul")
    assert asked and all(choice == Pass() for _, choice in asked)


def test_do_as_told_counters_the_humans_ability__TR_11() -> None:
    """TR-11 (BOT-PERSEPHONE leaves it): Do As Told (her 9) counters the human's ability
    (Gloria's Healing Sphere) as it is played."""
    g = new_training("gloria", "persephone", seed=6)
    arrange(g, P1, "TD 2C 3C 4C 5C 6C 7C")
    arrange(g, P2, "9C 2S 3S 4S 5S 6S 8S", top="QH")
    human_until(g, lambda g: g.turn == 2 and g.step == "T3")
    g.apply(P1, UseAbility("Healing Sphere", card("TD")))
    assert [a.card for a in uses(g, "Do As Told")] == [card("9C")]
    assert card("9C") in g.state(P2).discard


# ---------------------------------------------------------------- BOT-GLORIA


@records_training_bot
def test_healing_sphere_only_with_a_hearts_card_in_the_discard_pile__BOT_GLORIA(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """BOT-GLORIA: Healing Sphere (her 10, draw phase) with at least one Hearts card in her
    discard pile; without one she passes though it is legal."""
    g = new_training("grave", "gloria", seed=4)
    arrange(g, P1, "2D 3D 4D 5D 6D 8D 9D")
    arrange(g, P2, "TC 2S 3S 4S 5S 6S 8S", discard="5H 3H", top="QC")
    human_until(g, lambda g: g.turn == 2 and g.step == "C1")
    assert [a.card for a in uses(g, "Healing Sphere")] == [card("TC")]
    with watching(monkeypatch) as seen:
        g = new_training("grave", "gloria", seed=4)
        arrange(g, P1, "2D 3D 4D 5D 6D 8D 9D")
        arrange(g, P2, "TC 2S 3S 4S 5S 6S 8S", discard="5C", top="QC")
        human_until(g, lambda g: g.turn == 2 and g.step == "C1")
    asked = offered(seen, "Healing Sphere")
    assert asked and all(choice == Pass() for _, choice in asked)


def _gloria_end_of_combat(monkeypatch: pytest.MonkeyPatch, life: tuple[int, int],
                          seed: int = 5) -> tuple[Game, list[tuple[list[Action], Action]]]:
    """Gloria's Jack hits Grave's no-card (she won combat); at her end-of-combat window the
    position is set: (the human's life, hers); she holds an Ace."""
    def before(game: Any, decision: Decision, seat: PlayerId) -> None:
        legal = decision.options(seat)
        if any(isinstance(a, UseAbility) and a.ability == "Bathed in Moonlight" for a in legal):
            game.state(P1).life, game.state(P2).life = life

    with watching(monkeypatch, before) as seen:
        g = new_training("grave", "gloria", seed=seed)
        arrange(g, P1, "2D 3D 4D 5D 6D 8D 9D")
        arrange(g, P2, "AH 2S 4S 6S 8S 9S TS", top="JH")
        g.apply(P1, NoCard())
        human_until(g, lambda g: g.turn > 1)
    return g, [(legal, choice) for _, legal, choice in seen
               if any(isinstance(a, UseAbility) and a.ability in ("Bathed in Moonlight",
                                                                  "Overdose") for a in legal)]


@records_training_bot
def test_bathed_in_moonlight_then_overdose_when_she_won__BOT_GLORIA(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """BOT-GLORIA: she takes Bathed in Moonlight's life gain (her Jack hit), then, having won
    combat and not trailing by more than 40, plays Overdose."""
    _, asked = _gloria_end_of_combat(monkeypatch, (60, 50))
    choices = [c for _, c in asked]
    assert isinstance(choices[0], UseAbility) and choices[0].ability == "Bathed in Moonlight"
    assert any(isinstance(c, UseAbility) and c.ability == "Overdose" for c in choices)


@records_training_bot
def test_no_bath_when_skipping_it_lets_overdose_kill__BOT_GLORIA(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """BOT-GLORIA: "unless skipping it would kill the opponent": at 8 life the human dies to
    Overdose, but not after the bath's +4: she skips the bath and overdoses; the human is
    KO'd."""
    g, asked = _gloria_end_of_combat(monkeypatch, (8, 50))
    legal, choice = asked[0]
    assert any(isinstance(a, UseAbility) and a.ability == "Bathed in Moonlight" for a in legal)
    assert isinstance(choice, UseAbility) and choice.ability == "Overdose"
    assert g.outcome is not None and g.outcome.winner is P2


@records_training_bot
def test_no_overdose_when_trailing_by_more_than_40__BOT_GLORIA(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """BOT-GLORIA: she won combat but trails by more than 40 (85 to 40): no Overdose."""
    _, asked = _gloria_end_of_combat(monkeypatch, (85, 40))
    overdose = [(legal, c) for legal, c in asked
                if any(isinstance(a, UseAbility) and a.ability == "Overdose" for a in legal)]
    assert overdose and all(not (isinstance(c, UseAbility) and c.ability == "Overdose")
                            for _, c in overdose)


def test_healing_touch_fetches_the_highest_hearts__BOT_GLORIA(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """BOT-GLORIA: her innate (Healing Touch, end of turn) is played and returns the highest
    Hearts card of her discard pile; she pays with her two lowest non-Hearts cards."""
    g = new_training("grave", "gloria", seed=6)
    arrange(g, P1, "QD 3D 4D 5D 6D 8D 9D")
    arrange(g, P2, "2S 3C 6S 8S 9S TS KS", discard="4H KH 7H", top="QC")
    g.apply(P1, Commit(card("QD"), MoveType.ATTACK))
    human_until(g, lambda g: g.turn > 1)
    touch = uses(g, "Healing Touch")
    assert touch and set(touch[0].cards) == {card("2S"), card("3C")}
    assert card("KH") in g.state(P2).hand


@records_training_bot
def test_healing_touch_only_when_it_has_an_effect__TR_11_BOT_GLORIA(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """TR-11 with BOT-GLORIA: at full life, with no Hearts card in her discard pile and no
    Healing Sphere in play, Healing Touch would only cost two cards: she passes though it is
    offered; hurt, she plays it."""
    def full_life(game: Any, decision: Decision, seat: PlayerId) -> None:
        if decision.step == "K1":
            game.state(P2).life = game.state(P2).character.life

    for setup, played in ((full_life, False), (None, True)):
        with watching(monkeypatch, setup) as seen:
            g = new_training("grave", "gloria", seed=6)
            arrange(g, P1, "QD 3D 4D 5D 6D 8D 9D")
            arrange(g, P2, "2S 3C 6S 8S 9S TS KS", discard="4C KC", top="QC")
            g.state(P2).life = 50
            g.apply(P1, Commit(card("QD"), MoveType.ATTACK))
            human_until(g, lambda g: g.turn > 1)
        asked = offered(seen, "Healing Touch")
        assert asked
        assert any(isinstance(c, UseAbility) for _, c in asked) is played
        assert bool(uses(g, "Healing Touch")) is played
        monkeypatch.undo()  # the next game watched afresh


# ---------------------------------------------------------------- BOT-ZANE


def _zane(bot_hand: str, top: str, seed: int = 7) -> Game:
    """Zane's Queen (Shoulder Ram, a Linker, his only end) hits Grave's no-card."""
    g = new_training("grave", "zane", seed=seed)
    arrange(g, P1, "2D 3D 4D 5D 6D 8D 9D")
    arrange(g, P2, bot_hand, top=top)
    g.apply(P1, NoCard())
    human_until(g, lambda g: g.turn > 1)
    return g


def test_shenanigans_for_his_most_damaging_combo__BOT_ZANE() -> None:
    """BOT-ZANE: with no move left in his hand he uses his innate, Shenanigans (the top two of
    his deck, the Jack and the 2), and plays the revealed card of the most damaging combo (the
    Jack's 9, not the 2's 2); the other is discarded."""
    g = _zane("4C 4D 4H 4S TC TD TH", top="QH JS 2S")
    steps = [a for a in bot_actions(g) if isinstance(a, UseAbility | Combo)
             and not (isinstance(a, UseAbility) and a.ability == "Creator and Destroyer")]
    assert steps[:2] == [UseAbility("Shenanigans"), Combo(card("JS"), MoveType.ATTACK)]
    assert card("2S") in g.state(P2).discard


def test_shenanigans_waits_for_the_last_move_of_his_combo__BOT_ZANE() -> None:
    """BOT-ZANE: with two moves left in his hand's best combo (Queen, then Jack) he plays the
    Queen first and uses Shenanigans before his last move, where a revealed card can only
    add."""
    g = _zane("QS JS 4C 4D TC TD TH", top="QH 5S 8S")
    steps = [a for a in bot_actions(g) if isinstance(a, UseAbility | Combo)
             and not (isinstance(a, UseAbility) and a.ability == "Creator and Destroyer")]
    assert steps[:2] == [Combo(card("QS"), MoveType.ATTACK), UseAbility("Shenanigans")]
    assert Combo(card("JS"), MoveType.ATTACK) in steps


@records_training_bot
def test_creator_and_destroyer_only_against_a_hand__TR_11(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """TR-11 (BOT-ZANE leaves it): Creator and Destroyer, offered when his Can't Combo move
    (Crash Bomb) hits, remakes the human's hand: played when they hold cards; with an empty
    hand it would do nothing and he passes."""
    g = new_training("grave", "zane", seed=8)
    arrange(g, P1, "2D 3D 4D 5D 6D 8D 9D")
    arrange(g, P2, "4C 5S 6S 8S 9S TS JS", top="KH")
    g.apply(P1, NoCard())
    assert [a.card for a in uses(g, "Creator and Destroyer")] == [card("4C")]
    with watching(monkeypatch) as seen:
        g = new_training("grave", "zane", seed=8)
        arrange(g, P1, "")
        arrange(g, P2, "4C 5S 6S 8S 9S TS JS", top="KH")
        human_until(g, lambda g: g.turn > 1 or g.step == "C13")
    asked = offered(seen, "Creator and Destroyer")
    assert asked and all(choice == Pass() for _, choice in asked)


# ---------------------------------------------------------------- TR-11: Gwen, Troq, Argagarg


def test_gwen_relentless_strikes_whenever_offered__TR_11() -> None:
    """TR-11 (BOT-GWEN leaves it): when Grave's normal block beats her Jack (Chains of Ice, a
    Starter), Relentless Strikes turns it into a win: she plays it, with the lowest red and the
    most damaging black normal attack."""
    g = new_training("grave", "gwen", seed=2)
    arrange(g, P1, "5D 2D 3D 4D 6D 8D 9D")
    arrange(g, P2, "4D 2H 3S 4C 9H TH KH", top="JH")
    g.apply(P1, Commit(card("5D"), MoveType.BLOCK))
    strikes = uses(g, "Relentless Strikes")
    assert strikes == [UseAbility("Relentless Strikes", cards=(card("2H"), card("4C")))]
    assert g.combat.winner is P2


def test_troq_war_stomp_whenever_offered__TR_11_BOT_TROQ() -> None:
    """TR-11 under BOT-TROQ ("No changes"): War Stomp (his 10, draw phase) always has an
    effect while it is offered: he plays it, and the human is knocked down for the turn."""
    g = new_training("grave", "troq", seed=4)
    arrange(g, P1, "2D 3D 4D 5D 6D 8D 9D")
    arrange(g, P2, "TC 2H 3H 6H 7H 8H QH", top="KH")
    human_until(g, lambda g: g.turn == 2 and g.step == "C1")
    assert [a.card for a in uses(g, "War Stomp")] == [card("TC")]
    assert g.state(P1).knocked_down


def _ward(human: Action, seed: int) -> list[UseAbility]:
    g = new_training("grave", "argagarg", seed=seed)
    arrange(g, P1, "4D 5D 2D 3D 6D 8D 9D")
    arrange(g, P2, "7C 2H 3H 4H 9H TH KH", top="QH")
    g.apply(P1, human)
    return uses(g, "Protective Ward")


def test_argagarg_protective_ward_only_when_it_has_an_effect__TR_11_BOT_ARGAGARG() -> None:
    """TR-11 under BOT-ARGAGARG: Protective Ward (combat reveal) changes the human's attacks
    and throws: he plays it against Grave's attack, and passes against Grave's block (it would
    change nothing)."""
    assert [a.card for a in _ward(Commit(card("4D"), MoveType.ATTACK), 5)] == [card("7C")]
    assert _ward(Commit(card("5D"), MoveType.BLOCK), 5) == []


def test_argagarg_crash_and_flow_counters_the_humans_ability__TR_11_BOT_ARGAGARG() -> None:
    """TR-11 under BOT-ARGAGARG: Crash and Flow counters the human's ability (Gloria's Healing
    Sphere) with his 10."""
    g = new_training("gloria", "argagarg", seed=6)
    arrange(g, P1, "TD 2C 3C 4C 5C 6C 7C")
    arrange(g, P2, "TC 2H 3H 4H 9H 8H KH", top="QH")
    human_until(g, lambda g: g.turn == 2 and g.step == "T3")
    g.apply(P1, UseAbility("Healing Sphere", card("TD")))
    assert [a.card for a in uses(g, "Crash and Flow")] == [card("TC")]
    assert card("TC") in g.state(P2).discard


# ---------------------------------------------------------------- opt.botTieChoice=HUMAN


def _tie_log() -> tuple[MatchLog, int]:
    """The first self-played log with a tie, and the index of its first ``bot_tie`` event."""
    for found in _ties():
        return found
    pytest.fail("no tie between the bot's combos in these games")


def _ties() -> Iterator[tuple[MatchLog, int]]:
    """Self-played Training logs under opt.botTieChoice=HUMAN with a tie, and the index of
    their first ``bot_tie`` event (before it, the game is the default's too)."""
    for seed in range(3000, 3060):
        for human, bot in (("argagarg", "geiger"), ("grave", "jaina"), ("troq", "lum")):
            _, log = play_match(Mode.TRAINING, (human,), (bot,), seed, bot="greedy",
                                ruleset=HUMAN_TIES)
            ties = [i for i, e in enumerate(log.events) if isinstance(e.action, BotTie)]
            if ties:
                yield log, ties[0]


def _at(log: MatchLog, index: int, ruleset: Ruleset = HUMAN_TIES) -> Game:
    """The log's game with its first ``index`` events applied."""
    g = Game.new(Mode.TRAINING, log.teams, ruleset=ruleset, seed=log.seed)
    for e in log.events[:index]:
        g.apply(e.player, e.action)
    return g


def test_the_humans_tie_choice_is_listed_logged_and_replayed__TR_8_OQ_26() -> None:
    """TR-8 / OQ-26 (opt.botTieChoice=HUMAN): when the bot's most damaging combos tie on their
    next step, the engine lists those steps as the human's legal choices (``bot_tie``); the
    default breaks the same tie itself with the first of them; the human's choice is logged,
    the bot plays it, and the log replays as legal."""
    log, i = _tie_log()
    g = _at(log, i)
    legal = g.legal_actions(P1)
    assert len(legal) >= 2 and all(isinstance(a, BotTie) for a in legal)
    assert log.events[i].action in legal
    chosen = log.events[i].action
    assert isinstance(chosen, BotTie)
    assert all(isinstance(a.choice, Combo | Pump | Stop) for a in legal
               if isinstance(a, BotTie))
    default = _at(log, i, Ruleset())
    before = [d for d in g.derived if d[0] == i]  # the bot's choices since the last event
    after = [d for d in default.derived if d[0] == i]
    assert after[:len(before)] == before
    assert after[len(before)][1] is P2 and BotTie(after[len(before)][2]) == legal[0]
    g.apply(P1, chosen)
    assert g.derived[-1][1:] == (P2, chosen.choice)
    verdict = replay(parse_log(log.dumps()))
    assert verdict.status == "legal", verdict.to_dict()["first_error"]


@records_training_bot
def test_a_non_tied_choice_is_refused__TR_8(monkeypatch: pytest.MonkeyPatch) -> None:
    """TR-8: at a tie, a ``bot_tie`` naming a step that is not one of the tied combos' (stop,
    and every legal move of the bot that starts a less damaging combo) is refused with TR-8,
    in play and in a log; so is an event that ignores the tie."""
    found = None
    with watching(monkeypatch) as seen:  # the bot's legal steps at a tie (the default game)
        for log, i in _ties():
            seen.clear()
            default = _at(log, i, Ruleset())
            at_tie = len([d for d in _at(log, i).derived if d[0] == i])
            k = len(default.derived) - len([d for d in default.derived if d[0] == i]) + at_tie
            g = _at(log, i)
            legal = g.legal_actions(P1)
            wrongs = [BotTie(a) for a in seen[k][1] if isinstance(a, Combo | Stop)
                      and BotTie(a) not in legal]
            if any(isinstance(w.choice, Combo) for w in wrongs):
                found = log, i, g, wrongs
                break
    assert found is not None, "no tie where the bot had a less damaging move"
    log, i, g, wrongs = found
    for wrong in wrongs:
        with pytest.raises(IllegalActionError) as err:
            g.apply(P1, wrong)
        assert err.value.rule_id == "TR-8"
    wrong = next(w for w in wrongs if isinstance(w.choice, Combo))  # a non-tied combo
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, Pass())
    assert err.value.rule_id == "TR-8"
    events = list(log.events)
    events[i] = replace(events[i], action=wrong)
    verdict = replay(parse_log(replace(log, events=tuple(events)).dumps()))
    assert verdict.status == "illegal" and verdict.first_error is not None
    assert (verdict.first_error["rule_id"], verdict.first_error["index"]) == ("TR-8", i)


def test_tie_choices_only_under_human__TR_8() -> None:
    """TR-8: under the default (DETERMINISTIC) the engine breaks ties, so the same log with a
    ``bot_tie`` event is illegal there; the version-2 schema (built by its builder, up to date)
    describes the event."""
    import json
    from importlib import resources

    from jsonschema import Draft202012Validator

    from rules_engine.tools import build_schema_v2

    log, i = _tie_log()
    verdict = replay(parse_log(replace(log, ruleset=Ruleset()).dumps()))
    assert verdict.status == "illegal" and verdict.first_error is not None
    assert verdict.first_error["index"] == i
    assert build_schema_v2.main(["--check"]) == 0
    schema = json.loads(resources.files("rules_engine").joinpath(
        "schema", "match-log-v2.json").read_text("utf-8"))
    doc = log.to_json()
    assert doc["ruleset"] == {"botTieChoice": "HUMAN"}
    assert not list(Draft202012Validator(schema).iter_errors(doc))
    doc["events"][i]["choice"] = {"action": "discard", "cards": ["2H"]}
    assert list(Draft202012Validator(schema).iter_errors(doc))


# ---------------------------------------------------------------- self-play


@pytest.mark.parametrize("bot", sorted(characters()))
def test_selfplay_with_every_bot_replays_as_legal__TR_3(bot: str) -> None:
    """TR-3: Training self-play with each of the 20 characters as the bot (their BOT rules and
    TR-11 choices derived, never logged) replays as legal, also under opt.botTieChoice=HUMAN,
    whose tie check asks every BOT rule's ``choose`` (so none may change the game)."""
    for k, human in enumerate(("grave", "jaina", bot)):
        for kind, ruleset in (("greedy", Ruleset()), ("random", HUMAN_TIES)):
            _, log = play_match(Mode.TRAINING, (human,), (bot,), 500 + k, bot=kind,
                                ruleset=ruleset)
            verdict = replay(parse_log(log.dumps()))
            assert verdict.status == "legal", verdict.to_dict()["first_error"]
            assert verdict.to_dict()["facts"]["training"]["bot_rules"][bot].startswith("BOT-")
