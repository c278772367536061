"""The rulebook's solo bot: the generic procedure of RULES.md §12.1 (TR-5..TR-13, OQ-27).

Glossary: the *bot* is the seat the engine plays itself in Training and Survival; its choices
are *derived* (worked out from the position, never logged), so a replay derives them again and
a log only ever holds the human's decisions (TR-3).

Responsibility: one choice per decision of the bot's seat, from what the game lists as legal
and the public position (the human's locked-in card is revealed when the bot's C1 card is
turned over, OQ-26). Nothing here bypasses the game: the choice goes through the decision's own
check (:meth:`rules_engine.game.core.GameCore._derive`).

Rules covered: TR-5 (the combat card is the top card of the deck, its orientation a seeded
50/50), TR-6 (rotate an illegal card 180°, then put it into hand and turn over the next), TR-7
(``opt.hardBot``: block/throw and dodge/throw cards turn to the throw end when that wins),
TR-8 (the highest-damage combo, pumps included; ties: fewest cards, then lowest ranks, then hand
order), TR-9 (pumps with the lowest ranks), TR-10 (a dodge's hit-back: the highest damage),
TR-12 (Power Up only for Aces in the discard pile, lowest-rank sets), OQ-27 (hand-limit
discards: lowest rank first, Aces kept, ties by hand order). TR-11 (abilities): the generic
bot passes in ability windows and takes the first legal choice inside card text that asks it;
TR-11 per character and the per-character BOT rules (§12.2) live in
:mod:`rules_engine.training.characters` (:data:`BOT_RULES_IMPLEMENTED` says which are played).
``opt.botTieChoice=HUMAN``: :func:`tied_steps` lists the tied next steps the human chooses
among (TR-8, OQ-26); a decision of the human's seat that card text gave the bot is
:func:`_controlled`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rules_engine import combat as cb
from rules_engine.actions import (
    Action,
    Combo,
    Commit,
    Discard,
    FaceDown,
    Keep,
    NoCard,
    Pass,
    PowerUp,
    Pump,
    Search,
    Stop,
)
from rules_engine.cards import Card, ComboType, Move, MoveType
from rules_engine.ruleset import OnOff, Timeout
from rules_engine.state import Decision, PlayerState, Zone
from rules_engine.training.characters import BOT_RULES
from rules_engine.types import PlayerId

if TYPE_CHECKING:
    from rules_engine.game.core import GameCore

#: The characters whose BOT-<character> rule (§12.2) the bot plays
#: (:mod:`rules_engine.training.characters`); every other character plays the generic
#: procedure (TR-1..TR-15) with its card text, and a verdict says so. BOT-ARGAGARG and
#: BOT-TROQ read "No changes": the generic procedure is their BOT rule.
BOT_RULES_IMPLEMENTED: frozenset[str] = frozenset(BOT_RULES)

def bot_rule_id(character_id: str) -> str:
    """The ID of a character's BOT rule in RULES.md §12.2 (``bbb`` -> ``BOT-BALBASBETA``)."""
    return "BOT-BALBASBETA" if character_id == "bbb" else f"BOT-{character_id.upper()}"


#: The rule each kind of bot decision follows (a logged event for the bot cites it).
RULE_OF_STEP = {"C1": "TR-5", "C10": "TR-8", "C9": "TR-3", "P2": "TR-12", "P5": "TR-12",
                "K2": "OQ-27", "K1": "TR-13"}

_MAX_PLAN_DEPTH = 5
_HUMAN_SIDE = 0  # side A, seat P1: the human (side B is the bot)


def _rank(c: Card) -> int:
    return 0 if c.rank is None else int(c.rank)


