"""The Characters section: every character's card data as the rules engine knows it.

Reads the engine's own data (``rules_engine.cards``), so the page and the verifier can never
disagree about a card.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from rules_engine.cards import Character, Move, characters
from rules_engine.characters import IMPLEMENTED, abilities_implemented


@dataclass(frozen=True)
class AbilityRow:
    """One innate or card ability: its printed text and timing, and how the engine plays it
    (empty while the character's abilities are not implemented)."""

    rank: str
    name: str
    timing: str
    text: str
    engine: str


def ability_rows(character: Character) -> list[AbilityRow]:
    notes = IMPLEMENTED[character.id].ability_notes if character.id in IMPLEMENTED else {}
    rows = [AbilityRow("innate", i.name, "always on", i.text, notes.get(i.name, ""))
            for i in character.innates]
    rows += [AbilityRow(a.rank.code, a.name, TIMINGS.get(a.timing, a.timing), a.text,
                        notes.get(a.name, "")) for a in character.abilities]
    return rows


@dataclass(frozen=True)
class MoveRow:
    rank: str
    type: str
    name: str
    speed: str
    damage: int
    block_damage: int
    combo_points: str
    combo_type: str
    knockdown: bool
    pump: str
    ace_cost: int


# The windows of RULES.md §10.2 as the engine opens them (rules_engine.characters: the window
# names of the card data), in words a player reads on the character page.
TIMINGS = {
    "draw_phase": "Draw Phase: right after the draw phase (T3, WIN-DRAW), from turn 2",
    "combat_reveal": "Combat Reveal: after the combat cards are revealed and Ace costs paid, "
                     "before lock-in (C4, WIN-REVEAL)",
    "during_combat": "During Combat: part of the move, while it is the combat card or a combo "
                     "move (AB-3)",
    "reaction": "Reaction: as the opponent plays an ability, after its costs (CTR-2)",
    "end_of_combat": "End of Combat (C13b, WIN-ENDCOMBAT)",
    "end_of_turn": "End of Turn (K1, WIN-ENDTURN)",
    "full_combo": "Full Combo: once the combo has spent exactly the combo limit (C10)",
}


def _speed(move: Move) -> str:
    return "" if move.speed is None else f"{move.speed / 10:.1f}"


def _pump(move: Move) -> str:
    if move.pump is None:
        return ""
    return f"up to {move.pump.max_cards} {move.pump.kind.value}, +{move.pump.damage} each"


def move_rows(character: Character) -> list[MoveRow]:
    rows = []
    for rank, moves in sorted(character.moves.items()):
        for move in moves:
            rows.append(MoveRow(
                rank=rank.code,
                type=move.type.value,
                name=move.name or "",
                speed=_speed(move),
                damage=move.damage,
                block_damage=move.block_damage,
                combo_points="" if move.combo_points is None else str(move.combo_points),
                combo_type=(move.combo_type.value.replace("_", " ") if move.combo_type else ""),
                knockdown=move.knockdown,
                pump=_pump(move),
                ace_cost=move.ace_cost,
            ))
    return rows


def character_list_page(request: HttpRequest) -> HttpResponse:
    roster = sorted(characters().values(), key=lambda c: c.name)
    return render(request, "characters/character_list.html", {
        "characters": [(c, abilities_implemented(c.id)) for c in roster],
    })


def character_detail_page(request: HttpRequest, character_id: str) -> HttpResponse:
    character = characters().get(character_id)
    if character is None:
        raise Http404(f"no character {character_id!r}")
    return render(request, "characters/character_detail.html", {
        "character": character,
        "abilities_implemented": abilities_implemented(character.id),
        "moves": move_rows(character),
        "abilities": ability_rows(character),
    })
