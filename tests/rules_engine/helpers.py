"""Test helpers: tabletop (recorded-draw) games with chosen hands, so scenarios are exact."""

from __future__ import annotations

from typing import Any

import pytest

from rules_engine.actions import Action, Combo, Commit, Draw, NoCard, WinInitiative
from rules_engine.cards import MoveType, card, character
from rules_engine.game import Game
from rules_engine.ruleset import DEFAULT_RULESET, Ruleset
from rules_engine.types import PlayerId

P1, P2 = PlayerId.P1, PlayerId.P2

# A test that records the Training bot's choices by patching ``Training.derive``: a class mypyc
# compiled cannot be patched, so ``make test-compiled`` leaves these out (``make test`` runs them)
records_training_bot = pytest.mark.interpreted_only


def cards(text: str) -> tuple:
    return tuple(card(c) for c in text.split())


def recorded_game(
    hand1: str, hand2: str, *, p1: str = "grave", p2: str = "grave", first: PlayerId = P1,
    ruleset: Ruleset = DEFAULT_RULESET,
) -> Game:
    """A recorded-draw game after the opening hands (7 cards each) and the coin flip."""
    g = Game(character(p1), character(p2), ruleset=ruleset)
    for c in cards(hand1):
        g.apply(P1, Draw(c))
    for c in cards(hand2):
        g.apply(P2, Draw(c))
    if g.step == "S-6":
        g.apply(first, WinInitiative())
    return g


def commit(code: str | None, move: str | None = None, name: str | None = None) -> Action:
    if code is None:
        return NoCard()
    return Commit(card(code), None if move is None else MoveType(move), name)


def combo(code: str, move: str = "attack", name: str | None = None, aces: str = "") -> Combo:
    return Combo(card(code), MoveType(move), name, cards(aces) if aces else ())


def fight(g: Game, a1: Action, a2: Action) -> None:
    """Both C1 commits."""
    g.apply(P1, a1)
    g.apply(P2, a2)


def draw(g: Game, player: PlayerId, code: str) -> None:
    g.apply(player, Draw(card(code)))


PLAIN = "2D 3D 4D 5D 6D 8D 9D"  # a Grave hand with nothing to play outside combat


def won_combat(hand1: str, combat: Action, *, p1: str = "grave", hand2: str = PLAIN,
               ruleset: Ruleset = DEFAULT_RULESET) -> Game:
    """P1 wins turn 1's combat with ``combat`` against P2's no-card; P2 places no card."""
    g = recorded_game(hand1, hand2, p1=p1, ruleset=ruleset)
    g.apply(P1, combat)
    g.apply(P2, NoCard())
    if g.step == "C7":
        draw(g, P1, "TH")
    if g.step == "C9" and g.actor is P2:
        from rules_engine.actions import Pass

        g.apply(P2, Pass())
    return g


def with_move(name: str, rank_code: str, **changes: object) -> object:
    """A copy of a character whose moves on ``rank_code`` have ``changes`` (synthetic data for
    rule vectors the printed decks cannot reach)."""
    import dataclasses

    from rules_engine.cards import RANK_BY_CODE

    c = character(name)
    rank = RANK_BY_CODE[rank_code]
    moves = dict(c.moves)
    moves[rank] = tuple(
        dataclasses.replace(m, **changes) if m.is_attack_or_throw else m  # type: ignore[arg-type]
        for m in moves[rank])
    return dataclasses.replace(c, moves=moves)


def illegal_rule(g: Game, player: object, action: object) -> str:
    """The rule ID the game cites when it refuses ``action`` by ``player`` (it must refuse)."""
    import pytest

    from rules_engine.errors import IllegalActionError

    with pytest.raises(IllegalActionError) as err:
        g.apply(player, action)  # type: ignore[arg-type]
    return err.value.rule_id


def finish_turn(g: Game, turn: int) -> None:
    """Decline everything optional until turn ``turn`` is over."""
    from rules_engine.actions import Pass, PowerUp, Stop

    while g.turn == turn and g.outcome is None:
        actor = g.actor
        legal = g.legal_actions(actor)  # type: ignore[arg-type]
        for pick in (Pass(), Stop(), PowerUp()):
            if pick in legal:
                g.apply(actor, pick)  # type: ignore[arg-type]
                break
        else:
            g.apply(actor, legal[0])  # type: ignore[arg-type]


def assert_self_play_replays_legal(character_id: str, opponent: str, first_seed: int) -> None:
    """Self-play of ``character_id`` against ``opponent`` replays as legal: in both seats (seed
    ``first_seed`` with ``character_id`` as P1, ``first_seed + 1`` as P2), with the random and
    the greedy bot, each log's replay ends at the game's own position, and the verdict reports
    complete abilities exactly when both characters have them all."""
    from rules_engine.characters import IMPLEMENTED
    from rules_engine.replay import replay
    from rules_engine.selfplay import play_game

    seatings = [(character_id, opponent), (opponent, character_id)]
    for seed, (p1, p2) in enumerate(seatings, start=first_seed):
        for bot in ("random", "greedy"):
            game, log = play_game(p1, p2, seed, bot=bot)
            verdict = replay(log.dumps())
            assert verdict.status == "legal", verdict.summary()
            assert verdict.final is not None
            assert verdict.final["position"] == game.fingerprint()
            assert verdict.to_dict()["abilities_complete"] is (
                p1 in IMPLEMENTED and p2 in IMPLEMENTED)


def deal_hand(g: Game, seat: PlayerId, codes: str) -> None:
    """A position set up for the test: ``seat``'s hand is exactly ``codes``, taken from its
    deck (the cards it held go back to the deck first)."""
    ps = g.state(seat)
    ps.deck.extend(ps.hand)
    ps.hand.clear()
    for code in codes.split():
        c = card(code)
        ps.deck.remove(c)
        ps.hand.append(c)


def first_error(g: Game, player: PlayerId, action: Action) -> dict[str, Any]:
    """The verdict's first error (with its rule's words) for a Versus game's events so far plus
    ``action`` by ``player``, which must be that error."""
    from rules_engine.log import LogEvent, MatchLog
    from rules_engine.replay import replay

    chars = (g.state(P1).character.id, g.state(P2).character.id)
    log = MatchLog(characters=chars, ruleset=g.ruleset,
                   events=(*(LogEvent(p, a) for p, a in g.history), LogEvent(player, action)))
    verdict = replay(log)
    assert verdict.status == "illegal" and verdict.first_error is not None
    assert verdict.first_error["index"] == len(g.history)
    assert verdict.first_error["rule_text"]
    return verdict.first_error

