"""Character abilities: one module per character, each a :class:`CharacterRules` subclass
written against :class:`rules_engine.abilities.AbilityContext` (never the game itself).

Glossary (RULES.md §10): *innate* (AB-1) = always-on character-card ability; *card ability*
(AB-2) = printed on deck cards, played from hand in its timing window; *During Combat* (AB-3) =
part of a move, active while that card is the combat card or a combo move; *window* (WIN table)
= draw_phase (T3), combat_reveal (C4), end_of_combat (C13b), end_of_turn (K1), full_combo (C10).

How an ability plugs in (docs/rules-engine.md has a worked example):
- a card ability played in a window: ``can_act`` / ``window_options`` / ``check`` / ``play``;
- a counter: ``can_counter`` / ``counter_options`` / ``check_counter`` / ``pay_counter``;
- a change to a number or a permission (speed, damage, follow rules, pumps, allowed moves,
  cards for Power Up, the hand limit) — its own or *the opponent's* — is a modifier
  (:mod:`rules_engine.modifiers`): always-on ones from :meth:`CharacterRules.modifiers`, timed
  ones added with ``ctx.add_modifier`` when the ability resolves;
- a reaction to something that happened (a hit, a block, a throw, a knockdown, damage, a draw,
  a heal) is :meth:`CharacterRules.on_event` over the journal (:mod:`rules_engine.journal`);
- a change to who wins the combat (armour, "beats all attacks") is
  :meth:`CharacterRules.combat_override` at C6;
- steps with no event of their own keep a named hook (``on_lock_in``, ``after_winner``,
  ``normal_draw_prevented``, ``block_draw_prevented``, ``replace_block_draw``,
  ``blocking_innates_prevented``, ``combo_opener`` / ``after_card_combo``, ``armor_combo``,
  ``end_of_combat``, ``at_end_of_turn``, ``start_of_turn``);
- the greedy bot asks :meth:`CharacterRules.bot_choice` at this character's decisions.

*Ongoing* / *attached* cards are :mod:`rules_engine.effects`; ``has_state`` connects a move's
``requires`` to an active effect of that name.

Responsibility: the hooks the game calls at each step. The base class is the behaviour of a
character whose abilities are not implemented yet: card stats only, no ability ever playable.
``IMPLEMENTED`` says which characters are complete; a verdict on a log with any other character
reports ``abilities_complete: false``.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rules_engine import effects
from rules_engine.actions import Action, Discard, Pass, UseAbility
from rules_engine.cards import Card, Character, Rank
from rules_engine.errors import RuleViolation
from rules_engine.state import Zone

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.cards import Move
    from rules_engine.combat import CombatResult
    from rules_engine.journal import Event
    from rules_engine.modifiers import Modifier
    from rules_engine.state import Decision, PlayerState, Step
    from rules_engine.types import PlayerId


# The step hooks the game calls at every turn or combat whatever happened (T1, C1, C2, C5, C6,
# C13, K1). Their defaults do nothing, so the game asks only the seats whose rules override
# them (:func:`overrides`, worked out when the rules are seated): no generator made and run per
# seat and step for the many characters without such text.
STEP_HOOKS = ("start_of_turn", "after_commits", "after_reveal", "on_lock_in", "after_winner",
              "end_of_combat", "at_end_of_turn")


def overrides(rules: CharacterRules, hook: str) -> bool:
    """Whether ``rules``'s class overrides :class:`CharacterRules`'s default ``hook``."""
    return getattr(type(rules), hook) is not getattr(CharacterRules, hook)


class CharacterRules:
    """Default hooks: a character played with its card stats only (no abilities)."""

    abilities_implemented = False
    chains_any_order = False  # CH-6 (Valerie)
    # The journal event types :meth:`on_event` reacts to; the game delivers only those (None:
    # every event). A rules class that overrides on_event declares them, so a draw or a
    # damage entry is not handed to every listener only to be ignored.
    reacts_to: ClassVar[frozenset[type[Event]] | None] = None
    # How the engine plays each innate and card ability (name as printed -> when and how, in
    # a player's words); the character page shows it beside the printed text.
    ability_notes: ClassVar[dict[str, str]] = {}

    def __init__(self, character: Character) -> None:
        self.character = character

    @property
    def listens_to_events(self) -> bool:
        """Whether :meth:`on_event` is overridden (the game skips delivering otherwise)."""
        return type(self).on_event is not CharacterRules.on_event

    @property
    def event_types(self) -> frozenset[type[Event]] | None:
        """The event types the game delivers to :meth:`on_event`: the :attr:`reacts_to`
        declared beside the ``on_event`` in use. A subclass that overrides ``on_event``
        without declaring its own gets every event (None), so it never misses one because
        the class it extends read fewer."""
        for cls in type(self).__mro__:
            if "on_event" in vars(cls):
                types: frozenset[type[Event]] | None = vars(cls).get("reacts_to")
                return types
        return None

    @property
    def contests_combat(self) -> bool:
        """Whether :meth:`contest` is overridden (the game skips asking otherwise)."""
        return type(self).contest is not CharacterRules.contest

    @property
    def overrides_combat(self) -> bool:
        """Whether :meth:`combat_override` is overridden (the game skips asking otherwise)."""
        return type(self).combat_override is not CharacterRules.combat_override

    @property
    def replaces_draws(self) -> bool:
        """Whether :meth:`replace_draw` is overridden (the game skips asking otherwise)."""
        return type(self).replace_draw is not CharacterRules.replace_draw

    # --- modifiers and reactions ----------------------------------------------------------
    def modifiers(self, seat: PlayerId) -> list[Modifier[Any]]:
        """The always-on modifiers of this character sitting at ``seat`` (innates, card text
        that holds for every copy), put in force at setup."""
        return []

    def on_event(self, ctx: AbilityContext, ps: PlayerState, event: Event) -> Step:
        """React to a journal event (a hit, block, throw, knockdown, damage, draw, heal): the
        game delivers every event of a type in :attr:`reacts_to` (every event when it is
        None) to every seat's rules, in initiative order, at the step it happened. May ask
        decisions through ``ctx``."""
        return
        yield  # pragma: no cover - makes this a generator

    def combat_override(self, ctx: AbilityContext, ps: PlayerState, a: PlayerState,
                        b: PlayerState, result: CombatResult) -> CombatResult | None:
        """C6: a different result for active seats ``a`` against ``b`` (winner 0 is ``a``)
        because of this seat's card text (armour, "beats all attacks"), or None."""
        return None

    def contest(self, ctx: AbilityContext, ps: PlayerState, a: PlayerState, b: PlayerState,
                result: CombatResult) -> Generator[Decision, tuple[PlayerId, Action],
                                                   CombatResult | None]:
        """C6, after :meth:`combat_override`: a different result this seat's card text makes
        by a choice it may ask for (Relentless Strikes), or None."""
        return None
        yield  # pragma: no cover

    @property
    def offers_combo_cards(self) -> bool:
        """Whether :meth:`combo_card_options` is overridden (the game skips asking otherwise)."""
        return type(self).combo_card_options is not CharacterRules.combo_card_options

    def combo_card_options(self, ctx: AbilityContext, ps: PlayerState) -> list[Action]:
        """C10, asked of the seat making the combo at each of its combo decisions: abilities
        it may play there besides a move, a pump or stop ("when you could play a combo card":
        Shenanigans). Chosen, the game calls :meth:`check` and :meth:`play` with the window
        ``"combo_card"``; the combo then goes on."""
        return []

    # --- ability windows (INI-4) ------------------------------------------------------
    def can_act(self, ctx: AbilityContext, ps: PlayerState, window: str) -> bool:
        """Whether this player has any ability to play in ``window`` now."""
        return False

    def window_options(self, ctx: AbilityContext, ps: PlayerState, window: str) -> list[Action]:
        return []

    def check(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> None:
        raise RuleViolation("AB-2", f"{self.character.name} has no ability to play here "
                                    "(abilities of this character are not implemented)")

    def play(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> Step:
        return
        yield  # pragma: no cover - makes this a generator

    def rule_broken(self, ctx: AbilityContext, ps: PlayerState, player: PlayerId,
                    action: Action) -> RuleViolation | None:
        """Asked by a diagnosis (:mod:`rules_engine.diagnosis`) when a logged event fits no
        decision of the game: whether ``player``'s ``action`` breaks a rule of this seat's card
        text here, as the rule and a reason in player terms (Defense Mastery: the attacker
        records a draw Rook's block took away), or None. By default: this seat's own counter
        logged when no ability is being played (CTR-2)."""
        if player is ps.player and isinstance(action, UseAbility) and any(
                a.name == action.ability and a.timing.lower() == "reaction"
                for a in self.character.abilities):
            return self.not_here(ctx, ps, ctx.step, action)
        return None

    def not_here(self, ctx: AbilityContext, ps: PlayerState, window: str,
                 action: Action) -> RuleViolation:
        """AB-2: ``action`` is none of the abilities this seat may play in ``window``. The
        reason names only what the player could play here now (held, playable), never a card
        they do not hold; a counter is a Reaction, played only as an ability is (CTR-2)."""
        name = action.ability if isinstance(action, UseAbility) else str(action)
        if isinstance(action, UseAbility) and any(
                a.name == name and a.timing.lower() == "reaction"
                for a in self.character.abilities):
            return RuleViolation("CTR-2", f"{name} is a Reaction: it counters an ability as that "
                                          "ability is played, and none is being played here")
        held = list(dict.fromkeys(a.ability for a in self.window_options(ctx, ps, window)
                                  if isinstance(a, UseAbility)))
        can = f"only {', '.join(held)} or pass" if held else "nothing to play here but pass"
        return RuleViolation("AB-2", f"{self.character.name} cannot play {name!r} in this "
                                     f"window; {can}")

    # --- steps with no event of their own ---------------------------------------------
    def has_state(self, ctx: AbilityContext, ps: PlayerState, state: str) -> bool:
        """Whether ``ps`` is in ``state`` (a move's ``requires``, GEN-1). By default: an ongoing
        effect of that name is active (Dragon Form). Override for other states ("Long Range",
        "2 attached blocks": ``len(ps.attached) >= 2``)."""
        return effects.is_active(ps, state)

    def after_winner(self, ctx: AbilityContext, ps: PlayerState,
                     winner: PlayerState | None) -> Step:
        """C6, once the winner is known and hits are journalled."""
        return
        yield  # pragma: no cover

    def block_draw_prevented(self, ctx: AbilityContext, attacker: PlayerState,
                             blocker: PlayerState) -> Generator[Decision, tuple[PlayerId, Action],
                                                                bool]:
        """C8b: whether this attacker's card text stops the blocker's draw (AR-BLK-1)."""
        return False
        yield  # pragma: no cover

    def blocking_innates_prevented(self, ctx: AbilityContext, attacker: PlayerState,
                                   blocker: PlayerState) -> bool:
        """C8b: whether this attacker's card text stops the blocker's innate abilities from
        blocking (Time Stop); recorded on the ``Blocked`` event (``innates``)."""
        return False

    def combo_opener(self, ctx: AbilityContext, ps: PlayerState,
                     winner: PlayerState) -> Callable[[Move], bool] | None:
        """After C8, when ``ps`` lost without a combo for the winner to make (the winner
        blocked): card text that lets ``ps`` start a combo anyway (CB-1, Time Stop), as the
        test of the moves that may open it; the winner first gets a Rewind window (RW-14)."""
        return None

    def after_card_combo(self, ctx: AbilityContext, ps: PlayerState, opp: PlayerState,
                         opened: bool) -> Step:
        """After the combo :meth:`combo_opener` allowed (C12, or its C11 reveal when ``ps``
        did not open it)."""
        return
        yield  # pragma: no cover

    def extra_combo(self, ctx: AbilityContext, ps: PlayerState,
                    loser: PlayerState) -> Callable[[Move], bool] | None:
        """After the winner's combo (C12), asked of the winner: card text that lets ``ps``
        play another full combo now (Robo Headbutt), as the test of the moves that may open
        it; a second ``ComboRun`` from hand with fresh combo points, the loser's Rewind window
        first (RW-14). None: no extra combo."""
        return None

    def armor_combo(self, ctx: AbilityContext, ps: PlayerState,
                    winner: PlayerState) -> Generator[Decision, tuple[PlayerId, Action], bool]:
        """After the winner's combo (C12), asked of the seat that lost C6 with an attack: True
        when this seat's card text makes its beaten attack hit after all and lets it make its
        own combo now (Rock Armor, RW-13, OQ-12). May ask decisions (the cost)."""
        return False
        yield  # pragma: no cover

    def normal_draw_prevented(self, ctx: AbilityContext, blocker: PlayerState,
                              attacker: PlayerState) -> bool:
        """C7: whether this blocker's card text stops the normal draw of the attacker whose
        normal attack its block beat (Defense Mastery: "opponents don't draw when you block
        their normal attacks")."""
        return False

    def replace_block_draw(self, ctx: AbilityContext, blocker: PlayerState,
                           attacker: PlayerState) -> Generator[Decision,
                                                               tuple[PlayerId, Action], bool]:
        """C8b: this blocker's own card text that replaces its block draw (AR-BLK-1) against an
        attack, a Joker or no-card; True if the draw was replaced (Aspect of the Dragon)."""
        return False
        yield  # pragma: no cover

    def after_commits(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        """C1, after every seat committed, before C2's reveal: card text that adds to this
        seat's commit (a second face-down card, ``ctx.commit_second``: Patriot Mirror)."""
        return
        yield  # pragma: no cover

    def after_reveal(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        """C2, once the combat cards are revealed, before voids and Ace costs (C3): card text
        acting on the revealed cards (choose which of two to use, ``ctx.use_second``)."""
        return
        yield  # pragma: no cover

    def ability_piles(self, action: UseAbility) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
        """For a choice of this seat's card text that divides cards into two piles and names
        only one (Quince's Two Truths): that pile and the other one, as they stand while the
        choice is being made, so that a label can name both. None for any other choice."""
        return None

    def public_info(self, ctx: AbilityContext, ps: PlayerState) -> dict[str, list[str]]:
        """Cards this seat's card text has shown to everyone and that are still hidden in their
        zone (a card revealed from hand, face-up piles being chosen from), by ability name;
        ``public_view`` shows it as ``shown`` (GEN-9). Empty when nothing."""
        return {}

    def on_lock_in(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        """C5, after voids: the combat actions are fixed."""
        return
        yield  # pragma: no cover

    def start_of_turn(self, ctx: AbilityContext, ps: PlayerState) -> None:
        """T1: clear this character's one-turn bookkeeping."""
        return None

    def end_of_combat(self, ctx: AbilityContext, ps: PlayerState,
                      winner: PlayerState | None) -> Step:
        """C13b, after the end-of-combat window."""
        return
        yield  # pragma: no cover

    def at_end_of_turn(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        """K1, after the end-of-turn window, in initiative order: mandatory "at the end of the
        turn" text, e.g. an ongoing effect's end-of-turn check (Healing Sphere)."""
        return
        yield  # pragma: no cover

    def replace_draw(self, ctx: AbilityContext, ps: PlayerState,
                     drawer: PlayerState) -> Generator[Decision, tuple[PlayerId, Action], bool]:
        """Asked before each single draw of any seat (``drawer``, this seat or another): True
        when this seat's card text replaced the draw, having put the card drawn instead into
        ``drawer``'s hand (``ctx.move``); the game journals it as a draw and takes nothing
        from the deck (Bare Your Soul). May ask decisions."""
        return False
        yield  # pragma: no cover

    # --- counters (CTR) ---------------------------------------------------------------
    def can_counter(self, ctx: AbilityContext, ps: PlayerState, ability: str) -> bool:
        """Whether this player holds a Reaction that can counter ``ability`` now."""
        return False

    def counter_options(self, ctx: AbilityContext, ps: PlayerState,
                        ability: str) -> list[Action]:
        return []

    def check_counter(self, ctx: AbilityContext, ps: PlayerState, ability: str,
                      action: Action) -> None:
        if not isinstance(action, Pass):
            raise RuleViolation("CTR-1", f"{self.character.name} has no counter to play")

    def pay_counter(self, ctx: AbilityContext, ps: PlayerState,
                    action: Action) -> Callable[[], None]:
        """Pay a counter's costs; return the function that refunds them (CTR-3)."""
        raise RuleViolation("CTR-1", "no counter")

    def counter_name(self, action: Action) -> str:
        return ""

    def after_counter(self, ctx: AbilityContext, ps: PlayerState, owner: PlayerState,
                      action: Action) -> Step:
        """This seat's counter ``action`` resolved against ``owner``'s ability: the counter's
        own text beyond negating it (Crash and Flow: that player draws a card)."""
        return
        yield  # pragma: no cover

    def counter_resisted(self, ctx: AbilityContext, ps: PlayerState, owner: PlayerState,
                         action: Action) -> Generator[Decision, tuple[PlayerId, Action], bool]:
        """This seat's counter ``action`` (paid, not countered back) is about to counter
        ``owner``'s ability: True when ``owner`` pays a price the counter's text offers instead
        (Do As Told: take 10 damage), so the ability is not countered. May ask decisions."""
        return False
        yield  # pragma: no cover

    def counter_sends_card(self, action: Action) -> Zone:
        """Where the countered ability's card (played from hand) goes: the discard pile
        (CTR-3), or ``Zone.DECK`` for its owner's deck bottom (Crash and Flow)."""
        return Zone.DISCARD

    def position_key(self) -> str:
        """What this seat's card text keeps in mind beyond the seat's zones and statuses
        (options named, triggers pending), for the position fingerprint; "" when nothing."""
        return ""

    # --- bots -------------------------------------------------------------------------
    def bot_choice(self, ctx: AbilityContext, ps: PlayerState,
                   legal: Sequence[Action]) -> Action | None:
        """The greedy bot's choice at a decision of this seat (asked at every one: a window, a
        counter, a reaction, or a search its card text opened), by the heuristic the subclass's
        docstring states; None leaves the choice to the bot's default."""
        return None

    def control_choice(self, ctx: AbilityContext, ps: PlayerState, seat: PlayerState,
                       legal: Sequence[Action]) -> Action | None:
        """The greedy bot's choice at a decision of ``seat`` that this seat (``ps``) makes
        for it (Mistress's Command: ``ctx.controller``); None leaves the bot's default."""
        return None


class OneCardCounterRules(CharacterRules):
    """A character whose only counter is a Reaction paid with one card of one rank from hand
    and nothing else (Argagarg's Crash and Flow, a 10; Persephone's Do As Told, a 9).

    CTR-1: playable while a card of ``COUNTER_RANK`` is in hand; CTR-2: only that counter or a
    pass answers an ability being played; CTR-3: its only cost is that card, which stays
    discarded (nothing to refund). What the counter does beyond negating the ability stays with
    the subclass (``after_counter``, ``counter_resisted``, ``counter_sends_card``), as does
    the order of its options (:meth:`counter_cards`).
    """

    COUNTER: ClassVar[str]
    COUNTER_RANK: ClassVar[Rank]

    def counter_cards(self, ps: PlayerState) -> list[Card]:
        """The distinct cards of ``COUNTER_RANK`` in hand, in the order offered."""
        return [c for c in dict.fromkeys(ps.hand) if c.rank is self.COUNTER_RANK]

    def can_counter(self, ctx: AbilityContext, ps: PlayerState, ability: str) -> bool:
        """CTR-1: a card of the counter's rank in hand (Aces, Jokers and innates are never
        offered to counters)."""
        rank = self.COUNTER_RANK
        for c in ps.hand:  # noqa: SIM110 (a loop: any() would make a generator per ability)
            if c.rank is rank:
                return True
        return False

    def counter_options(self, ctx: AbilityContext, ps: PlayerState,
                        ability: str) -> list[Action]:
        return [UseAbility(self.COUNTER, c) for c in self.counter_cards(ps)]

    def check_counter(self, ctx: AbilityContext, ps: PlayerState, ability: str,
                      action: Action) -> None:
        """CTR-2: the counter or a pass; CTR-1: one card of the counter's rank from hand, no
        other cost or choice."""
        if isinstance(action, Pass):
            return
        if not isinstance(action, UseAbility) or action.ability != self.COUNTER:
            raise RuleViolation("CTR-2", f"only a counter ({self.COUNTER}) or a pass may "
                                         "answer an ability being played")
        if action.card is None or action.card.rank is not self.COUNTER_RANK \
                or action.card not in ps.hand:
            raise RuleViolation("CTR-1", f"{self.COUNTER} is played with a "
                                         f"{int(self.COUNTER_RANK)} from hand")
        if action.cards or action.option:
            raise RuleViolation("CTR-1", f"{self.COUNTER} has no other cost or choice")

    def pay_counter(self, ctx: AbilityContext, ps: PlayerState,
                    action: Action) -> Callable[[], None]:
        """CTR-3: the counter card is discarded and stays discarded; nothing to refund."""
        assert isinstance(action, UseAbility) and action.card is not None
        ctx.move(ps, action.card, Zone.HAND, Zone.DISCARD)
        return lambda: None

    def counter_name(self, action: Action) -> str:
        return self.COUNTER


def discards_a_card_of_their_choice(ctx: AbilityContext, ps: PlayerState, ability: str,
                                    rule: str) -> Step:
    """Card text "... discards a card of their choice" (Bleeding Wounds, War Stomp): ``ps``
    picks one card of their hand and discards it; with one card they have no choice to make,
    with none nothing happens. A wrong pick is a ``rule`` violation naming ``ability``."""
    choices = list(dict.fromkeys(ps.hand))
    if not choices:
        return
    if len(choices) == 1:
        card = choices[0]
    else:
        def check(player: PlayerId, a: Action) -> None:
            if not isinstance(a, Discard) or len(a.cards) != 1:
                raise RuleViolation(rule, f"{ability}: discard exactly one card from hand")
            if a.cards[0] not in ps.hand:
                raise RuleViolation(rule, f"{a.cards[0]} is not in {player.name}'s hand")

        _, a = yield from ctx.ask((ps.player,), rule, check,
                                  lambda p: [Discard((c,)) for c in dict.fromkeys(ps.hand)])
        assert isinstance(a, Discard)
        card = a.cards[0]
    ctx.move(ps, card, Zone.HAND, Zone.DISCARD)


def _registry() -> dict[str, type[CharacterRules]]:
    from rules_engine.characters.argagarg import ArgagargRules
    from rules_engine.characters.bbb import BBBRules
    from rules_engine.characters.degrey import DeGreyRules
    from rules_engine.characters.geiger import GeigerRules
    from rules_engine.characters.gloria import GloriaRules
    from rules_engine.characters.grave import GraveRules
    from rules_engine.characters.gwen import GwenRules
    from rules_engine.characters.jaina import JainaRules
    from rules_engine.characters.lum import LumRules
    from rules_engine.characters.menelker import MenelkerRules
    from rules_engine.characters.midori import MidoriRules
    from rules_engine.characters.onimaru import OnimaruRules
    from rules_engine.characters.persephone import PersephoneRules
    from rules_engine.characters.quince import QuinceRules
    from rules_engine.characters.rook import RookRules
    from rules_engine.characters.setsuki import SetsukiRules
    from rules_engine.characters.troq import TroqRules
    from rules_engine.characters.valerie import ValerieRules
    from rules_engine.characters.vendetta import VendettaRules
    from rules_engine.characters.zane import ZaneRules

    return {"grave": GraveRules, "jaina": JainaRules, "midori": MidoriRules,
            "gloria": GloriaRules, "geiger": GeigerRules, "degrey": DeGreyRules,
            "argagarg": ArgagargRules, "gwen": GwenRules, "valerie": ValerieRules,
            "vendetta": VendettaRules, "troq": TroqRules, "rook": RookRules,
            "onimaru": OnimaruRules, "bbb": BBBRules, "menelker": MenelkerRules,
            "zane": ZaneRules, "persephone": PersephoneRules, "lum": LumRules,
            "quince": QuinceRules, "setsuki": SetsukiRules}


IMPLEMENTED: dict[str, type[CharacterRules]] = _registry()


def rules_for(character: Character) -> CharacterRules:
    """The ability hooks for ``character`` (stats only when not implemented)."""
    cls = IMPLEMENTED.get(character.id, CharacterRules)
    return cls(character)


def abilities_implemented(character_id: str) -> bool:
    return character_id in IMPLEMENTED
