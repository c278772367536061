"""Ongoing and attached effects: cards that stay in play after they are played.

Glossary (RULES.md §10, characters/README.md §2):
- *ongoing effect* = an ability card whose text says "Ongoing" (Dragon Form, Temporal
  Distortion, Healing Sphere, Bubble Shield after it blocks): it is not discarded when played
  (AB-2 "unless its text says otherwise") but stays face up in its owner's *ongoing area*, public
  like the discard pile (GEN-9), and acts while it is there.
- *attached card* = a card put under an ongoing card (Reinforce in the tests, Clockwork
  Formation's Aces) or under the character card (Troq's Giant Growth blocks). Card text may set
  the most cards attached at once (``limit``).
- *trigger* = a game event that ends an effect by its text ("discard this if you get thrown").

Responsibility: the zones' bookkeeping and the only way a character module moves cards into,
within and out of them. Every card is in exactly one zone (GEN-6): a card leaving these zones goes
to its owner's discard pile, or to hand when the text says so. The game fires the generic
triggers (:class:`Trigger`) at the step they happen; an effect's modifiers (speed, damage,
follow rules) are :mod:`rules_engine.modifiers` asking :func:`active`, and a move's ``requires``
is :meth:`~rules_engine.characters.CharacterRules.has_state`.

CTR-4 holds by construction: :func:`play_ongoing` is the one place an ongoing effect can be
countered (as it is played, after its card is paid, CTR-2); nothing here or in the game offers a
counter against an effect already in play, its modifiers or its triggers.
"""

from __future__ import annotations

from collections.abc import Collection, Generator
from typing import TYPE_CHECKING

from rules_engine.cards import Card
from rules_engine.errors import EngineInvariantError, RuleViolation
from rules_engine.state import Ongoing, Trigger, Zone

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.actions import Action
    from rules_engine.state import Decision, PlayerState
    from rules_engine.types import PlayerId


def play_ongoing(
    ctx: AbilityContext, ps: PlayerState, card: Card, name: str, *,
    ends_on: Collection[Trigger] = (), limit: int | None = None,
) -> Generator[Decision, tuple[PlayerId, Action], Ongoing | None]:
    """AB-2 / AB-4: play ``card`` from hand face up as the ongoing effect ``name``.

    The opponent may counter it now (CTR-2), and only now (CTR-4). Countered, it never acts and
    its card is discarded (CTR-3); otherwise it is in play and active at once. Returns the effect,
    or None if countered. The caller has checked the play (window, card in hand)."""
    ps.hand.remove(card)
    effect = Ongoing(name, card, frozenset(ends_on), limit, since_turn=ctx.turn)
    ps.ongoing.append(effect)  # face up while the counter window is open (GEN-9)
    countered = yield from ctx.offer_counter(ps, name, card)
    if countered:
        if effect in ps.ongoing:  # (a counter may have sent the card elsewhere already)
            ps.ongoing.remove(effect)
            ctx.discard(ps, card)  # CTR-3: prevented, the card played from hand is discarded
        return None
    effect.resolved = True
    return effect


def enter_play(ctx: AbilityContext, ps: PlayerState, card: Card, name: str, *,
               ends_on: Collection[Trigger] = ()) -> Ongoing:
    """Card text makes ``ps``'s combat card an ongoing effect ``name`` as it acts (Bubble Shield:
    "this gets: Ongoing"): it leaves the combat area for the ongoing area at once, with no
    counter window (its ability is an Ace's, which nothing counters: CTR-1)."""
    if ps.combat_card is not card:
        raise EngineInvariantError(f"{card} is not {ps.player.name}'s combat card")
    ps.combat_card = None
    effect = Ongoing(name, card, frozenset(ends_on), None, since_turn=ctx.turn, resolved=True)
    ps.ongoing.append(effect)
    return effect


