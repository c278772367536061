"""The counter policy: which abilities a counter may counter (docs/rules/COUNTERS.md, CTR-8).

Glossary (RULES.md §10.4): a *counter* is a Reaction ability that negates another ability as it
is activated (CTR-1..CTR-4); an *innate* is an ability printed on the character card (AB-1); an
*Ace ability* is printed on a character's Aces.

The policy, once for every character and every counter:

- The 2014 printed card text is the default. Every 2014 counter says "You can't counter Aces,
  Jokers or character cards": no Ace ability and no innate is ever offered to a counter.
- Text that forbids counters holds under every option (CTR-5: Onimaru's Final Authority, "This
  can't be countered").
- ``opt.innateCounters=FIRST_EDITION_FAQ`` is the first-edition FAQ's reading (FR-GRAVE-3,
  FR-ROOK-5, CTR-6): an innate may be countered as it is activated, unless a card says
  otherwise. The first-edition cards that say otherwise are Valerie's and Midori's innates
  ("can't be countered", FR-SETSUKI-1) and the counters whose first-edition text also excluded
  character cards (Mental Toughness, Crash and Flow) or that exist only in 2014 (Do As Told):
  so under this option only Smoke Bomb counters innates ("Only Setsuki can counter Burning
  Vigor", CTR-6). Aces stay uncounterable.

Responsibility: this one decision. The game asks it before offering an ability to each
opposing seat's counter (``Game.offer_counter``); a character module passes every ability it
activates, innates included, and never decides counterability itself. An always-on innate (a
modifier: Agile Hands, Guard Crush, Defense Mastery) has no activation, so there is nothing to
counter (CTR-4).
"""

from __future__ import annotations

from enum import Enum

from rules_engine.cards import Character, Rank
from rules_engine.errors import RuleViolation
from rules_engine.ruleset import InnateCounters, Ruleset

# FR-SETSUKI-1: "Smoke Bomb cannot counter Valerie's or Midori's character abilities (those
# abilities say that on the cards)": their first-edition character cards.
FIRST_EDITION_UNCOUNTERABLE_INNATES = frozenset({"valerie", "midori"})
# The counters whose first-edition text let them counter character cards (Smoke Bomb: "any
# ability except those on Aces or Jokers"); Mental Toughness and Crash and Flow excluded
# character cards in both editions, Do As Told has no first edition.
FIRST_EDITION_INNATE_COUNTERS = frozenset({"Smoke Bomb"})
UNCOUNTERABLE_TEXT = "can't be countered"


class Source(Enum):
    """Where an ability is printed."""

    CARD = "card"  # a card ability on a 2..King (AB-2, AB-3)
    ACE = "Ace"  # a card ability printed on the character's Aces
    INNATE = "innate"  # the character card (AB-1)


def source(character: Character, ability: str) -> Source:
    """Where ``character``'s ``ability`` is printed; ValueError for a name it does not have
    (every ability offered to counters is named as printed)."""
    if any(i.name == ability for i in character.innates):
        return Source.INNATE
    for a in character.abilities:
        if a.name == ability:
            return Source.ACE if a.rank is Rank.ACE else Source.CARD
    raise ValueError(f"{character.name} has no ability named {ability!r}")


def counter_of(character: Character) -> str | None:
    """The name of ``character``'s counter (its Reaction ability), or None."""
    cid = character.id
    if cid not in _COUNTERS:  # (asked at every probe of a window while judging a log)
        _COUNTERS[cid] = next((a.name for a in character.abilities
                               if a.timing.lower() == "reaction"), None)
    return _COUNTERS[cid]


_COUNTERS: dict[str, str | None] = {}  # character id -> its counter's name (its card data's)


# (whether opt.innateCounters is the 2014 text, the only thing of the ruleset read; owner's id,
# ability, countering character's id) -> the refusal's rule and reason (None: it may counter).
# The game asks at every activation of every ability (3% of a replay when worked out each
# time); a character's abilities are its id's card data. (No enum in the key: an Enum's hash is
# a Python call.)
_REFUSALS: dict[tuple[bool, str, str, str], tuple[str, str] | None] = {}


def refusal(ruleset: Ruleset, owner: Character, ability: str,
            countering: Character) -> RuleViolation | None:
    """Why ``countering``'s counter may not counter ``owner``'s ``ability`` under ``ruleset``
    (the rule and a reason in player terms), or None when it may."""
    key = (ruleset.innateCounters is InnateCounters.CARD_TEXT_2014, owner.id, ability,
           countering.id)
    # Not ``_REFUSALS.get(key, key) is key``: compiled by mypyc, a tuple is boxed anew at each
    # use, so that identity test never holds and the key itself was taken for the answer.
    if key in _REFUSALS:
        found = _REFUSALS[key]
    else:
        refused = _refusal(ruleset, owner, ability, countering)
        found = _REFUSALS[key] = None if refused is None else (refused.rule_id, refused.reason)
    return None if found is None else RuleViolation(*found)


def _refusal(ruleset: Ruleset, owner: Character, ability: str,
             countering: Character) -> RuleViolation | None:
    counter = counter_of(countering) or "a counter"
    kind = source(owner, ability)
    if kind is Source.ACE:
        return RuleViolation("CTR-8", f"{counter} can't counter Aces: {ability} is printed on "
                                      f"{owner.name}'s Aces")
    if kind is Source.CARD:
        printed = next(a for a in owner.abilities if a.name == ability)
        if UNCOUNTERABLE_TEXT in printed.text:
            return RuleViolation("CTR-5", f"{ability} can't be countered (its card says so)")
        return None
    if ruleset.innateCounters is InnateCounters.CARD_TEXT_2014:
        return RuleViolation("CTR-8", f"{counter} can't counter character cards: {ability} is "
                                      f"{owner.name}'s innate")
    if owner.id in FIRST_EDITION_UNCOUNTERABLE_INNATES:
        return RuleViolation("FR-SETSUKI-1", f"{ability} can't be countered ({owner.name}'s "
                                             "character card says so)")
    if counter not in FIRST_EDITION_INNATE_COUNTERS:
        return RuleViolation("CTR-8", f"{counter} can't counter character cards, even under "
                                      f"the first-edition reading: {ability} is "
                                      f"{owner.name}'s innate")
    return None


def counterable(ruleset: Ruleset, owner: Character, ability: str,
                countering: Character) -> bool:
    """Whether ``countering``'s counter may counter ``owner``'s ``ability`` (:func:`refusal`)."""
    return refusal(ruleset, owner, ability, countering) is None
