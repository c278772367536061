"""Self-play: bots play a seeded game and the engine writes its log.

Glossary: a *self-play log* is an ordinary log with seeded draws (version 1 for Versus,
version 2 for the other modes); replaying it must give the same result (the property tests
check this for thousands of games).

Responsibility: driving a game with bots. The game is started by the front door
(:meth:`Game.new`) and its log written by the game itself (:meth:`Game.to_log`).
"""

from __future__ import annotations

from rules_engine.bots import Bot, make_bot
from rules_engine.game import Game
from rules_engine.log import MatchLog
from rules_engine.ruleset import DEFAULT_RULESET, Ruleset
from rules_engine.team import Mode


def play(
    mode: Mode,
    teams: tuple[tuple[str, ...], tuple[str, ...]],
    seed: int,
    *,
    bots: tuple[Bot, Bot] | None = None,
    bot: str = "random",
    ruleset: Ruleset = DEFAULT_RULESET,
) -> tuple[Game, MatchLog]:
    """Play one seeded game of ``mode`` between the sides ``teams`` (each its characters in
    declared order); return it and its log.

    Each side's bot plays every seat of its side (Tag Team's bench too); a seat controlled by
    card text (Mistress's Command) is played by its controller's bot. When both players must
    act (C1), P1's commit is recorded first; commits are hidden until both are in, so the order
    carries no information.
    """
    if bots is None:
        bots = (make_bot(bot, seed * 2 + 1), make_bot(bot, seed * 2 + 2))
    game = Game.new(mode, teams, ruleset=ruleset, seed=seed)
    side_of = game.table.side_of
    while not game.is_over:
        player = game.acting_players[0]  # the one acting, or P1 first when both commit (C1)
        chooser = bots[side_of(game.controller(player))]
        game.apply(player, chooser.choose(game, player, game.legal_actions(player)))
    return game, game.to_log()


def play_game(
    p1: str,
    p2: str,
    seed: int,
    *,
    bots: tuple[Bot, Bot] | None = None,
    bot: str = "random",
    ruleset: Ruleset = DEFAULT_RULESET,
) -> tuple[Game, MatchLog]:
    """Play one seeded Versus game between characters ``p1`` and ``p2`` (:func:`play`)."""
    return play(Mode.VERSUS, ((p1,), (p2,)), seed, bots=bots, bot=bot, ruleset=ruleset)


def play_match(
    mode: Mode,
    team1: tuple[str, ...],
    team2: tuple[str, ...],
    seed: int,
    *,
    bots: tuple[Bot, Bot] | None = None,
    bot: str = "random",
    ruleset: Ruleset = DEFAULT_RULESET,
) -> tuple[Game, MatchLog]:
    """Play one seeded game of a mode other than Versus (Triple Threat: three characters a
    side; Tag Team: two; Dramatic Battle: the lone character first, then the pair; Training:
    one each; Survival: the human, then the bots) (:func:`play`)."""
    return play(mode, (team1, team2), seed, bots=bots, bot=bot, ruleset=ruleset)
