"""Master Menelker (2014 deck): the innate Bleeding Wounds, Bonecracker and Into Oblivion
(docs/rules/characters/menelker.md; no FAQ rulings exist for him).

Glossary: a *black* card is a Club or a Spade; a *face card* is a J, Q or K (Aces are not face
cards); *banished* cards are removed from the game (``Zone.BANISHED``, public, never return).

Responsibility: Menelker's ability hooks; each docstring names the step the game calls it at.
Decisions of this module's making (docs/rules/characters/menelker.md, "Engine rulings"):

- Bleeding Wounds (innate): every hit by one of his black J, Q or K attacks — the combat card at
  C6 (a speed tie and an ``also_hits`` included) or a combo move or hit-back at C10 — makes him
  draw a card, then the opponent discards a card of their choice (a ``discard`` event; none with
  one distinct card in hand, nothing with an empty hand). An innate: countered only under
  ``opt.innateCounters=FIRST_EDITION_FAQ`` (CTR-8).
  In the Power Up phase (P5) his search may take black face cards from his deck and discard
  pile as well as Aces (``POWER_UP_FOR``); PU-5's "fewer only when none is left in the discard
  pile" then counts Aces and black face cards alike. A Gold Burst search is not Power Up: Aces
  only.
- Bonecracker (7, During Combat): when his 7's throw hits (``Thrown``: the combat card at C6 or
  a combo move), the opponent may counter it as it triggers (CTR-2); resolved, the opponent's
  hand is revealed and he names the card they discard (an ``ability`` event with ``cards``; none
  when their hand holds one distinct card, nothing when it is empty).
- Into Oblivion (10, Draw Phase): played with a 10 from hand and a target, a card in the
  opponent's discard pile (``cards``); refused with an empty opponent discard pile (AB-2).
  Counterable (countered: the 10 stays discarded, nothing is banished). Resolved: the target is
  banished, then the opponent banishes another card of the same rank (a Joker: the other
  Joker) from their hand or their deck, their choice (an ``ability`` event by the opponent with
  ``cards``; none when one card qualifies, nothing when none does); then they shuffle their
  deck, whatever they banished ("they shuffle their deck afterwards").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rules_engine import combat as cb
from rules_engine.actions import Action, Pass, PowerUp, UseAbility
from rules_engine.cards import Card, Move, MoveType, Rank
from rules_engine.characters import CharacterRules, discards_a_card_of_their_choice
from rules_engine.errors import RuleViolation
from rules_engine.journal import Hit, Thrown
from rules_engine.modifiers import POWER_UP_FOR, Modifier
from rules_engine.state import Zone

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.journal import Event
    from rules_engine.state import PlayerState, Step
    from rules_engine.types import PlayerId

BLEEDING_WOUNDS = "Bleeding Wounds"
BONECRACKER = "Bonecracker"
INTO_OBLIVION = "Into Oblivion"


def _distinct(cards: Sequence[Card]) -> list[Card]:
    return list(dict.fromkeys(cards))


def is_black_face(c: Card) -> bool:
    """A black (Clubs, Spades) J, Q or K; Aces are not face cards."""
    return (c.rank is not None and c.rank.is_face and c.suit is not None
            and not c.suit.is_red)


def _power_up_for(ps: PlayerState, c: Card, v: bool) -> bool:
    return v or is_black_face(c)


def same_rank(a: Card, b: Card) -> bool:
    """Into Oblivion's "of that same rank": by rank; the two Jokers match each other."""
    return cb.set_key(a) == cb.set_key(b)


