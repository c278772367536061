"""Character abilities: one module per character, each a :class:`CharacterRules` subclass.

Glossary (RULES.md §10): *innate* (AB-1) = always-on character-card ability; *card ability*
(AB-2) = printed on deck cards, played from hand in its timing window; *During Combat* (AB-3) =
part of a move, active while that card is the combat card or a combo move; *window* (WIN table)
= draw_phase (T3), combat_reveal (C4), end_of_combat (C13b), end_of_turn (K1), full_combo (C10).

*Ongoing* / *attached* cards (cards that stay in play) are :mod:`rules_engine.effects`: a module
plays an ongoing card with ``effects.play_ongoing``, asks ``effects.active`` in its modifier hooks
and ends or attaches with ``effects.end`` / ``effects.attach``; ``has_state`` connects a move's
``requires`` to an active effect of that name.

Responsibility: the hooks the game calls at each step. The base class is the behaviour of a
character whose abilities are not implemented yet: card stats only, no ability ever playable.
``IMPLEMENTED`` says which characters are complete; a verdict on a log with any other character
reports ``abilities_complete: false``.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import TYPE_CHECKING

from rules_engine import combat as cb
from rules_engine import effects
from rules_engine.actions import Action, Pass
from rules_engine.cards import Card, Character, Move
from rules_engine.errors import RuleViolation

if TYPE_CHECKING:
    from rules_engine.game import ComboEntry, Decision, Game, PlayerState
    from rules_engine.types import PlayerId

    Step = Generator[Decision, tuple[PlayerId, Action], None]


class CharacterRules:
    """Default hooks: a character played with its card stats only (no abilities)."""

    abilities_implemented = False
    chains_any_order = False  # CH-6 (Valerie)
    hand_limit = 12  # HL-2

    def __init__(self, character: Character) -> None:
        self.character = character

    # --- ability windows (INI-4) ------------------------------------------------------
    def can_act(self, game: Game, ps: PlayerState, window: str) -> bool:
        """Whether this player has any ability to play in ``window`` now."""
        return False

    def window_options(self, game: Game, ps: PlayerState, window: str) -> list[Action]:
        return []

    def check(self, game: Game, ps: PlayerState, window: str, action: Action) -> None:
        raise RuleViolation("AB-2", f"{self.character.name} has no ability to play here "
                                    "(abilities of this character are not implemented)")

    def play(self, game: Game, ps: PlayerState, window: str, action: Action) -> Step:
        return
        yield  # pragma: no cover - makes this a generator

    # --- combat hooks -----------------------------------------------------------------
    def check_move_allowed(self, game: Game, ps: PlayerState, move: Move, step: str) -> None:
        """Moves needing a state (Dragon Form, Long Range, attached blocks) need that state."""
        if move.requires is not None and not self.has_state(game, ps, move.requires):
            raise RuleViolation(
                "GEN-1", f"{move.label} can only be played with {move.requires} "
                         f"(card text), which {self.character.name} does not have")

    def has_state(self, game: Game, ps: PlayerState, state: str) -> bool:
        """Whether ``ps`` is in ``state`` (a move's ``requires``). By default: an ongoing effect
        of that name is active (Dragon Form). Override for other states ("Long Range",
        "2 attached blocks": ``len(ps.attached) >= 2``)."""
        return effects.is_active(ps, state)

    def speed(self, game: Game, ps: PlayerState, move: Move, speed: int) -> int:
        return speed

    def after_reveal(self, game: Game, ps: PlayerState) -> Step:
        return
        yield  # pragma: no cover

    def after_winner(self, game: Game, ps: PlayerState, winner: PlayerState | None) -> Step:
        return
        yield  # pragma: no cover

    def combat_card_damage(self, game: Game, ps: PlayerState, move: Move) -> int:
        """C8c: the base damage a hitting combat card deals (card text may change it)."""
        return move.damage

    def combo_damage(self, game: Game, ps: PlayerState, entry: ComboEntry, damage: int) -> int:
        """C12: the damage one combo entry deals (base + pumps), after card text."""
        return damage

    def block_draw_prevented(self, game: Game, attacker: PlayerState,
                             blocker: PlayerState) -> Generator[Decision, tuple[PlayerId, Action],
                                                                bool]:
        """C8b: whether this attacker's card text stops the blocker's draw (AR-BLK-1)."""
        return False
        yield  # pragma: no cover

    def after_block(self, game: Game, ps: PlayerState, attacker: PlayerState) -> Step:
        """C8b, after the block draw: this player's block beat an attack."""
        return
        yield  # pragma: no cover

    def on_lock_in(self, game: Game, ps: PlayerState) -> Step:
        """C5, after voids: the combat actions are fixed."""
        return
        yield  # pragma: no cover

    def start_of_turn(self, game: Game, ps: PlayerState) -> None:
        """T1: clear this character's one-turn effects."""
        return None

    # --- counters (CTR) ---------------------------------------------------------------
    def can_counter(self, game: Game, ps: PlayerState, ability: str) -> bool:
        """Whether this player holds a Reaction that can counter ``ability`` now."""
        return False

    def counter_options(self, game: Game, ps: PlayerState, ability: str) -> list[Action]:
        return []

    def check_counter(self, game: Game, ps: PlayerState, ability: str, action: Action) -> None:
        if not isinstance(action, Pass):
            raise RuleViolation("CTR-1", f"{self.character.name} has no counter to play")

    def pay_counter(self, game: Game, ps: PlayerState, action: Action) -> Callable[[], None]:
        """Pay a counter's costs; return the function that refunds them (CTR-3)."""
        raise RuleViolation("CTR-1", "no counter")

    def counter_name(self, action: Action) -> str:
        return ""

    def after_block_damage(self, game: Game, ps: PlayerState, blocker: PlayerState,
                           damage: int) -> None:
        return None

    def rewind_allowed(self, game: Game, winner: PlayerState, loser: PlayerState) -> bool:
        return True

    def rewind_preventable(self, game: Game, combo: list[ComboEntry], prevented: int) -> int:
        return prevented

    def follow_violation(self, game: Game, ps: PlayerState, prev: Move,
                         nxt: Move) -> RuleViolation | None:
        return cb.follow_violation(prev, nxt, game.ruleset)

    def pump_allowed(self, game: Game, ps: PlayerState, entry: ComboEntry) -> bool:
        return True

    def after_combo_move(self, game: Game, ps: PlayerState, move: Move) -> Step:
        return
        yield  # pragma: no cover

    def end_of_combat(self, game: Game, ps: PlayerState, winner: PlayerState | None) -> Step:
        return
        yield  # pragma: no cover

    def at_end_of_turn(self, game: Game, ps: PlayerState) -> Step:
        """K1, after the end-of-turn window, in initiative order: mandatory "at the end of the
        turn" text, e.g. an ongoing effect's end-of-turn check (Healing Sphere)."""
        return
        yield  # pragma: no cover

    def end_of_turn(self, game: Game, ps: PlayerState) -> None:
        """After K3: clear this character's one-turn bookkeeping."""
        return None

    def can_power_up_with(self, game: Game, ps: PlayerState, c: Card) -> bool:
        return True


def _registry() -> dict[str, type[CharacterRules]]:
    from rules_engine.characters.grave import GraveRules
    from rules_engine.characters.jaina import JainaRules

    return {"grave": GraveRules, "jaina": JainaRules}


IMPLEMENTED: dict[str, type[CharacterRules]] = _registry()


def rules_for(character: Character) -> CharacterRules:
    """The ability hooks for ``character`` (stats only when not implemented)."""
    cls = IMPLEMENTED.get(character.id, CharacterRules)
    return cls(character)


def abilities_implemented(character_id: str) -> bool:
    return character_id in IMPLEMENTED
