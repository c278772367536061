"""BOT rules of RULES.md §12.2 for Grave, Setsuki, Geiger, Lum, Midori and Bal-Bas-Beta, and
TR-11 (abilities whenever they have an effect) for their other abilities. Every test drives a
seeded Training game: the human's seat (P1) is played by the test or a greedy bot, the bot's
seat (P2) by the engine itself; the test sets up a position (the bot's hand, deck or discard
pile), lets the derived bot act and checks what it did."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest

from rules_engine.actions import Action, Commit, NoCard, Pump, UseAbility
from rules_engine.bots import GreedyBot
from rules_engine.cards import Card, MoveType, card
from rules_engine.characters.lum import blackjack_totals
from rules_engine.game import Game
from rules_engine.journal import Blocked, Drew, Hit
from rules_engine.log import parse_log
from rules_engine.replay import replay
from rules_engine.selfplay import play_match
from rules_engine.state import Decision, PlayerState
from rules_engine.team import Mode, Team
from rules_engine.training import Training
from rules_engine.training.characters.lum import LumBotAbilities
from rules_engine.training.characters.setsuki import SetsukiBotAbilities
from rules_engine.types import PlayerId

from .helpers import records_training_bot

P1, P2 = PlayerId.P1, PlayerId.P2
MINE = ("grave", "setsuki", "geiger", "lum", "midori", "bbb")


@dataclass
class Seen:
    """One derived choice of the bot, with its seat's zones just before it."""

    turn: int
    step: str
    rule: str
    legal: list[Action]
    choice: Action
    hand: list[Card]
    discard: list[Card]
    deck: list[Card]
    ongoing: list[str]
    dealt: list[Card]  # Lum's Blackjack: the cards dealt so far
    life: int


@contextmanager
def bot_choices(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Seen]]:
    """Record every choice the engine derives for the bot."""
    seen: list[Seen] = []
    original = Training.derive

    def derive(self: Training, game: Any, decision: Decision, seat: PlayerId) -> Action:
        ps = game.players[seat]
        before = (list(ps.hand), list(ps.discard), list(ps.deck),
                  [e.name for e in ps.ongoing if e.resolved],
                  list(getattr(game.rules[seat], "dealt", ())), ps.life)
        legal = decision.options(seat)
        choice = original(self, game, decision, seat)
        seen.append(Seen(game.turn, decision.step, decision.rule, legal, choice, *before))
        return choice
    monkeypatch.setattr(Training, "derive", derive)
    yield seen


def training(human: str, bot: str, seed: int) -> Game:
    return Game.new(Mode.TRAINING, (Team.of((human,)), Team.of((bot,))), seed=seed)


def play_until(g: Game, done: Callable[[Game], bool], seed: int = 1) -> None:
    """The human's seat played by a greedy bot until ``done`` (or the game ends)."""
    human = GreedyBot(seed)
    while not g.is_over and not done(g):
        g.apply(P1, human.choose(g, P1, g.legal_actions(P1)))


def _gather(ps: PlayerState, into: list[Card], codes: tuple[str, ...]) -> None:
    """Put cards at the end of one of a seat's zones (``into``: its hand or discard pile) from
    wherever else they are: a position set up for the test."""
    for c in (card(code) for code in codes):
        for other in (ps.deck, ps.hand, ps.discard):
            if other is not into and c in other:
                other.remove(c)
        if c not in into:
            into.append(c)


def to_hand(g: Game, seat: PlayerId, *codes: str) -> None:
    """Put cards into a seat's hand from wherever they are (a position set up for the test)."""
    ps = g.state(seat)
    _gather(ps, ps.hand, codes)


def set_hand(g: Game, seat: PlayerId, *codes: str) -> None:
    """A seat's hand is exactly these cards (the others go to the bottom of its deck)."""
    ps = g.state(seat)
    ps.deck.extend(ps.hand)
    ps.hand.clear()
    to_hand(g, seat, *codes)


