"""Bots for self-play: a random-but-legal bot and a greedy bot.

Glossary: a *bot* picks one of the legal actions the game lists for its player. Bots never
bypass the game's checks: whatever they choose goes through :meth:`Game.apply`.

Responsibility: choosing. The random bot draws from the portable PRNG (so a seed reproduces a
game anywhere); the greedy bot plays the highest-damage combo it can find and otherwise makes
simple, sensible combat choices.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from operator import itemgetter
from typing import Protocol

from rules_engine import combat as cb
from rules_engine.actions import (
    Action,
    Assist,
    Combo,
    Commit,
    Discard,
    FaceDown,
    Keep,
    NoCard,
    Pass,
    Pick,
    PowerUp,
    Pump,
    Search,
    Snapback,
    Stop,
    Swap,
    Tag,
)
from rules_engine.cards import Card, ComboType, Move, MoveType, character
from rules_engine.game import Game, PlayerState
from rules_engine.modifiers import MOVE
from rules_engine.rng import SplitMix64
from rules_engine.types import PlayerId

# Enum members read once: ``MoveType.DODGE`` is a class attribute looked up through the enum's
# descriptor (about 110 ns in Python 3.11, 20 times a global read), and the bot asks it of every
# commit it scores and every combo move it considers.
_DODGE, _BLOCK, _THROW = MoveType.DODGE, MoveType.BLOCK, MoveType.THROW
_CLOSES_COMBO = (ComboType.ENDER, ComboType.CANT_COMBO)  # CB-5, CB-6: nothing follows


class Bot(Protocol):
    name: str

    def choose(self, game: Game, player: PlayerId, legal: Sequence[Action]) -> Action: ...


class RandomBot:
    """Uniform over the kinds of legal action, then uniform within the kind.

    Grouping by kind first keeps games playable: otherwise the many ways to pump would drown
    the single "stop".
    """

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def choose(self, game: Game, player: PlayerId, legal: Sequence[Action]) -> Action:
        groups: dict[str, list[Action]] = {}
        for a in legal:
            groups.setdefault(a.kind, []).append(a)
        kinds = list(groups)
        group = groups[kinds[self.rng.below(len(kinds))]]
        return group[self.rng.below(len(group))]


def _card_value(c: Card) -> int:
    """How much a bot wants to keep a card (Jokers and Aces most)."""
    if c.is_joker:
        return 100
    assert c.rank is not None
    return int(c.rank)


class GreedyBot:
    """Highest-damage combo available, sensible combat choices, Rewind Jokers when it can;
    a character's abilities by its rules' ``bot_choice`` heuristic (random when it has none)."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = SplitMix64(seed)

    def choose(self, game: Game, player: PlayerId, legal: Sequence[Action]) -> Action:
        first = legal[0]
        ps = game.state(player)
        controller = game.controller(player)
        if controller is not player:  # card text gave the controller this decision
            pick = game.rules[controller].control_choice(game, game.state(controller), ps,
                                                         legal)
            if pick is not None and pick in legal:
                return pick
        # the character's own heuristic for its abilities (CharacterRules.bot_choice)
        pick = game.rules[player].bot_choice(game, ps, legal)
        if pick is not None and pick in legal:
            return pick
        if game.mode.assists is not None:  # Tag Team's assists (never in Versus)
            if Swap() in legal:  # AS-6
                return self._swap(game, ps, legal)
            if any(isinstance(a, Assist) for a in legal):  # AS-2
                return self._assist(game, ps, legal)
        if isinstance(first, NoCard) or any(isinstance(a, Commit) for a in legal):
            return self._commit(game, ps, legal)
        if game.mode.tags is not None:  # Tag Team's combat tags (C10) and Ace tag (P2)
            tags = [a for a in legal if isinstance(a, Tag) and a.tag is not None]
            tag = self._tag(game, ps, tags) if tags else None
            if tag is not None:
                return tag
        if any(isinstance(a, (Combo, Pump)) for a in legal) or isinstance(first, Stop):
            return self._combo(game, ps, legal)
        if any(isinstance(a, FaceDown) for a in legal):
            jokers = [a for a in legal if isinstance(a, FaceDown) and a.card.is_joker]
            return jokers[0] if jokers else next(a for a in legal if isinstance(a, Pass))
        if isinstance(first, Search):
            return max(legal, key=lambda a: len(a.from_discard) + len(a.from_deck)
                       if isinstance(a, Search) else -1)
        if isinstance(first, PowerUp):
            return max(legal, key=lambda a: (len(a.from_discard) + len(a.from_deck),
                                             -len(a.sets)) if isinstance(a, PowerUp) else (-1, 0))
        if isinstance(first, Discard):
            return min(legal, key=lambda a: sum(_card_value(c) for c in a.cards)
                       if isinstance(a, Discard) else 0)
        if isinstance(first, Keep):
            return first
        if isinstance(first, Pick):
            return self._pick(legal)
        if Tag() in legal:  # TAG-PU-2: tag out a worn-down active character
            partner = game.partner(ps)
            if partner is not None and ps.life * 3 < partner.life:
                return Tag()
            return next(a for a in legal if isinstance(a, Pass))
        snapbacks = [a for a in legal if isinstance(a, Snapback)]
        if snapbacks:  # SB-1: worth a card unless the hand is short
            if len(ps.hand) < 4:
                return next(a for a in legal if isinstance(a, Pass))
            return min(snapbacks, key=lambda a: _card_value(a.card))
        return legal[self.rng.below(len(legal))]

    def _tag(self, game: Game, ps: PlayerState, tags: list[Tag]) -> Tag | None:
        """Tag Team (rules_engine.tags): a super cancel tag whenever the partner's halved super
        deals 4 or more (TAG-SUPER); a dodge or combo-continue tag when the partner's best
        combo from hand beats the active player's by 5 or more, paying the least valuable card
        of each hand (TAG-DODGE, TAG-CONT); the Ace tag when the active character has less than
        a third of its partner's life (TAG-PU-1, as the hard tag)."""
        partner = game.partner(ps)
        if partner is None:
            return None
        if tags[0].tag == "ace":
            if ps.life * 3 >= partner.life:
                return None
            return max(tags, key=lambda t: len(t.from_discard) + len(t.from_deck))
        supers = [t for t in tags if t.tag == "super" and t.card is not None]
        if supers:
            def half(t: Tag) -> int:
                assert t.card is not None
                return game.resolve_move(partner, t.card, t.move, t.name, "TAG-SUPER").damage // 2
            best = max(supers, key=half)
            if half(best) >= 4:
                return best
        paid = [t for t in tags if t.tag in ("dodge", "continue")]
        if not paid:
            return None
        prev = game.combo[-1].move if game.combo else None
        if prev is not None and prev.follow_type is ComboType.NORMAL:
            prev = replace(prev, combo_type=ComboType.LINKER)  # TAG-CONT's Linker reading
        mine = self._from_hand(game, ps, prev, ps.combo_points_spent)
        theirs = self._from_hand(game, partner, prev, 0)
        if theirs < mine + 5:
            return None
        return min(paid, key=lambda t: _card_value(t.card) + _card_value(t.partner_card)
                   if t.card is not None and t.partner_card is not None else 0)

    def _from_hand(self, game: Game, ps: PlayerState, prev: Move | None, spent: int) -> int:
        """The damage of the best run of combo moves from ``ps``'s hand after ``prev`` (None:
        a first move, CT-FIRST)."""
        best = 0
        for _card, m, rest, cost in combo_continuations(game, ps, prev, ps.hand, spent):
            closed = m.follow_type in _CLOSES_COMBO
            best = max(best, m.damage + (0 if closed else self._extend(
                game, ps, m, spent + cost, rest, 3)))
        return best

    @staticmethod
    def _assist(game: Game, ps: PlayerState, legal: Sequence[Action]) -> Action:
        """AS-2 / AS-4: with five cards or more in hand, assist with the hardest-hitting Jack,
        Queen or King end (a Starter or Linker first: it lets the combo go on, AS-11), paying
        with the least valuable other card; otherwise keep the cards (pass)."""
        assists = [a for a in legal if isinstance(a, Assist)]
        if len(ps.hand) < 5:
            return Pass()

        def score(a: Assist) -> tuple[int, int, int]:
            m = game.resolve_move(ps, a.card, a.move, a.name, "AS-1")
            goes_on = m.follow_type in (ComboType.STARTER, ComboType.LINKER)
            return (int(goes_on), m.damage, -_card_value(a.cost))
        return max(assists, key=score)

    @staticmethod
    def _swap(game: Game, ps: PlayerState, legal: Sequence[Action]) -> Action:
        """AS-6: swap the assist in when the team's active player has no attack or throw as
        its main card (no-card, a block or a dodge): the assist then fights in its place."""
        active = game.actives[game.table.side_of(ps.player)]
        if active.kind in (cb.NONE, cb.BLOCK, cb.DODGE):
            return Swap()
        return Pass()

    @staticmethod
    def _pick(legal: Sequence[Action]) -> Action:
        """TT-2 / TT-4: send in the remaining character with the most life (the first declared
        among equals): the longest bout ahead."""
        return max(legal, key=lambda a: character(a.incoming).life if isinstance(a, Pick) else 0)

    def _commit(self, game: Game, ps: PlayerState, legal: Sequence[Action]) -> Action:
        # each commit scored with its move as played now, in one pass: what commit_score
        # computes, with the opponent's knockdown read once per decision instead of once per
        # commit. A list in ``legal``'s order, sorted stably, so the order and any repeats
        # are kept exactly (the choice must not change).
        # An Ace whose mandatory cost cannot be paid is void at C3 (CF-08): the card is lost
        # and the bot fights with nothing. A no-card (or keeping its card) is always better.
        opponent_down = game.opponent(ps).knocked_down
        scored: list[tuple[float, Commit]] = []
        for a, m in self._commit_moves(game, ps, legal):
            if m is None:  # a Joker
                scored.append((1.0, a))
            elif not m.extra_aces or self._payable_move(ps, a, m):
                scored.append((self._move_score(ps, m, opponent_down), a))
        if not scored:
            return next((a for a in legal if not isinstance(a, Commit)), legal[0])
        # A little variety so greedy mirrors do not repeat one line forever.
        ranked = sorted(scored, key=itemgetter(0), reverse=True)
        pick = 0 if self.rng.below(4) else min(1, len(ranked) - 1)
        return ranked[pick][1]

    @staticmethod
    def _commit_moves(game: Game, ps: PlayerState, legal: Sequence[Action],
                      ) -> list[tuple[Commit, Move | None]]:
        """The listed commits, in order, each with its move as played now (None: a Joker):
        :meth:`Game.resolve_move` of each. On a seat no ``MOVE`` modifier applies to (card
        text changes no printed stats), that is the printed end the commit names, looked up
        without resolve_move's checks and fold: a listed commit names an end of its card by
        type, and by name only where two ends share the type (resolving was a third of the
        greedy bot's C1 choice; tested against resolve_move)."""
        out: list[tuple[Commit, Move | None]] = []
        as_printed = not game.modifiers.any_for(MOVE, ps.player)
        moves_of_type = ps.character.moves_of_type
        for a in legal:
            if not isinstance(a, Commit):
                continue
            if a.card.is_joker:
                out.append((a, None))
            elif not as_printed:
                out.append((a, game.resolve_move(ps, a.card, a.move, a.name, "C1")))
            else:
                assert a.move is not None  # a listed commit of a card that is not a Joker
                ends = moves_of_type(a.card, a.move)
                out.append((a, ends[0] if a.name is None
                            else next(m for m in ends if m.name == a.name)))
        return out

    @staticmethod
    def commit_score(game: Game, ps: PlayerState, a: Commit, move: Move | None = None) -> float:
        """How much the greedy bot likes a commit (it plays the best one three times in
        four, else the second best): big, fast attacks; cheap blocks; throws on a knocked-down
        opponent; no dodge while knocked down. ``move``: the commit's move as played now, when
        the caller has resolved it already."""
        if a.card.is_joker:
            return 1.0
        m = move if move is not None else game.resolve_move(ps, a.card, a.move, a.name, "C1")
        return GreedyBot._move_score(ps, m, game.opponent(ps).knocked_down)

    @staticmethod
    def _move_score(ps: PlayerState, m: Move, opponent_down: bool) -> float:
        """:meth:`commit_score` of a commit whose move as played now is ``m`` (not a Joker)."""
        if m.type is _DODGE:
            return -5.0 if ps.knocked_down else 2.0
        if m.type is _BLOCK:
            return 3.0 - 0.1 * int(m.rank)
        bonus = 3.0 if opponent_down and m.type is _THROW else 0.0
        speed = (m.speed or 0) / 10
        return m.damage / 3 + bonus - 0.3 * speed

    @staticmethod
    def _payable(game: Game, ps: PlayerState, a: Commit) -> bool:
        """C3 / GL-MANDATORY: the Aces in hand besides the card itself cover its extra Aces,
        as the game checks them. When the opponent's Ace was void and this player chooses
        again (NC-2), its committed card is back among the choices, so it counts too."""
        m = None if a.card.is_joker else game.resolve_move(ps, a.card, a.move, a.name, "C1")
        return GreedyBot._payable_move(ps, a, m)

    @staticmethod
    def _payable_move(ps: PlayerState, a: Commit, m: Move | None) -> bool:
        """:meth:`_payable` for commit ``a`` whose move as played now is ``m`` (None: a
        Joker, which costs nothing)."""
        if m is None or not m.extra_aces:
            return True
        pool = ps.hand if ps.combat_card is None else [*ps.hand, ps.combat_card]
        return sum(1 for c in pool if c.is_ace and c is not a.card) >= m.extra_aces

    def _combo(self, game: Game, ps: PlayerState, legal: Sequence[Action]) -> Action:
        combos = [a for a in legal if isinstance(a, Combo)]
        if combos:
            best = self._best_plan(game, ps, combos)
            if best is not None:
                return best
        pumps = [a for a in legal if isinstance(a, Pump)
                 and not any(c.is_joker for c in a.cards)]
        if pumps:
            return max(pumps, key=lambda p: (len(p.cards),
                                             -sum(_card_value(c) for c in p.cards)))
        return next(a for a in legal if isinstance(a, Stop))

    def _best_plan(self, game: Game, ps: PlayerState, combos: Sequence[Combo]) -> Combo | None:
        """The first move of the highest-damage sequence of combo moves from hand."""
        best_damage, best = 0, None
        for a in combos:
            m = game.resolve_move(ps, a.card, a.move, a.name, "C10")
            used = {a.card, *a.aces}
            rest = [c for c in ps.hand if c not in used]
            spent = ps.combo_points_spent + (m.combo_points or 0)
            run = game.combat.run
            closed = (run.hit_back and not run.full_combo) or m.follow_type in _CLOSES_COMBO
            dmg = m.damage + (0 if closed else self._extend(game, ps, m, spent, rest, 4))
            if dmg > best_damage:
                best_damage, best = dmg, a
        return best

    def _extend(self, game: Game, ps: PlayerState, prev: Move, spent: int, hand: list[Card],
                depth: int) -> int:
        if depth == 0:
            return 0
        best = 0
        for _card, m, rest, cost in combo_continuations(game, ps, prev, hand, spent):
            closed = m.follow_type in _CLOSES_COMBO
            dmg = m.damage + (0 if closed else self._extend(game, ps, m, spent + cost, rest,
                                                             depth - 1))
            best = max(best, dmg)
        return best


