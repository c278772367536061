"""BOT-VENDETTA (RULES.md §12.2): his swaps and Acrobatics.

"Would win" / "would lose" are judged as the rulebook's bot does (OQ-26): from public
information with the human's locked-in card revealed, by the combat matrix (``combat.resolve``)
at the speeds after card text (a knocked-down human's dodge counts as voided, KD-4; his King is
speed 1.0 against a knocked-down human, Wall Dive Loop).

- The swaps (at C1, when he turns over his combat card, TR-5): if it is a normal attack that
  loses combat, he swaps in the fastest normal attack from his hand if that wins; failing that,
  if the human is knocked down, the throw end of a King from his hand if that wins. The
  turned-over card stays in his hand (as an illegal card does, TR-6) and the swapped-in card is
  his combat card.
- Acrobatics (TR-11 overridden): at the combat reveal whenever he would lose to an Ace, to a
  move doing 10 or more damage, or lose the game without it (the human's move deals at least his
  life); the dodge it costs is his lowest-rank one (ties by hand order).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine import combat as cb
from rules_engine.actions import Action, Commit, Pass, UseAbility
from rules_engine.cards import Card, Move, MoveType, Rank
from rules_engine.characters.vendetta import ACROBATICS, LOOP_SPEED
from rules_engine.modifiers import SPEED
from rules_engine.state import Decision, PlayerState
from rules_engine.training.characters.base import BotRules

if TYPE_CHECKING:
    from rules_engine.game.core import GameCore

#: Acrobatics against a move doing at least this much damage.
BIG_HIT = 10


def _kind(ps: PlayerState, kind: str) -> str:
    """KD-4: a knocked-down player's dodge is voided (no-card)."""
    return cb.NONE if kind == cb.DODGE and ps.knocked_down else kind


def _human_speed(game: GameCore, human: PlayerState) -> int | None:
    return game.speed(human)


def wins_with(game: GameCore, ps: PlayerState, c: Card, m: Move) -> bool:
    """Whether ``ps`` playing ``m`` of ``c`` would win combat against the human's revealed card."""
    human = game.opponent(ps)
    played = game.played_move(ps, c, m)
    speed = played.speed
    if speed is not None:
        speed = max(game.modifiers.fold(SPEED, ps, played, speed), 0)
        if c.rank is Rank.KING and human.knocked_down:
            speed = LOOP_SPEED  # Wall Dive Loop
    mine = 0 if game.actives[0] is ps else 1
    kinds = [_kind(ps, cb.KIND_OF_MOVE[m.type]), _kind(human, human.kind)]
    speeds = [speed, _human_speed(game, human)]
    if mine == 1:
        kinds.reverse()
        speeds.reverse()
    return cb.resolve(kinds[0], speeds[0], kinds[1], speeds[1], game.ruleset).winner == mine


class VendettaBot(BotRules):
    """BOT-VENDETTA: a losing normal attack is swapped for the fastest normal attack from hand
    if that wins, else (the human knocked down) a King's throw if that wins; Acrobatics when he
    would lose to an Ace, to 10 or more damage, or lose the game."""

    def choose(self, game: GameCore, ps: PlayerState, decision: Decision,
               legal: list[Action]) -> Action | None:
        if decision.step == "C1" and any(isinstance(a, Commit) for a in legal):
            return self._commit(game, ps, decision)
        acrobatics = [a for a in legal if isinstance(a, UseAbility) and a.ability == ACROBATICS]
        if acrobatics:
            return self._acrobatics(game, ps, acrobatics)
        return None

    @staticmethod
    def _commit(game: GameCore, ps: PlayerState, decision: Decision) -> Action:
        from rules_engine.training import bot

        turned = bot._commit(game, ps, decision)  # TR-5 / TR-6 / TR-7
        if not isinstance(turned, Commit) or turned.move is not MoveType.ATTACK:
            return turned
        m = game.played_move(ps, turned.card, ps.character.find_move(
            turned.card, turned.move, turned.name) or _no_move())
        if not m.is_normal_attack or wins_with(game, ps, turned.card, m):
            return turned
        legal = decision.options(ps.player)
        normals: list[tuple[int, int, Commit, Move]] = []
        for c in ps.hand:
            if c is turned.card:
                continue
            for end in ps.character.moves_of(c):
                played = game.played_move(ps, c, end)
                if end.type is MoveType.ATTACK and played.is_normal_attack \
                        and played.speed is not None:
                    action = Commit(c, end.type, end.name if _named(ps, c, end) else None)
                    if action in legal:
                        normals.append((played.speed, ps.hand.index(c), action, end))
        if normals:
            _, _, fastest, end = min(normals, key=lambda t: (t[0], t[1]))
            if wins_with(game, ps, fastest.card, end):
                return fastest
        if game.opponent(ps).knocked_down:
            for c in ps.hand:
                if c is turned.card or c.rank is not Rank.KING:
                    continue
                for end in ps.character.moves_of(c):
                    action = Commit(c, end.type, end.name if _named(ps, c, end) else None)
                    if end.type is MoveType.THROW and action in legal \
                            and wins_with(game, ps, c, end):
                        return action
        return turned

    @staticmethod
    def _acrobatics(game: GameCore, ps: PlayerState, options: list[UseAbility]) -> Action:
        human = game.opponent(ps)
        m = human.combat_move
        c = human.combat_card
        if m is None or c is None:
            return Pass()
        mine = 0 if game.actives[0] is ps else 1
        kinds = [_kind(ps, ps.kind), _kind(human, human.kind)]
        speeds = [game.speed(ps), game.speed(human)]
        if mine == 1:
            kinds.reverse()
            speeds.reverse()
        result = cb.resolve(kinds[0], speeds[0], kinds[1], speeds[1], game.ruleset)
        if result.winner != 1 - mine:
            return Pass()
        damage = m.damage  # the locked-in move, after card text (MOVE)
        if not (c.is_ace or damage >= BIG_HIT or damage >= ps.life):
            return Pass()
        return min(options, key=lambda a: (int(a.cards[0].rank or 0),
                                           ps.hand.index(a.cards[0]), ps.hand.index(a.card)
                                           if a.card is not None else 0))


def _named(ps: PlayerState, c: Card, m: Move) -> bool:
    return sum(1 for o in ps.character.moves_of(c) if o.type is m.type) > 1


def _no_move() -> Move:  # pragma: no cover - a committed end is always one of the card's
    raise AssertionError("a committed end has no Move")
