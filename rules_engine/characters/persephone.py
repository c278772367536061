"""Mistress Persephone (2014 deck): innate Dominance, Do As Told (9), Bare Your Soul (10),
Mistress's Command (A's single-Ace end) (docs/rules/characters/persephone.md).

Glossary: *fetch* = move a card from her discard pile to her hand; *face-up cards* = the
opponent's cards Bare Your Soul put face up on the table (``PlayerState.face_up``, public);
*control* = Persephone makes the opponent's decisions (``ctx.control``).

Responsibility: Persephone's ability hooks. Decisions of this module's making
(docs/rules/characters/persephone.md, "Engine rulings"):
- Dominance acts on every knockdown she inflicts (a ``Knockdown`` by her, delivered at C13a,
  before C13c discards the combat cards): she may fetch one non-Joker card from her discard
  pile; when she also knocked the opponent down in the previous turn's combat, up to four
  non-Joker cards of different ranks, one decision per card (a pass stops).
- Do As Told counters any ability offered to a counter (CTR-1); it costs the 9 alone. Paid and
  not countered back, the countered player chooses: take 10 damage (ability damage, a KO is a
  KO) and the ability resolves, uncounterable; or pass and it is countered (CTR-3).
- Bare Your Soul (a 10, Draw Phase, counterable): the top 3 cards of the opponent's deck go
  face up (fewer if the deck holds fewer); more than 3 face-up cards: she discards the excess
  (her choice, to the opponent's discard pile). Before each single draw of the opponent, she
  may name a face-up card they draw instead (nothing leaves the deck: no time-out by that
  draw); a pass discards all the face-up cards and the draw comes from the deck. Every shuffle
  of their deck shuffles the face-up cards back in (the engine's ``face_up`` zone).
- Mistress's Command (During Combat): she won combat with it and its C8c damage was more than
  0: she controls the opponent's next turn from its T1 to its combat reveal (C2): every
  decision of theirs in that span (draw-phase abilities, counters, the Do As Told price, their
  C1 commit) is made by her; she sees their hand meanwhile. Not two turns in a row: a
  Mistress's Command that hits during a controlled turn gives no control of the next.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, ClassVar

from rules_engine.actions import Action, Commit, Pass, UseAbility
from rules_engine.cards import Card, Character, MoveType, Rank
from rules_engine.characters import OneCardCounterRules
from rules_engine.errors import RuleViolation
from rules_engine.journal import DamageDealt, Knockdown
from rules_engine.state import Zone

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.journal import Event
    from rules_engine.state import Decision, PlayerState, Step
    from rules_engine.types import PlayerId

DOMINANCE = "Dominance"
DO_AS_TOLD = "Do As Told"
BARE_YOUR_SOUL = "Bare Your Soul"
MISTRESS = "Mistress's Command"
TAKE_10 = "take 10 damage"  # the countered player's answer to Do As Told
DO_AS_TOLD_DAMAGE = 10
FACE_UP_LIMIT = 3
DOUBLE_FETCH = 4


def _distinct(cards: list[Card]) -> list[Card]:
    return sorted(dict.fromkeys(cards), key=lambda c: c.code)


def card_worth(c: Card) -> int:
    """How much a player wants a card, for Persephone's bots: its rank, Aces (14) and Jokers
    (100) most."""
    return 100 if c.is_joker or c.rank is None else int(c.rank)


def weakest_commit(seat: PlayerState, legal: Sequence[Action]) -> Commit | None:
    """BOT-PERSEPHONE's "worst possible choices" for a seat she controls at C1: of the attacks
    and throws in ``legal`` that are neither a Joker nor an Ace, the least damaging, then the
    slowest (printed numbers; then card code); None when there is no such commit."""
    commits = [a for a in legal if isinstance(a, Commit) and not a.card.is_joker
               and not a.card.is_ace and a.move in (MoveType.ATTACK, MoveType.THROW)]
    if not commits:
        return None

    def weakness(a: Commit) -> tuple[int, int, str]:
        assert a.move is not None
        m = seat.character.find_move(a.card, a.move, a.name)
        if m is None:
            return (0, 0, a.card.code)
        return (m.damage, -(m.speed or 0), a.card.code)

    return min(commits, key=weakness)


class PersephoneRules(OneCardCounterRules):
    """Persephone with every ability implemented.

    Greedy bot heuristic (:meth:`bot_choice`): Dominance fetches the highest rank each time
    (Aces first) until nothing is left to take; Do As Told counters every ability it can;
    asked to pay Do As Told's price, she takes the 10 damage when she has more than 30 life;
    Bare Your Soul whenever the opponent's deck has a card and no face-up cards wait; she
    discards the opponent's most valuable face-up cards; at each of their draws she makes them
    draw their lowest face-up card if it is a 6 or lower, else discards the face-up cards.
    Controlling the opponent (:meth:`control_choice`, BOT-PERSEPHONE's "worst possible
    choices"): they pass every ability and counter and refuse Do As Told's price, and commit
    the least damaging, slowest attack or throw they hold that is neither a Joker nor an Ace
    (else the first legal choice).
    """

    abilities_implemented = True
    COUNTER = DO_AS_TOLD
    COUNTER_RANK = Rank.NINE
    ability_notes: ClassVar[dict[str, str]] = {
        DOMINANCE: "Whenever she knocks the opponent down (end of combat, before the combat "
                   "cards are discarded): she may take one non-Joker card from her discard pile "
                   "into her hand; if she also knocked them down in the previous turn's combat, "
                   "up to four non-Joker cards of different ranks, one at a time.",
        DO_AS_TOLD: "Reaction: play a 9 to counter an ability as it is played. The opponent may "
                    "take 10 damage instead: then their ability resolves and can't be countered.",
        BARE_YOUR_SOUL: "Draw Phase: play a 10; the top 3 cards of the opponent's deck go face up "
                        "(above 3 face-up cards she discards the excess). Before each of their "
                        "draws she may have them draw a face-up card instead; if she doesn't, "
                        "the face-up cards are discarded. A shuffle of their deck shuffles the "
                        "face-up cards back in. Counterable.",
        MISTRESS: "During Combat: if she won combat with it and it dealt damage, she makes every "
                  "decision of the opponent's next turn up to the combat reveal (draw-phase "
                  "abilities, counters, their combat card), seeing their hand. Not two turns "
                  "in a row.",
    }

    def __init__(self, character: Character) -> None:
        super().__init__(character)
        self.last_knockdown = 0  # the turn of her last knockdown of the opponent
        self.command_won = False  # this combat: Mistress's Command won combat
        self.command_hit = False  # ... and dealt damage
        self.command_next = False  # she controls the opponent's next turn
        self.controlled_turn = 0  # the turn she controls (or controlled last)

    def position_key(self) -> str:
        """Her last knockdown's turn (Dominance's history), pending or current control."""
        parts = []
        if self.last_knockdown:
            parts.append(f"kd{self.last_knockdown}")
        if self.command_won or self.command_hit:
            parts.append(f"mc{int(self.command_won)}{int(self.command_hit)}")
        if self.command_next:
            parts.append("command")
        if self.controlled_turn:
            parts.append(f"ctl{self.controlled_turn}")
        return ";".join(parts)

    # --- Mistress's Command: control of the next turn ---------------------------------------
    def start_of_turn(self, ctx: AbilityContext, ps: PlayerState) -> None:
        if self.command_next:
            self.command_next = False
            self.controlled_turn = ctx.turn
            ctx.control(ctx.opponent(ps), ps)

    def after_winner(self, ctx: AbilityContext,
                     ps: PlayerState, winner: PlayerState | None) -> Step:
        m = ps.combat_move
        self.command_won = winner is ps and m is not None and m.name == MISTRESS
        return
        yield  # pragma: no cover

    def end_of_combat(self, ctx: AbilityContext, ps: PlayerState,
                      winner: PlayerState | None) -> Step:
        if self.command_hit and self.controlled_turn != ctx.turn:
            self.command_next = True  # "you can't control two turns in a row"
        self.command_won = self.command_hit = False
        return
        yield  # pragma: no cover

    # --- reactions: Dominance, Mistress's Command's damage ------------------------------------
    reacts_to = frozenset({DamageDealt, Knockdown})  # the events on_event reads

    def on_event(self, ctx: AbilityContext, ps: PlayerState, event: Event) -> Step:
        if isinstance(event, DamageDealt):
            if self.command_won and event.source is ps.player and event.kind == "combat" \
                    and event.amount > 0 and event.step == "C8":
                self.command_hit = True
            return
        if not isinstance(event, Knockdown) or event.by is not ps.player \
                or event.seat is ps.player:
            return
        double = self.last_knockdown > 0 and self.last_knockdown == ctx.turn - 1
        self.last_knockdown = ctx.turn
        yield from self._dominance(ctx, ps, DOUBLE_FETCH if double else 1)

    def _dominance(self, ctx: AbilityContext, ps: PlayerState, n: int) -> Step:
        """Fetch up to ``n`` non-Joker cards of different ranks, one decision each."""
        ranks: set[Rank] = set()
        for _ in range(n):
            choices = _distinct([c for c in ps.discard
                                 if not c.is_joker and c.rank not in ranks])
            if not choices:
                return
            taken = set(ranks)

            def check(player: PlayerId, a: Action, choices: list[Card] = choices,
                      taken: set[Rank] = taken) -> None:
                if isinstance(a, Pass):
                    return
                if not isinstance(a, UseAbility) or a.ability != DOMINANCE:
                    raise RuleViolation("AB-1", "Dominance: name a card to fetch from the "
                                                "discard pile, or pass")
                if a.card is not None or a.option or len(a.cards) != 1:
                    raise RuleViolation("AB-1", "Dominance fetches one card at a time")
                c = a.cards[0]
                if c not in ps.discard:
                    raise RuleViolation("AB-1", f"{c} is not in Persephone's discard pile")
                if c.is_joker:
                    raise RuleViolation("AB-1", "Dominance fetches non-Joker cards only")
                if c.rank in taken:
                    raise RuleViolation("AB-1", "Dominance's cards must be of different ranks")

            def options(player: PlayerId, choices: list[Card] = choices) -> list[Action]:
                return [Pass(), *(UseAbility(DOMINANCE, cards=(c,)) for c in choices)]

            _, a = yield from ctx.ask((ps.player,), "AB-1", check, options)
            if not isinstance(a, UseAbility):
                return
            c = a.cards[0]
            ctx.move(ps, c, Zone.DISCARD, Zone.HAND)
            if not ranks and (yield from ctx.offer_counter(ps, DOMINANCE)):  # CTR-8
                ctx.move(ps, c, Zone.HAND, Zone.DISCARD)  # CTR-3: undone, no more fetches
                return
            assert c.rank is not None
            ranks.add(c.rank)

    # --- Bare Your Soul (10, Draw Phase) -------------------------------------------------------
    def can_act(self, ctx: AbilityContext, ps: PlayerState, window: str) -> bool:
        return window == "draw_phase" and ps.holds(Rank.TEN)

    def window_options(self, ctx: AbilityContext, ps: PlayerState, window: str) -> list[Action]:
        if window != "draw_phase":
            return []
        return [UseAbility(BARE_YOUR_SOUL, c) for c in _distinct(ps.hand) if c.rank is Rank.TEN]

    def check(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> None:
        if not isinstance(action, UseAbility) or action.ability != BARE_YOUR_SOUL:
            raise self.not_here(ctx, ps, window, action)
        if window != "draw_phase":
            raise RuleViolation("WIN-DRAW", "Bare Your Soul is played in the draw phase "
                                            "(after the draws)")
        if action.card is None or action.card.rank is not Rank.TEN:
            raise RuleViolation("AB-2", "Bare Your Soul is played with one of Persephone's 10s")
        if action.card not in ps.hand:
            raise RuleViolation("AB-2", f"{action.card} is not in {ps.player.name}'s hand")
        if action.cards or action.option:
            raise RuleViolation("AB-2", "Bare Your Soul takes no other choice when played")

    def play(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> Step:
        assert isinstance(action, UseAbility) and action.card is not None
        ctx.move(ps, action.card, Zone.HAND, Zone.DISCARD)  # AB-2
        if (yield from ctx.offer_counter(ps, BARE_YOUR_SOUL, action.card)):
            return
        opp = ctx.opponent(ps)
        yield from self._reveal(ctx, ps, opp)
        excess = len(opp.face_up) - FACE_UP_LIMIT
        if excess > 0:
            yield from self._discard_down(ctx, ps, opp, excess)

    def _reveal(self, ctx: AbilityContext, ps: PlayerState, opp: PlayerState) -> Step:
        """The top 3 cards of the opponent's deck go face up; a recorded game names them."""
        n = min(FACE_UP_LIMIT, len(opp.deck))
        if n == 0:
            return
        if not ctx.recorded:
            top = opp.deck[:n]
        else:
            known = ctx.deck_top_known(opp)[:n]

            def check(player: PlayerId, a: Action) -> None:
                if not isinstance(a, UseAbility) or a.ability != BARE_YOUR_SOUL \
                        or a.card is not None or a.option:
                    raise RuleViolation("AB-2", "Bare Your Soul: name the cards turned face up "
                                                "from the top of the opponent's deck")
                if len(a.cards) != n or len(set(a.cards)) != n:
                    raise RuleViolation("AB-2", f"Bare Your Soul: name the {n} cards turned "
                                                "face up, each once")
                if any(c not in opp.deck for c in a.cards) \
                        or list(a.cards[:len(known)]) != known:
                    raise RuleViolation("GEN-6", "those are not the top cards of the "
                                                 "opponent's deck")

            def options(player: PlayerId) -> list[Action]:
                rest = [c for c in _distinct(opp.deck) if c not in known]
                return [UseAbility(BARE_YOUR_SOUL, cards=tuple([*known, *rest][:n]))]

            _, a = yield from ctx.ask((ps.player,), "AB-2", check, options)
            assert isinstance(a, UseAbility)
            top = list(a.cards)
        for c in top:
            ctx.move(opp, c, Zone.DECK, Zone.FACE_UP)

    def _discard_down(self, ctx: AbilityContext, ps: PlayerState, opp: PlayerState,
                      excess: int) -> Step:
        """More than 3 face-up cards: she discards the excess (her choice)."""
        face_up = list(opp.face_up)

        def check(player: PlayerId, a: Action) -> None:
            if not isinstance(a, UseAbility) or a.ability != BARE_YOUR_SOUL \
                    or a.card is not None or a.option:
                raise RuleViolation("AB-2", "Bare Your Soul: name the face-up cards to discard")
            if len(a.cards) != excess or len(set(a.cards)) != excess:
                raise RuleViolation("AB-2", f"Bare Your Soul: discard {excess} face-up "
                                            f"card(s), down to {FACE_UP_LIMIT}")
            if any(c not in face_up for c in a.cards):
                raise RuleViolation("AB-2", "only face-up cards are discarded down to 3")

        def options(player: PlayerId) -> list[Action]:
            return [UseAbility(BARE_YOUR_SOUL, cards=cs)
                    for cs in combinations(_distinct(face_up), excess)]

        _, a = yield from ctx.ask((ps.player,), "AB-2", check, options)
        assert isinstance(a, UseAbility)
        for c in a.cards:
            ctx.move(opp, c, Zone.FACE_UP, Zone.DISCARD)

    def replace_draw(self, ctx: AbilityContext, ps: PlayerState,
                     drawer: PlayerState) -> Generator[Decision, tuple[PlayerId, Action], bool]:
        """The opponent would draw with face-up cards waiting: she may name one they draw
        instead; a pass discards the face-up cards (the draw then comes from the deck)."""
        if drawer is ps or drawer is not ctx.opponent(ps) or not drawer.face_up:
            return False
        face_up = _distinct(drawer.face_up)

        def check(player: PlayerId, a: Action) -> None:
            if isinstance(a, Pass):
                return
            if not isinstance(a, UseAbility) or a.ability != BARE_YOUR_SOUL \
                    or a.card is not None or a.option or len(a.cards) != 1:
                raise RuleViolation("AB-2", "Bare Your Soul: name one face-up card for the "
                                            "opponent to draw, or pass (they discard them)")
            if a.cards[0] not in face_up:
                raise RuleViolation("AB-2", f"{a.cards[0]} is not one of the face-up cards")

        def options(player: PlayerId) -> list[Action]:
            return [Pass(), *(UseAbility(BARE_YOUR_SOUL, cards=(c,)) for c in face_up)]

        _, a = yield from ctx.ask((ps.player,), "AB-2", check, options)
        if isinstance(a, UseAbility):
            ctx.move(drawer, a.cards[0], Zone.FACE_UP, Zone.HAND)
            return True
        for c in list(drawer.face_up):
            ctx.move(drawer, c, Zone.FACE_UP, Zone.DISCARD)
        return False

    # --- Do As Told (9, Reaction) --------------------------------------------------------------
    def counter_cards(self, ps: PlayerState) -> list[Card]:
        """The distinct 9s in hand, offered in card-code order."""
        return [c for c in _distinct(ps.hand) if c.rank is Rank.NINE]

    def counter_resisted(self, ctx: AbilityContext, ps: PlayerState, owner: PlayerState,
                         action: Action) -> Generator[Decision, tuple[PlayerId, Action], bool]:
        """"The opponent may take 10 damage to make their ability uncounterable"."""

        def check(player: PlayerId, a: Action) -> None:
            if isinstance(a, Pass):
                return
            if not isinstance(a, UseAbility) or a.ability != DO_AS_TOLD or a.option != TAKE_10 \
                    or a.card is not None or a.cards:
                raise RuleViolation("AB-2", "Do As Told: take 10 damage (option "
                                            f"{TAKE_10!r}) to keep the ability, or pass and "
                                            "it is countered")

        def options(player: PlayerId) -> list[Action]:
            return [Pass(), UseAbility(DO_AS_TOLD, option=TAKE_10)]

        _, a = yield from ctx.ask((owner.player,), "AB-2", check, options)
        if isinstance(a, Pass):
            return False
        ctx.damage(owner, DO_AS_TOLD_DAMAGE, ps)
        return True

    # --- bots -------------------------------------------------------------------------------
    def bot_choice(self, ctx: AbilityContext, ps: PlayerState,
                   legal: Sequence[Action]) -> Action | None:
        uses = [a for a in legal if isinstance(a, UseAbility)]
        if not uses:
            return None
        first = uses[0]
        if first.ability == DOMINANCE:
            return max(uses, key=lambda a: (card_worth(a.cards[0]), a.cards[0].code))
        if first.ability == DO_AS_TOLD:
            if first.option == TAKE_10:  # asked to pay the price for her own ability
                return first if ps.life > 30 else Pass()
            return first
        if first.ability != BARE_YOUR_SOUL:
            return None
        opp = ctx.opponent(ps)
        if first.card is not None:  # the draw-phase window
            return first if opp.deck and not opp.face_up else Pass()
        if Pass() in legal:  # one of the opponent's draws
            low = min(uses, key=lambda a: (card_worth(a.cards[0]), a.cards[0].code))
            return low if card_worth(low.cards[0]) <= 6 else Pass()
        if len(uses) == 1:
            return first
        # discarding down to 3: the opponent's most valuable face-up cards go
        return max(uses, key=lambda a: sum(card_worth(c) for c in a.cards))

    def control_choice(self, ctx: AbilityContext, ps: PlayerState, seat: PlayerState,
                       legal: Sequence[Action]) -> Action | None:
        if Pass() in legal:
            return Pass()
        worst = weakest_commit(seat, legal)
        if worst is not None:
            return worst
        if any(isinstance(a, Commit) for a in legal):
            return legal[0]
        return None
