"""Tag Team self-play sweep: every seeded game's log replays as legal, with the game's own
result (RULES.md §11.2; docs/log-format.md). Self-play found logs the verifier refused: Jaina's
Burning Vigor took a tag partner's combo card into her hand, a second card of a code she
held, and her next Power Up named both (PU-2). The lineups put the characters whose card text
takes combo cards back to hand (Jaina, Lum, BBB, Gloria, Vendetta) next to partners whose
cards they could take, and the random and greedy bots both play each seed."""

from __future__ import annotations

import pytest

from rules_engine.replay import replay
from rules_engine.selfplay import play_match
from rules_engine.team import Mode

LINEUPS = (
    (("grave", "jaina"), ("rook", "midori")),  # the lineup self-play found the bad logs with
    (("jaina", "lum"), ("bbb", "gloria")),
    (("vendetta", "onimaru"), ("setsuki", "zane")),
    (("geiger", "valerie"), ("menelker", "persephone")),
)
QUICK_SEEDS = (29, 53)  # the two seeds whose logs did not replay (random bot)


def _unreplayable(a: tuple[str, ...], b: tuple[str, ...], seeds: range | tuple[int, ...],
                  bots: tuple[str, ...]) -> list[str]:
    """Each game of ``a`` against ``b`` whose log does not replay legal, ending at the game's
    own position: its seed, bot and the verdict's summary."""
    bad: list[str] = []
    for seed in seeds:
        for bot in bots:
            game, log = play_match(Mode.TAG_TEAM, a, b, seed, bot=bot)
            verdict = replay(log.dumps())
            if verdict.status != "legal" or verdict.final is None \
                    or verdict.final["position"] != game.fingerprint():
                bad.append(f"{a} v {b} seed {seed} {bot}: {verdict.summary()}")
    return bad


def test_the_reported_tag_team_games_replay_legal__PU_2() -> None:
    """The two seeds of the reported lineup (grave, jaina) v (rook, midori) whose Power Up
    named one card twice (PU-2) now replay legal."""
    (a, b) = LINEUPS[0]
    assert _unreplayable(a, b, QUICK_SEEDS, ("random",)) == []


@pytest.mark.slow
@pytest.mark.parametrize("lineup", range(len(LINEUPS)))
def test_100_seeds_of_tag_team_self_play_replay_legal(lineup: int) -> None:
    """Property: 100 seeds of a lineup, each played by the random and the greedy bot, replay
    legal with the game's own final position."""
    a, b = LINEUPS[lineup]
    assert _unreplayable(a, b, range(100), ("random", "greedy")) == []
