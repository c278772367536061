"""Build `rules_engine/data/characters.json` from the source card data in `docs/rules/data/`.

Glossary: *move* = one end of a card (attack, throw, block, dodge); *pump* = optional extra cards
that add damage (PM-1); *Ace cost* = mandatory Aces including the card itself (GL-MANDATORY).

Responsibility: derive the engine's self-contained data file from
`docs/rules/data/yomi_characters.json`, fixing the errors that `docs/rules/data/README.md` lists
(and the doubtful values checked against `docs/rules/characters/<id>.md`). Every fix is a
named function below, so the diff between the source and the engine's copy is reviewable here.
The engine never reads the source file at runtime.

Usage: ``python -m rules_engine.tools.build_card_data [SOURCE_JSON] [OUT_JSON]``
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
DEFAULT_SOURCE = REPO / "docs" / "rules" / "data" / "yomi_characters.json"
DEFAULT_OUT = REPO / "rules_engine" / "data" / "characters.json"

Json = dict[str, Any]

# Timing tags as printed/recorded -> the engine's window names (WIN table of RULES.md §10.2).
TIMINGS = {
    "draw phase": "draw_phase",
    "combat reveal": "combat_reveal",
    "during combat": "during_combat",
    "reaction": "reaction",
    "end of combat": "end_of_combat",
    "end of turn": "end_of_turn",
    "full combo": "full_combo",
}

PUMP_KINDS = {"X": "any", "K": "king", "A": "ace", "F": "face", "J": "jack", "Q": "queen"}


def _move(m: Json) -> Json:
    """Normalise one move: speed in tenths, pump parsed, combo points defaulted."""
    pump = None
    if m["pump"] is not None:
        spec = m["pump"]["with"].upper()
        parts = [p for p in spec.split("+") if p]
        if len(set(parts)) != 1 or parts[0] not in PUMP_KINDS:
            raise ValueError(f"unreadable pump spec {spec!r}")
        pump = {"kind": PUMP_KINDS[parts[0]], "max": len(parts), "damage": m["pump"]["damage"]}
    attacking = m["type"] in ("attack", "throw")
    combo_type = m["combo_type"]
    combo_points = m["combo_points"]
    if attacking and combo_points is None:
        # Can't Combo moves print no combo points: they are only ever the first (and last) move
        # of a combo, so they cost nothing against the limit (CB-3, CB-6).
        combo_points = 0
    notes = m["notes"] or ""
    return {
        "type": m["type"],
        "name": m["name"],
        "speed": None if m["speed"] is None else round(m["speed"] * 10),
        "damage": m["damage"] or 0,
        "block_damage": m["block_damage"] or 0,
        "block_damage_suits": None,
        "combo_points": combo_points if attacking else None,
        "combo_type": combo_type if attacking else None,
        "knockdown": bool(m["knockdown"]),
        "pump": pump,
        "ace_cost": m["ace_cost"] or 0,
        "requires": m["requires"],
        "range_legal": "Range: both" in notes or "long range only" in notes,
        "range_giving": "set range next turn" in notes,
    }


def fix_zane(c: Json) -> None:
    """Zane: rank 2 = attack/dodge, rank 5 = throw/block (README); all normal throws x.3.

    zane.md gives x.4 in a summary and x.3 in every move; the moves (and his x.3 normal attacks)
    agree, so every normal throw keeps x.3 (one rule for all of them, as the README asks).
    """
    r2 = c["ranks"]["2"]
    block = next(m for m in r2 if m["type"] == "block")
    c["ranks"]["2"] = [m for m in r2 if m["type"] != "block"]
    c["ranks"]["5"] = [*c["ranks"]["5"], block]
    for rank in ("5", "7", "8", "9", "T"):
        for m in c["ranks"][rank]:
            if m["type"] == "throw" and m["name"] is None:
                m["speed"] = int(rank if rank != "T" else 10) + 0.3


def fix_lum(c: Json) -> None:
    """Lum: 8 = attack/throw, the attack being a normal 8 (speed 8.4, damage 8; README)."""
    attack = copy.deepcopy(next(m for m in c["ranks"]["7"] if m["type"] == "attack"))
    attack.update(speed=8.4, damage=8)
    c["ranks"]["8"] = [attack, *c["ranks"]["8"]]


def fix_vendetta(c: Json) -> None:
    """Vendetta: Pincer Poke/Stab are named normals (1 CP); Claw Trip costs 1 CP.

    vendetta.md prints no combo points for Claw Trip (an Ender on a 7). Every other 1-card Ender
    special of its kind costs 1, and 0 would let it follow a spent combo for free (CB-3); 1 it is.
    """
    for rank in ("2", "3"):
        for m in c["ranks"][rank]:
            if m["type"] == "attack":
                m["combo_type"], m["combo_points"] = "normal", 1
    for m in c["ranks"]["7"]:
        if m["name"] == "Claw Trip":
            m["combo_points"] = 1


def fix_persephone(c: Json) -> None:
    """Persephone: Mistress's Command is During Combat (its text is about winning combat)."""
    for a in c["abilities"]:
        if a["name"] == "Mistress's Command":
            a["timing"] = "During Combat"


def fix_argagarg(c: Json) -> None:
    """Argagarg: life 85 (2014 printing), not the later online 90."""
    c["hp"] = 85


def fix_bbb(c: Json) -> None:
    """BBB: his normal attacks deal block damage 2 (bbb.md, Core stats; the source has none)."""
    for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "T"):
        for m in c["ranks"].get(rank, []):
            if m.get("type") == "attack" and not m.get("name") and m.get("combo_type") in (
                    "normal", "Normal", None) and not m.get("block_damage"):
                m["block_damage"] = 2


FIXES = {
    "bbb": fix_bbb,
    "zane": fix_zane,
    "lum": fix_lum,
    "vendetta": fix_vendetta,
    "persephone": fix_persephone,
    "argagarg": fix_argagarg,
}


def build(source: Json) -> Json:
    characters = []
    for raw in source["characters"]:
        c = copy.deepcopy(raw)
        if c["id"] in FIXES:
            FIXES[c["id"]](c)
        ranks = {}
        for rank, moves in c["ranks"].items():
            ranks[rank] = [_move(m) for m in moves]
        if c["id"] == "jaina":
            # jaina.md: block damage on red (hearts/diamonds) normal attacks only.
            for rank in ("2", "3", "4", "5", "6"):
                for m in ranks[rank]:
                    if m["type"] == "attack" and m["combo_type"] == "normal":
                        m["block_damage_suits"] = ["H", "D"]
        abilities = []
        for a in c["abilities"]:
            timing = TIMINGS[a["timing"].strip().lower()]
            abilities.append({"rank": a["rank"], "name": a["name"], "timing": timing,
                              "text": a["text"]})
        characters.append({
            "id": c["id"],
            "name": c["name"],
            "full_name": c["full_name"],
            "life": c["hp"],
            "combo_limit": c["combo_limit"],
            "innates": [{"name": i["name"], "text": i["text"]} for i in c["innate"]],
            "abilities": abilities,
            "ranks": ranks,
        })
    return {
        "format": "yomi-card-data",
        "version": 1,
        "edition": "2014",
        "derived_from": source.get("source", ""),
        "characters": characters,
    }


def main(argv: list[str]) -> int:
    source_path = Path(argv[0]) if argv else DEFAULT_SOURCE
    out_path = Path(argv[1]) if len(argv) > 1 else DEFAULT_OUT
    data = build(json.loads(source_path.read_text(encoding="utf-8")))
    out_path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {out_path} ({len(data['characters'])} characters)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