def combo_continuations(game: Game, ps: PlayerState, prev: Move | None, hand: Sequence[Card],
                        spent: int) -> Iterator[tuple[Card, Move, list[Card], int]]:
    """The combo moves a bot considers after ``prev`` from ``hand`` (the greedy bot's combo
    estimates, the strong bot's combo plan): each attack or throw of a non-Joker card that
    follows ``prev`` (CB-4; ``prev`` None: a first move, CT-FIRST) and whose combo points fit
    the character's limit with ``spent`` already paid (CB-3); moves that need a state or extra
    Aces are left out. Yields the card, the move, the hand without that card and the move's
    combo points, in hand order."""
    limit = ps.character.combo_limit
    for c in dict.fromkeys(hand):
        if c.is_joker:
            continue
        for m in ps.character.moves_of(c):
            if not m.is_attack_or_throw or m.requires is not None or m.extra_aces:
                continue
            cost = m.combo_points or 0
            if cost and spent + cost > limit:
                continue
            if prev is not None and cb.follow_violation(prev, m, game.ruleset) is not None:
                continue
            rest = list(hand)
            rest.remove(c)
            yield c, m, rest, cost


#: Every bot ``make_bot`` knows, weakest first (each scores over half against the one before
#: it in ``make bench-bots``; the look-ahead bot's edge over the strong bot is in
#: docs/performance.md). A finished chart of a later bot is preferred for the odds.
BOTS: tuple[str, ...] = ("random", "greedy", "strong", "lookahead")
#: The bot simulated charts, and so the simulated seeding and the odds, are played with unless
#: one is named: the strongest one fast enough for a full chart (docs/simulations.md).
BEST_BOT = "strong"


def make_bot(kind: str, seed: int) -> Bot:
    if kind == "random":
        return RandomBot(seed)
    if kind == "greedy":
        return GreedyBot(seed)
    if kind == "strong":
        from rules_engine.strong_bot import StrongBot  # it builds on GreedyBot: imported late

        return StrongBot(seed)
    if kind == "lookahead":
        from rules_engine.lookahead_bot import LookaheadBot  # it builds on StrongBot

        return LookaheadBot(seed)
    raise ValueError(f"unknown bot {kind!r} ({', '.join(BOTS)})")
