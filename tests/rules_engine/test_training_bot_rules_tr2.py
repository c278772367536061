"""The BOT rules of Jaina, Rook, DeGrey, Valerie, Quince and Onimaru (RULES.md §12.2) and TR-11 for
their other abilities. Every test sets up a seeded Training position (the human P1 driven by the
test, the bot P2 derived by the engine, never logged), lets the bot act, and asserts what it
did; the rule it drives is in its name."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rules_engine import combat as cb
from rules_engine.actions import (
    Action,
    Commit,
    Keep,
    NoCard,
    Pass,
    PowerUp,
    Pump,
    Stop,
    UseAbility,
)
from rules_engine.cards import MoveType, card
from rules_engine.game import Game
from rules_engine.log import parse_log
from rules_engine.replay import replay
from rules_engine.selfplay import play_match
from rules_engine.state import Combat
from rules_engine.team import Mode, Team
from rules_engine.training.characters import BOT_RULES
from rules_engine.types import PlayerId

P1, P2 = PlayerId.P1, PlayerId.P2


def new_training(human: str, bot: str, seed: int) -> Game:
    return Game.new(Mode.TRAINING, (Team.of((human,)), Team.of((bot,))), seed=seed)


def _take(g: Game, seat: PlayerId, code: str) -> None:
    """Take the card ``code`` out of whichever zone of ``seat`` holds it (deck, discard)."""
    ps, c = g.state(seat), card(code)
    for zone in (ps.deck, ps.discard, ps.hand):
        if c in zone:
            zone.remove(c)
            return
    raise AssertionError(f"{code} is not in {seat.name}'s deck, discard pile or hand")


def set_up(g: Game, seat: PlayerId, *, hand: str | None = None, top: str = "",
           discard: str | None = None, give: str = "") -> None:
    """A position set up for the test: ``hand`` is exactly the seat's hand (the rest goes to
    the deck's bottom), ``give`` adds cards to the hand, ``top`` are the deck's top cards (first
    = top), ``discard`` is exactly the discard pile (last = top)."""
    ps = g.state(seat)
    if hand is not None:
        ps.deck.extend(ps.hand)
        ps.hand.clear()
        for code in hand.split():
            _take(g, seat, code)
            ps.hand.append(card(code))
    for code in give.split():
        if card(code) not in ps.hand:
            _take(g, seat, code)
            ps.hand.append(card(code))
    if discard is not None:
        ps.deck.extend(ps.discard)
        ps.discard.clear()
        for code in discard.split():
            _take(g, seat, code)
            ps.discard.append(card(code))
    for code in reversed(top.split()):
        _take(g, seat, code)
        ps.deck.insert(0, card(code))


def commit_of(g: Game, code: str, move: MoveType, name: str | None = None) -> Action:
    """The human's legal commit of ``code`` with that end."""
    want = next(a for a in g.legal_actions(P1) if isinstance(a, Commit)
                and a.card is card(code) and a.move is move and (name is None or a.name == name))
    return want


def passive(g: Game) -> Action:
    """The human declining whatever it is asked (pass, stop, keep, no Ace), else the first
    legal choice."""
    legal = g.legal_actions(P1)
    for a in (Pass(), Stop(), Keep(), PowerUp(), NoCard()):
        if a in legal:
            return a
    return legal[0]


def human_until(g: Game, done: Callable[[Game], bool],
                policy: Callable[[Game], Action] = passive) -> None:
    while not g.is_over and not done(g):
        assert g.acting_players == (P1,), "only the human is ever asked (TR-3)"
        g.apply(P1, policy(g))


def bot_actions(g: Game, since: int = 0) -> list[Action]:
    """The bot's derived choices, from the ``since``-th on."""
    return [a for _, seat, a in g.derived[since:] if seat is P2]


def used(g: Game, ability: str, since: int = 0) -> list[UseAbility]:
    return [a for a in bot_actions(g, since) if isinstance(a, UseAbility)
            and a.ability == ability]


def bot_commit(g: Game, since: int = 0) -> Commit:
    c = next(a for a in bot_actions(g, since) if isinstance(a, Commit | NoCard))
    assert isinstance(c, Commit)
    return c


def at_turn_two_c1(g: Game) -> bool:
    return g.turn == 2 and g.step == "C1"


