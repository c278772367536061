"""Self-play: two bots play a seeded game and the engine writes its log.

Glossary: a *self-play log* is an ordinary version-1 log with seeded draws; replaying it must
give the same result (the property tests check this for thousands of games).

Responsibility: driving a :class:`Game` with bots and turning its history into a
:class:`MatchLog` with the claimed result.
"""

from __future__ import annotations

from rules_engine.bots import Bot, make_bot
from rules_engine.cards import character
from rules_engine.game import Game
from rules_engine.log import ClaimedResult, LogEvent, MatchLog
from rules_engine.ruleset import DEFAULT_RULESET, Ruleset
from rules_engine.types import Actor, PlayerId


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
        actor = game.actor
        player = game.acting_players[0] if actor is Actor.SIMULTANEOUS else actor
        assert isinstance(player, PlayerId)
        legal = game.legal_actions(player)
        game.apply(player, bots[player].choose(game, player, legal))
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
