"""The counter policy (docs/rules/POLICY.md, RULES.md CTR-8): one rule for every counter and
every character. Counters never counter Aces; innates (character-card abilities) are not
counterable under the 2014 text (the default); ``opt.innateCounters=FIRST_EDITION_FAQ`` plays the
first-edition FAQ's reading, where Smoke Bomb counters an innate as it is activated unless a
card says otherwise.

Each test drives a tabletop game to the ability and checks whether a counter is offered, and
what a log that counters anyway is told.
"""

from __future__ import annotations

import pytest

from rules_engine import counters
from rules_engine.actions import Draw, Pass, Stop, UseAbility
from rules_engine.cards import card, character, characters
from rules_engine.game import Game
from rules_engine.ruleset import DEFAULT_RULESET, InnateCounters, Ruleset
from rules_engine.selfplay import play_game
from rules_engine.types import PlayerId

from .helpers import P1, P2, cards, combo, commit, draw, fight, first_error, recorded_game

FAQ = Ruleset(innateCounters=InnateCounters.FIRST_EDITION_FAQ)
BOMB = "Smoke Bomb"
TOUGHNESS = "Mental Toughness"


def _counter_offered(g: Game, seat: PlayerId) -> bool:
    return g.actor is seat and any(
        isinstance(a, UseAbility) and a.ability in (BOMB, TOUGHNESS)
        for a in g.legal_actions(seat))


# --- Aces: never countered -------------------------------------------------------------------


def _overdose(ruleset: Ruleset = DEFAULT_RULESET) -> Game:
    """Turn 1: Gloria's Ray of Moonlight hit Grave, who holds Mental Toughness (10 + King);
    she plays Overdose (an Ace) at end of combat."""
    g = recorded_game("JC JD AC 2C 3C 4S 5H", "2D 3D 4D 5D TD KD 9D", p1="gloria", p2="grave",
                      ruleset=ruleset)
    fight(g, commit("JC", "attack", "Ray of Moonlight"), commit("9D", "throw"))
    g.apply(P2, Pass())  # Grave's Rewind window
    g.apply(P1, Stop())
    g.apply(P1, UseAbility("Overdose", card("AC")))
    return g


@pytest.mark.parametrize("ruleset", [Ruleset(), FAQ], ids=["2014", "first-edition"])
def test_overdose_an_ace_ability_is_never_offered_to_a_counter__CTR_8(ruleset: Ruleset) -> None:
    """gloria.md: Overdose is printed on her Aces; Mental Toughness "can't counter Aces"
    under either reading: it resolves at once (both take 10, she won: she draws 2)."""
    g = _overdose(ruleset)
    assert not _counter_offered(g, P2)
    assert g.life == (60, 81 - 10)
    error = first_error(g, P2, UseAbility(TOUGHNESS, card("TD"), (card("KD"),)))
    assert error["rule_id"] == "CTR-8"
    assert "can't counter Aces" in str(error["reason"])


def test_blackjack_an_ace_ability_is_never_offered_to_a_counter__CTR_8() -> None:
    """lum.md: Blackjack is his Ace's dodge; Grave holds Mental Toughness: no counter, the
    deal starts at once."""
    g = recorded_game("AC 3C 4C 7C JC QC 8C", "2D 3D 4D TD KD 6D 9D", p1="lum", p2="grave")
    fight(g, commit("AC", "dodge"), commit("2D", "attack"))
    assert not _counter_offered(g, P2)
    assert g.actor is P1 and isinstance(g.legal_actions(P1)[0], Draw)  # the first card dealt
    error = first_error(g, P2, UseAbility(TOUGHNESS, card("TD"), (card("KD"),)))
    assert error["rule_id"] == "CTR-8"


def test_final_authority_cannot_be_countered_under_either_reading__CTR_5() -> None:
    """onimaru.md: Final Authority "can't be countered": Setsuki holds Smoke Bomb and two more
    cards, under the first-edition reading too."""
    g = recorded_game("JC 9H 2C 3C 4C 7H 8H", "KD TD 2D 3D 4D 5D 6D", p1="onimaru",
                      p2="setsuki", ruleset=FAQ)
    fight(g, commit("JC", "attack"), commit("KD", "attack", "Starlight Kick"))
    g.apply(P1, UseAbility("Final Authority", card("9H"), (card("2C"),)))
    assert not _counter_offered(g, P2)
    assert g.combat.cell == "M-FINAL-AUTHORITY"


# --- innates: not by default; Smoke Bomb under the first-edition reading -----------------------