def past_c6(g: Game) -> bool:
    """The combat has been resolved (C6 on): its winner is known."""
    return g.step[0] == "K" or (g.step[0] == "C" and int(g.step[1:].rstrip("abcd")) > 6)


_FIGHTS: dict[int, tuple[Game, Combat]] = {}


def fight(g: Game, action: Action) -> None:
    """The human's C1 commit; the combat it starts is kept for :func:`winner`."""
    _FIGHTS[id(g)] = (g, g.combat)
    g.apply(P1, action)


def winner(g: Game) -> PlayerId | None:
    """The winner of the combat :func:`fight` started (the human declines everything until
    that combat is resolved or over)."""
    combat = _FIGHTS[id(g)][1]
    human_until(g, lambda g: g.combat is not combat or past_c6(g))
    return combat.winner


# --- BOT-ROOK ----------------------------------------------------------------------------------
def test_rook_always_uses_rock_armor_with_the_lowest_pair__BOT_ROOK(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """BOT-ROOK: "always uses Rock Armor when possible". Grave's 2 (2.6) outspeeds the bot's 4
    attack (4.8); once Grave's combo is over the bot discards two clubs (the engine's cost: the
    attack's suit), the lowest pair of the three offered, and its 4 hits. The generic bot
    would pass (TR-11 is not played by the generic procedure)."""
    armoured = 0
    for seed in range(12):
        g = new_training("grave", "rook", seed)
        set_up(g, P2, hand="2C 6C 9C 3S 5S 8D", top="4C")
        set_up(g, P1, give="2D")
        fight(g, commit_of(g, "2D", MoveType.ATTACK))
        if bot_commit(g).move is not MoveType.ATTACK:
            continue  # the 4 turned up its block end (TR-5's 50/50)
        armoured += 1
        life = g.state(P1).life
        human_until(g, at_turn_two_c1)
        assert used(g, "Rock Armor") == [UseAbility("Rock Armor", cards=(card("2C"),
                                                                         card("6C")))]
        assert {card("2C"), card("6C")} <= set(g.state(P2).discard)
        assert card("9C") in g.state(P2).hand
        assert g.state(P1).life <= life - 4  # his 4 hit after all
    assert armoured >= 3
    monkeypatch.delitem(BOT_RULES, "rook")  # the generic procedure passes
    for seed in range(12):
        g = new_training("grave", "rook", seed)
        set_up(g, P2, hand="2C 6C 9C 3S 5S 8D", top="4C")
        set_up(g, P1, give="2D")
        fight(g, commit_of(g, "2D", MoveType.ATTACK))
        human_until(g, at_turn_two_c1)
        assert used(g, "Rock Armor") == []


# --- BOT-DEGREY --------------------------------------------------------------------------------
def _counterpoint(seed: int, human: str, move: MoveType) -> Game:
    g = new_training("grave", "degrey", seed)
    set_up(g, P2, hand="5C 2C 9D KH 3S", top="7H")  # his 7: attack 7.6 / throw 7.8
    set_up(g, P1, give=human)
    fight(g, commit_of(g, human, move))
    return g


def test_point_counterpoint_only_when_the_rotation_wins__BOT_DEGREY() -> None:
    """BOT-DEGREY: "Point, Counterpoint only if it wins combat". Against Grave's block the 7's
    attack end loses and its throw end wins: turned up as the attack, the bot pays its lowest
    card (2C) and rotates; turned up as the throw, it keeps it. Against Grave's 2 attack (2.6)
    neither end wins: it never plays it."""
    rotated = kept = 0
    for seed in range(10):
        g = _counterpoint(seed, "5D", MoveType.BLOCK)
        up = bot_commit(g).move
        assert winner(g) is P2
        plays = used(g, "Point, Counterpoint")
        if up is MoveType.ATTACK:
            rotated += 1
            assert plays == [UseAbility("Point, Counterpoint", card("7H"), (card("2C"),))]
        else:
            kept += 1
            assert plays == []
        assert g.state(P2).kind == cb.THROW
        g = _counterpoint(seed, "2D", MoveType.ATTACK)
        assert winner(g) is P1
        assert used(g, "Point, Counterpoint") == []
    assert rotated and kept


def test_troublesome_rhetoric_names_an_option_at_random_when_it_can_heal__BOT_DEGREY_TR_11(
        ) -> None:
    """BOT-DEGREY: Troublesome Rhetoric names one of its four options at random, drawn from
    the game's seeded stream (the replay derives the same name); TR-11: it is played only when
    its 12 life would have an effect (the bot below its maximum life), kept at full life."""
    named: set[str] = set()
    for seed in range(12):
        for hurt in (True, False):
            g = new_training("grave", "degrey", seed)
            set_up(g, P2, hand="4C 2C 3S 5S 9D", top="8H")  # the 8: throw / block
            if hurt:
                g.state(P2).life = 60
            g.apply(P1, NoCard())
            human_until(g, at_turn_two_c1)
            plays = used(g, "Troublesome Rhetoric")
            if not hurt:
                assert plays == [] and card("4C") in g.state(P2).hand
                continue
            assert len(plays) == 1 and plays[0].card is card("4C")
            assert plays[0].option in (cb.ATTACK, cb.BLOCK, cb.THROW, cb.DODGE)
            named.add(str(plays[0].option))
    assert len(named) >= 3


# --- BOT-JAINA ---------------------------------------------------------------------------------
def _buyback(seed: int, jaina: int, human: int) -> Game | None:
    g = new_training("grave", "jaina", seed)
    set_up(g, P2, hand="3S 4S 9D 8C", top="2S")  # 2S: attack 2.6 / dodge
    set_up(g, P1, give="7D")
    g.state(P2).life, g.state(P1).life = jaina, human
    fight(g, commit_of(g, "7D", MoveType.THROW))
    if bot_commit(g).move is not MoveType.ATTACK:
        return None
    human_until(g, at_turn_two_c1)
    return g


def test_jaina_buys_back_only_her_combat_card_when_not_behind__BOT_JAINA() -> None:
    """BOT-JAINA, innate buyback: her 2 attack beats Grave's throw and she combos 2-3-4; at the
    end of combat she takes back the combat card only (3 life), never the combo cards; with
    her life below Grave's she takes nothing back."""
    ahead = behind = 0
    for seed in range(10):
        g = _buyback(seed, 85, 60)
        if g is None:
            continue
        ahead += 1
        assert used(g, "Burning Vigor") == [UseAbility("Burning Vigor", cards=(card("2S"),))]
        jaina = g.state(P2)
        assert card("2S") in jaina.hand
        assert card("3S") in jaina.discard and card("4S") in jaina.discard
        assert jaina.life == 85 - 3
        g = _buyback(seed, 50, 85)
        assert g is not None
        behind += 1
        assert used(g, "Burning Vigor") == []
        assert card("2S") in g.state(P2).discard and g.state(P2).life == 50
    assert ahead and behind


def test_jaina_buys_back_unless_it_would_kill_her__BOT_JAINA() -> None:
    """BOT-JAINA: "otherwise always, unless it would kill her": with no combo (her hand is
    empty; her C7 draw is an Ace whose Red Dragon can't combo) her 2 takes Grave from 3 to 1
    life; at 4 life she pays 3 to take the 2 back, at 3 life the 3 would kill her and she
    keeps her life."""
    seen = 0
    for seed in range(10):
        for life, bought in ((4, True), (3, False)):
            g = new_training("grave", "jaina", seed)
            set_up(g, P2, hand="", top="2S AC")
            set_up(g, P1, give="7D")
            g.state(P2).life, g.state(P1).life = life, 3
            fight(g, commit_of(g, "7D", MoveType.THROW))
            if bot_commit(g).move is not MoveType.ATTACK:
                break
            human_until(g, at_turn_two_c1)
            assert g.state(P1).life == 1
            assert bool(used(g, "Burning Vigor")) is bought
            assert g.state(P2).life == (1 if bought else 3)
            seen += 1
    assert seen >= 4


def _unstable(seed: int, human: str, move: MoveType) -> Game:
    """Turn 1 passes harmlessly (her 8 blocks or throws, Grave's Dragonheart); in turn 2's draw
    phase the bot plays Unstable Power; then it turns over its J (Flame Arrow 2.6 / Charged
    Shot 4.6)."""
    g = new_training("grave", "jaina", seed)
    set_up(g, P2, hand="7C 2C 3S 5D 9D", top="8H")
    set_up(g, P1, give=f"QD {human}")
    fight(g, commit_of(g, "QD", MoveType.ATTACK))
    human_until(g, at_turn_two_c1)
    set_up(g, P2, top="JH")
    fight(g, commit_of(g, human, move))
    return g


def test_unstable_power_rotates_to_the_end_that_suits_her__BOT_JAINA_TR_11() -> None:
    """TR-11: Unstable Power always has an effect, so the bot plays its 7 in the draw phase.
    BOT-JAINA: her combat card has an attack on both ends; against Grave's 3 (3.6) Flame Arrow
    (2.6) wins and Charged Shot (4.6) loses: she always ends on Flame Arrow, rotating when
    Charged Shot turned up. Against Grave's throw both win and Charged Shot deals more: she
    always ends on Charged Shot."""
    rotations = 0
    for seed in range(8):
        for human, move, best in (("3D", MoveType.ATTACK, "Flame Arrow"),
                                  ("7D", MoveType.THROW, "Charged Shot")):
            g = _unstable(seed, human, move)
            assert len(used(g, "Unstable Power")) >= 1  # played in the draw phase (TR-11)
            turned = [a for a in bot_actions(g) if isinstance(a, Commit) and a.card is card("JH")]
            assert len(turned) == 1
            rotate = UseAbility("Unstable Power", option="rotate")
            rotated = rotate in bot_actions(g)
            assert rotated is (turned[0].name != best)
            rotations += rotated
            played = g.state(P2).combat_move
            assert played is not None and played.name == best
            assert winner(g) is P2
    assert rotations


def test_smoldering_embers_only_against_a_dodge__TR_11() -> None:
    """TR-11: Smoldering Embers has an effect this combat only when the human dodges (2 damage
    for each 10 in her discard pile): played against Grave's dodge, kept against a block."""
    for seed in range(4):
        for human, move, plays in (("2D", MoveType.DODGE, True), ("5D", MoveType.BLOCK, False)):
            g = new_training("grave", "jaina", seed)
            set_up(g, P2, hand="TH 2C 3S 9D", top="8H")
            set_up(g, P1, give=human)
            fight(g, commit_of(g, human, move))
            human_until(g, at_turn_two_c1)
            assert bool(used(g, "Smoldering Embers")) is plays
            assert (card("TH") in g.state(P2).discard) is plays


# --- BOT-VALERIE -------------------------------------------------------------------------------
def _burst(seed: int, human: str, move: MoveType) -> Game | None:
    g = new_training("grave", "valerie", seed)
    set_up(g, P2, hand="TC TD TS 2C 3C", top="5H")  # her 5: attack 5.4 / block
    set_up(g, P1, give=human)
    fight(g, commit_of(g, human, move))
    if bot_commit(g).move is not MoveType.ATTACK:
        return None
    return g


def test_burst_of_speed_only_to_win_a_lost_combat_with_the_fewest_copies__BOT_VALERIE() -> None:
    """BOT-VALERIE: "Burst of Speed only to turn a lost combat into a win, using the fewest
    copies needed". Her 5 attack (5.4) holding three 10s: against Grave's 4 (4.6) one Burst
    (3.4) wins; against his 2 (2.6) two (1.4); against his 6 (6.6) she wins already and
    against his block no Burst wins: none."""
    seen = 0
    for seed in range(10):
        for human, move, bursts, won in (("4D", MoveType.ATTACK, 1, True),
                                         ("2D", MoveType.ATTACK, 2, True),
                                         ("6D", MoveType.ATTACK, 0, True),
                                         ("5D", MoveType.BLOCK, 0, False)):
            g = _burst(seed, human, move)
            if g is None:
                break
            assert (winner(g) is P2) is won
            assert len(used(g, "Burst of Speed")) == bursts
            assert sum(1 for c in g.state(P2).hand if c.code.startswith("T")) == 3 - bursts
            seen += 1
    assert seen >= 8


def _queen(seed: int, human_life: int) -> Game:
    g = new_training("grave", "valerie", seed)
    set_up(g, P2, hand="2C 3C 4S 8D 9D", top="QH")  # Crimson Passion (0.2), pumps +3 x2
    set_up(g, P1, give="2D")
    g.state(P1).life = human_life
    fight(g, commit_of(g, "2D", MoveType.ATTACK))
    human_until(g, at_turn_two_c1)
    return g


def test_no_queen_pump_unless_it_wins_the_game__BOT_VALERIE(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """BOT-VALERIE: "No pumping her Queen attack unless that wins the game". Crimson Passion
    (8) beats Grave's 2; at 30 life two pumps (+6) would not KO him and she keeps her cards
    (the generic TR-8 bot pumps twice); at 11 life one pump (+3) KOs him: she pumps once, with
    her lowest card."""
    for seed in range(4):
        g = _queen(seed, 30)
        assert not [a for a in bot_actions(g) if isinstance(a, Pump)]
        assert {card("2C"), card("3C")} <= set(g.state(P2).hand)
        assert g.state(P1).life == 30 - 8
        g = _queen(seed, 11)
        pumps = [a for a in bot_actions(g) if isinstance(a, Pump)]
        assert [tuple(c.code for c in a.cards) for a in pumps] == [("2C",)]
        assert g.is_over and g.outcome is not None and g.outcome.winner is P2
    monkeypatch.delitem(BOT_RULES, "valerie")  # the generic procedure, for contrast
    g = _queen(0, 30)
    assert [a for a in bot_actions(g) if isinstance(a, Pump)]


def test_bold_strokes_when_it_has_an_effect__TR_11() -> None:
    """TR-11: Bold Strokes draws a card (and +1 to her normal attacks): played while her deck
    has a card; with an empty deck and no normal attack (she turns over no card) it would do
    nothing, and she keeps the 7."""
    for seed in range(4):
        g = new_training("grave", "valerie", seed)
        set_up(g, P2, hand="7C 2C 3S", top="8H")
        g.apply(P1, NoCard())
        assert used(g, "Bold Strokes") == [UseAbility("Bold Strokes", card("7C"))]
        g = new_training("grave", "valerie", seed)
        set_up(g, P2, hand="7C 2C 3S")
        g.state(P2).deck.clear()
        g.apply(P1, NoCard())
        assert NoCard() in bot_actions(g)
        assert used(g, "Bold Strokes") == [] and card("7C") in g.state(P2).hand


# --- BOT-ONIMARU -------------------------------------------------------------------------------
def test_final_authority_only_to_turn_a_lost_combat_into_a_win__BOT_ONIMARU() -> None:
    """BOT-ONIMARU: "Final Authority only to turn a lost combat into a win". His J (Divide and
    Conquer, 3.4) loses to Grave's 2 (2.6): he plays his 9 and the lowest club (2C) and wins;
    it beats Grave's 4 (4.6) anyway, and Final Authority would not beat Grave's block: not
    played."""
    for seed in range(4):
        for human, move, plays in (("2D", MoveType.ATTACK, True), ("4D", MoveType.ATTACK, False),
                                   ("5D", MoveType.BLOCK, False)):
            g = new_training("grave", "onimaru", seed)
            set_up(g, P2, hand="9C 5C 2C 8D 3D", top="JC")
            set_up(g, P1, give=human)
            fight(g, commit_of(g, human, move))
            w = winner(g)
            expected = [UseAbility("Final Authority", card("9C"), (card("2C"),))] if plays else []
            assert used(g, "Final Authority") == expected
            assert (w is P2) is (move is MoveType.ATTACK)


def test_clockwork_soldiers_attaches_every_ace_then_face_cards_go_to_the_deck__BOT_ONIMARU(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """BOT-ONIMARU: after hitting with Clockwork Soldiers the bot attaches as many more Aces as
    it can (both in hand; the generic bot attaches none), then at the end of the turn every
    face card of its hand and discard pile is shuffled into its deck."""
    seen = 0
    for seed in range(12):
        g = new_training("grave", "onimaru", seed)
        set_up(g, P2, hand="AC AD QS KS 2C 3D", top="AH", discard="JD 5H")
        set_up(g, P1, give="7D")
        fight(g, commit_of(g, "7D", MoveType.THROW))
        if bot_commit(g).name != "Clockwork Soldiers":
            continue
        seen += 1
        human_until(g, at_turn_two_c1)
        oni = g.state(P2)
        assert used(g, "Clockwork Formation") == [
            UseAbility("Clockwork Formation", cards=(card("AC"), card("AD")))]
        assert set(oni.attached) == {card("AH"), card("AC"), card("AD")}
        faces = {card("QS"), card("KS"), card("JD")}
        assert not faces & {*oni.hand, *oni.discard} and faces <= set(oni.deck)
        assert card("5H") in oni.discard
    assert seen >= 2
    monkeypatch.delitem(BOT_RULES, "onimaru")  # the generic procedure: no Ace, no shuffle
    for seed in range(12):
        g = new_training("grave", "onimaru", seed)
        set_up(g, P2, hand="AC AD QS KS 2C 3D", top="AH", discard="JD 5H")
        set_up(g, P1, give="7D")
        fight(g, commit_of(g, "7D", MoveType.THROW))
        if bot_commit(g).name == "Clockwork Soldiers":
            human_until(g, at_turn_two_c1)
            assert g.state(P2).attached == [card("AH")]
            assert card("JD") in g.state(P2).discard


# --- BOT-QUINCE --------------------------------------------------------------------------------
def _spin(seed: int, damage: bool) -> Game:
    """Turn 1: the bot's Q (Righteous Zeal / Righteous Tumbler) hits Grave's no-card, or its 4
    (block / dodge) does nothing; turn 2: Grave's Lightning Cloud (2.4) against the bot's J
    (Truth Geyser 2.6 / dodge)."""
    g = new_training("grave", "quince", seed)
    set_up(g, P2, hand="5C 6S 8D 9D", top="QH" if damage else "4H")
    g.apply(P1, NoCard())
    human_until(g, at_turn_two_c1)
    set_up(g, P2, top="JH")
    set_up(g, P1, give="JD")
    fight(g, commit_of(g, "JD", MoveType.ATTACK))
    return g


def test_after_combat_damage_a_face_card_turns_to_the_end_that_wins__BOT_QUINCE() -> None:
    """BOT-QUINCE, innate: after the bot dealt combat damage, next turn's face card is rotated
    whenever that wins combat: against Grave's faster attack its J is always played as the
    dodge (which wins); without that damage the J keeps TR-5's 50/50 end."""
    after: set[MoveType] = set()
    without: set[MoveType] = set()
    for seed in range(10):
        g = _spin(seed, damage=True)
        turned = [a for a in bot_actions(g) if isinstance(a, Commit) and a.card is card("JH")]
        after.add(turned[0].move)  # type: ignore[arg-type]
        assert winner(g) is P2
        g = _spin(seed, damage=False)
        turned = [a for a in bot_actions(g) if isinstance(a, Commit) and a.card is card("JH")]
        without.add(turned[0].move)  # type: ignore[arg-type]
    assert after == {MoveType.DODGE}
    assert without == {MoveType.ATTACK, MoveType.DODGE}


def test_two_truths_piles_and_flagstone_tax_at_random__BOT_QUINCE_TR_11() -> None:
    """BOT-QUINCE: Two Truths played by the bot: pile 1 = the top 3 legal cards of its discard
    pile (4H, the 4 Grave's throw beat in turn 1, then KD and 5S: the 2D is not of a rank
    3..K, the 5H under 5S repeats a rank), pile 2 = the top 2 cards of its deck; Flagstone Tax
    names one of its four options at random (the seeded stream). TR-11: both are played in the
    draw phase, Two Truths first."""
    taxes: set[str] = set()
    for seed in range(10):
        g = new_training("grave", "quince", seed)
        set_up(g, P2, hand="2C TC 6S 9D", top="4H", discard="5H 7C 5S KD 2D")
        set_up(g, P1, give="7D")
        fight(g, commit_of(g, "7D", MoveType.THROW))
        human_until(g, at_turn_two_c1)
        truths = used(g, "Two Truths")
        assert truths[0] == UseAbility("Two Truths", card("2C"))
        chose = next(a for a in truths if a.option == "choose")
        assert set(chose.cards) == {card("4H"), card("KD"), card("5S")}
        piles = next(a for a in truths if a.option == "piles")
        assert set(piles.cards) == {card("4H"), card("KD"), card("5S")}
        tax = used(g, "Flagstone Tax")
        assert len(tax) == 1 and tax[0].card is card("TC")
        kinds = [a.ability for a in bot_actions(g) if isinstance(a, UseAbility)]
        assert kinds.index("Two Truths") < kinds.index("Flagstone Tax")
        taxes.add(str(tax[0].option))
    assert len(taxes) >= 3


def _plays_two_truths(g: Game) -> Action:
    """The human (Quince) plays Two Truths once in the draw phase, chooses three cards and puts
    only the first in pile one; otherwise declines."""
    legal = g.legal_actions(P1)
    truths = [a for a in legal if isinstance(a, UseAbility) and a.ability == "Two Truths"]
    played = any(isinstance(a, UseAbility) and a.option == "piles" for _, a in g.history)
    if truths and not played:
        return truths[-1] if truths[0].option == "choose" else truths[0]
    return passive(g)


def test_two_truths_played_by_you_the_bot_picks_a_pile_at_random__BOT_QUINCE() -> None:
    """BOT-QUINCE: "Two Truths played by you: the bot picks one of your two piles at random"
    (here the bot is Rook; the pick comes from the game's seeded stream, the same on a
    replay)."""
    picked: list[bool] = []
    for seed in range(12):
        runs = []
        for _ in range(2):
            g = new_training("quince", "rook", seed)
            set_up(g, P1, hand="2H 5D 6D 8D 9D", discard="5C 7D KS")
            set_up(g, P2, hand="2C 3S 8D", top="2D")  # Rook's 2: throw / block
            g.apply(P1, NoCard())
            human_until(g, lambda g: g.turn == 2 and g.step == "C1", _plays_two_truths)
            mine = [a for p, a in g.history if p is P1 and isinstance(a, UseAbility)
                    and a.option == "piles"]
            pick = [a for a in bot_actions(g) if isinstance(a, UseAbility)
                    and a.option == "to_hand"]
            assert len(mine) == 1 and len(pick) == 1
            runs.append(set(pick[0].cards) == set(mine[0].cards))
        assert runs[0] == runs[1]  # the same seed, the same pick
        picked.append(runs[0])
    assert set(picked) == {True, False}


def test_after_patriot_mirror_hits_the_bot_uses_the_better_of_two_cards__BOT_QUINCE() -> None:
    """BOT-QUINCE: after hitting with the Patriot Mirror Ace, next combat the bot turns over
    two cards from its deck and uses the better: against Grave's 2 attack its 4 (block or
    dodge: wins) rather than its 7 (attack or throw 7.8: loses), whichever came first."""
    for seed in range(6):
        for order, hand in (("7H 4H", "5C 6S"), ("4H 7H", "")):
            g = new_training("grave", "quince", seed)
            set_up(g, P2, hand="5C 6S 8D 9D", top="AH")  # Patriot Mirror (Consent unpayable)
            set_up(g, P1, give="7D 2D")
            fight(g, commit_of(g, "7D", MoveType.THROW))
            human_until(g, at_turn_two_c1)
            assert UseAbility("Patriot Mirror", option="second_card") in bot_actions(g)
            set_up(g, P2, hand=hand, top=order)  # an empty hand too: both come from the deck
            since = len(g.derived)
            fight(g, commit_of(g, "2D", MoveType.ATTACK))
            assert winner(g) is P2
            turned = [a.card.code for a in bot_actions(g, since) if isinstance(a, Commit)]
            assert turned == order.split()
            assert used(g, "Patriot Mirror", since) == [UseAbility("Patriot Mirror", card("4H"))]
            assert card("7H") in g.state(P2).discard


# --- every rule in self-play -------------------------------------------------------------------
MINE = ("degrey", "jaina", "onimaru", "quince", "rook", "valerie")
HUMANS = ("grave", "quince", "lum", "midori", "troq")


@pytest.mark.parametrize("bot", MINE)
def test_training_selfplay_with_these_bots_replays_as_legal__TR_3(bot: str) -> None:
    """TR-3: Training self-play with each of these characters as the bot (its BOT rule and
    TR-11 played) against several humans, greedy and random, replays as legal: the verifier
    derives the same bot choices (the random ones included) from the human's events; the
    verdict names the BOT rule played."""
    for k, human in enumerate(HUMANS):
        for policy in ("greedy", "random"):
            _, log = play_match(Mode.TRAINING, (human,), (bot,), 500 + k, bot=policy)
            verdict = replay(parse_log(log.dumps()))
            assert verdict.status == "legal", verdict.to_dict()["first_error"]
            facts = verdict.to_dict()["facts"]["training"]["bot_rules"]
            assert facts == {bot: f"BOT-{bot.upper()}"}
