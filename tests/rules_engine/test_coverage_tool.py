"""The rule-coverage command: rule IDs from RULES.md (or the snapshot) and how tests cite them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rules_engine import characters as chars
from rules_engine.cards import characters
from rules_engine.characters import IMPLEMENTED, abilities_implemented
from rules_engine.cli import DEFAULT_RULES, DEFAULT_TESTS, main
from rules_engine.coverage import (
    GAME_DRIVERS,
    MODE_NAMES,
    REQUIRES,
    SUPPORTED_MODES,
    bot_parts_implemented,
    citations,
    coverage,
    game_driving_tests,
    load_rule_ids,
    requirement,
    rule_ids_from_text,
    snapshot_ids,
)

RULES = """# Spec
## 3. Turn structure
- **T1** Start of turn.
| ID | Step |
|---|---|
| DP-1 | T3 |
## 11. Team modes
- **TT-1** a team-mode rule.
## 12. Training
- **TR-1** not a rule of a game between players yet.
## 13. Open questions
| OQ-01 | Both defeated at once | Draw |
"""


def test_ids_come_from_the_game_sections_only() -> None:
    """§0-§13: Versus, the team modes (each deferred until its mode is played) and Training
    (§12, since issue 18)."""
    assert rule_ids_from_text(RULES) == ["T1", "DP-1", "TT-1", "TR-1", "OQ-01"]


def test_snapshot_matches_the_projects_rules_md() -> None:
    # The default is the in-project copy, so the tool works in a clone on its own.
    assert DEFAULT_RULES.parts[-3:] == ("docs", "rules", "RULES.md")
    assert snapshot_ids() == rule_ids_from_text(DEFAULT_RULES.read_text(encoding="utf-8"))


def test_missing_rules_file_falls_back_to_the_snapshot(tmp_path: Path) -> None:
    ids, source = load_rule_ids(tmp_path / "nope.md")
    assert ids == snapshot_ids() and "snapshot" in source


def test_names_docstrings_and_comments_cite_but_string_data_does_not(tmp_path: Path) -> None:
    (tmp_path / "test_x.py").write_text(
        'def test_a__AR_THR_1_M_THROW_BLOCK():\n'
        '    """Checks CB-3."""\n'
        '    ids = ["PU-2"]\n'
        '    assert ids  # and KD-1\n', encoding="utf-8")
    cited = citations(tmp_path, ["AR-THR-1", "M-THROW-BLOCK", "M-THROW", "CB-3", "PU-2", "KD-1"])
    assert {rid for rid, tests in cited.items() if tests} == {
        "AR-THR-1", "M-THROW-BLOCK", "CB-3", "KD-1"}


def test_ids_without_hyphens_are_cited_from_docstrings(tmp_path: Path) -> None:
    (tmp_path / "test_y.py").write_text(
        'def test_b():\n    """C10: the winner continues."""\n', encoding="utf-8")
    assert citations(tmp_path, ["C10", "C1"]) == {"C10": ["test_y.py::test_b"], "C1": []}


def test_faq_rulings_of_an_unimplemented_character_are_deferred_until_it_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """FR-SETSUKI-2 needs Setsuki's abilities (its prefix says whose): deferred while
    ``abilities_implemented("setsuki")`` is false, in scope (and uncited) once it is true."""
    monkeypatch.delitem(chars.IMPLEMENTED, "setsuki", raising=False)  # as before issue 14
    before = coverage(["FR-SETSUKI-2", "FR-GRAVE-1"], {})
    assert before.deferred == {
        "FR-SETSUKI-2": "needs Setsuki's abilities: a FAQ ruling on that character's card text"}
    assert before.uncited == ["FR-GRAVE-1"]


def test_implementing_a_character_brings_its_rules_into_scope(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a later issue registers Rook's rules, when coverage runs, then FR-ROOK-1, RW-13 and
    # OQ-12 are in-scope work (uncited here), and FR-ROOK-5 still waits for Setsuki.
    monkeypatch.setitem(chars.IMPLEMENTED, "rook", chars.CharacterRules)
    monkeypatch.delitem(chars.IMPLEMENTED, "setsuki", raising=False)  # as before issue 14
    after = coverage(["FR-ROOK-1", "RW-13", "OQ-12", "FR-ROOK-5"], {"RW-13": ["t.py::t"]})
    assert after.uncited == ["FR-ROOK-1", "OQ-12"]
    assert after.cited == {"RW-13": ["t.py::t"]}
    assert after.deferred == {"FR-ROOK-5": "needs Setsuki's abilities: Smoke Bomb counters "
                                           "Rock Armor"}


def test_generic_rules_are_never_deferred() -> None:
    """GEN-2 and the other generic rules stay in scope whatever the engine lacks."""
    generic = ["GEN-2", "GEN-9", "C10", "AB-6", "AB-7", "AB-10", "AB-12", "AB-13", "CTR-6",
               "OQ-24"]
    nothing = coverage(generic, {}, implemented=lambda cid: False, modes=frozenset())
    assert nothing.deferred == {} and nothing.uncited == generic
    assert [requirement(rid) for rid in generic] == [None] * len(generic)


def test_every_deferred_id_names_its_requirement() -> None:
    ids = snapshot_ids()
    cov = coverage(ids, {})
    # 58 with Grave and Jaina, less CH-6, CB-15, TV-PU-06 and TV-PU-07 (Valerie's any-order
    # chains, no longer listed in REQUIRES since her batch); each later character brings the IDs
    # it alone needs into scope
    now_in_scope = [rid for rid in ids if (r := requirement(rid)) is not None and r.characters
                    and not r.modes and set(r.characters) <= set(IMPLEMENTED) - {"grave", "jaina"}]
    # §11: every team-mode part is played: Tag Team and Dramatic Battle with snapbacks, tags
    # and assists; GL-TEAM, S-8, AB-14, INI-7 and OQ-14 came into scope with the two modes,
    # DP-8, KD-8 and OQ-25 with snapbacks (Triple Threat's, with OQ-17 and OQ-18, are in scope
    # since the engine plays it); PU-8 came into scope with the hard tag; P4, TG-11, OQ-21,
    # OQ-22 and OQ-32 with the tags (four of them were REQUIRES entries: the first "- 4"
    # below), the AS-* IDs and the five REQUIRES entries DP-3, DP-5, OQ-16, OQ-23 and OQ-28
    # with assists, OQ-15 (one of the 58) and TAG-LIMIT-2 with both
    came_with_tags, came_with_assists, came_with_both = 4, 5, 1
    assert not [rid for rid in cov.deferred if rid.startswith(("TG-", "TAG-", "SB-", "AS-",
                                                                "DB-"))]
    # §12 (issue 18): PU-9, HL-4, OQ-26 and OQ-27 came into scope with Training; the BOT rules
    # the bot does not play yet and TR-11 (abilities) are deferred
    bot_rules = [rid for rid in ids if rid.startswith("BOT-")]
    deferred_bot = [rid for rid in bot_rules if rid not in bot_parts_implemented()]
    played_bot = {p for p in bot_parts_implemented() if p.startswith("BOT-")}
    assert len(deferred_bot) == len(bot_rules) - len(played_bot)
    assert {"BOT-ARGAGARG", "BOT-TROQ", "BOT-GWEN"} <= bot_parts_implemented()
    tr_11_deferred = "TR-11" not in bot_parts_implemented()
    assert len(cov.deferred) == (58 - 4 - 2 - len(now_in_scope) - 9 - 4 + len(deferred_bot)
                                 + tr_11_deferred - came_with_tags - came_with_assists
                                 - came_with_both)
    assert not [rid for rid in cov.deferred if rid.startswith("TT-")]
    assert not {"CH-6", "CB-15", "TV-PU-06", "TV-PU-07"} & set(cov.deferred)
    for rid, reason in cov.deferred.items():
        req = requirement(rid)
        assert req is not None
        for cid in req.characters:  # the reason names what is still missing
            if not abilities_implemented(cid):
                assert f"{characters()[cid].name}'s abilities" in reason, rid
        for mode in req.modes:
            assert MODE_NAMES[mode] in reason, rid
    # only the Training bot's parts or characters not implemented yet defer a rule now (no
    # game mode, nor a part of one, is left unplayed)
    assert {m for rid in cov.deferred for m in requirement(rid).modes} == set()  # type: ignore[union-attr]
    for rid in cov.deferred:  # a deferred ID always waits for something not implemented yet
        req = requirement(rid)
        assert req is not None and (req.modes or req.bot_parts or any(
            not abilities_implemented(c) for c in req.characters)), rid


def test_the_requirement_table_names_real_ids_characters_and_modes() -> None:
    assert set(REQUIRES) <= set(snapshot_ids())
    assert {c for r in REQUIRES.values() for c in r.characters} <= set(characters())
    assert {m for r in REQUIRES.values() for m in r.modes} <= set(MODE_NAMES) - SUPPORTED_MODES
    assert all(r.why for r in REQUIRES.values())


def test_strict_fails_only_on_uncited_in_scope_ids(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delitem(chars.IMPLEMENTED, "setsuki", raising=False)  # as before issue 14
    rules = tmp_path / "RULES.md"
    rules.write_text("## 3. Turn\n- **T1** Start.\n## 10. Abilities\n"
                     "| FR-SETSUKI-2 | Smoke Bomb. |\n", encoding="utf-8")
    tests = tmp_path / "tests"
    tests.mkdir()
    # Given only the deferred FR-SETSUKI-2 is uncited, then --strict passes
    (tests / "test_a.py").write_text('def test_a():\n    """T1."""\n    Game()\n',
                                     encoding="utf-8")
    argv = ["coverage", "--rules", str(rules), "--tests", str(tests), "--strict"]
    assert main([*argv, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "source": str(rules), "cited": {"T1": ["test_a.py::test_a"]}, "uncited": [],
        "helper_only": {},
        "deferred": {"FR-SETSUKI-2": {
            "reason": "needs Setsuki's abilities: a FAQ ruling on that character's card text",
            "cited": []}}}
    # Given T1 is uncited too, then --strict fails and the text names it as remaining work
    (tests / "test_a.py").write_text("def test_a():\n    pass\n", encoding="utf-8")
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "T1"
    assert re.search(r"FR-SETSUKI-2 +needs Setsuki's abilities", out)


def test_strict_fails_on_ids_cited_by_helper_tests_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """A rule is covered only when a citing test drives the game: T1's only citing test calls a
    pure helper, so --strict fails and names T1; T2's drives a Game and is covered."""
    rules = tmp_path / "RULES.md"
    rules.write_text("## 3. Turn\n- **T1** Start.\n- **T2** Draw.\n", encoding="utf-8")
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_a.py").write_text(
        'def test_helper__T1():\n    assert cb.resolve("attack", 1, "throw", 2)\n\n'
        'def test_game__T2():\n    g = Game(a, b)\n    g.apply(P1, x)\n', encoding="utf-8")
    argv = ["coverage", "--rules", str(rules), "--tests", str(tests)]
    assert main([*argv, "--json"]) == 0  # without --strict it only reports
    report = json.loads(capsys.readouterr().out)
    assert report["cited"] == {"T2": ["test_a.py::test_game__T2"]}
    assert report["helper_only"] == {"T1": ["test_a.py::test_helper__T1"]}
    assert report["uncited"] == []
    assert main([*argv, "--strict"]) == 1
    out = capsys.readouterr().out
    assert "T1                     -- HELPER TESTS ONLY -- test_a.py::test_helper__T1" in out
    assert out.splitlines()[-1] == "T1"
    assert "1 cited by helper tests only" in out