def choose(game: GameCore, seat: PlayerId, d: Decision) -> Action:
    """The bot's choice at decision ``d`` (the game checks it like any other)."""
    ps = game.players[seat]
    legal = list(d.options(seat))  # a list: the rows filter and index it
    controller = game.controller(seat)
    if controller is not seat and game.table.side_of(seat) == _HUMAN_SIDE:
        # card text gave the bot the human's decisions (the bot's own seat, controlled by the
        # human's card text, keeps its derived choices)
        return _controlled(game, game.players[controller], ps, d, legal)
    rules = BOT_RULES.get(ps.character.id)
    if rules is not None and legal:
        pick = rules.choose(game, ps, d, legal)
        if pick is not None:
            return pick
    theirs = BOT_RULES.get(game.opponent(ps).character.id)
    if theirs is not None and legal:  # a row about the human's card text ("played by you")
        pick = theirs.choose_against(game, ps, d, legal)
        if pick is not None:
            return pick
    if any(isinstance(a, Commit | NoCard) for a in legal) and d.step == "C1":
        return _commit(game, ps, d)
    if not legal:
        raise ValueError(f"the bot has no legal choice at {d.step}")
    if any(isinstance(a, Combo | Pump) for a in legal) or (
            len(legal) == 1 and isinstance(legal[0], Stop)):
        return _combo(game, ps, legal)
    first = legal[0]
    if isinstance(first, PowerUp):
        return _power_up(legal)
    if isinstance(first, Search):
        return _search(legal)
    if isinstance(first, Discard):
        return _hand_limit(ps, legal)
    if any(isinstance(a, FaceDown) for a in legal):
        return next(a for a in legal if isinstance(a, Pass))  # no Jokers (TR-1), no bluffs
    for skip in (Keep(), Pass(), Stop()):  # TR-11 generic: no ability is played
        if skip in legal:
            return skip
    return first  # card text asking the bot: the first legal choice


def _controlled(game: GameCore, bot: PlayerState, ps: PlayerState, d: Decision,
                legal: list[Action]) -> Action:
    """A decision of the human's seat ``ps`` that card text gave the bot (Mistress's Command):
    the bot's BOT rule (:meth:`BotRules.control`), else pass, stop or the first legal choice."""
    rules = BOT_RULES.get(bot.character.id)
    pick = None if rules is None else rules.control(game, bot, ps, d, legal)
    if pick is not None:
        return pick
    for skip in (Pass(), Stop()):
        if skip in legal:
            return skip
    return legal[0]


# ---------------------------------------------------------------- TR-5, TR-6, TR-7


def _commit(game: GameCore, ps: PlayerState, d: Decision) -> Action:
    """TR-5 / TR-6 / TR-7: turn over the top card of the deck; its orientation is a seeded
    50/50; an illegal end is rotated 180°, an illegal card goes to hand and the next card is
    turned over. An empty deck: no-card."""
    assert game.rng is not None  # Training is always seeded
    human = game.opponent(ps)
    while ps.deck:
        c = ps.deck[0]
        game.move(ps, c, Zone.DECK, Zone.HAND)
        if not ps.deck and game.ruleset.timeout is Timeout.RULEBOOK:
            game.timeout_triggered = True  # END-4 / TR-15: its last card was turned over
        ends = list(ps.character.moves_of(c))
        if not ends:
            continue
        up = game.rng.below(len(ends)) if len(ends) > 1 else 0
        order = ends[up:] + ends[:up]  # the end turned up first, then rotated 180°
        rules = BOT_RULES.get(ps.character.id)
        if rules is not None:
            order = rules.orientation(game, ps, c, order)
        if game.ruleset.hardBot is OnOff.ON:
            order = _hard_bot(game, ps, human, order)
        legal = d.options(ps.player)
        for m in order:
            name = m.name if sum(1 for o in ends if o.type is m.type) > 1 else None
            action = Commit(c, m.type, name)
            if action in legal and _payable(game, ps, c, m):
                return action
        # TR-6: illegal both ways; it stays in the hand and the next card is turned over
    return NoCard()


def _payable(game: GameCore, ps: PlayerState, c: Card, m: Move) -> bool:
    """TR-6 / OQ-26: an unpayable mandatory Ace cost makes the end illegal."""
    played = game.played_move(ps, c, m)
    return sum(1 for h in ps.hand if h.is_ace and h is not c) >= played.extra_aces


def _hard_bot(game: GameCore, ps: PlayerState, human: PlayerState,
              order: list[Move]) -> list[Move]:
    """TR-7: a block/throw or dodge/throw card turns to its throw end when the throw would win
    against the human's revealed card."""
    types = {m.type for m in order}
    if types not in ({MoveType.BLOCK, MoveType.THROW}, {MoveType.DODGE, MoveType.THROW}):
        return order
    throw = next(m for m in order if m.type is MoveType.THROW)
    mine = 0 if game.actives[0] is ps else 1
    kinds = [cb.THROW, human.kind]
    speeds = [throw.speed, game.speed(human)]
    if mine == 1:
        kinds.reverse()
        speeds.reverse()
    result = cb.resolve(kinds[0], speeds[0], kinds[1], speeds[1], game.ruleset)
    if result.winner == mine:
        return [throw, *(m for m in order if m is not throw)]
    return order


