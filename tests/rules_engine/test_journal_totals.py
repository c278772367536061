"""The journal's counts: counting some seats gives what counting every seat gives for them
(the timeline counts only the seats in play, per turn)."""

from __future__ import annotations

from rules_engine.cards import characters
from rules_engine.journal import SEATS, Totals
from rules_engine.selfplay import play_game
from rules_engine.types import PlayerId


def test_counting_some_seats_is_counting_all_of_them() -> None:
    ids = sorted(characters())
    for i in range(6):
        game, _ = play_game(ids[i % len(ids)], ids[(i * 7 + 3) % len(ids)], 300 + i,
                            bot="random")
        every = Totals.by_seat(game.journal)
        assert set(every) == set(SEATS) == set(PlayerId)
        for seats in ((PlayerId.P1,), (PlayerId.P2,), (PlayerId.P1, PlayerId.P2)):
            some = Totals.by_seat(game.journal, seats)
            assert list(some) == list(seats)
            assert all(some[s] == every[s] for s in seats)
        for s in (PlayerId.P1, PlayerId.P2):
            assert Totals.of(game.journal, s) == every[s]
        half = game.journal[: len(game.journal) // 2]
        assert Totals.by_seat(half, (PlayerId.P2,))[PlayerId.P2] == Totals.by_seat(half)[
            PlayerId.P2]