def _roll(p2: str, hand2: str, ruleset: Ruleset) -> Game:
    """Turn 1: Lum's 3 attack hits a no-card; at end of combat he rolls the dice."""
    g = recorded_game("3C 4C 7C JC QC AC TC", hand2, p1="lum", p2=p2, ruleset=ruleset)
    fight(g, commit("3C", "attack"), commit(None))
    draw(g, P1, "5C")  # C7
    g.apply(P2, Pass())  # C9
    g.apply(P1, Stop())
    g.apply(P1, UseAbility("Roll the Dice"))
    return g


def test_roll_the_dice_an_innate_is_not_countered_by_default__CTR_8_AB_1() -> None:
    """lum.md: Roll the Dice is on his character card; Smoke Bomb "can't counter character
    cards": no counter decision, the top card is due."""
    g = _roll("setsuki", "2D 3D TD 4D 5D 6D 8D", Ruleset())
    assert not _counter_offered(g, P2)
    assert g.actor is P1 and isinstance(g.legal_actions(P1)[0], Draw)
    error = first_error(g, P2, UseAbility(BOMB, card("TD"), cards("2D 3D")))
    assert error["rule_id"] == "CTR-8" and "character cards" in str(error["reason"])


def test_roll_the_dice_smoke_bomb_counters_it_under_the_first_edition_reading__CTR_8() -> None:
    """opt.innateCounters=FIRST_EDITION_FAQ: Smoke Bomb may counter the roll as it is
    activated; countered, nothing is discarded from his deck."""
    g = _roll("setsuki", "2D 3D TD 4D 5D 6D 8D", FAQ)
    bomb = UseAbility(BOMB, card("TD"), cards("2D 3D"))
    assert _counter_offered(g, P2) and bomb in g.legal_actions(P2)
    deck = len(g.state(P1).deck)
    g.apply(P2, bomb)
    assert len(g.state(P1).deck) == deck  # no card rolled
    assert g.state(P1).discard == [card("3C")]  # only his combat card, at C13c
    assert g.step != "C13"  # the roll was the last thing of the combat


def test_mental_toughness_never_counters_an_innate__CTR_8() -> None:
    """grave.md, edition differences: Mental Toughness excluded character cards in the first
    edition too; under the first-edition reading only Smoke Bomb counters innates."""
    g = _roll("grave", "2D 3D 4D TD KD 6D 9D", FAQ)
    assert not _counter_offered(g, P2)
    error = first_error(g, P2, UseAbility(TOUGHNESS, card("TD"), (card("KD"),)))
    assert error["rule_id"] == "CTR-8"


def _grave_reveals(ruleset: Ruleset) -> Game:
    """Turn 1: Grave's 5 blocks Setsuki's 2 attack; he reveals his 8 (Knowing the Opponent);
    Setsuki holds Smoke Bomb and two more cards."""
    g = recorded_game("2C 3C 4C 5C 6C 7C 8C", "2D 3D 4D 5D 6D TD 8D", p2="setsuki",
                      ruleset=ruleset)
    fight(g, commit("5C", "block"), commit("2D", "attack"))
    draw(g, P2, "KH")
    draw(g, P1, "KS")
    g.apply(P1, UseAbility("Knowing the Opponent", card("8C")))
    return g


def test_knowing_the_opponent_is_not_countered_by_default__CTR_8() -> None:
    """grave.md: Knowing the Opponent is his innate: Smoke Bomb "can't counter character
    cards"; the turn goes on."""
    g = _grave_reveals(Ruleset())
    assert not _counter_offered(g, P2)
    assert g.turn == 2 and g.step == "T2"


def test_knowing_the_opponent_is_countered_only_as_the_card_is_revealed__FR_GRAVE_3() -> None:
    """FR-GRAVE-3 (opt.innateCounters=FIRST_EDITION_FAQ): Smoke Bomb counters Grave's innate
    when the card is revealed; countered, next turn's combat with that card pays nothing."""
    g = _grave_reveals(FAQ)
    bomb = UseAbility(BOMB, card("TD"), cards("3D 4D"))
    assert _counter_offered(g, P2) and bomb in g.legal_actions(P2)
    g.apply(P2, bomb)
    assert g.turn == 2 and g.step == "T2"
    assert g.rules[P1].revealed is None  # type: ignore[attr-defined]


def test_knowing_the_opponent_uncountered_pays_off_next_turn_without_a_counter__FR_GRAVE_3(
) -> None:
    """FR-GRAVE-3: "too late" next turn: the payoff is no activation, no counter is offered."""
    g = _grave_reveals(FAQ)
    g.apply(P2, Pass())
    assert g.rules[P1].revealed == card("8C")  # type: ignore[attr-defined]
    for _ in range(2):  # T2, in initiative order
        draw(g, g.actor, "2H" if g.actor is P1 else "9S")  # type: ignore[arg-type]
    while g.step == "T3":
        g.apply(g.actor, Pass())  # type: ignore[arg-type]
    fight(g, commit("8C", "throw"), commit("3D", "attack"))  # the 8 loses: he draws
    assert g.step == "C6" and g.actor is P1
    assert not _counter_offered(g, P2)
    draw(g, P1, "JH")
    assert card("JH") in g.state(P1).hand


