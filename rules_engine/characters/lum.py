"""Lum Bam-Foo (2014 deck): innate Roll the Dice, Jackpot (7), Poker Flourish (10), Blackjack
(the Ace's dodge) (docs/rules/characters/lum.md; RULES.md FR-LUM-1..4).

Glossary: *face card* = a J, Q or K (GL-FACE; Aces are not face cards); *roll* = Roll the
Dice's top card of the deck, discarded; *deal* = Blackjack's cards discarded from the deck one by
one; *poker hand* = the top two cards of his discard pile and up to three cards of his hand.

Responsibility: Lum's ability hooks. Decisions of this module's making
(docs/rules/characters/lum.md, "Engine rulings"):
- Roll the Dice is played in the end-of-combat window (C13b), once a combat (FR-LUM-2), when
  this combat his attack dealt damage (combat damage with an attack move: his combat attack, a
  hit-back, an attack of his combo) or block damage (FR-LUM-1); Blackjack's damage is ability
  damage and does not count. An innate: offered to counters as it is rolled, where the counter
  policy (CTR-8) lets none counter it unless ``opt.innateCounters`` is the first-edition reading
  (countered: nothing is discarded). 2-3: gain 4
  life or draw the bottom card; 4-10: knock the opponent down for next turn's combat (KD-3) or
  return the face cards he played this combat (combat card, combo moves, pumps, FR-LUM-3); J/Q/K:
  the opponent's attacks and throws are 4.0 slower next turn (a ``SPEED`` modifier put in force
  at next turn's T1); A: draw 3, then peek at the bottom card (shown to him only); Joker: he
  takes 1 damage.
- Jackpot (a 7 from hand, Draw Phase, counterable: countered, the 7 stays discarded): he draws,
  then the opponent reveals a card of their hand at random (seeded, or a ``reveal`` event);
  an Ace: the opponent takes 7 and he draws; a Joker: he takes 2.
- Poker Flourish (a 10 from hand, End of Turn, counterable): the poker hand is the top two
  cards of his discard pile and up to three other cards of his hand, which are shown and stay
  in hand; the 10 is discarded, then the effect (``option``): straight (search the deck for any
  card, then shuffle), flush (draw 3), full_house (7 damage), four_of_a_kind (discard an Ace
  from hand for the Blackjack effect); a straight flush gives any two of them, joined by ``+``.
  Aces are high or low in straights; Jokers are not wild (FR-LUM-4).
- Blackjack: when his Ace's dodge wins combat against an attack or a Joker (an Ace ability:
  no counter may counter it, CTR-8), there is no hit-back (no Rewind window, no combo); he deals
  cards from his deck to the discard pile, the first at once, then after each card he deals
  another (option ``deal``) or stops (``stop``); more than 21 (Aces counted 1) is a bust: no
  damage. Otherwise he deals the total as ability damage, each Ace 11 if that does not go
  over 21, else 1; face cards 10, Jokers 21; exactly 21 also puts the dealt cards in his hand.
- Rolling Panda's block damage: none (the 2014 card data); ``opt.rollingPandaBlock=
  FIRST_EDITION_2`` gives the first edition's 2 (a ``BLOCK_DAMAGE`` modifier on the opponent).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any, ClassVar

from rules_engine import combat as cb
from rules_engine.actions import Action, UseAbility
from rules_engine.cards import Card, MoveType, Rank
from rules_engine.characters import CharacterRules
from rules_engine.errors import RuleViolation
from rules_engine.journal import DamageDealt, Hit
from rules_engine.modifiers import BLOCK_DAMAGE, SPEED, Expiry, Modifier
from rules_engine.ruleset import RollingPandaBlock
from rules_engine.state import Zone

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.cards import Move
    from rules_engine.journal import Event
    from rules_engine.state import PlayerState, Step

ROLL = "Roll the Dice"
JACKPOT = "Jackpot"
POKER = "Poker Flourish"
BLACKJACK = "Blackjack"
ROLL_LIFE, ROLL_BOTTOM = "life", "bottom"
ROLL_KNOCKDOWN, ROLL_RETURN = "knockdown", "return"
DEAL, STOP = "deal", "stop"
STRAIGHT, FLUSH, FULL_HOUSE, FOUR = "straight", "flush", "full_house", "four_of_a_kind"
EFFECTS = (STRAIGHT, FLUSH, FULL_HOUSE, FOUR)
# the effects a roll may give, holding an Ace and not (FOUR wants an Ace)
_USABLE = {True: list(EFFECTS), False: [e for e in EFFECTS if e != FOUR]}
SEARCH = "search"
ROLL_HEAL = 4
ROLL_SLOWER = 40  # "4 speed slower" (tenths)
JACKPOT_DAMAGE = 7
JACKPOT_SELF = 2
FULL_HOUSE_DAMAGE = 7
FLUSH_DRAW = 3
TWENTY_ONE = 21


def _distinct(cards: Sequence[Card]) -> list[Card]:
    return list(dict.fromkeys(cards))


def blackjack_totals(cards: Sequence[Card]) -> tuple[int, int]:
    """(the total with every Ace 1, the best total: one Ace 11 when that stays <= 21).
    Face cards count 10, Jokers 21 (lum.md, Blackjack)."""
    low = 0
    for c in cards:
        if c.is_joker:
            low += 21
        elif c.rank is Rank.ACE:
            low += 1
        elif c.rank is not None and c.rank.is_face:
            low += 10
        else:
            low += int(c.rank or 0)
    aces = any(c.rank is Rank.ACE for c in cards if not c.is_joker)
    best = low + 10 if aces and low + 10 <= TWENTY_ONE else low
    return low, best


def poker_effects(cards: Sequence[Card]) -> tuple[set[str], bool]:
    """The effects a poker hand gives (FR-LUM-4: Aces high or low in straights, Jokers not
    wild) and whether it is a straight flush."""
    out: set[str] = set()
    counts: dict[int, int] = {}
    suits = set()
    for c in cards:
        if c.joker or c.rank is None:
            continue
        counts[c.rank] = counts.get(c.rank, 0) + 1
        suits.add(c.suit)
    if not counts:
        return out, False
    if max(counts.values()) >= 4:
        out.add(FOUR)
    if len(cards) == 5 and sum(counts.values()) == 5:
        if len(counts) == 2 and 3 in counts.values():
            out.add(FULL_HOUSE)
        if len(suits) == 1:
            out.add(FLUSH)
        if len(counts) == 5:
            values = sorted(counts)
            if values[-1] - values[0] == 4 or values == [2, 3, 4, 5, 14]:
                out.add(STRAIGHT)
    return out, STRAIGHT in out and FLUSH in out


ROLLING_PANDA = "Rolling Panda"
FIRST_EDITION_BLOCK = 2


def _panda_block(seat: PlayerState, move: object, n: int) -> int:
    return FIRST_EDITION_BLOCK if getattr(move, "name", None) == ROLLING_PANDA else n


def _slower(seat: PlayerState, move: Move, speed: int) -> int:
    return speed + ROLL_SLOWER if move.type in (MoveType.ATTACK, MoveType.THROW) else speed


class LumRules(CharacterRules):
    """Lum with every ability implemented.

    Greedy heuristic (:meth:`bot_choice`, RULES.md BOT-LUM where it speaks): Roll the Dice
    whenever it may be rolled; 2-3: gain 4 life when he has lost at least 4, else draw the
    bottom card; 4-10: return his face cards when he played any this combat, else knock the
    opponent down. Jackpot whenever he holds a 7. Poker Flourish whenever it may be played,
    taking the effect worth most (four of a kind 8, full house 7, flush 6, straight 4; two
    effects add up). Blackjack: keeps dealing while the total is below 12, then stops (BOT-LUM).
    """

    abilities_implemented = True
    ability_notes: ClassVar[dict[str, str]] = {
        ROLL: "End of combat (once a combat), if his attack dealt damage or block damage this "
              "combat (Blackjack's damage does not count). Innate: can't be countered (the "
              "first-edition reading lets Smoke Bomb counter it). He discards the top "
              "card of his deck: 2-3 gain 4 life or draw the bottom card; 4-10 knock the "
              "opponent down for next turn's combat or return the face cards he played this "
              "combat (combo and pumps included) to his hand; J, Q, K the opponent's attacks "
              "and throws are 4.0 slower next turn; A draw 3, then peek at the bottom card; "
              "Joker he takes 1 damage.",
        JACKPOT: "Draw Phase, discard a 7 (counterable): he draws a card, then the opponent "
                 "reveals a card from their hand at random: an Ace, they take 7 damage and he "
                 "draws another card; a Joker, he takes 2 damage.",
        POKER: "End of Turn, discard a 10 (counterable): a poker hand of the top 2 cards of "
               "his discard pile and up to 3 other cards he shows from hand (they stay in "
               "hand). Straight: search the deck for any card (then shuffle); flush: draw 3; "
               "full house: 7 damage; four of a kind: discard an Ace from hand for the "
               "Blackjack effect; straight flush: any two. Aces high or low, Jokers not wild.",
        BLACKJACK: "During Combat: when his Ace's dodge beats an attack or a Joker (an Ace: "
                   "can't be countered), "
                   "no hit-back; he discards cards from his deck one at a time (the first at "
                   "once) and stops when he decides or when they total more than 21 (a bust: "
                   "no damage). Otherwise he deals the total (face cards 10, Aces 11 or 1, "
                   "Jokers 21); exactly 21 also puts those cards in his hand.",
    }

    def __init__(self, character: Any) -> None:
        super().__init__(character)
        self.mark = 0  # the journal's length when this turn began
        self.attack_hit = False  # an attack of his hit this combat
        self.rolled = False  # Roll the Dice this combat (FR-LUM-2)
        self.slow_next = False  # the J/Q/K result, for next turn
        self.dealt: list[Card] = []  # Blackjack: the cards dealt so far
        self.kd_until_combat = False  # the 4-10 knockdown given, for next turn's combat
        # the last Poker Flourish listing (a memo, not game state: keyed by hand and pile)
        self._poker_memo: tuple[tuple[Card, ...], list[Action]] | None = None
        self.stand_after_combat = False  # this turn: stand the opponent up after combat

    def position_key(self) -> str:
        return ("A" if self.attack_hit else "") + ("R" if self.rolled else "") \
            + ("S" if self.slow_next else "") + ("K" if self.kd_until_combat else "") \
            + ("U" if self.stand_after_combat else "")

    def start_of_turn(self, ctx: AbilityContext, ps: PlayerState) -> None:
        self.mark = len(ctx.journal)
        self.attack_hit = False
        self.rolled = False
        self.stand_after_combat, self.kd_until_combat = self.kd_until_combat, False
        if ctx.ruleset.rollingPandaBlock is RollingPandaBlock.FIRST_EDITION_2:
            ctx.add_modifier(Modifier(BLOCK_DAMAGE, ctx.opponent(ps).player, _panda_block,
                                      ROLLING_PANDA, Expiry.END_OF_TURN))
        if self.slow_next:
            self.slow_next = False
            ctx.add_modifier(Modifier(SPEED, ctx.opponent(ps).player, _slower, ROLL,
                                      Expiry.END_OF_TURN))

    reacts_to = frozenset({Hit})  # the events on_event reads

    def on_event(self, ctx: AbilityContext, ps: PlayerState, event: Event) -> Step:
        if isinstance(event, Hit) and event.by is ps.player:
            combo = ctx.combo
            move = combo[-1].move if event.combo and combo else ps.combat_move
            if move is not None and move.type is MoveType.ATTACK:
                self.attack_hit = True
        return
        yield  # pragma: no cover

    # --- Roll the Dice (innate) ---------------------------------------------------------------
    def _roll_due(self, ctx: AbilityContext, ps: PlayerState) -> bool:
        """FR-LUM-1, FR-LUM-2: his attack dealt damage or block damage this combat."""
        if self.rolled or not ps.deck:
            return False
        combat = block = 0
        for e in ctx.journal[self.mark:]:
            if isinstance(e, DamageDealt) and e.source is ps.player and e.target is not ps.player:
                if e.kind == "combat":
                    combat += e.amount
                elif e.kind == "block":
                    block += e.amount
        return block > 0 or (combat > 0 and self.attack_hit)

    def _choose(self, ctx: AbilityContext, ps: PlayerState, name: str, rule: str,
                options: tuple[str, ...]) -> Any:
        def check(p: Any, a: Action) -> None:
            if not isinstance(a, UseAbility) or a.ability != name or a.option not in options \
                    or a.card is not None or a.cards:
                raise RuleViolation(rule, f"{name}: choose one of {', '.join(options)}")

        _, action = yield from ctx.ask(
            (ps.player,), rule, check, lambda p: [UseAbility(name, option=o) for o in options])
        assert isinstance(action, UseAbility)
        return action.option

    def _roll(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        self.rolled = True
        if (yield from ctx.offer_counter(ps, ROLL)):
            return
        top = yield from ctx.take_top(ps, ctx.step)
        if top is None:
            return
        ctx.discard(ps, top)
        opp = ctx.opponent(ps)
        if top.is_joker:
            ctx.damage(ps, 1, ps)
        elif top.rank is not None and top.rank <= Rank.THREE:
            pick = yield from self._choose(ctx, ps, ROLL, "AB-1", (ROLL_LIFE, ROLL_BOTTOM))
            if pick == ROLL_LIFE:
                ctx.heal(ps, ROLL_HEAL)
            else:
                yield from ctx.draw_bottom(ps, ctx.step)
        elif top.rank is not None and top.rank <= Rank.TEN:
            pick = yield from self._choose(ctx, ps, ROLL, "FR-LUM-3",
                                           (ROLL_KNOCKDOWN, ROLL_RETURN))
            if pick == ROLL_KNOCKDOWN:
                # "until the end of combat next turn": stood up after next turn's combat,
                # unless a combat knockdown (for the whole next turn) is already due
                self.kd_until_combat = not opp.knockdown_next
                ctx.knock_down(opp, ps, next_turn=True)  # KD-3
            else:
                self._return_face_cards(ctx, ps)
        elif top.rank is not None and top.rank.is_face:
            self.slow_next = True
        else:  # an Ace
            yield from ctx.draw(ps, ctx.step, 3)
            ctx.peek_bottom(ps)

    def end_of_combat(self, ctx: AbilityContext, ps: PlayerState,
                      winner: PlayerState | None) -> Step:
        """C13b: the opponent his 4-10 roll knocked down stands up ("until the end of combat
        next turn")."""
        if self.stand_after_combat:
            self.stand_after_combat = False
            ctx.stand_up(ctx.opponent(ps))
        return
        yield  # pragma: no cover

    @staticmethod
    def _face(c: Card) -> bool:
        return not c.is_joker and c.rank is not None and c.rank.is_face

    def _return_face_cards(self, ctx: AbilityContext, ps: PlayerState) -> None:
        """FR-LUM-3: the face cards he played this combat, pump cards included."""
        c = ps.combat_card
        if c is not None and self._face(c):
            ps.keep_combat_card = True
        for e in ctx.combo_of(ps):  # his own moves (a tag or an assist adds his partner's)
            if e.played_in_c10 and not e.returned and self._face(e.card):
                ctx.move(ps, e.card, Zone.COMBO, Zone.HAND)
            for p in e.pumps:
                if self._face(p) and p in ps.discard:
                    ctx.move(ps, p, Zone.DISCARD, Zone.HAND)

    # --- windows: Roll the Dice (C13b), Jackpot (T3), Poker Flourish (K1) ---------------------
    def can_act(self, ctx: AbilityContext, ps: PlayerState, window: str) -> bool:
        if window == "end_of_combat":
            return self._roll_due(ctx, ps)
        if window == "draw_phase":
            return ps.holds(Rank.SEVEN)
        if window == "end_of_turn":
            return bool(self.window_options(ctx, ps, window))
        return False

    def window_options(self, ctx: AbilityContext, ps: PlayerState, window: str) -> list[Action]:
        if window == "end_of_combat":
            return [UseAbility(ROLL)] if self._roll_due(ctx, ps) else []
        if window == "draw_phase":
            return [UseAbility(JACKPOT, c) for c in _distinct(ps.hand) if c.rank is Rank.SEVEN]
        if window == "end_of_turn":
            return self._poker_options(ps)
        return []

    def _poker_options(self, ps: PlayerState) -> list[Action]:
        if len(ps.discard) < 2 or not ps.holds(Rank.TEN):
            return []
        key = (*ps.discard[-2:], *ps.hand)  # the pile's top two, then the hand
        if self._poker_memo is not None and self._poker_memo[0] == key:
            return list(self._poker_memo[1])  # the same hand and pile: listed already
        out = self._list_poker_options(ps)
        self._poker_memo = (key, out)
        return list(out)

    def _list_poker_options(self, ps: PlayerState) -> list[Action]:
        """Every legal play: straights, flushes and full houses need three shown cards; four of
        a kind with two shown cards only when the pile's top two share their rank (fewer cannot
        make four of a rank)."""
        tens = [c for c in _distinct(ps.hand) if c.rank is Rank.TEN]
        out: list[Action] = []
        top = ps.discard[-2:]
        pair = None if top[0].is_joker or top[0].rank is not top[1].rank else top[0].rank
        for ten in tens:
            rest = [c for c in _distinct(ps.hand) if c is not ten]
            if pair is not None:
                same = [c for c in rest if not c.is_joker and c.rank is pair]
                for two in combinations(same, 2):
                    for option in self._poker_choices(ps, ten, top, two):
                        out.append(UseAbility(POKER, ten, two, option))
            for three in combinations(rest, 3):
                for option in self._poker_choices(ps, ten, top, three):
                    out.append(UseAbility(POKER, ten, three, option))
        return out

    def _poker_choices(self, ps: PlayerState, ten: Card, top: Sequence[Card],
                       shown: Sequence[Card]) -> list[str]:
        got, straight_flush = poker_effects([*top, *shown])
        ace = ps.holds(Rank.ACE)
        usable = _USABLE[ace]  # (read, never changed: no comprehension made per roll)
        found: list[str] = []
        for e in usable:
            if e in got:
                found.append(e)
        if straight_flush:
            return found + [f"{a}+{b}" for a, b in combinations(usable, 2)]
        return found

    def check(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> None:
        if not isinstance(action, UseAbility) or action.ability not in (ROLL, JACKPOT, POKER):
            name = action.ability if isinstance(action, UseAbility) else str(action)
            raise RuleViolation("AB-2", f"Lum cannot play {name!r} in this window")
        if action.ability == ROLL:
            if window != "end_of_combat":
                raise RuleViolation("WIN-ENDCOMBAT", "Roll the Dice is rolled at the end of "
                                                     "combat")
            if self.rolled:
                raise RuleViolation("FR-LUM-2", "Roll the Dice is rolled once a combat")
            if not ps.deck:
                raise RuleViolation("AB-1", "Roll the Dice needs a card in Lum's deck")
            if not self._roll_due(ctx, ps):
                raise RuleViolation("FR-LUM-1", "Roll the Dice needs damage or block damage "
                                                "dealt with one of Lum's attacks this combat")
            if action.card is not None or action.cards or action.option is not None:
                raise RuleViolation("AB-1", "Roll the Dice is rolled with no card or option")
            return
        if action.ability == JACKPOT:
            if window != "draw_phase":
                raise RuleViolation("WIN-DRAW", "Jackpot is played in the draw phase")
            if action.card is None or action.card.rank is not Rank.SEVEN:
                raise RuleViolation("AB-2", "Jackpot is played with one of Lum's 7s")
            if action.card not in ps.hand:
                raise RuleViolation("AB-2", f"{action.card} is not in {ps.player.name}'s hand")
            if action.cards or action.option is not None:
                raise RuleViolation("AB-2", "Jackpot costs only the 7")
            return
        if window != "end_of_turn":
            raise RuleViolation("WIN-ENDTURN", "Poker Flourish is played at the end of the turn")
        if action.card is None or action.card.rank is not Rank.TEN:
            raise RuleViolation("AB-2", "Poker Flourish is played with one of Lum's 10s")
        if action.card not in ps.hand:
            raise RuleViolation("AB-2", f"{action.card} is not in {ps.player.name}'s hand")
        if len(ps.discard) < 2:
            raise RuleViolation("AB-2", "Poker Flourish needs the top 2 cards of Lum's discard "
                                        "pile")
        shown = action.cards
        if len(shown) > 3 or len(set(shown)) != len(shown):
            raise RuleViolation("AB-2", "Poker Flourish uses up to 3 different cards from hand")
        for c in shown:
            if c is action.card or c not in ps.hand:
                raise RuleViolation("AB-2", f"{c} is not another card of "
                                            f"{ps.player.name}'s hand")
        choices = self._poker_choices(ps, action.card, ps.discard[-2:], shown)
        if action.option not in choices:
            hand = " ".join(c.code for c in (*ps.discard[-2:], *shown))
            raise RuleViolation("FR-LUM-4", f"the poker hand {hand} gives "
                                            f"{', '.join(choices) or 'no effect'}, not "
                                            f"{action.option}")

    def play(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> Step:
        assert isinstance(action, UseAbility)
        if action.ability == ROLL:
            yield from self._roll(ctx, ps)
            return
        assert action.card is not None
        ctx.move(ps, action.card, Zone.HAND, Zone.DISCARD)
        if action.ability == JACKPOT:
            if (yield from ctx.offer_counter(ps, JACKPOT, action.card)):
                return
            yield from self._jackpot(ctx, ps)
            return
        if (yield from ctx.offer_counter(ps, POKER, action.card)):
            return
        assert action.option is not None
        for effect in EFFECTS:
            if effect in action.option.split("+"):
                yield from self._poker_effect(ctx, ps, effect)

    def _jackpot(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        yield from ctx.draw(ps, ctx.step)
        opp = ctx.opponent(ps)
        shown = yield from ctx.random_hand_card(opp, ctx.step)
        if shown is None:
            return
        if shown.is_joker:
            ctx.damage(ps, JACKPOT_SELF, opp)
        elif shown.rank is Rank.ACE:
            ctx.damage(opp, JACKPOT_DAMAGE, ps)
            yield from ctx.draw(ps, ctx.step)

    def _poker_effect(self, ctx: AbilityContext, ps: PlayerState, effect: str) -> Step:
        if effect == STRAIGHT:
            if not ps.deck:
                return
            cards = sorted(set(ps.deck), key=lambda c: c.code)

            def check(p: Any, a: Action) -> None:
                if not isinstance(a, UseAbility) or a.ability != POKER or a.option != SEARCH \
                        or a.card is not None or len(a.cards) != 1 or a.cards[0] not in ps.deck:
                    raise RuleViolation("AB-2", "Poker Flourish's straight: name one card of "
                                                "Lum's deck")

            _, a = yield from ctx.ask((ps.player,), "AB-2", check, lambda p: [
                UseAbility(POKER, None, (c,), SEARCH) for c in cards])
            assert isinstance(a, UseAbility)
            ctx.move(ps, a.cards[0], Zone.DECK, Zone.HAND)
            ctx.shuffle_deck(ps)
        elif effect == FLUSH:
            yield from ctx.draw(ps, ctx.step, FLUSH_DRAW)
        elif effect == FULL_HOUSE:
            ctx.damage(ctx.opponent(ps), FULL_HOUSE_DAMAGE, ps)
        else:
            ace = next((c for c in ps.hand if c.rank is Rank.ACE and not c.is_joker), None)
            if ace is None:
                return  # the Ace went to another effect's cost: nothing to discard
            ctx.move(ps, ace, Zone.HAND, Zone.DISCARD)
            yield from self._deal(ctx, ps)

    # --- Blackjack (the Ace's dodge) ------------------------------------------------------------
    def after_winner(self, ctx: AbilityContext, ps: PlayerState,
                     winner: PlayerState | None) -> Step:
        """C6: his Ace's dodge beat an attack or a Joker: no hit-back, the deal."""
        opp = ctx.opponent(ps)
        c = ps.combat_card
        if winner is not ps or ps.kind != cb.DODGE or c is None or c.is_joker \
                or c.rank is not Rank.ACE or opp.kind not in (cb.ATTACK, cb.JOKER):
            return
        if (yield from ctx.offer_counter(ps, BLACKJACK)):
            return  # an ordinary dodge
        ctx.end_combat(after_damage=True)  # "don't hit back"
        yield from self._deal(ctx, ps)

    def _deal(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        dealt = self.dealt = []
        while True:
            c = yield from ctx.take_top(ps, ctx.step)
            if c is None:
                break
            ctx.discard(ps, c)
            dealt.append(c)
            low, _ = blackjack_totals(dealt)
            if low > TWENTY_ONE:
                return  # bust
            if not ps.deck:
                break
            pick = yield from self._choose(ctx, ps, BLACKJACK, "AB-3", (DEAL, STOP))
            if pick == STOP:
                break
        _, best = blackjack_totals(dealt)
        if best:
            ctx.damage(ctx.opponent(ps), best, ps)
        if best == TWENTY_ONE:
            for c in dealt:
                ctx.move(ps, c, Zone.DISCARD, Zone.HAND)

    # --- the greedy bot -------------------------------------------------------------------------
    def bot_choice(self, ctx: AbilityContext, ps: PlayerState,
                   legal: Sequence[Action]) -> Action | None:
        uses = [a for a in legal if isinstance(a, UseAbility)]
        if not uses:
            return None
        names = {a.ability for a in uses}
        if BLACKJACK in names:
            want = DEAL if blackjack_totals(self.dealt)[1] < 12 else STOP
            return next((a for a in uses if a.option == want), None)
        if ROLL in names:
            options = {a.option for a in uses}
            if ROLL_LIFE in options:
                lost = ps.character.life - ps.life
                want = ROLL_LIFE if lost >= ROLL_HEAL else ROLL_BOTTOM
                return next(a for a in uses if a.option == want)
            if ROLL_RETURN in options:
                played = self._played_face(ctx, ps)
                want = ROLL_RETURN if played else ROLL_KNOCKDOWN
                return next(a for a in uses if a.option == want)
            return next((a for a in uses if a.option is None), None)
        if JACKPOT in names:
            return next(a for a in uses if a.ability == JACKPOT)
        pokers = [a for a in uses if a.ability == POKER and a.option != SEARCH]
        if pokers:
            worth = {STRAIGHT: 4, FLUSH: 6, FULL_HOUSE: 7, FOUR: 8}
            return max(pokers, key=lambda a: sum(worth[e] for e in (a.option or "").split("+")))
        return None

    def _played_face(self, ctx: AbilityContext, ps: PlayerState) -> bool:
        c = ps.combat_card
        if c is not None and self._face(c):
            return True
        return any(self._face(e.card) or any(self._face(p) for p in e.pumps)
                   for e in ctx.combo_of(ps))

