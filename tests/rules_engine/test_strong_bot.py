"""The strong bot (rules_engine.strong_bot, issue 19): its matrix-game solver on known games, its
determinism, legal choices only over every character, replayable logs, choices that do not
depend on the opponent's hidden hand (GEN-9), and a small win-rate property against the random
bot. Its win rates against the bots are a benchmark (``python -m rules_engine bench-bots``),
not a test."""

from __future__ import annotations

from rules_engine.actions import Commit, NoCard, UseAbility
from rules_engine.bots import GreedyBot, make_bot
from rules_engine.cards import characters
from rules_engine.game import Game
from rules_engine.replay import replay
from rules_engine.selfplay import play_game
from rules_engine.strong_bot import StrongBot, solve_matrix
from rules_engine.types import Actor, PlayerId

IDS = sorted(characters())


def test_solver_rock_paper_scissors_is_uniform() -> None:
    # Given rock-paper-scissors, when solved, then both players play each third.
    rps = [[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]]
    x, y = solve_matrix(rps, 200)
    assert all(abs(p - 1 / 3) < 0.02 for p in x + y)


def test_solver_matching_pennies_is_half_half_even_when_skewed_at_start() -> None:
    # Given matching pennies, when solved, then both play heads half the time; with stakes
    # 2 on heads-heads, each plays heads 2/5 of the time (the other is then indifferent).
    pennies = [[1.0, -1.0], [-1.0, 1.0]]
    x, y = solve_matrix(pennies, 200)
    assert abs(x[0] - 0.5) < 0.02 and abs(y[0] - 0.5) < 0.02
    skewed = [[2.0, -1.0], [-1.0, 1.0]]  # 2p - (1 - p) = -p + (1 - p) at p = 2/5
    x, y = solve_matrix(skewed, 400)
    assert abs(x[0] - 0.4) < 0.03 and abs(y[0] - 0.4) < 0.03


def test_solver_gives_a_dominated_strategy_no_weight() -> None:
    # Given a row that is worse than another against every column, when solved, then it is
    # (almost) never played.
    game = [[3.0, 1.0], [2.0, 0.0], [0.0, 2.0]]
    x, _ = solve_matrix(game, 300)
    assert x[1] < 0.02


def test_same_seed_same_game() -> None:
    # Given one pair and one seed, when played twice with strong bots, then the logs are equal;
    # another bot seed gives another game.
    a = play_game("grave", "midori", 7, bot="strong")[1]
    b = play_game("grave", "midori", 7, bot="strong")[1]
    assert a.dumps() == b.dumps()
    c = play_game("grave", "midori", 7,
                  bots=(StrongBot(123), StrongBot(456)))[1]
    assert c.dumps() != a.dumps()


def test_only_legal_choices_every_character_logs_replay_and_abilities_are_used() -> None:
    """Given seeded games in which every character plays (strong against strong, greedy and
    random), when played through ``Game.apply`` (which refuses illegal actions), then they end,
    their logs replay as legal with the same result, and the strong bot played abilities."""
    abilities = 0
    played: set[str] = set()
    for n in range(10):
        p1, p2 = IDS[2 * n], IDS[2 * n + 1]
        other = ("strong", "greedy", "random")[n % 3]
        bots = (make_bot("strong", n), make_bot(other, n + 50))
        game, log = play_game(p1, p2, 300 + n, bots=bots)
        assert game.is_over
        verdict = replay(log.dumps())
        assert verdict.status == "legal", (p1, p2, verdict.summary())
        abilities += sum(1 for p, a in game.history
                         if p is PlayerId.P1 and isinstance(a, UseAbility))
        played |= {p1, p2}
    assert played == set(IDS)
    assert abilities > 0


def _at_first_commit(seed: int) -> Game:
    game = Game(characters()["grave"], characters()["jaina"], seed=seed)
    greedy = GreedyBot(seed)
    while game.step != "C1" or game.actor is not Actor.SIMULTANEOUS:
        player = game.acting_players[0]
        game.apply(player, greedy.choose(game, player, game.legal_actions(player)))
    return game


def test_the_choice_does_not_depend_on_the_opponents_hidden_hand__GEN_9() -> None:
    """Given a C1 position, when the opponent's hand is swapped with other cards of its deck
    (the public view stays the same), then the strong bot with the same seed chooses the same
    commit: it samples the hidden hand from deck and hand together, never reads it."""
    for seed in range(5):
        game = _at_first_commit(seed)
        legal = game.legal_actions(PlayerId.P1)
        before = StrongBot(seed).choose(game, PlayerId.P1, legal)
        opp = game.state(PlayerId.P2)
        k = min(len(opp.hand), len(opp.deck))
        opp.hand[:k], opp.deck[:k] = opp.deck[:k], opp.hand[:k]
        after = StrongBot(seed).choose(game, PlayerId.P1, legal)
        assert isinstance(before, Commit | NoCard)
        assert before == after


