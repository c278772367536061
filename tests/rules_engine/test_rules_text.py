"""Rule texts (rules_engine.rules_text): exact words checked by hand against RULES.md, every
Versus rule ID has words, no markdown or source tag survives, and the committed data file is
what the generator makes from the project's docs/rules/RULES.md."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from rules_engine.rules_text import all_rule_texts, rule_text
from rules_engine.tools import build_rules_text

RULES_MD = Path(__file__).resolve().parents[2] / "docs" / "rules" / "RULES.md"


@pytest.mark.parametrize(("rule_id", "text"), [
    # Bullet rule: emphasis and the tag "[RB; QR; DE]" removed, the cross-reference kept.
    ("AR-THR-1", "A throw beats a block, a dodge and any slower throw. If the speeds are equal, "
                 "neither throw hits and both are discarded (M-THROW-THROW-TIE)"),
    # Bullet rule on two lines, with a mid-sentence tag "[RB 2c; DE step 3]".
    ("C7", "Normal-draw rule. A player whose locked-in combat action is a normal attack that "
           "won combat or was blocked (its block beat it) draws 1 card now. It does not apply "
           "after a speed tie (OQ-05), after losing, or to hit-back or combo moves"),
    # A bullet's "(title)" becomes a lead.
    ("KD-7", "Double knockdown: If both players would be knocked down in the same combat, "
             "neither is"),
    # Matrix row: every cell under its header; "—" reads "none".
    ("M-THROW-BLOCK", "throw vs block: X wins; X hits; Y is thrown. Draws: none (no block draw). "
                      "Damage: X's base damage. Follow-up: Y: Rewind; X: combo + pumps. "
                      "Returns to hand: none (block discarded)"),
    ("M-ATTACK-ATTACK-TIE", "attack vs attack, same speed: no winner; both hit. Draws: none "
                            "(OQ-05). Damage: both base damages at the same time. Follow-up: "
                            "none: no combos, no pumps, no Rewind. Returns to hand: none"),
    # Combo test vector: combo, expected, rules.
    ("TV-CB-04", "8 throw → 2 atk → 3 atk: valid, 2+1+1 = 4 (CT-STARTER, CB-3)"),
    # Follow table.
    ("CT-NORMAL", "After N(r): may be followed by N(r+1) only, Linker, Ender; may not be "
                  "followed by any other normal rank, Starter, Can't Combo"),
    # Rewind table: the Source column is a citation and is left out.
    ("RW-CANNOT-2", "Lost to a Gold Burst Joker: the loser cannot place a Rewind/bluff card"),
    ("END-R2", "Both ≤ 0 in one event: draw (opt.doubleKO)"),
    # A tag used as a word keeps its short name.
    ("OQ-05", "Normal-draw rule after an attack speed tie: neither attack \"won\". Recommended "
              "resolution: No draw. DE says nobody wins a speed tie, and RB draws only on "
              "\"won or was blocked\""),
])
def test_exact_texts_checked_by_hand(rule_id: str, text: str) -> None:
    assert rule_text(rule_id) == text


def test_unknown_ids_have_no_text() -> None:
    assert rule_text("AR-THR-99") is None
    assert rule_text("ar-thr-1") is None  # IDs are exact, as RULES.md writes them


def test_every_versus_rule_id_has_words() -> None:
    ids = json.loads(resources.files("rules_engine").joinpath(
        "data/versus_rule_ids.json").read_text("utf-8"))["ids"]
    assert len(ids) > 300
    missing = [i for i in ids if not (rule_text(i) or "").strip()]
    assert missing == []


def test_no_markdown_or_source_tag_survives() -> None:
    texts = all_rule_texts()
    for rule_id, text in texts.items():
        for bad in ("[RB", "[QR", "[FAQ", "[CL", "[DE", "**", "`", "\\|"):
            assert bad not in text, (rule_id, bad)
        assert text == text.strip() and "  " not in text, rule_id
        assert not text.endswith("."), rule_id


def test_table_and_team_mode_rules_are_included() -> None:
    texts = all_rule_texts()
    for rule_id in ("GL-HIT", "DP-6", "M-KD-MIXUP", "CF-23", "WIN-REVEAL", "FR-GEIGER-1",
                    "AS-TBL-3", "BOT-ROOK", "OQ-32", "TAG-PU-2", "TR-15"):
        assert texts[rule_id], rule_id


def test_parser_handles_tags_used_as_words_and_escaped_pipes() -> None:
    md = ("- **X-1** (a title). Text one [RB], and more\n"
          "  text; [CL] gives no way, and the literal [RB] wording [FAQ Q1; DE].\n"
          "\n"
          "| ID | Situation | Resolution |\n"
          "|---|---|---|\n"
          "| X-2 | *a* \\| b | `c` [RB] (X-1). |\n")
    assert build_rules_text.parse(md) == {
        "X-1": "A title: Text one, and more text; CL gives no way, and the literal RB wording",
        "X-2": "A | b: c (X-1)",
    }


def test_an_id_defined_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="X-1 is defined twice"):
        build_rules_text.parse("- **X-1** one\n- **X-1** two\n")


def test_committed_file_is_what_the_generator_makes_from_the_projects_rules() -> None:
    assert build_rules_text.DEFAULT_SOURCE.resolve() == RULES_MD  # the same file, linked or not
    committed = resources.files("rules_engine").joinpath("data/rules_text.json").read_text(
        "utf-8")
    rules = build_rules_text.parse(RULES_MD.read_text("utf-8"))
    assert build_rules_text.render(rules) == committed, (
        "RULES.md changed: run python -m rules_engine.tools.build_rules_text")
