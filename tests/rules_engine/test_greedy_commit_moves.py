"""The greedy bot reads each listed C1 commit's move as printed when no ``MOVE`` modifier
applies to the seat (GreedyBot._commit_moves): at every C1 of many games it must be exactly
the move ``resolve_move`` gives, ends sharing a type (named commits) and Geiger's Temporal
Distortion (a MOVE modifier: the resolved path) included."""

from __future__ import annotations

from rules_engine.actions import Commit
from rules_engine.bots import GreedyBot, make_bot
from rules_engine.cards import character, characters
from rules_engine.game import Game
from rules_engine.modifiers import MOVE
from rules_engine.types import PlayerId

IDS = sorted(characters())


def test_commit_moves_are_resolve_move__C1() -> None:
    compared = named = modified = 0
    for n in range(40):
        p1 = "geiger" if n % 4 == 0 else IDS[n % len(IDS)]
        p2 = IDS[(n * 7 + 3) % len(IDS)]
        g = Game(character(p1), character(p2), seed=700 + n)
        bots = (make_bot("greedy", n), make_bot("random" if n % 2 else "greedy", n + 1))
        while not g.is_over:
            for p in g.acting_players:
                legal = g.legal_actions(p)
                if not any(isinstance(a, Commit) for a in legal):
                    continue
                ps = g.state(p)
                pairs = GreedyBot._commit_moves(g, ps, legal)
                assert [a for a, _ in pairs] == [a for a in legal if isinstance(a, Commit)]
                for a, m in pairs:
                    want = None if a.card.is_joker else g.resolve_move(
                        ps, a.card, a.move, a.name, "C1")
                    assert m == want, (a, m, want)
                    compared += 1
                    named += a.name is not None
                modified += g.modifiers.any_for(MOVE, p)
            p = g.acting_players[0]
            assert isinstance(p, PlayerId)
            g.apply(p, bots[p].choose(g, p, g.legal_actions(p)))
    assert compared > 5000
    assert named > 0  # commits naming one of two ends of a type were compared
    assert modified > 0  # and seats with a MOVE modifier (the resolved path)
