"""One front door (issue 30, part 2): ``Game.new(mode, teams, *, seed, ruleset)`` starts a game
of every mode and ``game.to_log()`` writes any game's log; self-play, the bots' harnesses and
rooms construct games and write logs only through them.

The property: a log written by ``to_log`` for a seeded game of each mode and seating replays
(through text) as legal, to the same result and the same final position, and writing it
again from the replayed game gives the same text."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rules_engine.cards import characters
from rules_engine.game import Game
from rules_engine.log import parse_log
from rules_engine.replay import replay
from rules_engine.ruleset import Ruleset
from rules_engine.selfplay import play
from rules_engine.team import Mode, Team

REPO = Path(__file__).resolve().parents[2]
IDS = sorted(characters())
MODES = [(Mode.VERSUS, (1, 1)), (Mode.TRIPLE_THREAT, (3, 3)), (Mode.TAG_TEAM, (2, 2)),
         (Mode.DRAMATIC_BATTLE, (1, 2)), (Mode.DRAMATIC_BATTLE, (2, 1)),
         (Mode.TRAINING, (1, 1)), (Mode.SURVIVAL, (1, 3))]


def _sides(i: int, sizes: tuple[int, int]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    a = tuple(IDS[(i * 3 + 5 * k) % 20] for k in range(sizes[0]))
    rest = [c for c in IDS if c not in a]
    return a, tuple(rest[(i * 7 + 6 * k) % len(rest)] for k in range(sizes[1]))


@pytest.mark.parametrize(("mode", "sizes"), MODES,
                         ids=[f"{m.value}-{a}v{b}" for m, (a, b) in MODES])
def test_a_log_written_by_to_log_replays_to_the_same_game(
        mode: Mode, sizes: tuple[int, int]) -> None:
    for i in range(6):
        # given a seeded game of the mode, played by bots from Game.new
        game, log = play(mode, _sides(i, sizes), 7000 + i, bot="greedy" if i % 2 else "random")
        assert game.outcome is not None
        text = log.dumps()
        # when its log is read back and replayed
        verdict = replay(text)
        # then it is legal, with the game's own result and final position
        assert verdict.status == "legal", verdict.summary()
        assert verdict.final is not None
        assert (verdict.final["winner"], verdict.final["how"], verdict.final["turns"],
                verdict.final["position"]) == (
            None if game.outcome.winner is None else game.outcome.winner.name,
            game.outcome.termination.value, game.turn, game.fingerprint())
        # and the game the log describes, played through, writes the same log
        again = Game.for_log(parse_log(text))
        for event in parse_log(text).events:
            again.apply(event.player, event.action)
        assert again.to_log().dumps() == text
        assert parse_log(text).version == (1 if mode is Mode.VERSUS else 2)


def test_an_unfinished_game_writes_its_choices_so_far_without_a_result() -> None:
    game = Game.new(Mode.TAG_TEAM, (("grave", "jaina"), ("rook", "midori")), seed=3)
    player = game.acting_players[0]
    game.apply(player, game.legal_actions(player)[0])
    log = game.to_log(names=("Ann", "Bo"), controllers=(("Ann", "Cy"), None))
    assert log.result is None and len(log.events) == 1
    assert log.events[0].character == game.acting[0] == "grave"
    assert log.names == ("Ann", "Bo")
    assert log.sides is not None
    assert [m.controller for m in log.sides[0]] == ["Ann", "Cy"]
    assert parse_log(log.dumps()).events == log.events


def test_a_ruleset_and_a_roster_with_players_go_through_the_front_door() -> None:
    ruleset = Ruleset(maxTurns=40)
    team = Team.of(("grave", "jaina"), ("Ann", "Cy"))
    game = Game.new(Mode.TAG_TEAM, (team, ("rook", "midori")), seed=5, ruleset=ruleset)
    assert game.ruleset == ruleset
    log = game.to_log()
    assert log.sides is not None and [m.controller for m in log.sides[0]] == ["Ann", "Cy"]
    assert log.ruleset == ruleset
    assert parse_log(log.dumps()).ruleset.maxTurns == 40


@pytest.mark.parametrize(("mode", "teams", "says"), [
    (Mode.VERSUS, (("grave", "jaina"), ("rook",)), "side 1: a Versus side is 1"),
    (Mode.TAG_TEAM, (("grave",), ("rook", "midori")), "side 1: a Tag Team side is 2"),
    (Mode.TRIPLE_THREAT, (("grave", "grave", "jaina"), ("rook", "lum", "zane")),
     "3 different characters"),
    (Mode.VERSUS, ("grave", "nobody"), "side 2: unknown character 'nobody'"),
    (Mode.DRAMATIC_BATTLE, (("grave", "jaina"), ("rook", "lum")), "side 2: a Dramatic Battle"),
])
def test_a_side_the_mode_does_not_take_is_refused_by_name(
        mode: Mode, teams: tuple[tuple[str, ...], tuple[str, ...]], says: str) -> None:
    with pytest.raises(ValueError, match=says):
        Game.new(mode, teams, seed=1)


def test_a_log_names_the_ruleset_declared_not_the_one_a_mode_plays_under() -> None:
    # Training removes the Jokers whatever the ruleset says (TR-1); its log keeps the ruleset
    game = Game.new(Mode.TRAINING, ("grave", "jaina"), seed=4, ruleset=Ruleset(maxTurns=30))
    assert game.ruleset != game.declared_ruleset
    assert game.to_log().ruleset == Ruleset(maxTurns=30)
    assert game.to_log().to_json()["ruleset"] == {"maxTurns": 30}


def test_a_training_game_is_always_seeded() -> None:
    with pytest.raises(ValueError, match="TR-5"):
        Game.new(Mode.TRAINING, ("grave", "jaina"), seed=None)


# The modules that start games or write logs for rooms, self-play and the bots' harnesses:
# only through Game.new / Game.for_log and Game.to_log.
CALLERS = ["rooms/games.py", "rooms/services.py", "rooms/selectors.py", "rooms/replay.py",
           "rules_engine/selfplay.py", "rules_engine/bench.py", "rules_engine/bench_bots.py",
           "rules_engine/cli.py", "rules_engine/strong_bot.py", "rules_engine/bots.py",
           "rules_engine/training/__init__.py", "simulations/services.py"]
PRIVATE = {"Game", "MatchLog", "LogEvent", "ClaimedResult", "for_teams", "training_game",
           "survival_game"}


def test_rooms_self_play_and_the_harnesses_construct_games_only_through_the_front_door() -> None:
    found = []
    for path in CALLERS:
        tree = ast.parse((REPO / path).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                f = node.func
                name = f.id if isinstance(f, ast.Name) else (
                    f.attr if isinstance(f, ast.Attribute) else None)
                if name in PRIVATE and not (  # python-chess's game: the bench's anchor
                        isinstance(f, ast.Attribute) and ast.unparse(f.value) == "chess.pgn"):
                    found.append(f"{path}:{node.lineno} {name}(...)")
    assert found == []
