"""Gloria Grayson (2014 deck): innate Healing Touch, Healing Sphere, Bathed in Moonlight,
Overdose (docs/rules/characters/gloria.md; GEN-8 heal cap).

Glossary: *heal* = gain life, never above her starting 70 (GEN-8); Gloria *healed* this turn
when one of her heals resolved, even at full life (Healing Sphere: "even if you were at max
life"). *Hearts card* = a card of suit hearts (a Joker has no suit: it is a non-Hearts card).

Responsibility: Gloria's ability hooks; each docstring names the step the game calls it at.
Decisions of this module's making (docs/rules/characters/gloria.md, "Engine rulings"):

- Healing Touch ("after the Power Up phase") is played in the end-of-turn window (K1), which
  opens right after Power Up, once per turn, only when she holds two non-Hearts cards and is
  not knocked down (neither from last turn nor by this turn's combat, KD-6). The Hearts card is
  fetched when the discard pile has one (a ``search`` event when there is a choice).
- Healing Sphere's end-of-turn check runs for every Sphere in play (AB-5 copies), at K1 after
  the window (``at_end_of_turn``): each draws one card if she healed this turn, then each is
  discarded if she did not heal or was thrown this turn. A Sphere played this turn is checked
  too.
- Bathed in Moonlight can be played at end of combat (C13b) for each Jack of hers that hit this
  combat: her combat card (it hit at C6) or a combo move (every combo move hits); a Jack paid as
  a pump never hit (PM-7). It can be countered (CTR-2); countered, the Jack stays and nothing
  heals.
- Overdose is played from hand at C13b: the Ace is discarded (AB-2), then Gloria takes 10 and
  the KO check runs (END-2) before the opponent takes 10; "you won combat" is C6's winner (a
  Gold Burst mirror under BOTH_WIN counts, CF-10). An Ace ability: no counter may counter it
  (CTR-8; the game's counter policy refuses the offer).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from rules_engine import combat as cb
from rules_engine import effects
from rules_engine.actions import Action, Pass, Search, UseAbility
from rules_engine.cards import Card, Character, Rank, Suit
from rules_engine.characters import CharacterRules
from rules_engine.errors import RuleViolation
from rules_engine.journal import Healed, Hit, Thrown
from rules_engine.ruleset import JokerMirror
from rules_engine.state import Zone

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.journal import Event
    from rules_engine.state import PlayerState, Step
    from rules_engine.types import PlayerId

HEALING_TOUCH = "Healing Touch"
HEALING_SPHERE = "Healing Sphere"
BATHED = "Bathed in Moonlight"
OVERDOSE = "Overdose"
HEAL = 4
OVERDOSE_DAMAGE = 10

_TIMING = {HEALING_SPHERE: ("draw_phase", "WIN-DRAW", "right after the draw phase"),
           BATHED: ("end_of_combat", "WIN-ENDCOMBAT", "at end of combat"),
           OVERDOSE: ("end_of_combat", "WIN-ENDCOMBAT", "at end of combat"),
           HEALING_TOUCH: ("end_of_turn", "WIN-ENDTURN", "after the Power Up phase")}
_RANK = {HEALING_SPHERE: Rank.TEN, BATHED: Rank.JACK, OVERDOSE: Rank.ACE}


def _distinct(cards: Sequence[Card]) -> list[Card]:
    return list(dict.fromkeys(cards))


def _hearts(c: Card) -> bool:
    return c.suit is Suit.HEARTS


class GloriaRules(CharacterRules):
    """Gloria with every ability implemented.

    Greedy heuristic (:meth:`bot_choice`): Healing Sphere whenever none is in play (she can
    heal at the end of the turn); Healing Touch whenever she holds three or more cards, paying
    the two lowest non-Hearts cards that are neither Aces nor Jokers, and fetching the highest
    Hearts card; Bathed in Moonlight always (4 life and the Jack back); Overdose when she won
    combat or the opponent has 10 life or less, and only with more than 10 life herself; no
    more than one Ace spent that way per turn (the card's own limit).
    """

    abilities_implemented = True

    def __init__(self, character: Character) -> None:
        super().__init__(character)
        self.healed_turn = 0  # the last turn she healed (Healing Sphere)
        self.thrown_turn = 0  # the last turn she was thrown (Healing Sphere)
        self.touch_turn = 0  # the last turn she used Healing Touch
        self.overdose_turn = 0  # the last turn an Overdose resolved
        self.won_turn = 0  # the last turn she won combat (Overdose)
        self.hit_turn = 0  # the last turn her combat card hit (Bathed in Moonlight)

    # --- bookkeeping from the journal and C6 -------------------------------------------
    reacts_to = frozenset({Healed, Thrown, Hit})  # the events on_event reads

    def on_event(self, ctx: AbilityContext, ps: PlayerState, event: Event) -> Step:
        """Remember what her cards need: she healed, was thrown, or her combat card hit."""
        if isinstance(event, Healed) and event.seat is ps.player:
            self.healed_turn = event.turn
        elif isinstance(event, Thrown) and event.seat is ps.player:
            self.thrown_turn = event.turn
        elif isinstance(event, Hit) and event.by is ps.player and not event.combo:
            self.hit_turn = event.turn  # C6: the combat card hit (both, in a speed tie)
        return
        yield  # pragma: no cover

    def after_winner(self, ctx: AbilityContext, ps: PlayerState,
                     winner: PlayerState | None) -> Step:
        """C6: "if you won combat" (Overdose); a Gold Burst mirror both win (CF-10)."""
        opp = ctx.opponent(ps)
        mirror = winner is None and ps.kind == cb.JOKER and opp.kind == cb.JOKER \
            and ctx.ruleset.jokerMirror is JokerMirror.BOTH_WIN
        if winner is ps or mirror:
            self.won_turn = ctx.turn
        return
        yield  # pragma: no cover

    def _heal(self, ctx: AbilityContext, ps: PlayerState) -> None:
        ctx.heal(ps, HEAL)
        self.healed_turn = ctx.turn  # healed, even at max life (Healing Sphere)

    # --- which abilities are playable now ----------------------------------------------
    def _knocked_down(self, ps: PlayerState) -> bool:
        """KD-6: the knockdown token lies from the C13 it was inflicted until K3 next turn."""
        return ps.knocked_down or ps.knockdown_next

    def _moonlit_jacks(self, ctx: AbilityContext, ps: PlayerState) -> list[Card]:
        """Her Jacks that hit this combat and are still in the combat area."""
        out: list[Card] = []
        c = ps.combat_card
        if c is not None and c.rank is Rank.JACK and ps.kind == cb.ATTACK \
                and self.hit_turn == ctx.turn:
            out.append(c)
        # her own combo moves: its C10 moves all hit (GL-HIT); a tag or an assist adds her
        # partner's moves, cards of the partner's deck
        out += [e.card for e in ctx.combo_of(ps) if e.played_in_c10 and not e.returned
                and e.card.rank is Rank.JACK]
        return out

    def window_options(self, ctx: AbilityContext, ps: PlayerState, window: str) -> list[Action]:
        hand = _distinct(ps.hand)
        if window == "draw_phase":
            return [UseAbility(HEALING_SPHERE, c) for c in hand if c.rank is Rank.TEN]
        if window == "end_of_combat":
            out: list[Action] = [UseAbility(BATHED, j) for j in self._moonlit_jacks(ctx, ps)]
            if self.overdose_turn != ctx.turn:
                out += [UseAbility(OVERDOSE, c) for c in hand if c.rank is Rank.ACE]
            return out
        if window == "end_of_turn" and self.touch_turn != ctx.turn \
                and not self._knocked_down(ps):
            plain = [c for c in hand if not _hearts(c)]
            return [UseAbility(HEALING_TOUCH, cards=pair) for pair in combinations(plain, 2)]
        return []

    def can_act(self, ctx: AbilityContext, ps: PlayerState, window: str) -> bool:
        """Whether :meth:`window_options` lists something, without building the options (the
        game asks at every window: Healing Touch's would be every pair of cards)."""
        if window == "draw_phase":
            return ps.holds(Rank.TEN)
        if window == "end_of_combat":
            return bool(self._moonlit_jacks(ctx, ps)) or (
                self.overdose_turn != ctx.turn and ps.holds(Rank.ACE))
        if window == "end_of_turn":
            return self.touch_turn != ctx.turn and not self._knocked_down(ps) \
                and len({c for c in ps.hand if not _hearts(c)}) >= 2
        return False

    def check(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> None:
        if not isinstance(action, UseAbility):
            raise RuleViolation("INI-4", "play an ability or pass")
        if action in self.window_options(ctx, ps, window):
            return
        name = action.ability
        if name not in _TIMING:
            raise RuleViolation("AB-2", f"Gloria has no ability {name!r} to play here")
        want, rule, words = _TIMING[name]
        if window != want:
            raise RuleViolation(rule, f"{name} is played {words}")
        if name == HEALING_TOUCH:
            self._check_touch(ctx, ps, action)
        rank = _RANK[name]
        if action.card is None or action.card.rank is not rank:
            raise RuleViolation("AB-2", f"{name} is played with one of Gloria's "
                                        f"{rank.code}s")
        if name == BATHED:
            raise RuleViolation("AB-2", f"Bathed in Moonlight: {action.card} did not hit this "
                                        "combat, or it is not in play")
        if action.card not in ps.hand:
            raise RuleViolation("AB-2", f"{action.card} is not in {ps.player.name}'s hand")
        if name == OVERDOSE and self.overdose_turn == ctx.turn:
            raise RuleViolation("AB-2", "Overdose: play only one Overdose per turn")
        raise RuleViolation("AB-2", f"{name} takes no other choice")

    def _check_touch(self, ctx: AbilityContext, ps: PlayerState, action: UseAbility) -> None:
        if self.touch_turn == ctx.turn:
            raise RuleViolation("AB-1", "Healing Touch: once, after the Power Up phase")
        if self._knocked_down(ps):
            raise RuleViolation("AB-1", "Healing Touch: not while knocked down")
        cards = action.cards
        if action.card is not None or action.option or len(cards) != 2 \
                or len(set(cards)) != 2:
            raise RuleViolation("AB-1", "Healing Touch: discard exactly two different cards")
        for c in cards:
            if c not in ps.hand:
                raise RuleViolation("AB-1", f"{c} is not in {ps.player.name}'s hand")
            if _hearts(c):
                raise RuleViolation("AB-1", f"Healing Touch costs non-Hearts cards, not {c}")
        raise RuleViolation("AB-1", "Healing Touch cannot be played like this now")

    def play(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> Step:
        assert isinstance(action, UseAbility)
        if action.ability == HEALING_TOUCH:
            yield from self._healing_touch(ctx, ps, action.cards)
            return
        assert action.card is not None
        if action.ability == HEALING_SPHERE:
            # AB-2 / AB-4: it stays in play; countered only now (CTR-4).
            yield from effects.play_ongoing(ctx, ps, action.card, HEALING_SPHERE)
            return
        if action.ability == BATHED:
            countered = yield from ctx.offer_counter(ps, BATHED)
            if countered:
                return  # the Jack stays in play (it was not played from hand)
            frm = Zone.COMBAT if action.card is ps.combat_card else Zone.COMBO
            ctx.move(ps, action.card, frm, Zone.HAND)
            self._heal(ctx, ps)
            ctx.heal(ctx.opponent(ps), HEAL)
            return
        # Overdose
        ctx.move(ps, action.card, Zone.HAND, Zone.DISCARD)  # AB-2
        if (yield from ctx.offer_counter(ps, OVERDOSE, action.card)):  # never: an Ace (CTR-8)
            return  # pragma: no cover - the counter policy refuses every counter
        self.overdose_turn = ctx.turn
        ctx.damage(ps, OVERDOSE_DAMAGE, ps)  # "you first": END-2 checks her alone first
        ctx.damage(ctx.opponent(ps), OVERDOSE_DAMAGE, ps)
        if self.won_turn == ctx.turn:
            yield from ctx.draw(ps, ctx.step, 2)

    # --- Healing Touch (innate, after the Power Up phase) --------------------------------
    def _healing_touch(self, ctx: AbilityContext, ps: PlayerState,
                       paid: tuple[Card, ...]) -> Step:
        """Discard two non-Hearts cards: gain 4 life (GEN-8 cap) and fetch a Hearts card from
        the discard pile. An innate: offered to counters after its cost (the counter policy,
        CTR-8, lets none counter it under the 2014 text)."""
        for c in paid:
            ctx.move(ps, c, Zone.HAND, Zone.DISCARD)
        if (yield from ctx.offer_counter(ps, HEALING_TOUCH)):  # CTR-8: after its cost
            for c in paid:  # CTR-3: as if never played (costs back, the turn's use unspent)
                ctx.move(ps, c, Zone.DISCARD, Zone.HAND)
            return
        self.touch_turn = ctx.turn
        self._heal(ctx, ps)
        hearts = sorted(_distinct([c for c in ps.discard if _hearts(c)]), key=lambda c: c.code)
        if not hearts:
            return
        if len(hearts) == 1:
            chosen = hearts[0]
        else:
            def check(player: PlayerId, a: Action) -> None:
                if not isinstance(a, Search) or a.from_deck or len(a.from_discard) != 1:
                    raise RuleViolation("AB-1", "Healing Touch: fetch one Hearts card from the "
                                                "discard pile")
                if a.from_discard[0] not in hearts:
                    raise RuleViolation("AB-1", f"{a.from_discard[0]} is not a Hearts card in "
                                                f"{player.name}'s discard pile")

            _, a = yield from ctx.ask((ps.player,), "AB-1", check,
                                      lambda p: [Search((h,), ()) for h in hearts])
            assert isinstance(a, Search)
            chosen = a.from_discard[0]
        ctx.move(ps, chosen, Zone.DISCARD, Zone.HAND)

    # --- Healing Sphere (end of each turn) ---------------------------------------------
    def at_end_of_turn(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        """K1: each Healing Sphere draws a card if she healed this turn, then is discarded if
        she did not heal or was thrown this turn."""
        spheres = [e for e in ps.ongoing if e.name == HEALING_SPHERE and e.resolved]
        if not spheres:
            return
        healed = self.healed_turn == ctx.turn
        if healed:
            yield from ctx.draw(ps, "K1", len(spheres))
        if not healed or self.thrown_turn == ctx.turn:
            for e in spheres:
                effects.end(ctx, ps, e)

    # --- the greedy bot -----------------------------------------------------------------
    def bot_choice(self, ctx: AbilityContext, ps: PlayerState,
                   legal: Sequence[Action]) -> Action | None:
        mine = [a for a in legal if isinstance(a, UseAbility) and a.ability in _TIMING]
        if isinstance(legal[0], Search) and all(isinstance(a, Search) for a in legal) \
                and ctx.step == "K1":
            return max(legal, key=lambda a: int(a.from_discard[0].rank or 0)
                       if isinstance(a, Search) and a.from_discard else 0)
        if not mine:
            return None
        for a in mine:
            if a.ability == BATHED:
                return a
        spheres = [a for a in mine if a.ability == HEALING_SPHERE]
        if spheres:
            return spheres[0] if not effects.is_active(ps, HEALING_SPHERE) else Pass()
        overdoses = [a for a in mine if a.ability == OVERDOSE]
        if overdoses:
            opp = ctx.opponent(ps)
            good = ps.life > OVERDOSE_DAMAGE and (self.won_turn == ctx.turn
                                                  or opp.life <= OVERDOSE_DAMAGE)
            return overdoses[0] if good else Pass()
        touches = [a for a in mine if a.ability == HEALING_TOUCH
                   and not any(c.is_joker or c.is_ace for c in a.cards)]
        if not touches or len(ps.hand) < 3:
            return Pass()
        return min(touches, key=lambda a: sum(int(c.rank or 0) for c in a.cards))
