"""Self-play: two bots play a seeded game and the engine writes its log.

Glossary: a *self-play log* is an ordinary log with seeded draws (version 1 for Versus,
version 2 for a team mode); replaying it must give the same result (the property tests check
this for thousands of games).

Responsibility: driving a :class:`Game` with bots and turning its history into a
:class:`MatchLog` with the claimed result.
"""

from __future__ import annotations

from rules_engine.bots import Bot, make_bot
from rules_engine.cards import character
from rules_engine.game import Game
from rules_engine.log import ClaimedResult, LogEvent, MatchLog
from rules_engine.ruleset import DEFAULT_RULESET, Ruleset
from rules_engine.team import Mode, Team


def play_game(
    p1: str,
    p2: str,
    seed: int,
    *,
    bots: tuple[Bot, Bot] | None = None,
    bot: str = "random",
    ruleset: Ruleset = DEFAULT_RULESET,
) -> tuple[Game, MatchLog]:
    """Play one seeded game between characters ``p1`` and ``p2``; return it and its log.

    When both players must act (C1), P1's commit is recorded first; commits are hidden until
    both are in, so the order carries no information.
    """
    if bots is None:
        bots = (make_bot(bot, seed * 2 + 1), make_bot(bot, seed * 2 + 2))
    game = Game(character(p1), character(p2), ruleset=ruleset, seed=seed)
    while not game.is_over:
        player = game.acting_players[0]  # the one acting, or P1 first when both commit (C1)
        legal = game.legal_actions(player)
        # a seat controlled by card text (Mistress's Command) is played by its controller's bot
        game.apply(player, bots[game.controller(player)].choose(game, player, legal))
    assert game.outcome is not None
    result = ClaimedResult(game.outcome.winner, game.outcome.termination, game.turn, game.life)
    log = MatchLog(
        characters=(p1, p2),
        events=tuple(LogEvent(p, a) for p, a in game.history),
        seed=seed,
        ruleset=ruleset,
        result=result,
    )
    return game, log


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
    """Play one seeded team-mode match (Triple Threat: three characters a side; Tag Team: two;
    Dramatic Battle: the lone character first, then the pair); return it and its version-2
    log, each event naming the seat and the character that acted (None for picks)."""
    if bots is None:
        bots = (make_bot(bot, seed * 2 + 1), make_bot(bot, seed * 2 + 2))
    game = Game.for_teams(mode, (Team.of(team1), Team.of(team2)), ruleset=ruleset, seed=seed)
    events: list[LogEvent] = []
    while not game.is_over:
        player = game.acting_players[0]  # the one acting, or P1 first when both commit (C1)
        picking = game.step in ("TT-2", "TT-4")
        acting = None if picking else game.state(player).character.id
        # a seat controlled by card text (Mistress's Command) is played by its controller's bot
        # each side's bot plays every seat of its side (Tag Team's bench too)
        bot_of = bots[game.table.side_of(game.controller(player))]
        action = bot_of.choose(game, player, game.legal_actions(player))
        game.apply(player, action)
        events.append(LogEvent(player, action, acting))
    assert game.outcome is not None
    result = ClaimedResult(game.outcome.winner, game.outcome.termination, game.turn, game.life)
    log = MatchLog(
        characters=(team1[0], team2[0]), events=tuple(events), seed=seed, ruleset=ruleset,
        result=result, mode=mode, sides=(Team.of(team1).members, Team.of(team2).members),
        version=2)
    return game, log
