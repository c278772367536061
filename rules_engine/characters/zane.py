"""Captain Zane (2014 deck): the innates Shenanigans and Meaty Attacks, Creator and Destroyer and
Crash Bomb (docs/rules/characters/zane.md; no FAQ rulings exist for him).

Glossary: a *combo card* is a move played in a combo at C10 (the combat card is not one); a
*Can't Combo* move is one whose combo type is Can't Combo (Crash Bomb, Maximum Anarchy); a
*hand remake* puts a hand, shuffled, on the bottom of its deck and draws as many cards.

Responsibility: Zane's ability hooks; each docstring names the step the game calls it at.
Decisions of this module's making (docs/rules/characters/zane.md, "Engine rulings"):

- Shenanigans (innate): once per turn, at a combo decision of his (C10, his combo or hit-back
  not closed by an Ender or a Can't Combo move, his deck not empty) he may reveal the top two
  cards of his deck (``combo_card_options``: an ``ability`` event; in a recorded log two ``draw``
  events name them). He may play one of them at once as his next combo move, if it is a legal
  one (a ``combo`` event naming it; its mandatory Aces from his own hand, never the other
  revealed card), or ``pass``; the unused card(s) are discarded. Not as a pump. An innate: never
  countered.
- Meaty Attacks (innate): decided at lock-in (C5): when the opponent is knocked down then
  (KD-3), his normal attacks are speed 1.0 for this combat (after other speed changes).
- Creator and Destroyer (4): "whenever you use all your combo points" is the Full Combo window
  (C10, WIN-FULLCOMBO, the yomibase tag); "or hit with a Can't Combo move" is a decision right
  after such a hit (C6, or C10): a 4 from hand or ``pass``. Counterable (CTR-2); resolved, the
  opponent's hand, shuffled, goes to the bottom of their deck and they draw as many cards.
- Crash Bomb (K): "can't be interrupted": when his Crash Bomb loses C6 to a faster attack, he
  wins instead and the attack still hits him (``also_hits``, as Troq Armor; no counter window:
  it changes C6's result). "If this is blocked": at C8b the opponent may counter it (the
  community note in zane.md); otherwise he takes 5 (ability damage) and is knocked down for the
  next turn (KD-6, as by a combat).
- ``opt.zaneThrowSpeed``: his normal throws are x.3 (the card data, the default) or x.4 (the
  summary line of zane.md), applied as a ``SPEED`` modifier from lock-in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rules_engine import combat as cb
from rules_engine.actions import Action, Combo, Pass, Stop, UseAbility
from rules_engine.cards import Card, Character, ComboType, Move, MoveType, Rank
from rules_engine.characters import CharacterRules
from rules_engine.combat import CombatResult
from rules_engine.errors import RuleViolation
from rules_engine.journal import Blocked, Hit
from rules_engine.modifiers import SPEED, Expiry, Modifier
from rules_engine.ruleset import ZaneThrowSpeed
from rules_engine.state import Zone

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.journal import Event
    from rules_engine.state import PlayerState, Step
    from rules_engine.types import PlayerId

SHENANIGANS = "Shenanigans"
MEATY_ATTACKS = "Meaty Attacks"
CREATOR = "Creator and Destroyer"
CRASH_BOMB = "Crash Bomb"
MEATY_SPEED = 10  # tenths: "speed 1.0"
CRASH_BOMB_SELF_DAMAGE = 5


def _distinct(cards: Sequence[Card]) -> list[Card]:
    return list(dict.fromkeys(cards))


def _meaty(ps: PlayerState, m: Move, v: int) -> int:
    return MEATY_SPEED if m.is_normal_attack else v


def _slower_throws(ps: PlayerState, m: Move, v: int) -> int:
    return v + 1 if m.type is MoveType.THROW and m.rank.is_normal else v


def _is_crash_bomb(ps: PlayerState) -> bool:
    c, m = ps.combat_card, ps.combat_move
    return ps.kind == cb.ATTACK and c is not None and c.rank is Rank.KING and m is not None \
        and m.type is MoveType.ATTACK


class ZaneRules(CharacterRules):
    """Zane with every ability implemented.

    Greedy heuristic (:meth:`bot_choice`, after BOT-ZANE "uses his innate to play his most
    damaging combo"): Shenanigans when no move from his hand can go on with the combo (it can
    only add), and then the revealed card whose move deals the most damage; Creator and
    Destroyer whenever the opponent holds 4 or more cards (it breaks up a hand they built), at
    either trigger. Meaty Attacks and Crash Bomb need no choice.
    """

    abilities_implemented = True
    ability_notes = {
        SHENANIGANS: "Once per turn, at any of his combo decisions (his combo or hit-back not "
                     "yet ended), he may reveal the top two cards of his deck and play one of "
                     "them at once as his next combo move if it is legal (its extra Aces from "
                     "his hand); the other card, or both, are discarded. An innate: can't be "
                     "countered (the first-edition reading lets Smoke Bomb counter it).",
        MEATY_ATTACKS: "Automatic: when the opponent is knocked down at lock-in, his normal "
                       "attacks are speed 1.0 for that combat.",
        CREATOR: "From hand (a 4, discarded), in the Full Combo window when his combo spent "
                 "exactly 4 combo points, or right after his Can't Combo move (Crash Bomb, "
                 "Maximum Anarchy) hits: the opponent puts their hand, shuffled, on the bottom "
                 "of their deck and draws as many cards. The opponent may counter it.",
        CRASH_BOMB: "During Combat: when a faster attack would beat it, his Crash Bomb wins "
                    "instead (the attack still hits him, and the opponent makes no combo). When "
                    "it is blocked he takes 5 damage and is knocked down for the next turn, "
                    "unless the opponent counters that.",
    }

    def __init__(self, character: Character) -> None:
        super().__init__(character)
        self._shenanigans_used = False  # this turn

    def start_of_turn(self, ctx: AbilityContext, ps: PlayerState) -> None:
        self._shenanigans_used = False

    def position_key(self) -> str:
        return "shenanigans" if self._shenanigans_used else ""

    # --- Meaty Attacks and the throw-speed option (C5) ---------------------------------
    def on_lock_in(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        if ctx.ruleset.zaneThrowSpeed is ZaneThrowSpeed.X_4:
            ctx.add_modifier(Modifier(SPEED, ps.player, _slower_throws, "zaneThrowSpeed",
                                      Expiry.END_OF_COMBAT))
        if ctx.opponent(ps).knocked_down:
            ctx.add_modifier(Modifier(SPEED, ps.player, _meaty, MEATY_ATTACKS,
                                      Expiry.END_OF_COMBAT))
        return
        yield  # pragma: no cover

    # --- Crash Bomb (K, C6 and C8b) ------------------------------------------------------
    def combat_override(self, ctx: AbilityContext, ps: PlayerState, a: PlayerState,
                        b: PlayerState, result: CombatResult) -> CombatResult | None:
        """C6: Crash Bomb "can't be interrupted": a faster attack that beat it hits, then it
        wins."""
        me = 0 if ps is a else 1
        opp = ctx.opponent(ps)
        if result.winner is None or result.winner == me or opp.kind != cb.ATTACK \
                or not _is_crash_bomb(ps):
            return None
        return CombatResult(me, False, result.cell, also_hits=True)

    # --- Shenanigans (C10) ----------------------------------------------------------------
    @staticmethod
    def _combo_open(ctx: AbilityContext, ps: PlayerState) -> bool:
        """Whether another combo card could follow now (no Ender, Can't Combo or hit-back
        closed the combo)."""
        if not ctx.combo:
            return True
        last = ctx.combo[-1].move
        if last.follow_type in (ComboType.ENDER, ComboType.CANT_COMBO):
            return False
        return ps.kind != cb.DODGE  # a hit-back is one move (CB-7)

    def combo_card_options(self, ctx: AbilityContext, ps: PlayerState) -> list[Action]:
        if self._shenanigans_used or not ps.deck or not self._combo_open(ctx, ps):
            return []
        return [UseAbility(SHENANIGANS)]

    def _play_shenanigans(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        if (yield from ctx.offer_counter(ps, SHENANIGANS)):  # CTR-8: as it is played
            return  # CTR-3: as if never played (the turn's use is not spent)
        self._shenanigans_used = True
        revealed = yield from ctx.reveal_top(ps, 2, ctx.step)
        for c in revealed:
            ctx.move(ps, c, Zone.DECK, Zone.HAND)
        choices: list[Action] = [a for a in ctx.combo_choices(ps) if a.card in revealed
                                 and not set(a.aces) & set(revealed)]
        chosen: Combo | None = None
        if choices:
            def check(player: PlayerId, a: Action) -> None:
                if isinstance(a, Pass) or a in choices:
                    return
                raise RuleViolation("AB-1", "Shenanigans: play one of the revealed cards ("
                                    + ", ".join(c.code for c in revealed)
                                    + ") as your next combo move, or pass")

            _, pick = yield from ctx.ask((ps.player,), "AB-1", check,
                                         lambda p: [Pass(), *choices])
            if isinstance(pick, Combo):
                chosen = pick
        for c in revealed:
            if chosen is None or c is not chosen.card:
                ctx.move(ps, c, Zone.HAND, Zone.DISCARD)  # the unused card(s)
        if chosen is not None:
            yield from ctx.play_combo(ps, chosen)

    # --- Creator and Destroyer (4) -------------------------------------------------------
    @staticmethod
    def _fours(ps: PlayerState) -> list[Card]:
        return [c for c in _distinct(ps.hand) if c.rank is Rank.FOUR]

    def window_options(self, ctx: AbilityContext, ps: PlayerState, window: str) -> list[Action]:
        if window != "full_combo" or ctx.combo_seat is not ps.player:
            return []
        return [UseAbility(CREATOR, c) for c in self._fours(ps)]

    def can_act(self, ctx: AbilityContext, ps: PlayerState, window: str) -> bool:
        return bool(self.window_options(ctx, ps, window))

    def _check_creator(self, ps: PlayerState, action: Action, rule: str) -> None:
        if not isinstance(action, UseAbility) or action.ability != CREATOR:
            raise RuleViolation(rule, "play Creator and Destroyer or pass")
        if action.card is None or action.card.rank is not Rank.FOUR:
            raise RuleViolation("AB-2", "Creator and Destroyer is played with one of Zane's 4s")
        if action.card not in ps.hand:
            raise RuleViolation("AB-2", f"{action.card} is not in {ps.player.name}'s hand")
        if action.cards or action.option:
            raise RuleViolation("AB-2", "Creator and Destroyer takes no other choice")

    def check(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> None:
        if not isinstance(action, UseAbility):
            raise RuleViolation("INI-4", "play an ability or pass")
        if window == "combo_card":
            if action != UseAbility(SHENANIGANS):
                raise RuleViolation("AB-1", "at a combo decision Zane may play Shenanigans "
                                            "(no card, no choice), a combo move, a pump or stop")
            if not self.combo_card_options(ctx, ps):
                raise RuleViolation("AB-1", "Shenanigans is played once per turn, while a combo "
                                            "card could follow")
            return
        if action.ability == SHENANIGANS:
            raise RuleViolation("AB-1", "Shenanigans is played at one of Zane's combo decisions "
                                        "(when he could play a combo card)")
        if action.ability != CREATOR:
            raise RuleViolation("AB-2", f"Zane has no ability {action.ability!r} to play here")
        if window != "full_combo" or ctx.combo_seat is not ps.player:
            raise RuleViolation("WIN-FULLCOMBO", "Creator and Destroyer is played when Zane's "
                                                 "combo used all his combo points, or right "
                                                 "after his Can't Combo move hits")
        self._check_creator(ps, action, "AB-2")

    def play(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> Step:
        assert isinstance(action, UseAbility)
        if window == "combo_card":
            yield from self._play_shenanigans(ctx, ps)
            return
        yield from self._remake(ctx, ps, action)

    @staticmethod
    def _remake(ctx: AbilityContext, ps: PlayerState, action: UseAbility) -> Step:
        assert action.card is not None
        ctx.move(ps, action.card, Zone.HAND, Zone.DISCARD)  # AB-2: paid, discarded
        if (yield from ctx.offer_counter(ps, CREATOR, action.card)):
            return
        opp = ctx.opponent(ps)
        n = ctx.hand_to_deck_bottom(opp)
        yield from ctx.draw(opp, ctx.step, n)

    # --- reactions: a Can't Combo hit (Creator and Destroyer), Crash Bomb blocked -------------
    reacts_to = frozenset({Hit, Blocked})  # the events on_event reads

    def on_event(self, ctx: AbilityContext, ps: PlayerState, event: Event) -> Step:
        if isinstance(event, Hit) and event.by is ps.player:
            if event.combo:
                if not ctx.combo or ctx.combo_seat is not ps.player:
                    return
                m: Move | None = ctx.combo[-1].move
            else:
                m = ps.combat_move
            if m is None or m.combo_type is not ComboType.CANT_COMBO or not self._fours(ps):
                return

            def check(player: PlayerId, a: Action) -> None:
                if isinstance(a, Pass):
                    return
                self._check_creator(ps, a, "AB-2")

            _, a = yield from ctx.ask(
                (ps.player,), "AB-2", check,
                lambda p: [Pass(), *(UseAbility(CREATOR, c) for c in self._fours(ps))])
            if isinstance(a, UseAbility):
                yield from self._remake(ctx, ps, a)
        elif isinstance(event, Blocked) and event.attacker is ps.player and _is_crash_bomb(ps):
            opp = ctx.opponent(ps)
            if (yield from ctx.offer_counter(ps, CRASH_BOMB)):
                return
            ctx.knock_down(ps, opp, next_turn=True)
            ctx.damage(ps, CRASH_BOMB_SELF_DAMAGE, ps)

    # --- the greedy bot -----------------------------------------------------------------
    def bot_choice(self, ctx: AbilityContext, ps: PlayerState,
                   legal: Sequence[Action]) -> Action | None:
        shen = UseAbility(SHENANIGANS)
        if shen in legal:
            if any(isinstance(a, Combo) for a in legal):
                return None  # his hand can go on: the default combo
            return shen
        creators = [a for a in legal if isinstance(a, UseAbility) and a.ability == CREATOR]
        if creators:
            return creators[0] if len(ctx.opponent(ps).hand) >= 4 else Pass()
        if legal and isinstance(legal[0], Pass) and ctx.step == "C10" \
                and any(isinstance(a, Combo) for a in legal) \
                and not any(isinstance(a, Stop) for a in legal):
            # the Shenanigans choice: the revealed card with the most damaging move
            combos = [a for a in legal if isinstance(a, Combo)]
            return max(combos, key=lambda a: ctx.as_played(
                ps, ps.character.find_move(a.card, a.move, a.name) or _none()).damage)
        return None


def _none() -> Move:  # pragma: no cover - find_move always finds a listed move
    raise AssertionError("a listed combo move has no Move")
