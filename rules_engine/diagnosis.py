"""Diagnosis of an illegal event: what the player was trying to do, and why it was not allowed.

Glossary: a *skipped decision* is one the engine settled by itself, with no event (a combo with
no legal move left, a Rewind window that cannot open, a window nobody can act in, a Power Up
with nothing to power up, a hand within the limit). An event that does not fit the decision the
game waits for was usually meant for one of those: a combo move past the combo-point limit
arrives when the combo has already ended and the game waits for the next draw.

Responsibility: explain the first illegal event of a log in a player's words. The log is
replayed again up to the last legal event; while that event is applied, the game offers the
illegal event to every decision it settles by itself that takes its kind of action (a combo
move at C10, a face-down card at C9, a Power Up at P2, an ability in a window) from its player,
checked right then, in that state (``Game.diagnosing``, a :class:`~rules_engine.state.Probe`):
the first refusal's rule and reason are the diagnosis. If none fits, the characters and the
mode are asked whether the event breaks one of their own rules (``Game.rule_broken``: Defense
Mastery, a snapback against a lone character, a card committed after a hard tag); if none
says so, the event "does not fit here", and the diagnosis names what the game expected. This
module decides no rule: every reason comes from the game's own checks.
"""

from __future__ import annotations

from typing import Any

from rules_engine.actions import (
    Accept,
    Action,
    Assist,
    Combo,
    Commit,
    Discard,
    Draw,
    FaceDown,
    Keep,
    NoCard,
    Pass,
    PayAces,
    PowerUp,
    Pump,
    Reveal,
    Search,
    Stop,
    Swap,
    UseAbility,
    WinInitiative,
)
from rules_engine.errors import EngineInvariantError, IllegalActionError
from rules_engine.game import Game
from rules_engine.log import MatchLog
from rules_engine.rules_text import rule_text
from rules_engine.state import Probe

# What a decision that takes these actions asks of its player, in words.
_EXPECTED: tuple[tuple[tuple[type[Action], ...], str], ...] = (
    ((Draw,), "record the card they drew"),
    ((Reveal,), "record the card they revealed at random"),
    ((WinInitiative,), "record who won the initiative"),
    ((Commit, NoCard), "commit a combat card or declare no-card"),
    ((Assist,), "place an assist face down or pass"),  # AS-2 (Tag Team's bench)
    ((Swap,), "swap the assist in or pass"),  # AS-6
    ((PayAces,), "choose the Aces that pay the mandatory cost"),
    ((Keep,), "keep their combat card or choose again"),
    ((FaceDown,), "place a Rewind or bluff card face down, or pass"),
    ((Combo, Pump, Stop), "add a combo move, pump, or end the combo"),
    ((Accept,), "accept or refuse the Rewind draw"),
    ((Search,), "take the Aces owed"),
    ((PowerUp,), "power up or pass"),
    ((Discard,), "discard down to the hand limit"),
    ((UseAbility,), "play an ability or pass"),
)


# A game just before the illegal event, with the probe of that event (None: none was made),
# so that a diagnosis needs no replay of its own (``replay(..., in_place=True)``)
At = tuple[Game, Probe | None]


def explain(log: MatchLog, error: dict[str, Any], at: At | None = None) -> dict[str, Any]:
    """The first illegal event of ``log`` (a verdict's ``first_error``), diagnosed: what was
    tried, which rule forbids it, what the game expected; with the words of its rule. ``at``:
    the game as it stands before that event (else the log is replayed up to it)."""
    better = diagnose(log, error["index"], at) if error.get("rule_id") != "END-1" else None
    if better is not None:
        error = {**error, "turn": better["turn"], "step": better["step"],
                 "reason": better["reason"], "expected": better["expected"],
                 "rule_id": better["rule_id"] or error["rule_id"]}
    rule_id = error.get("rule_id")
    return {**error, "rule_text": rule_text(rule_id) if rule_id else None}


def expected_words(game: Game) -> str:
    """What the game is waiting for, e.g. "P2 to record the card they drew (turn 2, T2)"."""
    if game.is_over:
        return "nothing: the game is over"
    kinds = {type(a) for p in game.acting_players for a in game.legal_actions(p)} - {Pass}
    what = next((words for types, words in _EXPECTED if kinds & set(types)),
                "play an ability or pass")
    who = " and ".join(p.name for p in game.acting_players)
    return f"{who} to {what} (turn {game.turn}, {game.step})"


def diagnose(log: MatchLog, index: int, at: At | None = None) -> dict[str, Any] | None:
    """A better account of illegal event ``index`` than the decision it fell on, or None when
    that decision's own check already says it (the event was the kind of choice it takes).
    ``at``: the game just before the event and its probe (else the log is replayed)."""
    if index < 1 or index >= len(log.events):
        return None  # nothing before it to diagnose from, or no event (END-1)
    event = log.events[index]
    if at is None:
        try:
            game = Game.for_log(log)
            for e in log.events[: index - 1]:
                game.apply(e.player, e.action)
            game.diagnosing = Probe(event.player, event.action)
            last = log.events[index - 1]
            game.apply(last.player, last.action)
        except (IllegalActionError, EngineInvariantError):
            return None  # not the log the verifier replayed: leave its verdict as it is
        found: Probe | None = game.diagnosing
        game.diagnosing = None
    else:
        game, found = at
    probe = found if found is not None else Probe(event.player, event.action)
    if not game.is_over and event.player in game.acting_players:
        fits = {type(a) for a in game.legal_actions(event.player)}
        if type(event.action) in fits:
            return None  # the right kind of choice at the right time: its check said why
    if probe.found:
        turn, step, why = probe.found[0]
        return {"turn": turn, "step": step, "rule_id": why.rule_id, "reason": why.reason,
                "expected": expected_words(game)}
    broken = game.rule_broken(event.player, event.action)  # a character's or the mode's rule
    if broken is not None:
        return {"turn": game.turn, "step": game.step, "rule_id": broken.rule_id,
                "reason": broken.reason, "expected": expected_words(game)}
    if game.is_over:
        return None  # END-2 says it: nothing was due after the end
    decision = game.position()
    return {"turn": decision.turn, "step": decision.step, "rule_id": None,
            "reason": f"this event does not fit here: the game expected "
                      f"{expected_words(game)}",
            "expected": expected_words(game)}


def board_before(log: MatchLog, index: int, *, recent: int = 6) -> dict[str, Any] | None:
    """The position just before event ``index`` (the first illegal one): the public state of
    both sides (GEN-9) with the hand of the player who made that event, and the last ``recent``
    events before it. None when the events before it cannot be replayed."""
    if not 0 <= index <= len(log.events):
        return None
    try:
        game = Game.for_log(log)
        for e in log.events[:index]:
            game.apply(e.player, e.action)
    except (IllegalActionError, EngineInvariantError):
        return None
    return board_at(game, log, index, recent=recent)


def board_at(game: Game, log: MatchLog, index: int, *, recent: int = 6) -> dict[str, Any]:
    """:func:`board_before` of ``game``, the game of ``log`` just before event ``index``."""
    viewer = log.events[index].player if index < len(log.events) else None
    start = max(0, index - recent)
    return {
        "index": index,
        "viewer": None if viewer is None else viewer.name,
        "view": game.public_view(viewer),
        "expected": expected_words(game),
        "recent": [{"index": i, "player": e.player.name, "action": str(e.action)}
                   for i, e in enumerate(log.events[start:index], start)],
    }
