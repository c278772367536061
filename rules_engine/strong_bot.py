"""The strong bot: combat as a simultaneous-move matrix game, solved and sampled.

Glossary: an *option* is one distinct combat choice (a card's end, a Gold Burst, or no-card;
cards of one rank with the same end are one option). The *payoff* of a pair of options is the
change of the evaluation (see :class:`Weights`) the bot expects from that combat, for itself,
against the opponent (zero-sum). A *sampled hand* is a guess at the opponent's hidden hand:
as many cards as it holds, drawn from the cards it does not show (deck and hand together, a
set anyone may work out from the public zones), never from the hand itself.

Responsibility: choosing, by what the bot's own seat may know (GEN-9): its hand, the public
zones, hand and deck sizes. At C1 it builds, per sampled hand, the payoff matrix of its options
against the opponent's and solves the zero-sum game by regret matching; it models the opponent
as a greedy player picking from that hand (blended with the equilibrium), and samples a mix of
the equilibrium and a softmax response to the model. Combos and pumps are planned by the same
evaluation; the character's ``bot_choice`` heuristics play its abilities, and the greedy bot's
defaults settle everything else (Power Up, searches, discards, Rewind). All randomness comes
from one :class:`~rules_engine.rng.SplitMix64`, so a seed reproduces a game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from rules_engine import combat as cb
from rules_engine.actions import Action, Combo, Commit, NoCard, Pump, Stop
from rules_engine.bots import GreedyBot, combo_continuations
from rules_engine.cards import Card, ComboType, Move, MoveType
from rules_engine.game import Game, PlayerState
from rules_engine.modifiers import SPEED
from rules_engine.rng import SplitMix64
from rules_engine.types import PlayerId


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation, in life points: a card in hand is worth ``card`` life (an Ace ``ace``,
    a Joker ``joker``), a knockdown ``knockdown``; damage that would KO is worth ``lethal``
    more. Damage to a player counts ``1 + pressure * damage / life``: the same hit matters
    more the lower its target's life (a quadratic stand-in for the chance to win)."""

    card: float = 1.5
    ace: float = 4.0
    joker: float = 5.0
    knockdown: float = 4.0
    lethal: float = 60.0
    pressure: float = 0.5


@dataclass(frozen=True, slots=True)
class Option:
    """One distinct combat choice: the action, its kind (attack, throw, block, dodge, joker,
    none), the move as played (None for a Joker or no-card), the card and its speed."""

    action: Action
    kind: str
    move: Move | None
    card: Card | None
    speed: int | None


@dataclass(frozen=True, slots=True)
class Plan:
    """A combo continuation from hand: its net value (damage minus the cards it spends), its
    damage, its number of cards, whether its last move knocks down, and its first move."""

    value: float
    damage: int
    cards: int
    knockdown: bool
    first: Card | None = None
    first_move: Move | None = None


NO_PLAN = Plan(0.0, 0, 0, False)


def _regret_matching_step(lines: list[list[float]], other: list[float], regret: list[float],
                          strategy: list[float], gains: list[float], average: list[float],
                          weight: float, minimises: bool) -> None:
    """One player's update of ``solve_matrix``, in place: its gains against the other's
    current strategy (``lines``: its own line of payoffs per action, the row player's gains;
    negated for the column player, who ``minimises`` them), its floored regrets, its new
    strategy and its weighted running sum."""
    k = len(strategy)
    for a in range(k):
        line = lines[a]
        acc = 0.0
        for b in range(len(other)):
            acc += line[b] * other[b]
        gains[a] = -acc if minimises else acc
    v = 0.0
    for a in range(k):
        v += gains[a] * strategy[a]
    total = 0.0
    for a in range(k):
        d = regret[a] + gains[a] - v
        d = 0.0 if d < 0.0 else d
        regret[a] = d
        total += d
    if total > 0:
        for a in range(k):
            strategy[a] = regret[a] / total
    else:
        uniform = 1.0 / k
        for a in range(k):
            strategy[a] = uniform
    for a in range(k):
        average[a] += weight * strategy[a]


