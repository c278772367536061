"""The Characters section shows the engine's own card data."""

from __future__ import annotations

import re

import pytest

from rules_engine.cards import character

pytestmark = pytest.mark.django_db


def test_list_shows_all_twenty_characters_with_life_and_combo_limit(client) -> None:
    html = client.get("/characters/").content.decode()
    links = re.findall(r'<a href="/characters/([a-z]+)/">', html)
    assert len(links) == 20
    grave = character("grave")
    assert f"Life {grave.life} · combo limit {grave.combo_limit}" in html


def test_detail_lists_every_move_and_ability(client) -> None:
    grave = character("grave")
    html = client.get("/characters/grave/").content.decode()
    rows = html.split('<table class="table moves">')[1].split("</table>")[0]
    assert rows.count("<tr>") == 1 + sum(len(moves) for moves in grave.moves.values())
    for ability in grave.abilities:
        assert ability.name in html
    assert "abilities verified by the engine" in html


def test_detail_shows_each_ability_with_its_timing_in_words(client) -> None:
    from yomi_site.characters import TIMINGS

    midori = character("midori")
    html = client.get("/characters/midori/").content.decode()
    table = html.split("<h2>Abilities</h2>")[1].split("</table>")[0]
    for ability in midori.abilities:
        assert ability.name in table
        assert TIMINGS[ability.timing].split(":")[0] in table
    assert "Draw Phase: right after the draw phase (T3, WIN-DRAW)" in table  # Dragon Form
    assert "Combat Reveal" in table  # Glimpse of the Dragon
    assert "Aspect of the Dragon</strong> (innate: always on" in html
    assert "abilities verified by the engine" in html


def test_every_timing_of_the_card_data_has_words(client) -> None:
    from rules_engine.cards import characters
    from yomi_site.characters import TIMINGS

    assert {a.timing for c in characters().values() for a in c.abilities} <= set(TIMINGS)


def test_character_without_implemented_abilities_says_so(client, monkeypatch) -> None:
    from rules_engine.characters import IMPLEMENTED

    monkeypatch.delitem(IMPLEMENTED, "lum")  # every character is implemented now
    html = client.get("/characters/lum/").content.decode()
    assert "logs are checked with card stats only" in html


def test_unknown_character_is_a_404(client) -> None:
    assert client.get("/characters/nobody/").status_code == 404


@pytest.mark.parametrize("cid", ["degrey", "argagarg", "gwen", "troq", "rook", "onimaru",
                                 "menelker", "zane", "persephone", "lum",
                                 "quince", "setsuki"])
def test_implemented_characters_show_each_ability_as_the_engine_plays_it(client, cid) -> None:
    from rules_engine.characters import IMPLEMENTED
    from yomi_site.characters import TIMINGS

    c = character(cid)
    html = client.get(f"/characters/{cid}/").content.decode()
    table = html.split('<table class="table abilities">')[1].split("</table>")[0]
    assert "As the engine plays it" in table
    notes = IMPLEMENTED[cid].ability_notes
    for ability in (*c.innates, *c.abilities):
        assert notes[ability.name]  # every ability has its note ...
        assert notes[ability.name].replace("'", "&#x27;") in table  # ... on the page
    for ability in c.abilities:
        assert TIMINGS[ability.timing] in table
