"""The look-ahead bot: the strong bot, with the decisions where a character's strength lives
valued by determinized rollouts.

Glossary: a *card decision* is any choice outside C1's commit and C10's combo and pumps (which
the strong bot already values): a character's abilities, Power Up (P2), searches, discards, the
Rewind's face-down card (C9), and every other choice with more than one legal action. A
*determinization* is one guess at what the bot's seat cannot see (GEN-9): the opponent's hand
and deck dealt again from the cards it does not show (hand and deck together, shuffled), and
the bot's own deck shuffled, on a copy of the game. A *rollout* plays that copy forward after
one candidate choice, both seats by the greedy bot, until the first combat commit (C1) of the
turn after next, or the end of the game; its value is the strong bot's evaluation
(:class:`rules_engine.strong_bot.Weights`) of the change since the decision: damage dealt and
taken (worth more the lower the target's life, a KO ``lethal`` more), life healed (a gain worth
what losing it again would cost), the cards in each hand, a knockdown.

Responsibility: choosing. A card decision's candidates (at most ``candidates``: the strong
bot's own pick first, then the legal list's order) are each rolled out on the same
``samples`` determinizations (common random numbers: the candidates' differences are not the
deals' noise). A candidate overturns the strong bot's pick only when its mean paired gain
(the same determinization's values subtracted) is at least ``margin`` life points and ``z``
standard errors of the paired differences: the rollouts are noisy, and the best of a few
noisy means beats the pick by chance alone. The largest such gain wins, else the pick
stands. The copy of the game is the game's own history applied to a fresh game of the same
seed (the game's state machine is made of generators, which cannot be copied), so only a
seeded Versus game is looked ahead in; any other game, or a rollout the engine refuses, falls
back to the strong bot's choice. All randomness comes from the bot's
:class:`~rules_engine.rng.SplitMix64`, so a seed reproduces a game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rules_engine.actions import Action, Combo, Commit, Pump
from rules_engine.bots import GreedyBot
from rules_engine.cards import Card, character
from rules_engine.errors import RulesError
from rules_engine.game import Game, PlayerState
from rules_engine.rng import SplitMix64
from rules_engine.strong_bot import StrongBot, _value
from rules_engine.team import Mode
from rules_engine.types import PlayerId

WIN = 200.0  # the evaluation of a won game (a lost one: minus this), beyond its damage


class LookaheadBot(StrongBot):
    """:class:`StrongBot` whose card decisions are valued by determinized rollouts (see the
    module docstring): ``samples`` determinizations, at most ``candidates`` choices each, a
    horizon of ``turns`` more combats (and at most ``max_events`` events) per rollout; a
    candidate must beat the strong bot's pick by ``margin`` and ``z`` standard errors."""

    name = "lookahead"

    def __init__(self, seed: int = 0, *, samples: int = 4, candidates: int = 6,
                 turns: int = 1, max_events: int = 80, margin: float = 0.5,
                 z: float = 1.0) -> None:
        super().__init__(seed)
        self.margin = margin
        self.z = z
        self.look_rng = SplitMix64(seed ^ 0x100C_A11EAD)
        self.look_samples = samples
        self.candidates = candidates
        self.turns = turns
        self.max_events = max_events

    def choose(self, game: Game, player: PlayerId, legal: Sequence[Action]) -> Action:
        base = super().choose(game, player, legal)
        if len(legal) < 2 or game.seed is None or game.mode.mode is not Mode.VERSUS:
            return base
        if game.step == "C1" and any(isinstance(a, Commit) for a in legal):
            return base  # the matrix game
        if any(isinstance(a, Combo | Pump) for a in legal):
            return base  # the combo plan
        if game.controller(player) is not player:
            return base  # card text gave another seat this choice
        # a loop, not islice over a generator (which mypyc turns into a list of the whole
        # legal list): Quince's Two Truths lists up to 8,441 choices, made on demand
        pool = [base]
        for a in legal:
            if len(pool) >= self.candidates:
                break
            if a != base:
                pool.append(a)
        return self._rolled_out(game, player, pool)

    # ------------------------------------------------------------------ rollouts

    def _rolled_out(self, game: Game, player: PlayerId, pool: list[Action]) -> Action:
        rows: list[list[float]] = []  # per determinization, each candidate's value
        for _ in range(self.look_samples):
            deal = self.look_rng.below(1 << 62)
            values = []
            for action in pool:
                value = self._rollout(game, player, action, deal)
                if value is None:
                    break
                values.append(value)
            if len(values) < len(pool):
                continue  # the engine refused a step of this determinization: leave it out
            rows.append(values)
        best, best_gain = 0, 0.0
        for i in range(1, len(pool)):
            gain = self._gain([row[i] - row[0] for row in rows])
            if gain > best_gain:
                best, best_gain = i, gain
        return pool[best]

    def _gain(self, diffs: list[float]) -> float:
        """A candidate's mean gain over the strong bot's pick, when it is sure enough to
        overturn the pick (else 0): at least ``margin``, and ``z`` standard errors of the
        paired differences (the rollouts' noise is large: the best of a few noisy means
        would otherwise stray from the character heuristics' choice by chance alone)."""
        n = len(diffs)
        if not n:
            return 0.0
        mean = sum(diffs) / n
        if mean <= self.margin:
            return 0.0
        if n > 1 and self.z > 0:
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            if mean <= self.z * math.sqrt(var / n):
                return 0.0
        return mean

    def _rollout(self, game: Game, player: PlayerId, action: Action, deal: int) -> float | None:
        """The evaluation's change for ``player`` when it plays ``action`` now on the
        determinization ``deal``, then both seats play greedily to the horizon (None: the
        engine refused a step, as a copy dealt differently may make a listed card vanish)."""
        copy = self._copy(game)
        if copy is None:
            return None
        rng = SplitMix64(deal)
        self._determinize(copy, player, rng)
        bots = (GreedyBot(rng.below(1 << 62)), GreedyBot(rng.below(1 << 62)))
        me, opp = copy.state(player), copy.opponent(copy.state(player))
        life_me, life_opp = me.life, opp.life
        stop_turn = copy.turn + 1 + self.turns
        try:
            copy.apply(player, action)
            events = 0
            while not copy.is_over and events < self.max_events and not (
                    copy.step == "C1" and copy.turn >= stop_turn):
                actor = copy.acting_players[0]
                legal = copy.legal_actions(actor)
                copy.apply(actor, bots[copy.controller(actor)].choose(copy, actor, legal))
                events += 1
        except RulesError:
            return None
        return self._evaluate(copy, player, life_me, life_opp)

    @staticmethod
    def _copy(game: Game) -> Game | None:
        """A fresh game of the same characters and seed with ``game``'s history applied."""
        p1, p2 = game.state(PlayerId.P1), game.state(PlayerId.P2)
        copy = Game(character(p1.character.id), character(p2.character.id),
                    ruleset=game.ruleset, seed=game.seed)
        try:
            for p, a in game.history:
                copy.apply(p, a)
        except RulesError:
            return None
        return copy

    @staticmethod
    def _determinize(copy: Game, player: PlayerId, rng: SplitMix64) -> None:
        """Deal the opponent's hand and deck again from their cards together, and shuffle
        the bot's own deck: what the bot's seat cannot see, guessed (GEN-9)."""
        me = copy.state(player)
        opp = copy.opponent(me)
        hidden = [*opp.hand, *opp.deck]
        _shuffle(hidden, rng)
        opp.hand[:] = hidden[:len(opp.hand)]
        opp.deck[:] = hidden[len(opp.hand):]
        _shuffle(me.deck, rng)

    def _evaluate(self, copy: Game, player: PlayerId, life_me: int, life_opp: int) -> float:
        me = copy.state(player)
        opp = copy.opponent(me)
        if copy.is_over:
            assert copy.outcome is not None
            winner = copy.outcome.winner
            if winner is not None:
                return WIN if winner is player else -WIN
        value = (self._lost(life_opp, opp.life) - self._lost(life_me, me.life)
                 + _hand(me, self) - _hand(opp, self))
        if opp.knocked_down or opp.knockdown_next:
            value += self.w.knockdown
        if me.knocked_down or me.knockdown_next:
            value -= self.w.knockdown
        return value

    def _lost(self, before: int, after: int) -> float:
        """The evaluation's worth of a player's life going from ``before`` to ``after``:
        damage as :meth:`StrongBot._hurt` weighs it, and life healed (Gloria, Lum, DeGrey,
        Gwen) as a gain worth what losing it again would cost (negative), never nothing: a
        healing ability is otherwise only the cards it spends."""
        if after <= before:
            return self._hurt(before - after, before)
        return -self._hurt(after - before, after)


def _hand(ps: PlayerState, bot: StrongBot) -> float:
    return sum(_value(c, bot.w) for c in ps.hand)


def _shuffle(cards: list[Card], rng: SplitMix64) -> None:
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