def test_game_driving_is_found_through_helpers_and_fixtures(tmp_path: Path) -> None:
    """The criterion both ways: a Game, replay, play_game, new_game_for or timeline call in the
    test, or in a helper or fixture of the tests directory it uses (followed transitively,
    recursion included), drives the game; pure helpers and unknown functions do not."""
    (tmp_path / "helpers.py").write_text(
        "def recorded(h):\n    return Game(h)\n\n"
        "def two_steps(h):\n    return recorded(h)\n\n"
        "def pure(x):\n    return cb.resolve(x)\n\n"
        "def ping(n):\n    return pong(n)\n\n"
        "def pong(n):\n    return ping(n)\n\n"
        "def c_loop(n):\n    return d_loop(n)\n\n"
        "def d_loop(n):\n    return c_loop(n) or replay(n)\n", encoding="utf-8")
    (tmp_path / "conftest.py").write_text(
        "@pytest.fixture\ndef verdict():\n    return replay(b'{}')\n", encoding="utf-8")
    (tmp_path / "test_x.py").write_text(
        "def local_game():\n    return play_game('grave', 'jaina', 1)\n\n"
        "def test_direct():\n    Game(a, b)\n\n"
        "def test_through_helpers():\n    two_steps('2C')\n\n"
        "def test_through_a_fixture(verdict):\n    assert verdict\n\n"
        "def test_through_a_local_function():\n    local_game()\n\n"
        "def test_attribute_call():\n    engine.timeline(b'{}')\n\n"
        "def test_pure_helper():\n    cb.chain_lengths([])\n\n"
        "def test_local_pure_helper():\n    pure(1)\n\n"
        "def test_recursion_without_a_game():\n    ping(1)\n\n"
        # d_loop is judged first, cutting the cycle at c_loop; c_loop still drives the game
        "def test_recursion_reaching_a_game_first():\n    d_loop(1)\n\n"
        "def test_recursion_reaching_a_game_second():\n    c_loop(1)\n\n"
        "def test_name_only_in_a_string():\n    assert 'Game(' in 'Game('\n",
        encoding="utf-8")
    found = game_driving_tests(tmp_path)
    assert found == {f"test_x.py::{name}" for name in (
        "test_direct", "test_through_helpers", "test_through_a_fixture",
        "test_through_a_local_function", "test_attribute_call",
        "test_recursion_reaching_a_game_first", "test_recursion_reaching_a_game_second")}
    assert {"Game", "replay", "play_game", "new_game_for", "timeline", "new", "for_log", "play",
            "play_match"} == GAME_DRIVERS


def test_the_suites_helper_only_tests_are_found_as_such() -> None:
    """On the real suite: the combat-table test on ``combat.resolve`` and Valerie's chain-counting
    test do not drive the game; the same rules played in test_rules_driven.py do."""
    found = game_driving_tests(DEFAULT_TESTS)
    assert "test_rules_combos.py::test_valerie_any_order_chain__CH_6_CB_15_TV_PU_07" not in found
    assert ("test_rules_turn.py::test_combat_matrix__AR_1_AR_ATK_1_AR_THR_1_AR_JKR_1_AR_SPD_1_C6"
            "_GL_WIN") not in found
    assert ("test_rules_driven.py::test_a_throw_wins_hits_and_combos__AR_1_GL_WIN_M_THROW_THROW"
            "_M_THROW_DODGE_M_THROW_NOCARD") in found
    assert "test_rules_combos.py::test_valid_chain_3_4_5__TV_CB_01_CT_NORMAL_CH_4" in found
