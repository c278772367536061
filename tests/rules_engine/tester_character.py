"""A test-only character rule set for the ongoing/attached framework (rules_engine.effects).

"Tester" plays with Midori's cards (her Dragon moves say ``requires: "Dragon Form"``) and is
registered in tests only, the way the OQ-24 test registers its rule set:
``monkeypatch.setitem(chars.IMPLEMENTED, "midori", TesterRules)``. Its text (not Midori's):

- **Dragon Form** (every 2, Draw Phase): *Ongoing.* Your attacks are 0.2 faster and do +1
  damage. You can play Dragon moves. Up to 2 cards can be attached to this. Discard this if you
  get thrown. At the end of each turn, discard this if you did not attack this turn.
- **Reinforce** (innate, Draw Phase): attach a card with a block end from your hand to Dragon
  Form.
- **Brace** (innate, Draw Phase or End of Turn): discard a card attached to Dragon Form to draw
  a card.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from rules_engine import combat as cb
from rules_engine import effects
from rules_engine.actions import Action, UseAbility
from rules_engine.cards import Card, Move, MoveType, Rank
from rules_engine.characters import CharacterRules
from rules_engine.errors import RuleViolation
from rules_engine.modifiers import COMBAT_DAMAGE, COMBO_DAMAGE, SPEED, Modifier
from rules_engine.types import PlayerId

FORM = "Dragon Form"
REINFORCE = "Reinforce"
BRACE = "Brace"
LIMIT = 2

Step = Generator[Any, Any, None]


def _distinct(cards: list[Card]) -> list[Card]:
    return list(dict.fromkeys(cards))


def _faster(ps: Any, move: Move, speed: int) -> int:
    if move.type is MoveType.ATTACK and effects.is_active(ps, FORM):
        return speed - 2
    return speed


def _stronger(ps: Any, move: Move, damage: int) -> int:
    bonus = move.type is MoveType.ATTACK and effects.is_active(ps, FORM)
    return damage + (1 if bonus else 0)


def _stronger_combo_move(ps: Any, entry: Any, damage: int) -> int:
    if entry.played_in_c10 and entry.move.type is MoveType.ATTACK \
            and effects.is_active(ps, FORM):
        return damage + 1
    return damage


class TesterRules(CharacterRules):
    """The Tester's abilities, built only on rules_engine.effects, modifiers and the hooks."""

    abilities_implemented = True
    __test__ = False  # not a pytest class

    def _has_block(self, ps: Any, c: Card) -> bool:
        return any(m.type is MoveType.BLOCK for m in ps.character.moves_of(c))

    def window_options(self, game: Any, ps: Any, window: str) -> list[Action]:
        out: list[Action] = []
        form = effects.active(ps, FORM)
        if window == "draw_phase":
            if form is None:
                out += [UseAbility(FORM, c) for c in _distinct(ps.hand) if c.rank is Rank.TWO]
            elif len(form.attached) < LIMIT:
                out += [UseAbility(REINFORCE, c) for c in _distinct(ps.hand)
                        if self._has_block(ps, c)]
        if window in ("draw_phase", "end_of_turn") and form is not None:
            out += [UseAbility(BRACE, cards=(c,)) for c in form.attached]
        return out

    def can_act(self, game: Any, ps: Any, window: str) -> bool:
        return bool(self.window_options(game, ps, window))

    def check(self, game: Any, ps: Any, window: str, action: Action) -> None:
        if not isinstance(action, UseAbility):
            raise RuleViolation("INI-4", "play an ability or pass")
        form = effects.active(ps, FORM)
        if action.ability == REINFORCE:
            if form is None:
                raise RuleViolation("AB-1", "Reinforce attaches to Dragon Form, which is not "
                                            "in play")
            if window != "draw_phase":
                raise RuleViolation("WIN-DRAW", "Reinforce is played after the draw phase")
            effects.check_attach(ps, form)  # the card's limit (AB-2)
        if action.ability == FORM and form is not None:
            raise RuleViolation("AB-2", "Dragon Form is already in play")
        if action not in self.window_options(game, ps, window):
            if action.card is not None and action.card not in ps.hand:
                raise RuleViolation("AB-2", f"{action.card} is not in {ps.player.name}'s hand")
            raise RuleViolation("AB-2", f"{action.ability!r} cannot be played like this now")

    def play(self, game: Any, ps: Any, window: str, action: Action) -> Step:
        assert isinstance(action, UseAbility)
        form = effects.active(ps, FORM)
        if action.ability == FORM:
            assert action.card is not None
            yield from effects.play_ongoing(game, ps, action.card, FORM,
                                            ends_on={effects.Trigger.THROWN}, limit=LIMIT)
        elif action.ability == REINFORCE:
            assert action.card is not None
            effects.attach(game, ps, action.card, form, source=effects.Zone.HAND)
        else:
            effects.detach(game, ps, action.cards[0], form)
            yield from game.draw(ps, game.step)

    # --- modifiers while Dragon Form is in play -------------------------------------
    def modifiers(self, seat: PlayerId) -> list[Modifier[Any]]:
        """Dragon Form's numbers, as always-on modifiers that ask whether it is in play."""
        return [
            Modifier(SPEED, seat, _faster, FORM),
            Modifier(COMBAT_DAMAGE, seat, _stronger, FORM),
            Modifier(COMBO_DAMAGE, seat, _stronger_combo_move, FORM),
        ]

    def at_end_of_turn(self, game: Any, ps: Any) -> Step:
        form = effects.active(ps, FORM)
        if form is not None and ps.kind != cb.ATTACK:  # AB-8: the locked-in action
            effects.end(game, ps, form)
        return
        yield  # pragma: no cover
