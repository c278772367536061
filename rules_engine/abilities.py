"""The ability context: the only surface of the game a character module sees.

Glossary (RULES.md §10): an *ability* is an innate (AB-1), a card ability played in a window
(AB-2) or During Combat text (AB-3); a *counter* (CTR) negates an ability as it is played.

Responsibility: the narrow interface between the rules of one character and the game. A
character module (``rules_engine.characters.<id>``) is written against :class:`AbilityContext`
and the value types of :mod:`rules_engine.state`; it never imports :mod:`rules_engine.game`
(an import-linter contract checks this), so what a character can do to a game is exactly what
is listed here: ask a decision, draw, discard, move a card between zones, deal damage, heal,
search for Aces, shuffle, offer a counter, rotate or void a combat card, let a dodge's hit-back
be a full combo, end the combat, skip to next turn's combat, freeze a seat, stand a seat up,
find the opponent or partner, see a move as card text makes it play, reveal the top of a
deck, send a hand to the deck's bottom, play a combo move by card text, and add a modifier
(:mod:`rules_engine.modifiers`).

The game implements this protocol; each method's docstring states the rule it keeps.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import Any, Protocol

from rules_engine.actions import Action, Combo, Commit
from rules_engine.cards import Card, Move
from rules_engine.journal import Journal
from rules_engine.modifiers import Modifier
from rules_engine.ruleset import Ruleset
from rules_engine.state import ComboEntry, Decision, PlayerState, Step, Zone
from rules_engine.types import PlayerId

Asked = Generator[Decision, tuple[PlayerId, Action], tuple[PlayerId, Action]]
Countered = Generator[Decision, tuple[PlayerId, Action], bool]


class AbilityContext(Protocol):
    """What an ability may read and do (see the module docstring)."""

    ruleset: Ruleset
    turn: int
    step: str
    recorded: bool  # a tabletop game: draws are recorded, the deck's order is not known

    @property
    def combo(self) -> Sequence[ComboEntry]:
        """The combo this combat, in order (empty outside C10..C13): the winner's, or one
        card text started (Time Stop)."""
        ...

    @property
    def combo_seat(self) -> PlayerId | None:
        """Whose combo :attr:`combo` is (None when there is none)."""
        ...

    def combo_of(self, ps: PlayerState) -> Sequence[ComboEntry]:
        """The moves of :attr:`combo` that ``ps`` played itself (a tag or an assist adds
        another seat's moves, whose cards are that seat's): "your combo cards"."""
        ...

    def opponent(self, ps: PlayerState) -> PlayerState:
        """The opposing active seat (the one ``ps`` fights)."""
        ...

    def opponents(self, ps: PlayerState) -> list[PlayerState]:
        """Every seat of the other side."""
        ...

    def partner(self, ps: PlayerState) -> PlayerState | None:
        """``ps``'s teammate, if the mode has one."""
        ...

    def in_combat(self, ps: PlayerState) -> bool:
        """Whether ``ps`` is an active seat (on the battlefield), not on a bench."""
        ...

    def ask(self, players: tuple[PlayerId, ...], rule: str,
            check: Callable[[PlayerId, Action], None],
            options: Callable[[PlayerId], Sequence[Action]]) -> Asked:
        """A decision at the current step: ``check`` raises RuleViolation for an illegal
        choice, ``options`` lists the legal ones (for bots and the verifier's messages)."""
        ...

    def draw(self, ps: PlayerState, step: str, n: int = 1) -> Step:
        """Draw ``n`` cards one at a time (recorded or seeded; END-4 time-out bookkeeping)."""
        ...

    def discard(self, ps: PlayerState, card: Card) -> None:
        """GEN-6: ``card`` (already out of its zone) goes to its owner's discard pile."""
        ...

    def move(self, ps: PlayerState, card: Card, frm: Zone, to: Zone) -> None:
        """Move ``card`` of ``ps`` from zone ``frm`` to zone ``to`` (GEN-6: every card is in
        exactly one zone). ``Zone.COMBO`` is a combo move of ``ps`` this combat; ``Zone.DECK``
        as a destination is the deck's top; ``Zone.BANISHED`` (a destination only) removes the
        card from the game (Into Oblivion)."""
        ...

    def damage(self, target: PlayerState, amount: int, source: PlayerState) -> None:
        """Ability damage or life loss (GL-DAMAGE), with its KO check (END-2)."""
        ...

    def heal(self, ps: PlayerState, amount: int) -> None:
        """GEN-8: heal, never above the character's starting life."""
        ...

    def search(self, ps: PlayerState, owed: int, step: str) -> Step:
        """ACE-SEARCH(owed) caused by card text (PU-5), then the shuffle (PU-6)."""
        ...

    def shuffle_deck(self, ps: PlayerState) -> None:
        """Shuffle ``ps``'s deck (seeded games; a recorded game's draws name their cards)."""
        ...

    def offer_counter(self, owner: PlayerState, ability: str,
                      card: Card | None = None) -> Countered:
        """CTR-2: the other side may counter ``ability`` now; True if it was countered. Pass
        ``card``, the card the ability was played from hand with (already discarded or in
        play), so a counter that moves it elsewhere (Crash and Flow: the deck's bottom) can."""
        ...

    def end_combat(self, after_damage: bool = False) -> None:
        """Card text ends this combat now (Bubble Shield): no more draws, damage or combo
        this combat; C13 follows, without knockdowns. Ended in the combat-reveal window (C4,
        Acrobatics) the combat has no winner: C5..C12 do not happen. With ``after_damage``
        (Relentless Strikes) C7 and C8 happen first, then no Rewind window and no combo."""
        ...

    def freeze(self, ps: PlayerState) -> None:
        """``ps`` skips every decision it would make for the rest of this turn (Chillbane)."""
        ...

    def control(self, ps: PlayerState, by: PlayerState) -> None:
        """``by`` makes ``ps``'s decisions from now until this turn's combat reveal (C2):
        Mistress's Command. The decisions stay ``ps``'s (their events too); ``by`` sees
        ``ps``'s hand meanwhile (``public_view``)."""
        ...

    def controller(self, seat: PlayerId) -> PlayerId:
        """The seat that makes ``seat``'s decisions now (itself unless controlled)."""
        ...

    def as_played(self, ps: PlayerState, m: Move) -> Move:
        """``m`` as card text makes it play in a combo (the ``COMBO_MOVE`` modifiers)."""
        ...

    def rotate(self, ps: PlayerState) -> None:
        """Turn ``ps``'s combat card 180 degrees: its other end is the combat action now."""
        ...

    def deck_top_known(self, ps: PlayerState) -> list[Card]:
        """The top cards of ``ps``'s deck, top first, that card text showed ``ps`` (cards it put
        back on top, ``move`` to ``Zone.DECK``) and still in that order: no shuffle since. In a
        recorded game the next draws must be these cards."""
    def reveal_top(self, ps: PlayerState, n: int, step: str) -> Generator[
            Decision, tuple[PlayerId, Action], list[Card]]:
        """The top ``n`` cards of ``ps``'s deck, top first, revealed and left there (seeded:
        the deck's order; recorded: ``draw`` events name them)."""
        ...

    def hand_to_deck_bottom(self, ps: PlayerState) -> int:
        """``ps``'s hand, shuffled, to the bottom of its deck; the number of cards."""
        ...

    def combo_choices(self, ps: PlayerState) -> list[Combo]:
        """The combo moves ``ps`` may play now from hand (C10)."""
        ...

    def play_combo(self, ps: PlayerState, action: Combo) -> Step:
        """Card text plays ``action`` as ``ps``'s next combo move now (checked as at C10)."""
        ...

    def commit_second(self, ps: PlayerState) -> Generator[Decision, tuple[PlayerId, Action],
                                                          Commit | None]:
        """C1, card text (Patriot Mirror): ``ps`` commits a second face-down card with the same
        legal choices as C1 (no-card = none); it lies face down until C2. Returns the commit
        (None: no second card)."""
        ...

    def use_second(self, ps: PlayerState, keep_second: bool) -> None:
        """After C2: of ``ps``'s two revealed combat cards one is discarded and the other used;
        with ``keep_second`` the second card (its committed end) is the combat card and the
        combat-revealed card from now on."""
        ...

    def grant_full_combo(self, ps: PlayerState) -> None:
        """CB-13: ``ps`` won this combat with a dodge; its hit-back may be a full combo (the
        normal follow rules and combo points apply) instead of CB-7's single Ender."""
        ...

    def skip_to_next_combat(self) -> None:
        """After this combat the players skip forward to next turn's combat (Acrobatics): no
        Power Up, no end-of-turn window or text this turn, no draw phase or draw-phase window
        next turn; the hand limit, the end of one-turn effects and next turn's T1 still
        happen."""
        ...

    def stand_up(self, ps: PlayerState) -> None:
        """``ps`` is no longer knocked down this turn (KD-3 undone by card text)."""
        ...

    def block_damage(self, blocker: PlayerState, attacker: PlayerState) -> int:
        """AR-BLK-3: the block damage ``blocker`` takes from ``attacker``'s combat attack this
        combat, after card text ("takes block damage": Gloria's Remedy takes none)."""
        ...

    def speed(self, ps: PlayerState) -> int | None:
        """AR-SPD-1: ``ps``'s locked-in speed in tenths after modifiers, as C6 compares it
        (None for a card without speed); "normal attacks with speed 5.0 or faster"."""
        ...

    def knock_down(self, ps: PlayerState, by: PlayerState, next_turn: bool = False) -> None:
        """Card text knocks ``ps`` down now (War Stomp): for the rest of this turn (KD-4, KD-5),
        or with ``next_turn`` like a combat's knockdown, for the next turn (KD-6: Entangling
        Vines); journalled as a ``Knockdown`` by ``by``."""
        ...

    def void(self, ps: PlayerState, rule: str = "M-VOID", reason: str = "void") -> None:
        """M-VOID: ``ps``'s combat card is discarded at once (no draw, no return, no effects)
        and ``ps`` counts as no-card for the rest of this combat (card text that makes a move
        fail, e.g. a dodge against an attack that can't be dodged, M-DRAGON); journalled as a
        ``Voided`` with ``rule`` and ``reason``."""
        ...

    def add_modifier(self, modifier: Modifier[Any]) -> None:
        """Put a modifier in force until it expires (:mod:`rules_engine.modifiers`)."""
        ...

    @property
    def journal(self) -> Journal:
        """What happened so far (read only): hits, blocks, damage, draws (``journal``)."""
        ...

    def take_top(self, ps: PlayerState, step: str) -> Generator[
            Decision, tuple[PlayerId, Action], Card | None]:
        """Take the top card of ``ps``'s deck out (to discard or reveal it; the caller puts it
        in a zone): seeded, or a tabletop log's ``draw`` event naming it. None: empty deck."""
        ...

    def draw_bottom(self, ps: PlayerState, step: str) -> Step:
        """Draw the bottom card of ``ps``'s deck (seeded, or a tabletop log's ``draw`` event)."""
        ...

    def random_hand_card(self, ps: PlayerState, step: str) -> Generator[
            Decision, tuple[PlayerId, Action], Card | None]:
        """A card of ``ps``'s hand at random (it stays there): seeded, or a tabletop log's
        ``reveal`` event by ``ps``. None with an empty hand."""
        ...

    def peek_bottom(self, ps: PlayerState) -> None:
        """``ps`` looks at the bottom card of its deck (shown to ``ps`` only, GEN-9)."""
        ...
