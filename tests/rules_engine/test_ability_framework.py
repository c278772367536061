"""The ability framework itself (RULES.md §10), exercised with a test-only character rule set:
every window opens at its step, priority alternates, and "stats only" is reported honestly."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rules_engine import characters as chars
from rules_engine.actions import Action, NoCard, Pass, Stop, UseAbility
from rules_engine.characters import CharacterRules
from rules_engine.errors import RuleViolation
from rules_engine.replay import replay
from rules_engine.selfplay import play_game

from .helpers import P1, P2, combo, commit, draw, fight, recorded_game, won_combat

SEEN: list[tuple[str, str]] = []


class Probe(CharacterRules):
    """Offers one no-op ability "Probe" in every window, once per window opening."""

    abilities_implemented = True

    def __init__(self, character: object) -> None:
        super().__init__(character)  # type: ignore[arg-type]
        self.used: set[tuple[int, str, str]] = set()

    def _key(self, game: object, window: str) -> tuple[int, str, str]:
        return (game.turn, game.step, window)  # type: ignore[attr-defined]

    def can_act(self, game: object, ps: object, window: str) -> bool:  # type: ignore[override]
        return self._key(game, window) not in self.used

    def window_options(self, game: object, ps: object, window: str) -> list[Action]:  # type: ignore[override]
        return [UseAbility("Probe", option=window)] if self.can_act(game, ps, window) else []

    def check(self, game: object, ps: object, window: str, action: Action) -> None:  # type: ignore[override]
        if not isinstance(action, UseAbility) or action.ability != "Probe":
            raise RuleViolation("AB-2", "only Probe")

    def play(self, game: object, ps: object, window: str, action: Action) -> Iterator[object]:  # type: ignore[override]
        self.used.add(self._key(game, window))
        SEEN.append((game.step, window))  # type: ignore[attr-defined]
        return iter(())


@pytest.fixture
def probe_grave(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    SEEN.clear()
    monkeypatch.setitem(chars.IMPLEMENTED, "grave", Probe)
    yield


def _both_probe(g: object, window: str) -> None:
    """The initiative player plays Probe first; having nothing left, it passes without an
    event (INI-4); then the other player plays Probe; two passes in a row close it (INI-5)."""
    for _ in range(2):
        who = g.actor  # type: ignore[attr-defined]
        g.apply(who, UseAbility("Probe", option=window))  # type: ignore[attr-defined]


def test_windows_open_at_their_steps__WIN_REVEAL_WIN_FULLCOMBO_WIN_POWERUP_WIN_ENDTURN(
    probe_grave: None,
) -> None:
    """Also INI-4, INI-5 and WIN-ENDCOMBAT, WIN-DRAW: every window at its step, in order."""
    g = recorded_game("8C 2C 3C 4C 5C 6C 9S", "2D 3D 4D 5D 6D 8D 9D")
    fight(g, commit("8C", "throw"), NoCard())
    _both_probe(g, "combat_reveal")
    g.apply(P2, Pass())  # C9 Rewind window
    g.apply(P1, combo("2C"))
    g.apply(P1, combo("3C"))  # 2 + 1 + 1 = 4 = the limit: the full-combo window opens
    _both_probe(g, "full_combo")
    for window in ("end_of_combat", "power_up", "end_of_turn"):
        _both_probe(g, window)
    draw(g, g.actor, "KC")  # type: ignore[arg-type]
    draw(g, g.actor, "KD")  # type: ignore[arg-type]
    _both_probe(g, "draw_phase")
    assert [w for _, w in SEEN] == [
        w for w in ("combat_reveal", "full_combo", "end_of_combat", "power_up", "end_of_turn",
                    "draw_phase") for _ in range(2)]
    assert [s for s, _ in SEEN] == [
        s for s in ("C4", "C10", "C13", "P1", "K1", "T3") for _ in range(2)]
    assert g.step == "C1"


def test_stats_only_characters_are_reported__AB_1(monkeypatch: pytest.MonkeyPatch) -> None:
    from rules_engine import characters as chars

    monkeypatch.delitem(chars.IMPLEMENTED, "setsuki")  # stats only, as before issue 14
    _, log = play_game("setsuki", "grave", 3)
    verdict = replay(log.dumps())
    assert verdict.status == "legal" and verdict.abilities_complete is False
    _, log2 = play_game("jaina", "grave", 3)
    assert replay(log2.dumps()).abilities_complete is True


def test_stop_is_always_available_in_a_combo__CB_11() -> None:
    g = won_combat("2C 3C 4C 5C 6C 8C 9S", commit("2C", "attack"))
    assert Stop() in g.legal_actions(P1)