def _rock_armor(p2: str, hand2: str, ruleset: Ruleset) -> Game:
    """Turn 1: the opponent's 2 outspeeds Rook's 4; its combo 2-3; Rook pays Rock Armor."""
    g = recorded_game("4C 5H 6C 7C 2H 3S 8S", hand2, p1="rook", p2=p2, ruleset=ruleset)
    fight(g, commit("4C", "attack"), commit("2D", "attack"))
    draw(g, P2, "KS")  # C7
    g.apply(P1, Pass())  # C9: Rook's Rewind window
    g.apply(P2, combo("3D"))
    g.apply(P2, Stop())
    g.apply(P1, UseAbility("Rock Armor", cards=cards("6C 7C")))
    return g


def test_rock_armor_is_not_countered_by_default__CTR_8() -> None:
    """rook.md: Rock Armor is his innate: Setsuki's Smoke Bomb is not offered; his attack hits
    and his combo follows."""
    g = _rock_armor("setsuki", "2D 3D TD 4D 5D 6D 8D", Ruleset())
    assert not _counter_offered(g, P2)
    assert set(cards("6C 7C")) <= set(g.state(P1).discard)


def test_smoke_bomb_counters_rock_armor_under_the_first_edition_reading__FR_ROOK_5() -> None:
    """FR-ROOK-5: right after the two same-suit cards are discarded; countered, Rock Armor
    does not trigger and the two cards return to hand."""
    g = _rock_armor("setsuki", "2D 3D TD 4D 5D 6D 8D", FAQ)
    bomb = UseAbility(BOMB, card("TD"), cards("4D 5D"))
    assert bomb in g.legal_actions(P2)
    g.apply(P2, bomb)
    assert set(cards("6C 7C")) <= set(g.state(P1).hand)
    assert set(cards("TD 4D 5D")) <= set(g.state(P2).discard)


def test_positive_spin_follows_the_same_policy__CTR_8() -> None:
    """quince.md: Positive Spin is his innate: not countered by default; under the first-edition
    reading Smoke Bomb counters the reveal, and no card is remembered."""
    for ruleset, offered in ((Ruleset(), False), (FAQ, True)):
        g = recorded_game("3C JC QC 4C 5C 6C 8C", "2D 3D TD 4D 5D 6D 8D", p1="quince",
                          p2="setsuki", ruleset=ruleset)
        fight(g, commit("3C", "attack"), commit(None))
        while not (g.step == "K1" and g.actor is P1 and UseAbility(
                "Positive Spin", card("JC")) in g.legal_actions(P1)):
            legal = g.legal_actions(g.actor)  # type: ignore[arg-type]
            pick = next((a for a in (Pass(), Stop()) if a in legal), legal[0])
            g.apply(g.actor, pick)  # type: ignore[arg-type]
        g.apply(P1, UseAbility("Positive Spin", card("JC")))
        assert _counter_offered(g, P2) is offered
        if offered:
            g.apply(P2, UseAbility(BOMB, card("TD"), cards("4D 5D")))
        assert (g.rules[P1].spun is None) is offered  # type: ignore[attr-defined]


def test_burning_vigor_only_smoke_bomb_under_the_first_edition_reading__CTR_6() -> None:
    """CTR-6: "Only Setsuki can counter Burning Vigor", as Jaina announces the returns; by
    default no counter can (CTR-8)."""
    for ruleset, offered in ((Ruleset(), False), (FAQ, True)):
        g = recorded_game("2C 3C 4C 5C 6C 8C KC", "2D 3D 4D 6D TD QD 9D", p1="jaina",
                          p2="setsuki", ruleset=ruleset)
        fight(g, commit("5C", "attack"), commit("6D", "block"))
        while not (g.actor is P1 and any(isinstance(a, UseAbility) and a.ability ==
                                         "Burning Vigor" for a in g.legal_actions(P1))):
            legal = g.legal_actions(g.actor)  # type: ignore[arg-type]
            pick = next((a for a in (Pass(), Stop()) if a in legal), legal[0])
            g.apply(g.actor, pick)  # type: ignore[arg-type]
        g.apply(P1, UseAbility("Burning Vigor", cards=cards("5C")))
        assert _counter_offered(g, P2) is offered
        if offered:
            g.apply(P2, UseAbility(BOMB, card("TD"), cards("2D 3D")))
        assert (card("5C") in g.state(P1).hand) is not offered