# ---------------------------------------------------------------- TR-8, TR-9, TR-10


class _Plan:
    """A combo continuation: the moves still to play and the pumps, its total damage and the
    tie-break key of TR-8 (fewest cards, then the lowest ranks, then hand order)."""

    __slots__ = ("cards", "damage", "moves", "pumps")

    def __init__(self, moves: list[Combo], pumps: list[tuple[int, Card]], damage: int,
                 cards: list[Card]) -> None:
        self.moves, self.pumps, self.damage, self.cards = moves, pumps, damage, cards

    def key(self, hand: Sequence[Card]) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]:
        ranks = tuple(sorted((_rank(c) for c in self.cards), reverse=True))
        order = tuple(hand.index(c) for c in self.cards if c in hand)
        return (-self.damage, len(self.cards), ranks, order)


def _combo(game: GameCore, ps: PlayerState, legal: Sequence[Action]) -> Action:
    """TR-8..TR-10: the first step of the highest-damage plan (moves first, then pumps)."""
    return _first_step(_best_plan(game, ps, legal), legal)


def _first_step(plan: _Plan, legal: Sequence[Action]) -> Action:
    """A plan's next step: its first move, else its first pump, else stop."""
    if plan.moves:
        return plan.moves[0]
    if plan.pumps:
        target, _ = plan.pumps[0]
        cards = tuple(c for t, c in plan.pumps if t == target)
        for want in (cards, cards[:1]):
            if Pump(target, want) in legal:
                return Pump(target, want)
    return Stop() if Stop() in legal else legal[0]


def tied_steps(game: GameCore, seat: PlayerId, d: Decision) -> list[Action]:
    """TR-8 with ``opt.botTieChoice=HUMAN``: at a combo decision of the bot that the generic
    procedure makes (no BOT rule chooses it), the distinct next steps of its combos that tie for
    the highest total damage, pumps included, in the engine's tie-break order; empty when
    there is no tie (one step). The human chooses among them (OQ-26)."""
    ps = game.players[seat]
    if d.step != "C10" or game.controller(seat) is not seat:
        return []
    legal = list(d.options(seat))  # a list: the rows filter and index it
    if not any(isinstance(a, Combo | Pump) for a in legal):
        return []
    rules = BOT_RULES.get(ps.character.id)
    if rules is not None and rules.choose(game, ps, d, legal) is not None:
        return []
    hand = list(ps.hand)
    plans = sorted(_plans(game, ps, legal), key=lambda p: p.key(hand))
    top = plans[0].damage
    steps = dict.fromkeys(_first_step(p, legal) for p in plans if p.damage == top)
    return list(steps) if len(steps) > 1 else []


def _best_plan(game: GameCore, ps: PlayerState, legal: Sequence[Action]) -> _Plan:
    hand = list(ps.hand)
    return min(_plans(game, ps, legal), key=lambda p: p.key(hand))


def _plans(game: GameCore, ps: PlayerState, legal: Sequence[Action]) -> list[_Plan]:
    """Every plan from this combo decision: no move (pumps only), and each continuation."""
    hand = list(ps.hand)
    run = game.combat.run
    limit = ps.character.combo_limit
    open_targets = {a.target for a in legal if isinstance(a, Pump)}  # entries with room now
    out = [_with_pumps(game, ps, [], [], hand, open_targets)]
    for first in (a for a in legal if isinstance(a, Combo)):
        m = game.as_played(ps, game.resolve_move(ps, first.card, first.move, first.name, "C10"))
        rest = [c for c in hand if c is not first.card and c not in first.aces]
        closed = (run.hit_back and not run.full_combo) or m.follow_type in (
            ComboType.ENDER, ComboType.CANT_COMBO)
        for tail in _tails(game, ps, m, ps.combo_points_spent + (m.combo_points or 0), rest,
                           limit, 0 if closed else _MAX_PLAN_DEPTH - 1):
            moves = [first, *tail]
            out.append(_with_pumps(game, ps, moves, [first.card, *first.aces,
                                                     *(t.card for t in tail)], hand,
                                   open_targets))
    return out