def active(ps: PlayerState, name: str) -> Ongoing | None:
    """The first resolved ongoing effect called ``name`` in ``ps``'s ongoing area, if any."""
    for effect in ps.ongoing:
        if effect.name == name and effect.resolved:
            return effect
    return None


def is_active(ps: PlayerState, name: str) -> bool:
    return active(ps, name) is not None


def end(ctx: AbilityContext, ps: PlayerState, effect: Ongoing, *, to_hand: bool = False) -> None:
    """The effect ends: its card and every card attached to it go to the discard pile (GEN-6),
    or to hand when the text says so (``to_hand``)."""
    if effect not in ps.ongoing:
        raise EngineInvariantError(f"{effect.name} is not in {ps.player.name}'s ongoing area")
    ps.ongoing.remove(effect)
    for c in (effect.card, *effect.attached):
        if to_hand:
            ps.hand.append(c)
        else:
            ctx.discard(ps, c)
    effect.attached = []


def fire(ctx: AbilityContext, ps: PlayerState, trigger: Trigger) -> list[Ongoing]:
    """``trigger`` happened to ``ps``: end every effect whose text ends on it; return them."""
    if not ps.ongoing:
        return []
    ended = [e for e in ps.ongoing if e.resolved and trigger in e.ends_on]
    for e in ended:
        end(ctx, ps, e)
    return ended


def attached_to(ps: PlayerState, to: Ongoing | None) -> list[Card]:
    """The cards attached to ``to`` (None = the character card)."""
    return ps.attached if to is None else to.attached


def check_attach(ps: PlayerState, to: Ongoing | None, n: int = 1, *,
                 limit: int | None = None, rule: str | None = None) -> None:
    """Raise if ``n`` more cards cannot be attached to ``to`` (None = the character card).

    The limit is the ongoing card's (set when played) or, for the character card, ``limit``.
    ``rule`` defaults to AB-2 (the ability card's text) or AB-1 (the character card's innate)."""
    if to is not None:
        if to not in ps.ongoing or not to.resolved:
            raise RuleViolation(rule or "AB-2", f"{to.name} is not in play")
        limit, holder = to.limit, to.name
    else:
        holder = ps.character.name
    if limit is None:
        return
    have = len(attached_to(ps, to))
    if have + n > limit:
        raise RuleViolation(
            rule or ("AB-2" if to is not None else "AB-1"),
            f"{holder} already has {have} attached card(s); its text allows at most {limit}")


def attach(ctx: AbilityContext, ps: PlayerState, card: Card, to: Ongoing | None, *,
           source: Zone,
           limit: int | None = None, rule: str | None = None) -> None:
    """Move ``card`` from ``source`` to ``to`` (None = the character card), within the limit."""
    check_attach(ps, to, limit=limit, rule=rule)
    if source is Zone.COMBAT:
        if ps.combat_card is not card:
            raise EngineInvariantError(f"{card} is not {ps.player.name}'s combat card")
        ps.combat_card = None
    else:
        zone = ps.hand if source is Zone.HAND else ps.discard
        if card not in zone:
            raise EngineInvariantError(f"{card} is not in {ps.player.name}'s {source.value}")
        zone.remove(card)
    attached_to(ps, to).append(card)


def detach(ctx: AbilityContext, ps: PlayerState, card: Card, frm: Ongoing | None, *,
           to_hand: bool = False) -> None:
    """Take ``card`` off ``frm`` (None = the character card) to the discard pile (or hand)."""
    cards = attached_to(ps, frm)
    if card not in cards:
        raise EngineInvariantError(f"{card} is not attached there")
    cards.remove(card)
    if to_hand:
        ps.hand.append(card)
    else:
        ctx.discard(ps, card)


def cards_in_play(ps: PlayerState) -> list[Card]:
    """Every card in ``ps``'s ongoing area and attached zones (for GEN-6 bookkeeping)."""
    out = list(ps.attached)
    for e in ps.ongoing:
        out.append(e.card)
        out += e.attached
    return out