def to_discard(g: Game, seat: PlayerId, *codes: str) -> None:
    """Put cards onto a seat's discard pile from wherever they are."""
    ps = g.state(seat)
    _gather(ps, ps.discard, codes)


def on_top(g: Game, seat: PlayerId, *codes: str) -> None:
    """Arrange the top of a seat's deck, first code on top."""
    ps = g.state(seat)
    wanted = [card(c) for c in codes]
    for c in wanted:
        for zone in (ps.hand, ps.deck, ps.discard):
            if c in zone:
                zone.remove(c)
    ps.deck[:0] = wanted


def human_commits(g: Game, kind: MoveType) -> None:
    """The human's C1: the first legal commit of that kind."""
    g.apply(P1, next(a for a in g.legal_actions(P1)
                     if isinstance(a, Commit) and a.move is kind))


def uses(seen: list[Seen], ability: str) -> list[Seen]:
    return [s for s in seen if isinstance(s.choice, UseAbility) and s.choice.ability == ability]


def offered(seen: list[Seen], ability: str) -> list[Seen]:
    return [s for s in seen if any(isinstance(a, UseAbility) and a.ability == ability
                                   for a in s.legal)]


# ---------------------------------------------------------------------- self-play


@pytest.mark.parametrize("bot", MINE)
def test_selfplay_with_the_bot_rule_replays_as_legal__TR_3(bot: str) -> None:
    """TR-3: Training self-play with each of these characters as the bot (its BOT rule
    played) against several humans replays as legal: the verifier derives the same bot
    choices again; the verdict names the BOT rule played."""
    rule = "BOT-BALBASBETA" if bot == "bbb" else f"BOT-{bot.upper()}"
    for k, human in enumerate(("grave", "jaina", "rook", "lum", "setsuki", "quince")):
        g, log = play_match(Mode.TRAINING, (human,), (bot,), 300 + k,
                            bot="greedy" if k % 2 else "random")
        verdict = replay(parse_log(log.dumps()))
        assert verdict.status == "legal", verdict.to_dict()["first_error"]
        assert verdict.to_dict()["facts"]["training"]["bot_rules"] == {bot: rule}
        assert g.derived


def test_survival_brings_each_bot_in_with_its_bot_rule__TR_14() -> None:
    """TR-14: in a Survival run each incoming bot plays its own BOT rule (its seat's rules are
    replaced as it comes in, the outgoing bot's leave); runs replay as legal."""
    for seed, bots in enumerate((("grave", "lum", "midori"), ("bbb", "geiger", "setsuki"))):
        _, log = play_match(Mode.SURVIVAL, ("jaina",), bots, 700 + seed, bot="greedy")
        verdict = replay(parse_log(log.dumps())).to_dict()
        assert verdict["status"] == "legal", verdict["first_error"]
        assert set(verdict["facts"]["training"]["bot_rules"]) == set(bots)
    seen = set()
    for seed in range(6):
        bots = ("setsuki", "lum", "grave")
        g = Game.new(Mode.SURVIVAL, (Team.of(("jaina",)), Team.of(bots)), seed=seed)
        assert type(g.rules[P2]) is SetsukiBotAbilities
        g.state(P2).life = 1  # the first bot nearly beaten (a position set up for the test)
        play_until(g, lambda g: len(g.bouts) >= 2, seed)
        if len(g.bouts) < 2:
            continue
        assert g.state(P2).character.id == "lum" and type(g.rules[P2]) is LumBotAbilities
        seen.add(seed)
    assert len(seen) >= 2


# ---------------------------------------------------------------------- Grave