def _tails(game: GameCore, ps: PlayerState, prev: Move, spent: int, hand: list[Card],
           limit: int, depth: int) -> list[list[Combo]]:
    """Every continuation after ``prev`` from ``hand`` (printed stats, no Ace costs), the empty
    one included."""
    out: list[list[Combo]] = [[]]
    if depth == 0:
        return out
    for c in dict.fromkeys(hand):
        moves = ps.character.moves_of(c)
        for printed in moves:
            m = game.as_played(ps, game.played_move(ps, c, printed))
            if not m.is_attack_or_throw or m.requires is not None or m.extra_aces:
                continue
            cost = m.combo_points or 0
            if cost and spent + cost > limit:
                continue
            if cb.follow_violation(prev, m, game.ruleset) is not None:
                continue
            name = m.name if sum(1 for o in moves if o.type is m.type) > 1 else None
            rest = [h for h in hand if h is not c]
            closed = m.follow_type in (ComboType.ENDER, ComboType.CANT_COMBO)
            for tail in _tails(game, ps, m, spent + cost, rest, limit,
                               0 if closed else depth - 1):
                out.append([Combo(c, m.type, name), *tail])
    return out


def _with_pumps(game: GameCore, ps: PlayerState, moves: list[Combo], used: list[Card],
                hand: list[Card], open_targets: set[int]) -> _Plan:
    """The plan ``moves`` plus pumps from the cards left (TR-9: lowest ranks first), the
    most damaging pump per card first."""
    targets: list[tuple[int, Move, int]] = []  # (entry index, move, room)
    for i, e in enumerate(game.combo):
        if i in open_targets and e.move.pump is not None:
            targets.append((i, e.move, e.move.pump.max_cards - len(e.pumps)))
    damage = 0
    for k, a in enumerate(moves):
        m = game.as_played(ps, game.resolve_move(ps, a.card, a.move, a.name, "C10"))
        damage += m.damage
        if m.pump is not None:
            targets.append((len(game.combo) + k, m, m.pump.max_cards))
    left = sorted((c for c in hand if c not in used), key=_rank)
    pumps: list[tuple[int, Card]] = []
    for i, m, room in sorted(targets, key=lambda t: -(t[1].pump.damage if t[1].pump else 0)):
        assert m.pump is not None
        for c in [c for c in left if m.pump.kind.accepts(c)][:room]:
            left.remove(c)
            pumps.append((i, c))
            damage += m.pump.damage
    cards = [*used, *(c for _, c in pumps)]
    return _Plan(moves, pumps, damage, cards)


# ---------------------------------------------------------------- TR-12, OQ-27


def _power_up(legal: Sequence[Action]) -> Action:
    """TR-12: only Aces from the discard pile, as many as owed; the lowest-rank sets that reach
    that number (ranks compared from the highest used down), then fewer cards."""
    ups = [a for a in legal if isinstance(a, PowerUp) and not a.from_deck]
    most = max((len(a.from_discard) for a in ups), default=0)
    if most == 0:
        return PowerUp()

    def key(a: PowerUp) -> tuple[tuple[int, ...], int]:
        return tuple(sorted((_rank(c) for c in a.sets), reverse=True)), len(a.sets)
    return min((a for a in ups if len(a.from_discard) == most), key=key)


def _search(legal: Sequence[Action]) -> Action:
    """TR-12: an Ace search takes from the discard pile only, as many as it may."""
    from_discard = [a for a in legal if isinstance(a, Search) and not a.from_deck]
    pool = from_discard or [a for a in legal if isinstance(a, Search)]
    return max(pool, key=lambda a: len(a.from_discard) if isinstance(a, Search) else 0)


def _hand_limit(ps: PlayerState, legal: Sequence[Action]) -> Action:
    """OQ-27: discard the lowest ranks first, keeping Aces; ties by hand order."""
    def key(a: Action) -> tuple[tuple[int, ...], tuple[int, ...]]:
        assert isinstance(a, Discard)
        ranks = tuple(sorted((_rank(c) for c in a.cards), reverse=True))
        return ranks, tuple(sorted(ps.hand.index(c) for c in a.cards))
    return min((a for a in legal if isinstance(a, Discard)), key=key)