def test_midoris_innate_stays_uncounterable_under_the_first_edition_reading__FR_SETSUKI_1(
) -> None:
    """FR-SETSUKI-1: "Smoke Bomb cannot counter Valerie's or Midori's character abilities":
    under opt.innateCounters=FIRST_EDITION_FAQ, Midori in Dragon Form blocks Setsuki's attack
    and takes a card back (Aspect of the Dragon) with no counter decision for Setsuki, who
    holds Smoke Bomb and two more cards; a log that counters it is told why."""
    g = recorded_game("2C JC TC 4C 6C 7C 9C", "2D 3D 4D 5D TD 6D 8D", p1="midori",
                      p2="setsuki", ruleset=FAQ)
    fight(g, commit("9C", "dodge"), commit(None))
    g.apply(P2, Pass())  # Setsuki's Rewind window
    g.apply(P1, Stop())  # no hit-back: the 9 is discarded
    for _ in range(2):  # T2, in initiative order
        draw(g, g.actor, "3S" if g.actor is P1 else "JS")  # type: ignore[arg-type]
    while g.actor is not P1:
        g.apply(g.actor, Pass())  # type: ignore[arg-type]
    g.apply(P1, UseAbility("Dragon Form", card("2C")))
    while g.step == "T3":
        g.apply(g.actor, Pass())  # type: ignore[arg-type]
    fight(g, commit("6C", "block"), commit("2D", "attack"))
    aspect = UseAbility("Aspect of the Dragon", cards=(card("9C"),))
    assert aspect in g.legal_actions(P1)
    g.apply(P1, aspect)
    assert not _counter_offered(g, P2)
    assert card("9C") in g.state(P1).hand
    error = first_error(g, P2, UseAbility(BOMB, card("TD"), cards("3D 4D")))
    assert error["rule_id"] == "FR-SETSUKI-1"


# --- the one place -----------------------------------------------------------------------------


def test_the_policy_names_each_ability_by_where_it_is_printed() -> None:
    """Every ability of the 20 characters has one source; an unknown name is an error (every
    ability offered to counters is named as printed)."""
    gloria, lum = character("gloria"), character("lum")
    assert counters.source(gloria, "Overdose") is counters.Source.ACE
    assert counters.source(lum, "Roll the Dice") is counters.Source.INNATE
    assert counters.source(lum, "Jackpot") is counters.Source.CARD
    with pytest.raises(ValueError):
        counters.source(lum, "Bag of Tricks")


# Every innate with an activation (a trigger or a choice), by character: each one is offered to
# counters through the policy. The always-on ones (Agile Hands, Guard Crush, Defense Mastery,
# Meaty Attacks, Moral High Ground, Burning Desperation's wider choice, and the draw counts of
# Shadow Plague and Speed of the Fox) have no activation to counter (CTR-4).
ACTIVATED_INNATES = {
    "argagarg": "Hex of Murkwood", "bbb": "Long Range", "geiger": "Time Stop",
    "gloria": "Healing Touch", "grave": "Knowing the Opponent", "gwen": "Relentless Strikes",
    "jaina": "Burning Vigor", "lum": "Roll the Dice", "menelker": "Bleeding Wounds",
    "midori": "Aspect of the Dragon", "persephone": "Dominance", "quince": "Positive Spin",
    "rook": "Rock Armor", "troq": "Giant Growth", "vendetta": "Carrion Reach",
    "zane": "Shenanigans",
}


@pytest.mark.interpreted_only  # watches the policy function (a compiled module binds it early)
def test_every_character_asks_the_one_policy_for_every_activation__CTR_8(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """CTR-8 in one place: self-play of every character (against Setsuki, Grave and Rook, who
    hold counters) asks ``counters.refusal`` about every activated innate listed above and
    about Ace abilities, and each name it asks about is printed on that character."""
    asked: set[tuple[str, str]] = set()
    policy = counters.refusal

    def watch(ruleset: Ruleset, owner: object, ability: str, countering: object) -> object:
        asked.add((owner.id, ability))  # type: ignore[attr-defined]
        return policy(ruleset, owner, ability, countering)  # type: ignore[arg-type]

    monkeypatch.setattr(counters, "refusal", watch)
    for cid in sorted(characters()):
        for n in range(12):
            play_game(cid, ("setsuki", "grave", "rook")[n % 3], n,
                      bot="random" if n % 2 else "greedy")
    for cid, innate in ACTIVATED_INNATES.items():
        assert (cid, innate) in asked, (cid, innate)
    assert {("gloria", "Overdose"), ("lum", "Blackjack")} <= asked
    for cid, ability in asked:
        counters.source(character(cid), ability)  # printed on the character (ValueError)