@records_training_bot
def test_martial_mastery_becomes_discard_to_draw_two__BOT_GRAVE_TR_11(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """BOT-GRAVE: after the draw phase the bot discards Martial Mastery to draw 2, and nothing
    else happens (no discard of another card follows); TR-11: it is
    played whenever the bot holds a 7 in the draw-phase window."""
    played = 0
    with bot_choices(monkeypatch) as seen:
        for seed in range(6):
            g = training("troq", "grave", seed)
            to_hand(g, P2, "7C", "7D", "7H", "7S")
            start = len(seen)
            play_until(g, lambda g: g.turn >= 4, seed)
            plays = uses(seen[start:], "Martial Mastery")
            for s in plays:
                played += 1
                assert s.step == "T3" and isinstance(s.choice, UseAbility)
                seven = s.choice.card
                assert seven is not None and seven in s.hand and seven in g.state(P2).discard
            for turn in {s.turn for s in plays}:
                drew = [e for e in g.journal if isinstance(e, Drew) and e.seat is P2
                        and e.turn == turn and e.step == "T3"]
                assert len(drew) == 2 * sum(1 for s in plays if s.turn == turn)
            for s in offered(seen[start:], "Martial Mastery"):
                assert isinstance(s.choice, UseAbility)  # whenever it could (TR-11)
            # no discard follows (the printed text's FR-GRAVE-1 decision)
            assert not [s for s in seen[start:] if s.rule == "FR-GRAVE-1"]
    assert played >= 3


def test_blocking_puts_the_queens_back_and_shuffles__BOT_GRAVE() -> None:
    """BOT-GRAVE: Knowing the Opponent becomes: on blocking an attack, every Queen of the
    discard pile goes into the deck and the deck is shuffled (no card is revealed)."""
    blocked = 0
    for seed in range(12):
        g = training("grave", "grave", seed)
        to_discard(g, P2, "QC", "QH")
        on_top(g, P2, "5H")  # attack / block: the block end turns up half the time
        human_commits(g, MoveType.ATTACK)
        if not any(isinstance(e, Blocked) and e.blocker is P2 for e in g.journal):
            continue
        blocked += 1
        ps = g.state(P2)
        assert card("QC") in ps.deck and card("QH") in ps.deck
        assert not any(c.rank is not None and c.code.startswith("Q") for c in ps.discard)
        assert g.rules[P2].position_key() == ""  # nothing revealed for next turn
    assert blocked >= 3


def test_mental_toughness_counters_with_the_lowest_face_card__TR_11() -> None:
    """TR-11: a counter always has an effect, so the bot plays Mental Toughness against the
    human's Martial Mastery whenever it holds a 10 and a face card, paying with its lowest
    face card (a Jack before a King)."""
    countered = 0
    for seed in range(6):
        g = training("grave", "grave", seed)
        to_hand(g, P1, "7C")
        play_until(g, lambda g: g.turn == 2 and g.step == "T3", seed)
        if g.is_over:
            continue
        set_hand(g, P2, "TS", "KD", "JH", "2C", "3C")
        mastery = next(a for a in g.legal_actions(P1) if isinstance(a, UseAbility)
                       and a.ability == "Martial Mastery")
        size = len(g.state(P1).hand)
        before = len(g.derived)
        g.apply(P1, mastery)
        counter = [a for _, seat, a in g.derived[before:] if isinstance(a, UseAbility)
                   and a.ability == "Mental Toughness"]
        assert counter == [UseAbility("Mental Toughness", card("TS"), (card("JH"),))]
        assert card("KD") in g.state(P2).hand and card("JH") in g.state(P2).discard
        assert len(g.state(P1).hand) == size - 1  # countered: no draw
        countered += 1
    assert countered >= 3


# ---------------------------------------------------------------------- Geiger


def _geiger_at_draw_phase(seed: int, discard: tuple[str, ...]) -> tuple[Game, int, int]:
    """Geiger's bot holding a 4 and an 8 as turn 2's draw phase ends, ``discard`` in its
    discard pile (the rest of its Jacks, Queens and Aces in its deck); the human is Troq. The
    bot's hand and discard sizes then."""
    g = training("troq", "geiger", seed)
    ps = g.state(P2)
    for c in [c for c in [*ps.hand, *ps.discard] if c.code[0] in "JQA"]:
        (ps.hand if c in ps.hand else ps.discard).remove(c)
        ps.deck.append(c)
    set_hand(g, P2, "4C", "8C", "2C", "3C", "5C")
    to_discard(g, P2, *discard)
    return g, len(ps.hand), len(ps.discard)


@records_training_bot
def test_research_becomes_draw_half_the_time_spirals__BOT_GEIGER_TR_11(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """BOT-GEIGER: with Time Spiral cards in the discard pile (here Fast Time Spiral, Slow
    Time Spiral twice: X = 3) the bot discards Research and Development to draw ⌈3/2⌉ = 2
    cards, looking at nothing (no choice among the deck's top cards); played before Temporal
    Distortion, which then fetches a Jack or Queen (TR-11: both have an effect)."""
    with bot_choices(monkeypatch) as seen:
        for seed in range(3):
            g, *_ = _geiger_at_draw_phase(seed, ("JD", "QD", "JH"))
            start = len(seen)
            play_until(g, lambda g: g.turn == 2 and g.step not in ("T1", "T2", "T3"), seed)
            turn2 = [s for s in seen[start:] if s.turn == 2 and s.step == "T3"]
            research = uses(turn2, "Research and Development")
            assert research[0].choice == UseAbility("Research and Development", card("8C"))
            assert sum(1 for c in research[0].discard if c.code[0] in "JQA") == 3
            assert not [s for s in turn2 if any(isinstance(a, UseAbility) and a.card is None
                                               and a.ability == "Research and Development"
                                               for a in s.legal)]
            drew = [e for e in g.journal if isinstance(e, Drew) and e.seat is P2
                    and e.turn == 2 and e.step == "T3"]
            # ⌈X/2⌉ each time (a drawn 8 is played too): 2 for the first
            assert len(drew) == sum(-(-sum(1 for c in s.discard if c.code[0] in "JQA") // 2)
                                    for s in research)
            distortion = uses(turn2, "Temporal Distortion")
            assert distortion and turn2.index(distortion[0]) > turn2.index(research[0])


@records_training_bot
def test_no_spiral_or_face_in_the_discard_pile_no_ability__BOT_GEIGER_TR_11(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """BOT-GEIGER / TR-11: with no Time Spiral card and no Jack or Queen in the discard pile
    the bot plays neither Research and Development nor Temporal Distortion (it passes the
    window they were offered in)."""
    with bot_choices(monkeypatch) as seen:
        for seed in range(3):
            g, *_ = _geiger_at_draw_phase(seed, ("9D",))
            start = len(seen)
            play_until(g, lambda g: g.turn == 2 and g.step not in ("T1", "T2", "T3"), seed)
            turn2 = [s for s in seen[start:] if s.turn == 2 and s.step == "T3"]
            assert offered(turn2, "Research and Development")
            assert not uses(turn2, "Research and Development")
            assert not uses(turn2, "Temporal Distortion")


# ---------------------------------------------------------------------- Setsuki


@records_training_bot
def test_bag_of_tricks_becomes_shuffle_faces_back_and_top_the_deck__BOT_SETSUKI(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """BOT-SETSUKI: at the end of the turn, with Bag of Tricks the only card in her hand, the
    bot shuffles the top three face cards and/or Aces of its discard pile into its deck (not
    an older fourth one, not the low cards) and puts Bag of Tricks on top of the deck; no
    card is chosen one at a time (the printed text's choices)."""
    done = 0
    with bot_choices(monkeypatch) as seen:
        for seed in range(8):
            g = training("troq", "setsuki", seed)
            set_hand(g, P2, "7C")
            to_discard(g, P2, "KD", "2D", "JD", "3D", "QH", "AS", "4D")  # AS, QH, JD on top
            g.apply(P1, NoCard())
            start = len(seen)
            play_until(g, lambda g: g.turn == 2, seed)  # before its next C1
            bags = uses(seen[start:], "Bag of Tricks")
            assert len(bags) == len(offered(seen[start:], "Bag of Tricks"))  # TR-11
            if not bags:
                continue  # a block or a combo drew her a card: Bag of Tricks not playable
            done += 1
            (bag,) = bags
            assert isinstance(bag.choice, UseAbility) and bag.choice.card is not None
            seven = bag.choice.card
            assert bag.step == "K1" and bag.hand == [seven]
            ps = g.state(P2)
            assert ps.deck[0] == seven
            faces = [c for c in reversed(bag.discard) if c.code[0] in "JQKA"]
            assert len(faces) >= 4  # the test's four, and any combat put there since
            assert set(faces[:3]) <= set(ps.deck)
            assert set(faces[3:]) <= set(ps.discard) and card("KD") in ps.discard
            assert card("2D") in ps.discard and card("4D") in ps.discard
            assert not [s for s in seen[start:] if any(
                isinstance(a, UseAbility) and a.option == "top" for a in s.legal)]
    assert done >= 3


def test_smoke_bomb_counters_paying_the_two_lowest_cards__TR_11() -> None:
    """TR-11: the bot counters the human's ability with Smoke Bomb whenever it holds a 10 and
    two other cards, paying with its two lowest-rank other cards."""
    countered = 0
    for seed in range(6):
        g = training("grave", "setsuki", seed)
        to_hand(g, P1, "7C")
        play_until(g, lambda g: g.turn == 2 and g.step == "T3", seed)
        if g.is_over:
            continue
        set_hand(g, P2, "TS", "KD", "3H", "9C", "2S")
        mastery = next(a for a in g.legal_actions(P1) if isinstance(a, UseAbility)
                       and a.ability == "Martial Mastery")
        before = len(g.derived)
        g.apply(P1, mastery)
        bombs = [a for _, _, a in g.derived[before:] if isinstance(a, UseAbility)
                 and a.ability == "Smoke Bomb"]
        assert len(bombs) == 1 and bombs[0].card == card("TS")
        assert set(bombs[0].cards) == {card("2S"), card("3H")}
        assert set(g.state(P2).hand) == {card("KD"), card("9C")}
        countered += 1
    assert countered >= 3


# ---------------------------------------------------------------------- Midori


@records_training_bot
def test_in_dragon_form_the_bot_reveals_until_a_dragon_move_or_dodge__BOT_MIDORI_TR_11(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """TR-11: the bot plays Dragon Form in the draw phase when it is not in Dragon Form, and
    not a second one while it is. BOT-MIDORI: in Dragon Form, its deck's top cards 4 (attack /
    throw) and 6 (attack / block) are revealed and go to the bottom of the deck in that order;
    the 9 (throw / dodge) is its combat card, on its dodge end."""
    formed = 0
    with bot_choices(monkeypatch) as seen:
        for seed in range(8):
            g = training("grave", "midori", seed)
            to_hand(g, P2, "2C", "2D", "2H", "2S")
            start = len(seen)
            play_until(g, lambda g: g.turn == 2 and g.step == "C1", seed)
            if g.is_over or not any(e.name == "Dragon Form" for e in g.state(P2).ongoing):
                continue
            formed += 1
            on_top(g, P2, "4D", "6D", "9D")
            human_commits(g, MoveType.ATTACK)
            commits = [s for s in seen[start:] if s.turn == 2 and s.step == "C1"]
            assert commits[0].choice == Commit(card("9D"), MoveType.DODGE)
            deck = g.state(P2).deck
            assert deck[-2:] == [card("4D"), card("6D")]
            play_until(g, lambda g: g.turn >= 4, seed)
            for s in offered(seen[start:], "Dragon Form"):
                played = isinstance(s.choice, UseAbility)
                assert played is ("Dragon Form" not in s.ongoing), s
    assert formed >= 3


def _glimpse(seed: int, top: str, human: Action) -> tuple[Game, list[Action]]:
    """Midori's bot (not in Dragon Form, a 10 in hand) turns over ``top`` against the human's
    ``human`` commit; the bot's choices then."""
    g = training("grave", "midori", seed)
    to_hand(g, P1, "AS", "5H", "2C")
    to_hand(g, P2, "TC")
    on_top(g, P2, top)
    before = len(g.derived)
    g.apply(P1, human)
    return g, [a for _, _, a in g.derived[before:]]


def test_glimpse_only_when_the_dragon_move_wins__BOT_MIDORI() -> None:
    """BOT-MIDORI: Glimpse of the Dragon only if it makes him win combat, even if he would win
    anyway. Rising Mountain (1.2) loses to True-Spark Arc (1.0) but Dragon Mountain (0.6) wins:
    played; Rushing River beats a block and so does Talon Swoop: played; against an attack
    both throws lose: not played (the bot passes the window)."""
    def glimpsed(chosen: list[Action]) -> bool:
        return any(isinstance(a, UseAbility) and a.ability == "Glimpse of the Dragon"
                   for a in chosen)

    for seed in range(3):
        g, chosen = _glimpse(seed, "QD", Commit(card("AS"), MoveType.ATTACK, "True-Spark Arc"))
        assert chosen[0] == Commit(card("QD"), MoveType.ATTACK, "Rising Mountain")
        assert glimpsed(chosen)
        play_until(g, lambda g: g.turn >= 2, seed)
        assert any(isinstance(e, Hit) and e.turn == 1 and e.by is P2 and not e.combo
                   for e in g.journal)  # the Dragon move hit
        g, chosen = _glimpse(seed, "KD", Commit(card("5H"), MoveType.BLOCK))
        assert glimpsed(chosen)
        g, chosen = _glimpse(seed, "KD", Commit(card("2C"), MoveType.ATTACK))
        assert not glimpsed(chosen) and card("TC") in g.state(P2).hand


# ---------------------------------------------------------------------- Bal-Bas-Beta


def _bbb_overdrive(seed: int, *top: str) -> tuple[Game, bool]:
    """BBB's bot holding its four 8s; at turn 2's C1, ``top`` on its deck. Whether Overdrive
    is in force then."""
    g = training("grave", "bbb", seed)
    to_hand(g, P2, "8C", "8D", "8H", "8S")
    play_until(g, lambda g: g.turn == 2 and g.step == "C1", seed)
    if g.is_over:
        return g, False
    on_top(g, P2, *top)
    return g, g.rules[P2].position_key().endswith("O")


@records_training_bot
def test_after_overdrive_reveal_until_a_face_card_or_dodge__BOT_BALBASBETA_TR_11(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """TR-11: the bot plays Overdrive in the draw phase (it holds face cards). BOT-BALBASBETA:
    that turn, a combat card that is neither a face card nor a dodge (the 2: attack / block)
    goes to the bottom of the deck, as does the next such card (the 3); the Jack turned up
    next is its combat card."""
    done = 0
    with bot_choices(monkeypatch) as seen:
        for seed in range(6):
            start = len(seen)
            g, overdrive = _bbb_overdrive(seed, "2D", "3D", "JD", "4D")
            assert uses([s for s in seen[start:] if s.turn == 2], "Overdrive")
            if not overdrive:
                continue  # the human countered it (Mental Toughness)
            before = len(g.derived)
            human_commits(g, MoveType.ATTACK)
            commit = g.derived[before][2]
            assert isinstance(commit, Commit) and commit.card == card("JD")
            ps = g.state(P2)
            assert ps.deck[-2:] == [card("2D"), card("3D")] and ps.deck[0] == card("4D")
            done += 1
    assert done >= 3


def test_after_overdrive_a_face_card_or_dodge_is_kept__BOT_BALBASBETA() -> None:
    """BOT-BALBASBETA: a face card turned over after Overdrive is the combat card (nothing is
    revealed: the next card stays on top); a 5 (block / dodge) is kept when it turned up on
    its dodge end, and sent to the bottom on its block end."""
    ends: set[MoveType | None] = set()
    for seed in range(10):
        g, overdrive = _bbb_overdrive(seed, "QD", "2D")
        if not overdrive:
            continue
        before = len(g.derived)
        human_commits(g, MoveType.ATTACK)
        commit = g.derived[before][2]
        assert isinstance(commit, Commit) and commit.card == card("QD")
        assert g.state(P2).deck[0] == card("2D")
        g, overdrive = _bbb_overdrive(seed, "5D", "2D", "KD")
        if not overdrive:
            continue
        before = len(g.derived)
        human_commits(g, MoveType.ATTACK)
        commit = g.derived[before][2]
        assert isinstance(commit, Commit)
        ends.add(commit.move)
        if commit.card == card("5D"):
            assert commit.move is MoveType.DODGE and g.state(P2).deck[0] == card("2D")
        else:
            assert commit.card == card("KD")
            assert g.state(P2).deck[-2:] == [card("5D"), card("2D")]
    assert MoveType.DODGE in ends and MoveType.THROW in ends


@records_training_bot
def test_no_face_card_no_overdrive__TR_11(monkeypatch: pytest.MonkeyPatch) -> None:
    """TR-11: with no face card in its hand or deck Overdrive would have no effect: the bot
    holds an 8 in the draw phase and passes."""
    with bot_choices(monkeypatch) as seen:
        for seed in range(3):
            g = training("grave", "bbb", seed)
            ps = g.state(P2)
            for c in [c for c in [*ps.hand, *ps.deck] if c.code[0] in "JQK"]:
                (ps.hand if c in ps.hand else ps.deck).remove(c)
                ps.discard.append(c)
            to_hand(g, P2, "8C", "8D", "8H", "8S")
            start = len(seen)
            play_until(g, lambda g: g.turn >= 3, seed)
            assert offered(seen[start:], "Overdrive")
            assert not uses(seen[start:], "Overdrive")


# ---------------------------------------------------------------------- Lum


@records_training_bot
def test_blackjack_deals_until_twelve_then_stops__BOT_LUM(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """BOT-LUM: after its Ace's dodge beats the human's attack, the bot deals another card
    while the total is below 12 and stops as soon as it is 12 or more."""
    dealt = 0
    with bot_choices(monkeypatch) as seen:
        for seed in range(10):
            g = training("grave", "lum", seed)
            ps = g.state(P2)
            for c in [c for c in ps.hand if c.is_ace]:
                ps.hand.remove(c)
                ps.deck.append(c)
            on_top(g, P2, "AC")  # Great Pandamonium needs AA: rotated to the Blackjack dodge
            start = len(seen)
            human_commits(g, MoveType.ATTACK)
            play_until(g, lambda g: g.turn >= 2, seed)
            deals = [s for s in seen[start:] if s.rule == "AB-3" and s.step == "C6"
                     and any(isinstance(a, UseAbility) and a.ability == "Blackjack"
                             for a in s.legal)]
            if not deals:
                continue  # the human's attack was not beaten (a counter, a knockdown)
            dealt += 1
            for s in deals:
                total = blackjack_totals(s.dealt)[1]
                assert isinstance(s.choice, UseAbility)
                assert s.choice.option == ("deal" if total < 12 else "stop"), s.dealt
            cards = deals[-1].dealt
            assert len(cards) == len(deals)
            assert all(blackjack_totals(s.dealt)[1] < 12 for s in deals[:-1])
    assert dealt >= 3


@records_training_bot
def test_a_throw_is_pumped_once_unless_more_would_win__BOT_LUM(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """BOT-LUM: when its throw (the 8: 8 damage, +3 a pump card, up to 3) wins, the bot pumps
    it with one card (the lowest), though it holds more; when the human is left with 5 life
    after the throw, one pump would not win the game and more would: the limit is off, it
    pumps as TR-8 does (all three, the lowest first) and wins."""
    once = twice = 0
    with bot_choices(monkeypatch) as seen:
        for seed in range(16):
            for low_life in (False, True):
                g = training("grave", "lum", seed)
                set_hand(g, P2, "2C", "3C", "4C", "5C", "9D")
                on_top(g, P2, "8D")  # attack / throw: the throw turns up half the time
                if low_life:
                    g.state(P1).life = 8 + 5
                start = len(seen)
                human_commits(g, MoveType.BLOCK)
                play_until(g, lambda g: g.turn >= 2, seed)
                first = seen[start]
                if first.choice != Commit(card("8D"), MoveType.THROW):
                    continue
                pumps = [s.choice for s in seen[start:] if isinstance(s.choice, Pump)]
                cards = [c for p in pumps for c in p.cards]
                if low_life:
                    assert cards == [card("2C"), card("3C"), card("4C")] and g.is_over
                    twice += 1
                else:
                    assert cards == [card("2C")]
                    once += 1
    assert once >= 2 and twice >= 2


@records_training_bot
def test_poker_flourish_becomes_the_blackjack_effect__BOT_LUM(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """BOT-LUM: at the end of the turn the bot holding a 10 and an Ace discards them with its
    lowest-rank card and gets the Blackjack effect (a deal from its deck); no poker hand is
    made. Played only when it holds those cards: with no Ace, never."""
    played = 0
    with bot_choices(monkeypatch) as seen:
        for seed in range(8):
            g = training("troq", "lum", seed)
            ps = g.state(P2)
            for c in [c for c in [*ps.hand, *ps.deck] if c.is_ace and c != card("AS")]:
                (ps.hand if c in ps.hand else ps.deck).remove(c)
                ps.discard.insert(0, c)
            set_hand(g, P2, "TC", "AS", "2D")
            start = len(seen)
            g.apply(P1, NoCard())
            play_until(g, lambda g: g.turn == 2, seed)
            pokers = uses([s for s in seen[start:] if s.turn == 1], "Poker Flourish")
            offers = offered([s for s in seen[start:] if s.turn == 1], "Poker Flourish")
            assert len(pokers) == len(offers)
            if not pokers:
                continue
            (poker,) = pokers
            assert poker.step == "K1"
            lowest = min((c for c in poker.hand if c not in (card("TC"), card("AS"))),
                         key=lambda c: (int(c.rank or 0), poker.hand.index(c)))
            assert poker.choice == UseAbility("Poker Flourish", card("TC"),
                                              (card("AS"), lowest))
            assert {card("TC"), card("AS"), lowest} <= set(poker.discard) | set(ps.discard)
            assert g.rules[P2].dealt  # type: ignore[attr-defined]
            played += 1
        g = training("troq", "lum", 1)
        set_hand(g, P2, "TC", "2D", "3D")
        start = len(seen)
        g.apply(P1, NoCard())
        play_until(g, lambda g: g.turn == 2, 1)
        assert not offered(seen[start:], "Poker Flourish")
    assert played >= 3


# ---------------------------------------------------------------------- TR-11 in play


@records_training_bot
def test_abilities_whenever_they_have_an_effect__TR_11(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """TR-11 over whole Training games: Lum's bot rolls the dice whenever it may, takes the 4
    life only when below its starting life (else the bottom card), plays Jackpot whenever it
    holds a 7."""
    rolls = lives = jackpots = 0
    with bot_choices(monkeypatch) as seen:
        for k in range(10):
            g = training(("grave", "rook", "jaina", "troq", "quince")[k % 5], "lum", 500 + k)
            to_hand(g, P2, "7C", "7D")
            play_until(g, lambda g: False, k)
    for s in seen:
        options = [a for a in s.legal if isinstance(a, UseAbility)]
        if any(a.ability == "Roll the Dice" and a.option is None for a in options):
            assert s.choice == UseAbility("Roll the Dice")
            rolls += 1
        if {a.option for a in options} == {"life", "bottom"}:
            assert isinstance(s.choice, UseAbility)
            assert s.choice.option == ("life" if s.life < 90 else "bottom")
            lives += 1
        if any(a.ability == "Jackpot" for a in options) and s.deck:
            assert isinstance(s.choice, UseAbility) and s.choice.ability == "Jackpot"
            jackpots += 1
    assert rolls and lives and jackpots
