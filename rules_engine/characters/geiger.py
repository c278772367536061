"""Max Geiger (2014 deck): innate Time Stop, Temporal Distortion, Research and Development
(docs/rules/characters/geiger.md; FR-GEIGER-1..3, RW-14).

Glossary: a *Time Spiral* is Fast Time Spiral (J), Slow Time Spiral (Q) or the Time Spiral
Hurricane end of his Ace (FR-GEIGER-1); a *Time Spiral card* is a card with a Time Spiral end
(every J, Q and A of his deck: BOT-GEIGER and the first-edition text count the Aces). *Time
Stop*: after a Time Spiral deals block damage, the blocker may place a face-down card (RW-14),
then Geiger may start a combo with a throw from hand (CB-1).

Responsibility: Geiger's ability hooks; each docstring names the step the game calls it at.
Decisions of this module's making (docs/rules/characters/geiger.md, "Engine rulings"):

- Time Stop applies when the block damage the blocker takes from the Time Spiral, after card
  text, is more than 0 (a block that takes none, Gloria's Remedy, stops nothing; it is dealt at C8c,
  after the block draw: the draw is put off until Geiger decides, and the blocker's innates
  from this block do not act). The blocker's Rewind window opens whatever Geiger holds (RW-4).
  The throw is the combo's first move, played while the face-down card lies: a Rewind Time
  Joker prevents its damage (RW-6), it costs its combo points, follows CT-FIRST, hits and
  throws (AR-THR-2: the block is discarded at C13c). No throw: the face-down card is revealed
  (nothing prevented) and the blocker draws for blocking then.
- Temporal Distortion fetches a Jack or Queen when the discard pile holds one (a ``search``
  event when there is a choice); its numbers apply to Time Spirals played while it is in play;
  it ends when Geiger is hit by an attack or throw (a Gold Burst is neither).
- Research and Development counts the Time Spiral cards in the discard pile when it resolves
  (the 8 itself is not one); X larger than the deck looks at the whole deck; the choice is one
  ``ability`` event: ``cards`` = the card taken, then the others in their new order from the
  top. The cards put back are known to Geiger (``public_view`` shows them to him only), and in
  a recorded game the next draws must be those cards.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Generator, Sequence
from typing import TYPE_CHECKING, Any

from rules_engine import combat as cb
from rules_engine import effects
from rules_engine.actions import Action, Pass, Search, UseAbility
from rules_engine.cards import Card, Character, ComboType, Move, MoveType, Rank
from rules_engine.characters import CharacterRules
from rules_engine.errors import RuleViolation
from rules_engine.modifiers import MOVE, REWIND_IMMUNE, Modifier
from rules_engine.state import ComboEntry, Trigger, Zone

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.state import Decision, PlayerState, Step
    from rules_engine.types import PlayerId

TIME_STOP = "Time Stop"
TEMPORAL_DISTORTION = "Temporal Distortion"
RESEARCH = "Research and Development"
TIME_SPIRALS = frozenset({"Fast Time Spiral", "Slow Time Spiral", "Time Spiral Hurricane"})


def _distinct(cards: Sequence[Card]) -> list[Card]:
    return list(dict.fromkeys(cards))


def is_time_spiral(move: Move | None) -> bool:
    return move is not None and move.name in TIME_SPIRALS


def time_spiral_cards(character: Character) -> frozenset[Rank]:
    """The ranks whose cards have a Time Spiral end (J, Q, A)."""
    return frozenset(r for r, moves in character.moves.items()
                     if any(is_time_spiral(m) for m in moves))


def _distorted(ps: PlayerState, card: Card, move: Move) -> Move:
    """Temporal Distortion: Time Spirals are 0-combo-point Linkers that do +1 damage."""
    if not is_time_spiral(move) or not effects.is_active(ps, TEMPORAL_DISTORTION):
        return move
    return dataclasses.replace(move, combo_points=0, combo_type=ComboType.LINKER,
                               damage=move.damage + 1)


def _immune(ps: PlayerState, entry: ComboEntry, immune: bool) -> bool:
    """Temporal Distortion: Time Spirals are immune to Rewind Time Jokers."""
    return immune or (is_time_spiral(entry.move)
                      and effects.is_active(ps, TEMPORAL_DISTORTION))


def _is_throw(move: Move) -> bool:
    return move.type is MoveType.THROW


class GeigerRules(CharacterRules):
    """Geiger with every ability implemented.

    Greedy heuristic (:meth:`bot_choice`): Temporal Distortion whenever none is in play
    (fetching the Queen before a Jack: Slow Time Spiral is the Linker); Research and
    Development when X is at least 1, taking the highest card seen and keeping the others'
    order; the Time Stop throw always (its own combo logic picks the throw, a free combo).
    """

    abilities_implemented = True

    def __init__(self, character: Character) -> None:
        super().__init__(character)
        self.time_stop_turn = 0  # the turn a Time Spiral dealt block damage (Time Stop)
        self.spiral_ranks = time_spiral_cards(character)

    def modifiers(self, seat: PlayerId) -> list[Modifier[Any]]:
        return [Modifier(MOVE, seat, _distorted, TEMPORAL_DISTORTION),
                Modifier(REWIND_IMMUNE, seat, _immune, TEMPORAL_DISTORTION)]

    # --- windows: Temporal Distortion (4) and Research and Development (8), Draw Phase ----
    def window_options(self, ctx: AbilityContext, ps: PlayerState, window: str) -> list[Action]:
        if window != "draw_phase":
            return []
        hand = _distinct(ps.hand)
        return [*(UseAbility(TEMPORAL_DISTORTION, c) for c in hand if c.rank is Rank.FOUR),
                *(UseAbility(RESEARCH, c) for c in hand if c.rank is Rank.EIGHT)]

    def can_act(self, ctx: AbilityContext, ps: PlayerState, window: str) -> bool:
        return window == "draw_phase" and ps.holds(Rank.FOUR, Rank.EIGHT)

    def check(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> None:
        if not isinstance(action, UseAbility):
            raise RuleViolation("INI-4", "play an ability or pass")
        if action in self.window_options(ctx, ps, window):
            return
        ranks = {TEMPORAL_DISTORTION: Rank.FOUR, RESEARCH: Rank.EIGHT}
        if action.ability not in ranks:
            raise RuleViolation("AB-2", f"Geiger has no ability {action.ability!r} to play here")
        if window != "draw_phase":
            raise RuleViolation("WIN-DRAW", f"{action.ability} is played right after the draw "
                                            "phase (Draw Phase)")
        rank = ranks[action.ability]
        if action.card is None or action.card.rank is not rank:
            raise RuleViolation("AB-2", f"{action.ability} is played with one of Geiger's "
                                        f"{rank.code}s")
        if action.card not in ps.hand:
            raise RuleViolation("AB-2", f"{action.card} is not in {ps.player.name}'s hand")
        raise RuleViolation("AB-2", f"{action.ability} takes no other choice when played")

    def play(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> Step:
        assert isinstance(action, UseAbility) and action.card is not None
        if action.ability == TEMPORAL_DISTORTION:
            effect = yield from effects.play_ongoing(ctx, ps, action.card, TEMPORAL_DISTORTION,
                                                     ends_on={Trigger.HIT})
            if effect is not None:
                yield from self._fetch(ctx, ps)
            return
        ctx.move(ps, action.card, Zone.HAND, Zone.DISCARD)  # AB-2
        if (yield from ctx.offer_counter(ps, RESEARCH)):
            return
        yield from self._research(ctx, ps)

    def _fetch(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        """Temporal Distortion: fetch a Jack or Queen from the discard pile."""
        faces = sorted(_distinct([c for c in ps.discard if c.rank in (Rank.JACK, Rank.QUEEN)]),
                       key=lambda c: c.code)
        if not faces:
            return
        chosen = faces[0]
        if len(faces) > 1:
            def check(player: PlayerId, a: Action) -> None:
                if not isinstance(a, Search) or a.from_deck or len(a.from_discard) != 1 \
                        or a.from_discard[0] not in faces:
                    raise RuleViolation("AB-2", "Temporal Distortion: fetch one Jack or Queen "
                                                "from the discard pile")

            _, a = yield from ctx.ask((ps.player,), "AB-2", check,
                                      lambda p: [Search((c,), ()) for c in faces])
            assert isinstance(a, Search)
            chosen = a.from_discard[0]
        ctx.move(ps, chosen, Zone.DISCARD, Zone.HAND)

    def _research(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        """Look at the top X cards (X = Time Spiral cards in the discard pile), put one in
        hand and the rest back on top in any order."""
        x = sum(1 for c in ps.discard if c.rank in self.spiral_ranks)
        n = min(x, len(ps.deck))
        if n == 0:
            return
        top = ps.deck[:n]  # a recorded game names them in the decision (the order is unknown)
        recorded = ctx.recorded
        if n == 1 and not recorded:
            ctx.move(ps, top[0], Zone.DECK, Zone.HAND)
            return

        def check(player: PlayerId, a: Action) -> None:
            if not isinstance(a, UseAbility) or a.ability != RESEARCH or a.card is not None \
                    or a.option:
                raise RuleViolation("AB-2", "Research and Development: name the card to take, "
                                            "then the others from the top")
            cards = a.cards
            if len(cards) != n or len(set(cards)) != n:
                raise RuleViolation("AB-2", f"Research and Development: name the {n} cards "
                                            "looked at, each once")
            if recorded:
                known = ctx.deck_top_known(ps)[:n]
                if any(c not in ps.deck for c in cards) or not set(known) <= set(cards):
                    raise RuleViolation("AB-2", "those are not the top cards of the deck")
            elif set(cards) != set(top):
                raise RuleViolation("AB-2", "those are not the top cards of the deck")

        def options(p: PlayerId) -> list[Action]:
            seen = top if not recorded else [*ctx.deck_top_known(ps)[:n], *(
                c for c in ps.deck if c not in ctx.deck_top_known(ps))][:n]
            out: list[Action] = []
            for c in seen:
                rest = [o for o in seen if o is not c]
                out.append(UseAbility(RESEARCH, cards=(c, *rest)))
                if len(rest) > 1:
                    out.append(UseAbility(RESEARCH, cards=(c, *reversed(rest))))
            return out

        _, a = yield from ctx.ask((ps.player,), "AB-2", check, options)
        assert isinstance(a, UseAbility)
        taken, *rest = a.cards
        ctx.move(ps, taken, Zone.DECK, Zone.HAND)
        for c in reversed(rest):  # the first named ends on top
            ctx.move(ps, c, Zone.DECK, Zone.DECK)

    # --- Time Stop (innate) -------------------------------------------------------------
    @staticmethod
    def _time_stop(ctx: AbilityContext, attacker: PlayerState, blocker: PlayerState) -> bool:
        """"If your opponent takes block damage from a Time Spiral": a blocked Time Spiral
        combat card whose block damage the blocker takes, after card text, is more than 0
        (Gloria's Remedy takes none: no Time Stop)."""
        return attacker.kind == cb.ATTACK and is_time_spiral(attacker.combat_move) \
            and ctx.block_damage(blocker, attacker) > 0

    def block_draw_prevented(self, ctx: AbilityContext, attacker: PlayerState,
                             blocker: PlayerState) -> Generator[Decision,
                                                                tuple[PlayerId, Action], bool]:
        """C8b: under Time Stop the block draw waits for Geiger's decision (FR-GEIGER-1)."""
        if not self._time_stop(ctx, attacker, blocker) \
                or (yield from ctx.offer_counter(attacker, TIME_STOP)):  # CTR-8
            return False
        self.time_stop_turn = ctx.turn
        return True

    def blocking_innates_prevented(self, ctx: AbilityContext, attacker: PlayerState,
                                   blocker: PlayerState) -> bool:
        """Time Stop: the opponent "can't activate innate abilities from blocking" (asked just
        after :meth:`block_draw_prevented`, which a counter may have stopped)."""
        return self.time_stop_turn == ctx.turn and self._time_stop(ctx, attacker, blocker)

    def combo_opener(self, ctx: AbilityContext, ps: PlayerState,
                     winner: PlayerState) -> Callable[[Move], bool] | None:
        """Time Stop: after the block damage, Geiger may throw the blocker (RW-14 first)."""
        if self.time_stop_turn != ctx.turn or winner.kind != cb.BLOCK:
            return None
        return _is_throw

    def after_card_combo(self, ctx: AbilityContext, ps: PlayerState, opp: PlayerState,
                         opened: bool) -> Step:
        """No throw: the blocker draws for blocking now (AR-BLK-1; its innates stay off)."""
        if not opened:
            yield from ctx.draw(opp, "C8")

    # --- the greedy bot -----------------------------------------------------------------
    def bot_choice(self, ctx: AbilityContext, ps: PlayerState,
                   legal: Sequence[Action]) -> Action | None:
        if all(isinstance(a, Search) for a in legal) and ctx.step == "T3":
            queens = [a for a in legal if isinstance(a, Search)
                      and a.from_discard and a.from_discard[0].rank is Rank.QUEEN]
            return queens[0] if queens else legal[0]
        research = [a for a in legal if isinstance(a, UseAbility) and a.ability == RESEARCH]
        if research and all(not a.card for a in research):  # the R&D choice itself
            return max(research, key=lambda a: int(a.cards[0].rank or 15))
        mine = [a for a in legal if isinstance(a, UseAbility) and a.card is not None]
        if not mine:
            return None
        td = [a for a in mine if a.ability == TEMPORAL_DISTORTION]
        if td and not effects.is_active(ps, TEMPORAL_DISTORTION):
            return td[0]
        x = sum(1 for c in ps.discard if c.rank in self.spiral_ranks)
        rnd = [a for a in mine if a.ability == RESEARCH]
        if rnd and x >= 1:
            return rnd[0]
        return Pass()