def test_strong_bot_beats_the_random_bot_in_most_mirrored_games() -> None:
    """Given 20 seeds over 20 pairs, each played with the strong bot in either seat against
    the random bot, then it scores at least 80% (the benchmark's target is 95%)."""
    score = 0.0
    for n in range(20):
        p1, p2 = IDS[n], IDS[(n * 7 + 3) % 20]
        for seat in (PlayerId.P1, PlayerId.P2):
            strong, rnd = make_bot("strong", 2 * n + seat), make_bot("random", 2 * n + 1 - seat)
            bots = (strong, rnd) if seat is PlayerId.P1 else (rnd, strong)
            game, _ = play_game(p1, p2, 700 + n, bots=bots)
            assert game.outcome is not None
            w = game.outcome.winner
            score += 0.5 if w is None else float(w is seat)
    assert score / 40 >= 0.8


def test_it_takes_a_clearly_winning_option__NC_3() -> None:
    """Given a C1 position where the opponent, at 3 life, has no card in hand (so it can only
    play no-card, which loses to everything, NC-3) and the bot holds an attack or throw that
    deals 3 or more, when the strong bot chooses, then it commits such a KO move, whatever
    its seed: never a block, a dodge or a weaker hit."""
    from rules_engine import combat as cb

    positions = 0
    for seed in range(8):
        game = _at_first_commit(seed)
        me, opp = game.state(PlayerId.P1), game.state(PlayerId.P2)
        opp.deck.extend(opp.hand)
        opp.hand.clear()
        opp.life = 3
        legal = game.legal_actions(PlayerId.P1)
        lethal = [a for a in legal if isinstance(a, Commit) and not a.card.is_joker
                  and (m := game.resolve_move(me, a.card, a.move, a.name, "C1")).damage >= 3
                  and cb.KIND_OF_MOVE[m.type] in (cb.ATTACK, cb.THROW)
                  and GreedyBot._payable(game, me, a)]
        if not lethal:
            continue
        positions += 1
        for bot_seed in range(3):
            pick = StrongBot(bot_seed).choose(game, PlayerId.P1, legal)
            assert pick in lethal, (seed, bot_seed, pick)
    assert positions >= 5


def _combat_won(seed: int, bot: StrongBot) -> bool:
    """At the first C1 of seed ``seed``, with the opponent's deck put into its discard pile
    (public: its unseen cards are then exactly its hand, anyone can work it out), the strong
    bot commits against the greedy bot's commit; the combat is played to its C6 result. Did
    the strong bot win? (The deck went to the discard pile, not into the hand: with 54 known
    cards the bot's follow-up plans for the opponent cost seconds a decision, and the model
    is the same with the 7.)"""
    game = _at_first_commit(seed)
    opp = game.state(PlayerId.P2)
    opp.discard.extend(opp.deck)
    opp.deck.clear()
    mine = bot.choose(game, PlayerId.P1, game.legal_actions(PlayerId.P1))
    greedy = GreedyBot(seed)
    theirs = greedy.choose(game, PlayerId.P2, game.legal_actions(PlayerId.P2))
    game.apply(PlayerId.P1, mine)
    game.apply(PlayerId.P2, theirs)
    while game.combat.cell is None and not game.is_over:  # Ace payments, reveals: greedy
        player = game.acting_players[0]
        game.apply(player, greedy.choose(game, player, game.legal_actions(player)))
    return game.combat.winner is PlayerId.P1


def test_its_opponent_model_answers_the_greedy_bot() -> None:
    """Given 100 C1 positions where the opponent's hand can be worked out from the public zones
    (its deck is empty), when the strong bot commits against the greedy bot, then it wins the
    combat at least 4 times in 5 (it predicts the greedy pick, GreedyBot.commit_score, and
    answers it), and clearly more often than the equilibrium alone (no model: trust 0). A
    model that predicts the greedy bot's worst or third-best pick, or none, wins about half as
    often (checked by breaking ``StrongBot._model``: 23, 45 and 41 wins of 100, against 85)."""
    seeds = range(100)
    modelled = sum(_combat_won(s, StrongBot(s)) for s in seeds)
    equilibrium = sum(_combat_won(s, StrongBot(s, trust=0.0, safety=1.0)) for s in seeds)
    assert modelled >= 80
    assert modelled >= equilibrium + 25