def solve_matrix(payoff: Sequence[Sequence[float]], iterations: int = 80,
                 ) -> tuple[list[float], list[float]]:
    """Approximate Nash equilibrium of the zero-sum game ``payoff`` (the row player's gain).

    Regret matching+ with alternating updates and linearly weighted averages (Tammelin 2014):
    each player plays in proportion to its positive cumulative regrets (regrets floored at 0),
    the column player answering the row player's new strategy; the weighted average strategies
    converge to an equilibrium. Deterministic: no sampling inside. Returns the row player's
    and the column player's average strategies.
    """
    n, m = len(payoff), len(payoff[0])
    # Index loops over float lists updated in place: compiled (mypyc) they run on unboxed
    # floats, several times faster than sum(map(mul, ...)), and interpreted they are no slower
    # (the solver is most of the strong bot's time: docs/performance.md). Every sum adds the
    # same products in the same order as sum(map(mul, ...)) did (on Python 3.11, sum() of
    # floats is plain left-to-right addition from 0), and ``0.0 if d < 0.0 else d`` is
    # max(d, 0.0): the same strategies, bit for bit. One step serves both players: the
    # column player's is the row player's on the transposed matrix with the gains negated.
    rows = [[float(p) for p in row] for row in payoff]
    cols = [[rows[i][j] for i in range(n)] for j in range(m)]
    rx, ry = [0.0] * n, [0.0] * m
    x, y = [1.0 / n] * n, [1.0 / m] * m
    sx, sy = [0.0] * n, [0.0] * m
    u, w = [0.0] * n, [0.0] * m
    for t in range(1, iterations + 1):
        weight = float(t)
        _regret_matching_step(rows, y, rx, x, u, sx, weight, False)
        # the column player answers the row player's new strategy
        _regret_matching_step(cols, x, ry, y, w, sy, weight, True)
    tx = ty = 0.0
    for i in range(n):
        tx += sx[i]
    for j in range(m):
        ty += sy[j]
    return [s / tx for s in sx], [s / ty for s in sy]


def _value(c: Card, w: Weights) -> float:
    if c.is_joker:
        return w.joker
    return w.ace if c.is_ace else w.card


