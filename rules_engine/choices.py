"""Choices described for a person: each legal action's label and its plain-data description.

Glossary: a *choice* is one legal action of a decision as a page shows it: a *label* in the
game's words (the cards with their suits, the move a card plays with the name printed on the
owner's card, the option an ability takes: "Commit Jack♣ (Fireball, attack)", "Blackjack:
deal", "Two Truths: choose 5♦, Queen♥", both piles in "Two Truths: show Queen♥, 5♦ | 7♥"; a
block names its card and move: "Commit 5♠ (Stone Wall, block)") and a *description* (kind,
cards, option, ability, move type, move name, printed speed and damage, the character a pick
brings in) that pages can render their own way; plain data, JSON-serialisable.

Responsibility: naming choices. Whether a choice is legal is the game's business; which
choices exist is the decision's (:meth:`rules_engine.game.Game.legal_actions`). Two different
actions of one decision never share a label: every field of an action that tells it apart is
named (a property test checks this at every decision of seeded games of every mode).

Labels are made one at a time (:class:`Choices` describes an item when it is read), so a
decision listed on demand (Quince's Two Truths, thousands of choices) is never listed whole
to label one of them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

from rules_engine import actions as act
from rules_engine.actions import Action
from rules_engine.cards import Card, Character, Move, MoveType, characters

if TYPE_CHECKING:
    from rules_engine.game.core import GameCore
    from rules_engine.types import PlayerId

_SUITS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
_RANKS = {"T": "10", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
_JOKERS = {1: "Joker", 2: "Joker (second)"}


def card_label(card: Card | None) -> str:
    """A card as players name it: "4♣", "Jack♥"; the deck's two Jokers are "Joker" and
    "Joker (second)" (both may be in one hand, and a choice names which one goes)."""
    if card is None:
        return "?"
    if card.is_joker:
        return _JOKERS.get(card.joker, "Joker")
    return f"{_RANKS.get(card.code[0], card.code[0])}{_SUITS.get(card.code[1], card.code[1])}"


def cards_label(cards: Sequence[Card]) -> str:
    """Cards as players name them, in the choice's order ("none" for no card)."""
    return ", ".join(card_label(c) for c in cards) or "none"


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal action described for a person. ``speed`` is printed speed (2.4), ``damage``
    printed damage, of the move a card is played as (None when the choice plays no move);
    ``cards`` every card the choice names, as log codes, in the order the label names them."""

    action: Action
    label: str
    kind: str
    cards: tuple[str, ...] = ()
    option: str | None = None
    ability: str | None = None
    move: str | None = None
    move_name: str | None = None
    speed: float | None = None
    damage: int | None = None
    incoming: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The description as plain data: ``label``, ``kind``, ``action`` (the action's own log
        form, what a client sends back) and ``cards`` always; ``option``, ``ability``,
        ``move``, ``move_name``, ``speed``, ``damage`` and ``incoming`` where they apply (a
        decision can offer thousands of choices: a room sends them all)."""
        out: dict[str, Any] = {"label": self.label, "kind": self.kind,
                               "action": self.action.to_json(), "cards": list(self.cards)}
        for key in ("option", "ability", "move", "move_name", "speed", "damage", "incoming"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out


def _find(owner: Character | None, card: Card, move: MoveType | None,
          name: str | None) -> Move | None:
    """The printed move ``card`` plays for ``owner`` (the card data's), if it can be told."""
    if owner is None or move is None or card.is_joker:
        return None
    found = owner.find_move(card, move, name)
    if found is None:
        ends = owner.moves_of_type(card, move)
        found = ends[0] if len(ends) == 1 else None
    return found


def _played(owner: Character | None, card: Card, move: MoveType | None,
            name: str | None) -> tuple[str, Move | None]:
    """ "Jack♣ (Fireball, attack)": the card, and the move its owner plays with it."""
    if move is None:
        return card_label(card), None
    found = _find(owner, card, move, name)
    named = name if name is not None else (found.name if found is not None else None)
    return f"{card_label(card)} ({named + ', ' if named else ''}{move.value})", found


def _codes(*groups: Sequence[Card | None]) -> tuple[str, ...]:
    return tuple(c.code for group in groups for c in group if c is not None)


def _move_fields(move: MoveType | None, name: str | None, found: Move | None,
                 ) -> dict[str, Any]:
    return {"move": None if move is None else move.value,
            "move_name": name if name is not None else (found.name if found else None),
            "speed": None if found is None or found.speed is None else found.speed / 10,
            "damage": None if found is None else found.damage}


# the words of an option that divides cards into two piles (``ability_piles``)
_PILE_WORDS = {"piles": "show"}


def _ability_label(game: GameCore | None, action: act.UseAbility) -> str:
    """ "Blackjack: deal", "Two Truths: choose 5♦, Queen♥", "Jackpot with 7♥"; a choice that
    divides cards into two piles names both, the action's first ("Two Truths: show Queen♥,
    5♦ | 7♥", "Two Truths: to hand 7♥ | Queen♥, 5♦"), as the card text's owner holds them."""
    if game is not None and action.option is not None:
        for rules in game.rules:
            piles = rules.ability_piles(action)
            if piles is not None:
                words = _PILE_WORDS.get(action.option, action.option.replace("_", " "))
                return (f"{action.ability}: {words} {cards_label(piles[0])} | "
                        f"{cards_label(piles[1])}")
    text = action.ability
    if action.card is not None:
        text += f" with {card_label(action.card)}"
    if action.option is not None:
        text += f": {action.option.replace('_', ' ')}"
        if action.cards:
            text += f" {cards_label(action.cards)}"
    elif action.cards:
        text += f": {cards_label(action.cards)}"
    return text


def _aces(cards: Sequence[Card], owner: str = "") -> str:
    return f"{owner}discard: {cards_label(cards)}"


def describe(game: GameCore | None, player: PlayerId | None, action: Action) -> Choice:
    """``action`` described for the player deciding it at ``player``'s seat (the game and seat
    name the moves a card plays and the partner a tag brings in; without them, the card and
    the move type only)."""
    state = game.state(player) if game is not None and player is not None else None
    own = state.character if state is not None else None
    kind = action.kind
    if isinstance(action, act.Commit):
        played, found = _played(own, action.card, action.move, action.name)
        return Choice(action, f"Commit {played}", kind, _codes((action.card,)),
                      **_move_fields(action.move, action.name, found))
    if isinstance(action, act.Combo):
        played, found = _played(own, action.card, action.move, action.name)
        text = f"Combo {played}"
        if action.aces:
            text += f", paying Aces {cards_label(action.aces)}"
        return Choice(action, text, kind, _codes((action.card,), action.aces),
                      **_move_fields(action.move, action.name, found))
    if isinstance(action, act.Assist):
        played, found = _played(own, action.card, action.move, action.name)
        return Choice(action, f"Assist with {played}, discard {card_label(action.cost)}", kind,
                      _codes((action.card, action.cost)),
                      **_move_fields(action.move, action.name, found))
    if isinstance(action, act.UseAbility):
        return Choice(action, _ability_label(game, action), kind,
                      _codes((action.card,), action.cards), option=action.option,
                      ability=action.ability)
    if isinstance(action, act.Tag):
        return _tag(game, state, action)
    if isinstance(action, act.Pick):
        known = characters().get(action.incoming)
        return Choice(action, f"Send in {known.name if known else action.incoming}", kind,
                      incoming=action.incoming)
    if isinstance(action, act.BotTie):
        # the bot's next step, named with the bot's moves (its seat: the human's opponent)
        bot = game.opponent(state) if game is not None and state is not None else None
        inner = describe(game, None if bot is None else bot.player, action.choice)
        return Choice(action, f"The bot's tied combos: it goes on with {inner.label}", kind,
                      inner.cards, option=inner.kind, move=inner.move,
                      move_name=inner.move_name, speed=inner.speed, damage=inner.damage)
    return _simple(action)


def _simple(action: Action) -> Choice:
    """The kinds that name cards (or nothing) and no move."""
    kind = action.kind
    if isinstance(action, act.Snapback):
        return Choice(action, f"Snapback (discard {card_label(action.card)}): the opponent "
                              "switches out", kind, _codes((action.card,)))
    if isinstance(action, act.Draw | act.Reveal | act.FaceDown):
        verb = {"draw": "Draw", "reveal": "Reveal", "face_down": "Put face down"}[kind]
        return Choice(action, f"{verb} {card_label(action.card)}", kind, _codes((action.card,)))
    if isinstance(action, act.PayAces):
        return Choice(action, f"Pay Aces {cards_label(action.cards)}", kind,
                      _codes(action.cards))
    if isinstance(action, act.Discard):
        return Choice(action, f"Discard {cards_label(action.cards)}", kind, _codes(action.cards))
    if isinstance(action, act.Pump):
        return Choice(action, f"Pump move {action.target + 1} with {cards_label(action.cards)}",
                      kind, _codes(action.cards), option=str(action.target + 1))
    if isinstance(action, act.Search):
        return Choice(action, f"Take Aces from {_aces(action.from_discard)}, deck: "
                              f"{cards_label(action.from_deck)}", kind,
                      _codes(action.from_discard, action.from_deck))
    if isinstance(action, act.PowerUp):
        return Choice(action, f"Power up: sets {cards_label(action.sets)}; Aces from "
                              f"{_aces(action.from_discard)}, deck: "
                              f"{cards_label(action.from_deck)}", kind,
                      _codes(action.sets, action.from_discard, action.from_deck))
    fixed = {act.Pass: "Pass", act.Accept: "Accept", act.Stop: "Stop", act.NoCard: "No card",
             act.Keep: "Keep the committed card", act.WinInitiative: "Win the initiative",
             act.Swap: "Swap the assist in"}
    text = fixed.get(type(action))
    if text is None:  # a kind added later: the engine's wording until it is named here
        text = str(action)[:1].upper() + str(action)[1:]
    return Choice(action, text, kind)


def _tag(game: GameCore | None, state: Any, action: act.Tag) -> Choice:
    partner = game.partner(state) if game is not None and state is not None else None
    incoming = partner.character.name if partner is not None else "your partner"
    kind = action.kind
    if action.tag is None:
        return Choice(action, f"Hard tag: {incoming} comes in (plays no card next combat)",
                      kind, option="hard")
    if action.tag == "super" and action.card is not None:
        mover = partner.character if partner is not None else None
        played, found = _played(mover, action.card, action.move, action.name)
        text = f"Tag in {incoming} (super tag), playing {played}"
        if action.aces:
            text += f", paying Aces {cards_label(action.aces)}"
        return Choice(action, text, kind, _codes((action.card,), action.aces), option="super",
                      **_move_fields(action.move, action.name, found))
    if action.tag == "ace":
        return Choice(action, f"Tag in {incoming} (Ace tag): discard "
                              f"{cards_label(action.sets)}; {incoming} takes Aces from "
                              f"{_aces(action.from_discard)}, deck: "
                              f"{cards_label(action.from_deck)}", kind,
                      _codes(action.sets, action.from_discard, action.from_deck), option="ace")
    return Choice(action, f"Tag in {incoming} ({action.tag} tag), discard "
                          f"{card_label(action.card)} and {incoming}'s "
                          f"{card_label(action.partner_card)}", kind,
                  _codes((action.card, action.partner_card)), option=action.tag)


class Choices(Sequence[Choice]):
    """A decision's legal actions, each described when it is read (a decision listed on
    demand stays so: reading one choice describes one)."""

    __slots__ = ("_actions", "_game", "_player")

    def __init__(self, game: GameCore, player: PlayerId, actions: Sequence[Action]) -> None:
        self._game, self._player, self._actions = game, player, actions

    def __len__(self) -> int:
        return len(self._actions)

    @overload
    def __getitem__(self, index: int) -> Choice: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Choice]: ...

    def __getitem__(self, index: int | slice) -> Choice | Sequence[Choice]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        return describe(self._game, self._player, self._actions[index])

    def __iter__(self) -> Iterator[Choice]:
        for action in self._actions:
            yield describe(self._game, self._player, action)
