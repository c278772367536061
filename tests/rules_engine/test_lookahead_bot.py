"""The look-ahead bot (rules_engine.lookahead_bot, issue 36): the strong bot whose card
decisions (abilities, Power Up, searches, discards, Rewind) are valued by determinized rollouts.
Its determinism, legal and replayable games, choices that never read the opponent's hidden
cards (GEN-9), a copy that leaves the real game alone, and its card decisions following the
rollouts' values. Its win rate against the strong bot is a benchmark (``python -m rules_engine
bench-bots --bot lookahead --opponents strong --per-character``), not a test."""

from __future__ import annotations

import pytest

from rules_engine.actions import Action, Commit, Pass, PowerUp
from rules_engine.bots import BEST_BOT, BOTS, GreedyBot, make_bot
from rules_engine.cards import characters
from rules_engine.game import Game
from rules_engine.lookahead_bot import LookaheadBot
from rules_engine.replay import replay
from rules_engine.selfplay import play_game, play_match
from rules_engine.team import Mode
from rules_engine.types import PlayerId

IDS = sorted(characters())


def test_it_is_a_bot_make_bot_knows() -> None:
    assert "lookahead" in BOTS
    assert isinstance(make_bot("lookahead", 3), LookaheadBot)
    assert BEST_BOT in BOTS


def test_same_seed_same_game_and_the_logs_replay_as_legal() -> None:
    a = play_game("grave", "midori", 7, bots=(LookaheadBot(1), make_bot("strong", 2)))[1]
    b = play_game("grave", "midori", 7, bots=(LookaheadBot(1), make_bot("strong", 2)))[1]
    assert a.dumps() == b.dumps()
    for n, (p1, p2) in enumerate([("lum", "setsuki"), ("quince", "persephone"), ("bbb", "zane")]):
        game, log = play_game(p1, p2, 400 + n, bots=(make_bot("strong", n), LookaheadBot(n)))
        assert game.is_over
        verdict = replay(log.dumps())
        assert verdict.status == "legal", (p1, p2, verdict.summary())


def _at_power_up(seed: int) -> Game:
    """A seeded Versus game played by greedy bots up to P1's first Power Up choice with more
    than one option."""
    for s in range(seed, seed + 200):
        game = Game(characters()["grave"], characters()["jaina"], seed=s)
        greedy = GreedyBot(s)
        while not game.is_over:
            player = game.acting_players[0]
            legal = game.legal_actions(player)
            if player is PlayerId.P1 and len(legal) > 1 and isinstance(legal[0], PowerUp | Pass) \
                    and any(isinstance(a, PowerUp) for a in legal):
                return game
            game.apply(player, greedy.choose(game, player, legal))
    raise AssertionError("no Power Up choice reached")


def test_the_real_game_is_left_alone_and_hidden_cards_are_not_read__GEN_9() -> None:
    game = _at_power_up(1)
    legal = game.legal_actions(PlayerId.P1)
    opp = game.state(PlayerId.P2)
    me = game.state(PlayerId.P1)
    before = (list(opp.hand), list(opp.deck), list(me.hand), list(me.deck), len(game.history))
    choice = LookaheadBot(5).choose(game, PlayerId.P1, legal)
    assert choice in legal
    # the copy replays the game's history: every candidate is rolled out (none refused)
    assert all(LookaheadBot(5)._rollout(game, PlayerId.P1, a, 17) is not None for a in legal)
    assert (list(opp.hand), list(opp.deck), list(me.hand), list(me.deck),
            len(game.history)) == before
    # swap the opponent's hand with other cards of its deck: the public view is the same, so
    # is the choice (its rollouts deal the opponent's hidden cards again, from both zones)
    k = min(len(opp.hand), len(opp.deck))
    opp.hand[:k], opp.deck[:k] = opp.deck[:k], opp.hand[:k]
    assert LookaheadBot(5).choose(game, PlayerId.P1, legal) == choice


@pytest.mark.interpreted_only
def test_card_decisions_follow_the_rollouts_values(monkeypatch) -> None:
    """Given a Power Up choice, when the rollouts value one candidate above the others, then
    the bot takes it (the strong bot's own pick otherwise), and every candidate is rolled out
    on the same determinizations."""
    game = _at_power_up(1)
    legal = list(game.legal_actions(PlayerId.P1))
    bot = LookaheadBot(5, samples=3, candidates=len(legal))
    base = make_bot("strong", 5).choose(game, PlayerId.P1, legal)
    target = next(a for a in legal if a != base)
    seen: list[tuple[Action, int]] = []

    def rollout(self, g, player, action, deal):
        seen.append((action, deal))
        return 10.0 if action == target else 0.0

    monkeypatch.setattr(LookaheadBot, "_rollout", rollout)
    assert bot.choose(game, PlayerId.P1, legal) == target
    deals = {d for _, d in seen}
    assert len(deals) == 3 and len(seen) == 3 * len(legal)
    monkeypatch.setattr(LookaheadBot, "_rollout", lambda *args: 0.0)
    assert LookaheadBot(5, samples=3).choose(game, PlayerId.P1, legal) == base