class StrongBot:
    """Mixed combat strategy from a solved payoff matrix (see the module docstring).

    ``samples`` sampled opponent hands, ``iterations`` of regret matching per matrix; mixed
    strategy weights below ``floor`` are dropped before sampling (noise of the solver). The
    opponent model trusts a greedy player's pick ``trust`` (the rest: the equilibrium); the bot
    plays ``safety`` of the equilibrium and the rest a softmax response to the model
    (``temperature`` in life points); ``bluffs`` is the model's rate of face-down bluffs.
    """

    name = "strong"

    def __init__(self, seed: int = 0, *, samples: int = 6, iterations: int = 30,
                 weights: Weights = Weights(), floor: float = 0.03,
                 temperature: float = 0.5, safety: float = 0.15, trust: float = 0.8,
                 bluffs: float = 0.03) -> None:
        self.rng = SplitMix64(seed)
        self.temperature = temperature
        self.safety = safety
        self.trust = trust
        self.bluffs = bluffs
        # how far the game's history has been read for the opponent's revealed blocks
        self._read = 0
        # the opponent's revealed blocks: back in its hand after combat unless seen elsewhere
        self._blocks: list[Card] = []
        self.greedy = GreedyBot(seed ^ 0x5EED)
        self.samples = samples
        self.iterations = iterations
        self.w = weights
        self.floor = floor
        self._plans: dict[tuple[object, ...], Plan] = {}

    # ------------------------------------------------------------------ the decision

    def choose(self, game: Game, player: PlayerId, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        ps = game.state(player)
        if game.step == "C1" and any(isinstance(a, Commit) for a in legal):
            return self._commit(game, ps, legal)
        pick = game.rules[player].bot_choice(game, ps, legal)
        if pick is not None and pick in legal:
            return pick  # the character's heuristic for its abilities
        if any(isinstance(a, Combo | Pump) for a in legal):
            return self._combo(game, ps, legal)
        return self.greedy.choose(game, player, legal)

    # ------------------------------------------------------------------ C1: the matrix game

    def _commit(self, game: Game, ps: PlayerState, legal: Sequence[Action]) -> Action:
        mine = self._my_options(game, ps, legal)
        if len(mine) == 1:
            return mine[0].action
        opp = game.opponent(ps)
        self._observe(game, opp)
        hidden = len(opp.hand)
        pool = [*opp.deck, *opp.hand]
        if opp.combat_card is not None:  # committed already, face down: still unknown
            hidden += 1
            pool.append(opp.combat_card)
        pool.sort(key=lambda c: c.code)  # never the order of the deck or the hand
        known = self._known_hand(opp, pool, hidden)
        pool = [c for c in pool if c not in known]
        eq = [0.0] * len(mine)  # the equilibrium strategies, summed over the samples
        util = [0.0] * len(mine)  # each option's payoff against the opponent model, summed
        my_plans = [self._follow_up(game, ps, o, ps.hand) for o in mine]
        my_jokers = sum(1 for c in ps.hand if c.is_joker)
        for _ in range(self.samples):
            hand = known + self._sample(pool, hidden - len(known))
            theirs, copies = self._opp_options(game, opp, hand)
            their_plans = [self._follow_up(game, opp, o, hand) for o in theirs]
            their_jokers = sum(1 for c in hand if c.is_joker)
            matrix = [[self._payoff(game, ps, opp, a, pa, b, pb, (
                my_jokers - (1 if a.kind == cb.JOKER else 0) > 0,
                their_jokers - (1 if b.kind == cb.JOKER else 0) > 0)) for b, pb in
                       zip(theirs, their_plans, strict=True)]
                      for a, pa in zip(mine, my_plans, strict=True)]
            x, y = solve_matrix(matrix, self.iterations)
            model = self._model(game, opp, theirs, copies, y)
            eq = [s + xi for s, xi in zip(eq, x, strict=True)]
            util = [s + sum(m * q for m, q in zip(row, model, strict=True))
                    for s, row in zip(util, matrix, strict=True)]
        top = max(util)
        soft = [math.exp((ui - top) / (self.temperature * self.samples)) for ui in util]
        z = sum(soft)
        mix = [self.safety * e / self.samples + (1 - self.safety) * si / z
               for e, si in zip(eq, soft, strict=True)]
        return mine[self._draw(mix)].action

    def _observe(self, game: Game, opp: PlayerState) -> None:
        """Note the blocks the opponent revealed so far (public from C2 on: back in its hand
        after combat, AR-BLK-2). Its commit to this combat, when it is in already, is face
        down: left unread until the next combat."""
        end = len(game.history)
        if opp.player not in game.acting_players:  # it committed to this combat already
            end = max((i for i in range(self._read, end) if game.history[i][0] is opp.player
                       and isinstance(game.history[i][1], Commit | NoCard)), default=end)
        for p, a in game.history[self._read:end]:
            if p is opp.player and isinstance(a, Commit) and a.move is not None \
                    and cb.KIND_OF_MOVE[a.move] == cb.BLOCK and a.card not in self._blocks:
                self._blocks.append(a.card)
        self._read = end

    def _known_hand(self, opp: PlayerState, pool: list[Card], hidden: int) -> list[Card]:
        """The opponent's cards it is known to hold: blocks it revealed that returned to hand
        (AR-BLK-2) and were not seen leaving it since (they are not in a public zone). Public
        zones and the pool of unseen cards decide, never the hand itself."""
        public = {*opp.discard, *opp.attached, *(e.card for e in opp.ongoing)}
        known = [c for c in self._blocks if c not in public and c in pool]
        self._blocks = [c for c in self._blocks if c not in public]
        return known[:hidden]

    def _model(self, game: Game, opp: PlayerState, theirs: list[Option], copies: list[int],
               y: list[float]) -> list[float]:
        """The opponent model: how a greedy player would pick from the sampled hand
        (:meth:`GreedyBot.commit_score`: its best commit three times in four, else its second
        best), weighed ``trust``, blended with the equilibrium's column strategy ``y``."""
        scored: list[tuple[float, int]] = []
        for j, (o, k) in enumerate(zip(theirs, copies, strict=True)):
            if isinstance(o.action, Commit):
                score = GreedyBot.commit_score(game, opp, o.action)
                scored.extend([(score, j)] * k)
        if not scored:
            return y
        scored.sort(key=lambda t: -t[0])  # stable: the hand's order among equals
        greedy = [0.0] * len(theirs)
        greedy[scored[0][1]] += 0.75
        greedy[scored[min(1, len(scored) - 1)][1]] += 0.25
        return [self.trust * g + (1 - self.trust) * yj for g, yj in zip(greedy, y, strict=True)]

    def _draw(self, weights: list[float]) -> int:
        """Sample an index in proportion to ``weights`` (those under ``floor`` of the total
        dropped), with the bot's PRNG: 2**-32 steps are plenty for a mixed strategy."""
        total = sum(weights)
        kept = [wi if wi >= self.floor * total else 0.0 for wi in weights]
        total = sum(kept)
        r = self.rng.below(1 << 32) / (1 << 32) * total
        for i, wi in enumerate(kept):
            r -= wi
            if r < 0 and wi > 0:
                return i
        return max(range(len(kept)), key=lambda i: kept[i])

    def _sample(self, pool: list[Card], k: int) -> list[Card]:
        """``k`` cards of ``pool`` without replacement (partial Fisher-Yates)."""
        cards = list(pool)
        k = min(k, len(cards))
        for i in range(k):
            j = i + self.rng.below(len(cards) - i)
            cards[i], cards[j] = cards[j], cards[i]
        return cards[:k]

    def _my_options(self, game: Game, ps: PlayerState, legal: Sequence[Action]) -> list[Option]:
        out: dict[object, Option] = {}
        for a in legal:
            if isinstance(a, Commit):
                if not GreedyBot._payable(game, ps, a):
                    continue  # void at C3 (CF-08): never better than no-card
                opt = self._option(game, ps, a.card, a, a.move, a.name)
                out.setdefault(self._key(opt), opt)
        if not out:  # no-card loses to everything (NC-3): only when nothing else is payable
            return [Option(NoCard(), cb.NONE, None, None, None)]
        return list(out.values())

    @staticmethod
    def _key(o: Option) -> object:
        if o.move is None:
            return o.kind
        return (o.kind, o.move.rank, o.move.name, o.speed, o.move.damage)

    def _option(self, game: Game, ps: PlayerState, c: Card, action: Action,
                move_type: MoveType | None, name: str | None) -> Option:
        if c.is_joker:
            return Option(action, cb.JOKER, None, c, None)
        m = game.resolve_move(ps, c, move_type, name, "C1")
        speed = None if m.speed is None else max(
            game.modifiers.fold(SPEED, ps, m, m.speed), 0)
        return Option(action, cb.KIND_OF_MOVE[m.type], m, c, speed)

    def _opp_options(self, game: Game, opp: PlayerState, hand: list[Card],
                     ) -> tuple[list[Option], list[int]]:
        """The opponent's distinct combat choices with a sampled hand (no-card included), and
        how many of its legal commits each one stands for (no-card: none)."""
        out: dict[object, Option] = {"none": Option(NoCard(), cb.NONE, None, None, None)}
        count: dict[object, int] = {"none": 0}
        aces = sum(1 for c in hand if c.is_ace)
        for c in dict.fromkeys(hand):
            if c.is_joker:
                out.setdefault(cb.JOKER, Option(Commit(c), cb.JOKER, None, c, None))
                count[cb.JOKER] = count.get(cb.JOKER, 0) + 1
                continue
            for m in opp.character.moves_of(c):
                if m.extra_aces and aces - 1 < m.extra_aces:
                    continue
                if game.move_violation(opp, m, "C1") is not None:
                    continue
                opt = self._option(game, opp, c, Commit(c, m.type, m.name), m.type, m.name)
                key = self._key(opt)
                out.setdefault(key, opt)
                count[key] = count.get(key, 0) + 1
        return list(out.values()), [count[k] for k in out]

    # ------------------------------------------------------------------ the evaluation

    def _hurt(self, dmg: float, life: int) -> float:
        """The evaluation's worth of ``dmg`` damage to a player at ``life`` (Weights)."""
        if dmg <= 0:
            return 0.0
        worth = dmg * (1.0 + self.w.pressure * dmg / max(life, 1))
        return worth + (self.w.lethal if dmg >= life else 0.0)

    def _follow_up(self, game: Game, ps: PlayerState, o: Option, hand: Sequence[Card]) -> Plan:
        """The best combo after ``o`` wins (a hit-back after a dodge), from ``hand`` minus
        the combat card and the Aces it costs."""
        if o.kind not in (cb.ATTACK, cb.THROW, cb.DODGE) or o.card is None:
            return NO_PLAN
        rest = list(hand)
        if o.card in rest:
            rest.remove(o.card)
        if o.move is not None and o.move.extra_aces:
            for _ in range(o.move.extra_aces):
                ace = next((c for c in rest if c.is_ace), None)
                if ace is not None:
                    rest.remove(ace)
        if o.kind == cb.DODGE:
            return self._hit_back(ps, rest)
        assert o.move is not None
        if o.move.follow_type in (ComboType.ENDER, ComboType.CANT_COMBO):
            return NO_PLAN
        return self._plan(game, ps, o.move, rest, ps.combo_points_spent + (
            o.move.combo_points or 0), 4)

    def _hit_back(self, ps: PlayerState, hand: Sequence[Card]) -> Plan:
        """CB-7: one attack or throw from hand, as an Ender."""
        best = NO_PLAN
        for c in dict.fromkeys(hand):
            if c.is_joker:
                continue
            for m in ps.character.moves_of(c):
                if not m.is_attack_or_throw or m.extra_aces or m.requires is not None:
                    continue
                value = m.damage - _value(c, self.w)
                if value > best.value:
                    best = Plan(value, m.damage, 1, m.knockdown, c, m)
        return best

    def _plan(self, game: Game, ps: PlayerState, prev: Move, hand: Sequence[Card], spent: int,
              depth: int) -> Plan:
        """The most valuable sequence of combo moves from ``hand`` after ``prev`` (CB-4
        follow table, CB-3 combo points), each card worth its :class:`Weights` value, stopping
        whenever more would not pay; memoised per position."""
        key = (ps.character.id, prev, tuple(sorted(c.code for c in hand)), spent, depth)
        hit = self._plans.get(key)
        if hit is not None:
            return hit
        best = NO_PLAN
        if depth > 0:
            for c, m, rest, cost in combo_continuations(game, ps, prev, hand, spent):
                closed = m.follow_type in (ComboType.ENDER, ComboType.CANT_COMBO)
                after = NO_PLAN if closed else self._plan(game, ps, m, rest, spent + cost,
                                                          depth - 1)
                value = m.damage - _value(c, self.w) + after.value
                if value > best.value:
                    kd = after.knockdown if after.cards else m.knockdown
                    best = Plan(value, m.damage + after.damage, 1 + after.cards, kd, c, m)
        if len(self._plans) > 50_000:
            self._plans.clear()
        self._plans[key] = best
        return best

    def _payoff(self, game: Game, me: PlayerState, opp: PlayerState, a: Option, pa: Plan,
                b: Option, pb: Plan, rewinds: tuple[bool, bool] = (False, False)) -> float:
        """The evaluation's change for ``me`` when ``a`` meets ``b`` (C5 voids, the C6 matrix,
        C7/C8 draws and damage, the winner's combo or hit-back, knockdown, cards spent).

        ``rewinds``: whether each side (me, the opponent) would still hold a Joker to Rewind
        with (C9): where Rewind is allowed (RW-CAN), the winner's combo is then lost (its base
        damage is not, RW-6), and so is the loser's Joker."""
        w = self.w
        ka = self._void(me, a, b, game)
        kb = self._void(opp, b, a, game)
        res = cb.resolve(ka, a.speed, kb, b.speed, game.ruleset)
        # cards: the combat cards leave the hand (a block that is not thrown or void returns)
        mine = -(_value(a.card, w) if a.card is not None else 0.0)
        theirs = -(_value(b.card, w) if b.card is not None else 0.0)
        if a.move is not None and a.move.extra_aces:
            mine -= w.ace * a.move.extra_aces
        if b.move is not None and b.move.extra_aces:
            theirs -= w.ace * b.move.extra_aces
        if ka == cb.BLOCK and kb != cb.THROW and a.card is not None:
            mine += _value(a.card, w)
        if kb == cb.BLOCK and ka != cb.THROW and b.card is not None:
            theirs += _value(b.card, w)
        to_me = to_opp = 0.0
        kd_me = kd_opp = False
        if res.winner is None:
            if res.both_hit and ka == kb == cb.ATTACK:
                assert a.move is not None and b.move is not None
                # float(): the payoff's damages are floats (mypyc keeps int and float
                # variables apart); the same values, small ints being exact in a float
                to_opp, to_me = float(a.move.damage), float(b.move.damage)
        else:
            won = res.winner == 0
            wk, lk = (ka, kb) if won else (kb, ka)
            wo, lo = (a, b) if won else (b, a)
            plan = pa if won else pb
            if plan.cards and rewinds[1 if won else 0] and cb.rewind_allowed(
                    wk, wo.move)[0]:
                plan = NO_PLAN  # the loser Rewinds (C9): the combo is not worth playing
                if won:
                    theirs -= w.joker
                else:
                    mine -= w.joker
            gain = 0.0  # the winner's cards
            dealt = 0.0
            kd = False
            if wk in (cb.ATTACK, cb.THROW):
                assert wo.move is not None
                dealt = float(wo.move.damage + plan.damage)
                gain -= plan.cards * w.card
                kd = plan.knockdown if plan.cards else wo.move.knockdown
                if wk == cb.ATTACK and wo.move.is_normal_attack:
                    gain += w.card  # C7
            elif wk == cb.DODGE:
                dealt = float(plan.damage)
                gain -= plan.cards * w.card
                kd = plan.knockdown
            elif wk == cb.BLOCK:
                if lk in (cb.ATTACK, cb.JOKER, cb.NONE):
                    gain += w.card  # C8b
                if lk == cb.ATTACK:
                    assert lo.move is not None and lo.card is not None
                    back = lo.move.block_damage_for(lo.card)
                    if won:
                        to_me += back
                    else:
                        to_opp += back
                    if lo.move.is_normal_attack:
                        if won:
                            theirs += w.card  # C7: a blocked normal attack draws
                        else:
                            mine += w.card
            elif wk == cb.JOKER:
                gain += 2 * w.ace  # C8a: two Aces (when any are left)
            if won:
                mine += gain
                to_opp += dealt
                kd_opp = kd
            else:
                theirs += gain
                to_me += dealt
                kd_me = kd
        value = (self._hurt(to_opp, opp.life) - self._hurt(to_me, me.life)
                 + mine - theirs)
        if kd_opp:
            value += w.knockdown
        if kd_me:
            value -= w.knockdown
        return value

    @staticmethod
    def _void(ps: PlayerState, o: Option, other: Option, game: Game) -> str:
        """KD-4 / KD-5: a knocked-down player's dodge, or block mixed up by a normal attack."""
        if not ps.knocked_down:
            return o.kind
        rank = o.card.rank if o.card is not None else None
        if cb.knockdown_voids(o.kind, rank, other.kind, other.move, game.ruleset):
            return cb.NONE
        return o.kind

    # ------------------------------------------------------------------ C10: combos and pumps

    def _rewind_odds(self, opp: PlayerState) -> float:
        """The chance that the opponent's face-down card (C9, public that it is there) is a
        Joker: the chance that its hidden cards held one (drawn from its unseen cards, sorted:
        the hand is never read), weighed by Bayes against a card placed as a bluff with
        probability ``bluffs`` when it held none (the opponent model: a greedy player never
        bluffs, so ``bluffs`` is small). 0 when no card is face down."""
        bluffs = self.bluffs
        if opp.face_down is None:
            return 0.0
        pool = [*opp.deck, *opp.hand, opp.face_down]
        n, jokers, hidden = len(pool), sum(1 for c in pool if c.is_joker), len(opp.hand) + 1
        none = 1.0
        for i in range(min(hidden, n)):
            none *= max(n - jokers - i, 0) / (n - i)
        some = 1.0 - none
        return some / (some + none * bluffs) if some + none * bluffs > 0 else 0.0

    def _combo(self, game: Game, ps: PlayerState, legal: Sequence[Action]) -> Action:
        """The first move of the most valuable continuation (the same plan as the matrix's);
        else the pump whose damage beats the cards it spends; else stop."""
        combos = [a for a in legal if isinstance(a, Combo)]
        best: Action | None = None
        best_value = 0.0
        run = game.combat.run
        opp = game.opponent(ps)
        kept = 1.0 - self._rewind_odds(opp)  # the share of combo damage a Rewind leaves
        for a in combos:
            m = game.resolve_move(ps, a.card, a.move, a.name, "C10")
            used = {a.card, *a.aces}
            rest = [c for c in ps.hand if c not in used]
            closed = (run.hit_back and not run.full_combo) or m.follow_type in (
                ComboType.ENDER, ComboType.CANT_COMBO)
            spent = ps.combo_points_spent + (m.combo_points or 0)
            after = NO_PLAN if closed else self._plan(game, ps, m, rest, spent, 3)
            damage = m.damage + after.damage
            value = (kept * damage - _value(a.card, self.w) - self.w.ace * len(a.aces)
                     - (after.damage - after.value))
            if damage >= opp.life:
                value += self.w.lethal
            if value > best_value:
                best_value, best = value, a
        if best is not None:
            return best
        pumps = [a for a in legal if isinstance(a, Pump)]
        best_pump: Pump | None = None
        for p in pumps:
            if p.target >= len(game.combo):
                continue
            pump = game.as_played(ps, game.combo[p.target].move).pump
            if pump is None:
                continue
            value = kept * pump.damage * len(p.cards) - sum(_value(c, self.w) for c in p.cards)
            if value > best_value:
                best_value, best_pump = value, p
        if best_pump is not None:
            return best_pump
        stop = next((a for a in legal if isinstance(a, Stop)), None)
        if stop is not None:
            return stop
        return self.greedy.choose(game, ps.player, legal)
