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
    Stop,
    UseAbility,
)
from rules_engine.cards import Card, MoveType, card
from rules_engine.errors import IllegalActionError
from rules_engine.game import Game
from rules_engine.log import MatchLog, parse_log
from rules_engine.replay import replay
from rules_engine.ruleset import BotTieChoice, OnOff, Ruleset, Timeout
from rules_engine.selfplay import play_match
from rules_engine.state import Decision
from rules_engine.team import Mode
from rules_engine.training import Training
from rules_engine.types import PlayerId

from .test_training import human_until, new_training

P1, P2 = PlayerId.P1, PlayerId.P2
MINE = ("menelker", "persephone", "gloria", "vendetta", "zane")
TR11 = ("argagarg", "troq", "gwen")
HUMAN_TIES = Ruleset(botTieChoice=BotTieChoice.HUMAN)

Seen = list[tuple[Decision, list[Action], Action]]


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


def fetch_cards(g: Game, seat: PlayerId) -> list[Card]:
    return list(g.state(seat).hand)


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


# ---------------------------------------------------------------- self-play


@pytest.mark.parametrize("bot", MINE + TR11)
def test_selfplay_with_these_bots_replays_as_legal__TR_3(bot: str) -> None:
    """TR-3: Training self-play with each of these characters as the bot (their BOT rules and
    TR-11 choices derived, never logged) replays as legal, also under opt.botTieChoice=HUMAN."""
    for k, human in enumerate(("grave", "jaina", bot)):
        for kind, ruleset in (("greedy", Ruleset()), ("random", HUMAN_TIES)):
            _, log = play_match(Mode.TRAINING, (human,), (bot,), 500 + k, bot=kind,
                                ruleset=ruleset)
            verdict = replay(parse_log(log.dumps()))
            assert verdict.status == "legal", verdict.to_dict()["first_error"]
            assert verdict.to_dict()["facts"]["training"]["bot_rules"][bot].startswith("BOT-")