def test_the_rollouts_evaluation_counts_damage_since_the_decision_and_the_end() -> None:
    """The evaluation of a rollout's last position: damage dealt since the decision counts
    for the bot (a KO more), damage taken against it, life healed as a gain; a finished game
    is worth WIN or -WIN."""
    from rules_engine.lookahead_bot import WIN

    game = _at_power_up(1)
    bot = LookaheadBot(5)
    me, opp = game.state(PlayerId.P1), game.state(PlayerId.P2)
    level = bot._evaluate(game, PlayerId.P1, me.life, opp.life)
    assert bot._evaluate(game, PlayerId.P1, me.life, opp.life + 5) > level  # dealt 5
    assert bot._evaluate(game, PlayerId.P1, me.life + 5, opp.life) < level  # took 5
    # healed 5 (Gloria, Lum, DeGrey, Gwen): a gain, worth what losing it again would cost
    healed = bot._evaluate(game, PlayerId.P1, me.life - 5, opp.life)
    assert healed - level == pytest.approx(bot._hurt(5, me.life))
    assert bot._evaluate(game, PlayerId.P1, me.life, opp.life - 5) < level  # it healed 5
    over, _ = play_game("grave", "jaina", 11, bot="greedy")
    assert over.outcome is not None and over.outcome.winner is not None
    winner = over.outcome.winner
    loser = PlayerId.P2 if winner is PlayerId.P1 else PlayerId.P1
    assert bot._evaluate(over, winner, 1, 1) == WIN
    assert bot._evaluate(over, loser, 1, 1) == -WIN


def test_commits_and_team_modes_are_the_strong_bots() -> None:
    # C1's commit is the strong bot's matrix game, with the same random draws
    game = Game(characters()["grave"], characters()["jaina"], seed=3)
    greedy = GreedyBot(3)
    while not any(isinstance(a, Commit) for a in game.legal_actions(game.acting_players[0])):
        p = game.acting_players[0]
        game.apply(p, greedy.choose(game, p, game.legal_actions(p)))
    legal = game.legal_actions(PlayerId.P1)
    assert LookaheadBot(9).choose(game, PlayerId.P1, legal) == make_bot("strong", 9).choose(
        game, PlayerId.P1, legal)
    # a team mode is played (no look-ahead there: a copy of its game is not made)
    game, _ = play_match(Mode.TAG_TEAM, ("grave", "jaina"), ("rook", "lum"), 5,
                           bots=(LookaheadBot(1), make_bot("strong", 2)))
    assert game.is_over


def test_the_benchmark_measures_it_against_the_strong_bot_per_character() -> None:
    from rules_engine.bench_bots import versus

    score = versus("strong", [("grave", "troq")], 1, bot="lookahead")
    assert score.games == 2 and score.decisions > 0 and score.decision_seconds > 0
    # one game as Grave (P1), one as Troq (P2)
    assert [(c, n) for c, _, n in score.by_character] == [("grave", 1), ("troq", 1)]
    assert sum(rate for _, rate, _ in score.by_character) == score.rate * 2



def test_the_benchmark_scores_each_character_in_its_pairs_games_whichever_side_played_it(
        monkeypatch) -> None:
    """Given a character that wins every game whoever plays it (Grave here; P1 in a mirror
    match), when the bot is scored per character it played, Grave is 100% and Troq low; in
    its pairs' games (both seatings of each seed) each is 50%: the character's own strength
    cancels, a mirror match's games count once."""
    from types import SimpleNamespace

    import rules_engine.bench_bots as bench

    def fake_play(p1: str, p2: str, seed: int, bots: object) -> tuple[object, None]:
        winner = PlayerId.P2 if p2 == "grave" and p1 != "grave" else PlayerId.P1
        return SimpleNamespace(outcome=SimpleNamespace(winner=winner)), None

    monkeypatch.setattr(bench, "play_game", fake_play)
    score = bench.versus("strong", [("grave", "troq"), ("troq", "troq")], 1, bot="lookahead")
    assert score.games == 4 and score.rate == 0.5
    assert score.by_character == (("grave", 1.0, 1), ("troq", 1 / 3, 3))
    assert score.in_pairs == (("grave", 0.5, 2), ("troq", 0.5, 4))


@pytest.mark.interpreted_only
def test_a_candidate_overturns_the_strong_bots_pick_only_when_the_rollouts_are_sure(
        monkeypatch) -> None:
    """Given rollouts where a candidate beats the strong bot's pick on average, when its
    paired gain is under the margin or within the rollouts' noise (z standard errors), then
    the pick stands; a steady gain overturns it."""
    game = _at_power_up(1)
    legal = list(game.legal_actions(PlayerId.P1))
    base = make_bot("strong", 5).choose(game, PlayerId.P1, legal)
    target = next(a for a in legal if a != base)

    def values(gains: list[float]):
        it = iter(gains)
        current: list[float] = []

        def rollout(self, g, player, action, deal):
            if action == base:
                current[:] = [next(it)]
                return 0.0
            return current[0] if action == target else -50.0
        return rollout

    def pick(gains: list[float], margin: float = 0.5, z: float = 1.0) -> Action:
        monkeypatch.setattr(LookaheadBot, "_rollout", values(gains))
        return LookaheadBot(5, samples=4, candidates=len(legal), margin=margin, z=z).choose(
            game, PlayerId.P1, legal)

    assert pick([3.0, 3.0, 3.0, 3.0]) == target  # steady
    assert pick([0.4, 0.4, 0.4, 0.4]) == base  # under the margin (0.5 life points)
    assert pick([0.4, 0.4, 0.4, 0.4], margin=0.0) == target
    assert pick([40.0, -30.0, 20.0, -26.0]) == base  # mean 1, noise far more
    assert pick([40.0, -30.0, 20.0, -26.0], z=0.0) == target
    # the defaults: margin 0.5 and one standard error
    monkeypatch.setattr(LookaheadBot, "_rollout", values([40.0, -30.0, 20.0, -26.0]))
    assert LookaheadBot(5, samples=4, candidates=len(legal)).choose(
        game, PlayerId.P1, legal) == base
    monkeypatch.setattr(LookaheadBot, "_rollout", values([3.0, 2.0, 3.0, 2.0]))
    assert LookaheadBot(5, samples=4, candidates=len(legal)).choose(
        game, PlayerId.P1, legal) == target