class MenelkerRules(CharacterRules):
    """Menelker with every ability implemented.

    Greedy heuristic (:meth:`bot_choice`, after BOT-MENELKER): in Power Up he takes as many
    cards as he may (the default), and with no black face card in hand he prefers black face
    cards to Aces (otherwise Aces); Bonecracker makes the opponent discard a Joker if they hold
    one, else an Ace, else their highest card; Into Oblivion only when it banishes an Ace from
    the opponent's discard pile (he passes otherwise, keeping the 10 for combat). Bleeding
    Wounds needs no choice of his.
    """

    abilities_implemented = True
    ability_notes = {
        BLEEDING_WOUNDS: "Automatic: each hit by his black (Clubs, Spades) J, Q or K attack — "
                         "as the combat card or as a combo move, several times in a combo — "
                         "draws him a card, then the opponent discards a card of their choice. "
                         "In the Power Up phase his search may take black face cards from his "
                         "deck or discard pile instead of Aces (a Gold Burst's search takes "
                         "Aces only). An innate: can't be countered (the first-edition "
                         "reading lets Smoke Bomb counter the draw and discard of a hit).",
        BONECRACKER: "During Combat, on his 7's throw end: when it throws the opponent (combat "
                     "card or combo move), they reveal their hand and he names the card they "
                     "discard. The opponent may counter it as it triggers.",
        INTO_OBLIVION: "Draw Phase, from hand (a 10, discarded), naming a card in the "
                       "opponent's discard pile: it is banished (removed from the game); then "
                       "the opponent banishes another card of that rank from their hand or "
                       "deck (their choice; a Joker: the other Joker), if they have one, and "
                       "shuffles their deck. Not playable when their discard pile is empty. "
                       "The opponent may counter it.",
    }

    def modifiers(self, seat: PlayerId) -> list[Modifier[Any]]:
        """Bleeding Wounds: he may power up for black face cards (P5)."""
        return [Modifier(POWER_UP_FOR, seat, _power_up_for, BLEEDING_WOUNDS)]

    # --- Into Oblivion (10, Draw Phase) ---------------------------------------------
    def window_options(self, ctx: AbilityContext, ps: PlayerState, window: str) -> list[Action]:
        if window != "draw_phase":
            return []
        targets = _distinct(ctx.opponent(ps).discard)
        return [UseAbility(INTO_OBLIVION, ten, (t,)) for ten in _distinct(ps.hand)
                if ten.rank is Rank.TEN for t in targets]

    def can_act(self, ctx: AbilityContext, ps: PlayerState, window: str) -> bool:
        return (window == "draw_phase" and bool(ctx.opponent(ps).discard)
                and ps.holds(Rank.TEN))

    def check(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> None:
        if not isinstance(action, UseAbility):
            raise RuleViolation("INI-4", "play an ability or pass")
        if action.ability != INTO_OBLIVION:
            raise RuleViolation("AB-2", f"Menelker has no ability {action.ability!r} to play "
                                        "here (Bonecracker and Bleeding Wounds act by "
                                        "themselves)")
        if window != "draw_phase":
            raise RuleViolation("WIN-DRAW", "Into Oblivion is played in the Draw Phase window, "
                                             "right after the draws")
        if action.card is None or action.card.rank is not Rank.TEN:
            raise RuleViolation("AB-2", "Into Oblivion is played with one of Menelker's 10s")
        if action.card not in ps.hand:
            raise RuleViolation("AB-2", f"{action.card} is not in {ps.player.name}'s hand")
        opp = ctx.opponent(ps)
        if len(action.cards) != 1 or action.option is not None:
            raise RuleViolation("AB-2", "Into Oblivion names exactly one card of the "
                                        "opponent's discard pile to banish")
        if action.cards[0] not in opp.discard:
            raise RuleViolation("AB-2", f"{action.cards[0]} is not in {opp.player.name}'s "
                                        "discard pile: Into Oblivion banishes a card from it")

    def play(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> Step:
        assert isinstance(action, UseAbility) and action.card is not None
        ctx.move(ps, action.card, Zone.HAND, Zone.DISCARD)  # AB-2: paid, discarded
        if (yield from ctx.offer_counter(ps, INTO_OBLIVION, action.card)):
            return
        opp = ctx.opponent(ps)
        target = action.cards[0]
        ctx.move(opp, target, Zone.DISCARD, Zone.BANISHED)
        in_hand = [c for c in _distinct(opp.hand) if same_rank(c, target)]
        in_deck = sorted({c for c in opp.deck if same_rank(c, target)}, key=lambda c: c.code)
        choices = in_hand + in_deck
        if len(choices) == 1:
            chosen = choices[0]
        elif choices:
            def check(player: PlayerId, a: Action) -> None:
                if not isinstance(a, UseAbility) or a.ability != INTO_OBLIVION \
                        or len(a.cards) != 1 or a.card is not None or a.option is not None:
                    raise RuleViolation("AB-2", "Into Oblivion: banish one card of the same "
                                                "rank from your hand or your deck")
                c = a.cards[0]
                if not same_rank(c, target):
                    raise RuleViolation("AB-2", f"{c} is not of the banished card's rank "
                                                f"({target})")
                if c not in opp.hand and c not in opp.deck:
                    raise RuleViolation("AB-2", f"{c} is in neither {player.name}'s hand nor "
                                                "deck")

            _, a = yield from ctx.ask(
                (opp.player,), "AB-2", check,
                lambda p: [UseAbility(INTO_OBLIVION, None, (c,)) for c in choices])
            assert isinstance(a, UseAbility)
            chosen = a.cards[0]
        else:
            chosen = None
        if chosen is not None:
            ctx.move(opp, chosen, Zone.HAND if chosen in opp.hand else Zone.DECK,
                     Zone.BANISHED)
        ctx.shuffle_deck(opp)  # "they shuffle their deck afterwards"

    # --- Bleeding Wounds (hits) and Bonecracker (throws) ------------------------------
    reacts_to = frozenset({Hit, Thrown})  # the events on_event reads

    def on_event(self, ctx: AbilityContext, ps: PlayerState, event: Event) -> Step:
        """C6 / C10: a hit by his black face-card attack (Bleeding Wounds); a throw by his 7
        (Bonecracker)."""
        kind = type(event)
        if kind is not Hit and kind is not Thrown:
            return
        assert isinstance(event, Hit | Thrown)
        if event.by is not ps.player:
            return
        in_combo = event.combo if isinstance(event, Hit) else event.step == "C10"
        c: Card | None = ps.combat_card
        m: Move | None = ps.combat_move
        if in_combo:
            if not ctx.combo or ctx.combo_seat is not ps.player:
                return
            c, m = ctx.combo[-1].card, ctx.combo[-1].move
        if c is None or m is None:
            return
        opp = ctx.opponent(ps)
        if kind is Hit and m.type is MoveType.ATTACK and is_black_face(c):
            if (yield from ctx.offer_counter(ps, BLEEDING_WOUNDS)):  # CTR-8: as it triggers
                return
            yield from ctx.draw(ps, ctx.step)
            yield from discards_a_card_of_their_choice(ctx, opp, BLEEDING_WOUNDS, "AB-1")
        elif kind is Thrown and m.type is MoveType.THROW and c.rank is Rank.SEVEN:
            yield from self._bonecracker(ctx, ps, opp)

    @staticmethod
    def _bonecracker(ctx: AbilityContext, ps: PlayerState, opp: PlayerState) -> Step:
        """Bonecracker: counterable as it triggers; the opponent reveals their hand and
        discards the card Menelker names."""
        if (yield from ctx.offer_counter(ps, BONECRACKER)):
            return
        choices = _distinct(opp.hand)
        if not choices:
            return
        if len(choices) == 1:
            card = choices[0]
        else:
            def check(player: PlayerId, a: Action) -> None:
                if not isinstance(a, UseAbility) or a.ability != BONECRACKER \
                        or len(a.cards) != 1 or a.card is not None or a.option is not None:
                    raise RuleViolation("AB-3", "Bonecracker: name one card of the opponent's "
                                                "revealed hand for them to discard")
                if a.cards[0] not in opp.hand:
                    raise RuleViolation("AB-3", f"{a.cards[0]} is not in {opp.player.name}'s "
                                                "hand")

            _, a = yield from ctx.ask(
                (ps.player,), "AB-3", check,
                lambda p: [UseAbility(BONECRACKER, None, (c,)) for c in _distinct(opp.hand)])
            assert isinstance(a, UseAbility)
            card = a.cards[0]
        ctx.move(opp, card, Zone.HAND, Zone.DISCARD)

    # --- the greedy bot -----------------------------------------------------------------
    def bot_choice(self, ctx: AbilityContext, ps: PlayerState,
                   legal: Sequence[Action]) -> Action | None:
        first = legal[0] if legal else None
        if isinstance(first, PowerUp):
            want_face = not any(is_black_face(c) for c in ps.hand)

            def score(a: Action) -> tuple[int, int, int]:
                assert isinstance(a, PowerUp)
                taken = (*a.from_discard, *a.from_deck)
                faces = sum(1 for c in taken if is_black_face(c))
                return (len(taken), -len(a.sets), faces if want_face else len(taken) - faces)

            return max((a for a in legal if isinstance(a, PowerUp)), key=score)
        mine = [a for a in legal if isinstance(a, UseAbility)]
        if not mine:
            return None
        if mine[0].ability == BONECRACKER:
            def value(a: UseAbility) -> int:
                c = a.cards[0]
                return 100 if c.is_joker else 50 if c.is_ace else int(c.rank or 0)
            return max(mine, key=value)
        oblivion = [a for a in mine if a.ability == INTO_OBLIVION and a.card is not None]
        if oblivion:
            aces = [a for a in oblivion if a.cards[0].is_ace]
            return aces[0] if aces else Pass()
        return None
