"""Card data: the engine's own file, checked on load, with the source data's known errors fixed."""

from __future__ import annotations

import copy
import json
from importlib import resources

import pytest

from rules_engine.cards import (
    FULL_DECK,
    JOKERS,
    Card,
    CardDataError,
    ComboType,
    MoveType,
    PumpKind,
    Rank,
    Suit,
    card,
    character,
    characters,
    deck_for,
    parse_card_data,
)


def _raw() -> dict:
    text = resources.files("rules_engine").joinpath("data/characters.json").read_text("utf-8")
    return json.loads(text)


def test_all_twenty_characters_load_with_every_rank__S_4() -> None:
    # given / when
    chars = characters()
    # then
    assert len(chars) == 20
    for c in chars.values():
        assert set(c.moves) == set(Rank)
        assert all(1 <= len(ms) <= 2 for ms in c.moves.values())


def test_play_deck_is_52_cards_plus_two_jokers__S_2() -> None:
    assert len(FULL_DECK) == 54
    assert len(set(FULL_DECK)) == 54
    assert (card("X1"), card("X2")) == JOKERS
    assert len(deck_for(jokers=False)) == 52
    assert all(not c.is_joker for c in deck_for(jokers=False))


def test_card_codes_round_trip() -> None:
    assert card("TH") == Card.parse("TH")
    assert card("TH").rank is Rank.TEN and card("TH").suit is Suit.HEARTS
    assert card("AS").is_ace
    assert card("X2").is_joker and card("X2").rank is None
    with pytest.raises(KeyError):
        Card.parse("1H")


def test_grave_data_matches_the_combo_vectors__TV_CB_06() -> None:
    # given Grave's data (RULES.md §5.5): limit 4, normals 1 CP, throws 2 CP Starters
    grave = character("grave")
    assert grave.life == 90 and grave.combo_limit == 4
    assert character("grave").moves[Rank.THREE][0].combo_points == 1
    throw = grave.find_move(card("8H"), MoveType.THROW, None)
    assert throw is not None and throw.combo_points == 2 and throw.combo_type is ComboType.STARTER
    arc, storms = grave.moves[Rank.ACE]
    assert (arc.name, arc.combo_points, arc.ace_cost) == ("True-Spark Arc", 2, 1)
    assert (storms.name, storms.combo_points, storms.ace_cost) == ("True Power of Storms", 3, 3)
    whirlwind = grave.moves[Rank.KING][0]
    assert whirlwind.combo_type is ComboType.LINKER
    assert whirlwind.pump is not None and whirlwind.pump.kind is PumpKind.KING
    assert grave.moves[Rank.QUEEN][0].combo_type is ComboType.ENDER


def test_zane_rank_2_is_attack_dodge_and_rank_5_throw_block() -> None:
    zane = character("zane")
    assert [m.type for m in zane.moves[Rank.TWO]] == [MoveType.ATTACK, MoveType.DODGE]
    assert [m.type for m in zane.moves[Rank.FIVE]] == [MoveType.THROW, MoveType.BLOCK]
    throw_speeds = {
        m.speed - int(r) * 10
        for r, ms in zane.moves.items() if r.is_normal for m in ms
        if m.type is MoveType.THROW and m.name is None
    }
    assert throw_speeds == {3}  # one rule for every normal throw: x.3


def test_lum_8_has_a_normal_attack() -> None:
    attack = character("lum").find_move(card("8C"), MoveType.ATTACK, None)
    assert attack is not None
    assert (attack.speed, attack.damage, attack.combo_type) == (84, 8, ComboType.NORMAL)


def test_vendetta_named_normals_and_claw_trip_points() -> None:
    vendetta = character("vendetta")
    poke = vendetta.find_move(card("2C"), MoveType.ATTACK, None)
    stab = vendetta.find_move(card("3C"), MoveType.ATTACK, None)
    claw = vendetta.find_move(card("7C"), MoveType.ATTACK, None)
    assert poke is not None and stab is not None and claw is not None
    assert (poke.name, poke.combo_type, poke.combo_points) == ("Pincer Poke", ComboType.NORMAL, 1)
    assert (stab.name, stab.combo_type, stab.combo_points) == ("Pincer Stab", ComboType.NORMAL, 1)
    assert claw.combo_points == 1


def test_bbb_range_is_a_move_property() -> None:
    bbb = character("bbb")
    assert bbb.moves[Rank.TWO][0].range_legal and bbb.moves[Rank.TWO][0].range_giving
    headbutt = bbb.moves[Rank.SEVEN][0]
    assert headbutt.name == "Robo Headbutt" and not headbutt.range_legal


def test_argagarg_life_and_persephone_timing() -> None:
    assert character("argagarg").life == 85
    timings = {a.name: a.timing for a in character("persephone").abilities}
    assert timings["Mistress's Command"] == "during_combat"


def test_jaina_block_damage_only_on_red_normals() -> None:
    four = character("jaina").find_move(card("4H"), MoveType.ATTACK, None)
    assert four is not None
    assert four.block_damage_for(card("4H")) == 3
    assert four.block_damage_for(card("4D")) == 3
    assert four.block_damage_for(card("4S")) == 0


def test_load_rejects_a_missing_rank() -> None:
    # given a data file whose Grave lacks rank 9
    raw = copy.deepcopy(_raw())
    del raw["characters"][0]["ranks"]["9"]
    # when / then
    with pytest.raises(CardDataError, match="rank 9 is missing"):
        parse_card_data(raw)


def test_load_rejects_an_attack_without_speed() -> None:
    raw = copy.deepcopy(_raw())
    raw["characters"][0]["ranks"]["2"][0]["speed"] = None
    with pytest.raises(CardDataError, match="need a speed"):
        parse_card_data(raw)


def test_load_rejects_a_normal_type_on_a_face_card() -> None:
    raw = copy.deepcopy(_raw())
    moves = raw["characters"][0]["ranks"]["J"]
    attack = next(m for m in moves if m["type"] == "attack")
    attack["combo_type"] = "normal"
    with pytest.raises(CardDataError, match="GL-NORMAL"):
        parse_card_data(raw)


def test_data_file_is_built_from_the_source_in_docs_by_the_committed_script() -> None:
    # The committed file must equal the script's output from the in-project source data.
    from rules_engine.tools import build_card_data as tool

    assert tool.DEFAULT_SOURCE.parts[-4:] == ("docs", "rules", "data", "yomi_characters.json")
    built = tool.build(json.loads(tool.DEFAULT_SOURCE.read_text(encoding="utf-8")))
    assert built == _raw()
