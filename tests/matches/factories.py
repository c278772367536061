"""factory-boy factories and log builders for matches tests."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import factory
from django.contrib.auth import get_user_model
from factory.django import DjangoModelFactory

from matches.models import Match, Player, VerificationRun
from matches.services import match_create, match_log_submit
from rules_engine.selfplay import play_game


class UserFactory(DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"match-user{n}")
    password = factory.django.Password("pw")


class PlayerFactory(DjangoModelFactory):
    class Meta:
        model = Player

    user = factory.SubFactory(UserFactory)
    display_name = factory.Sequence(lambda n: f"Match Player {n}")
    region = "Europe"


def versus_match(**kwargs: Any) -> Match:
    """A Versus match between two new players (side 1 and side 2)."""
    return match_create(side_1=[PlayerFactory()], side_2=[PlayerFactory()], **kwargs)


def side_user(match: Match, side: int):
    return match.sides.get(side=side).player.user


@cache
def self_play_log_text(p1: str = "grave", p2: str = "jaina", seed: int = 1) -> str:
    """A legal log written by the engine's own self-play."""
    _, log = play_game(p1, p2, seed)
    return log.dumps()


def log_bytes(text: str) -> bytes:
    return text.encode("utf-8")


def with_extra_event(text: str) -> str:
    """A log that goes on after the game ended: illegal at the appended event (END-2). The
    event is a "stop", which no decision of the finished game could have taken (a repeated
    combo move or pump would be diagnosed as meant for the ended combo instead)."""
    doc = json.loads(text)
    doc["events"].append({"player": "P1", "action": "stop"})
    return json.dumps(doc)


def with_claimed_winner(text: str, winner: str | None) -> str:
    """The same events with another claimed winner: a result mismatch."""
    doc = json.loads(text)
    doc["result"]["winner"] = winner
    return json.dumps(doc)


def with_event_removed(text: str, index: int) -> str:
    doc = json.loads(text)
    del doc["events"][index]
    return json.dumps(doc)


@cache
def self_play_log_won_by(winner: str, p1: str = "grave", p2: str = "jaina") -> str:
    """A legal self-play log whose game ``winner`` ("P1" or "P2") won by knockout."""
    for seed in range(1, 500):
        game, log = play_game(p1, p2, seed)
        outcome = game.outcome
        if outcome is not None and outcome.winner is not None and outcome.winner.name == winner:
            return log.dumps()
    raise AssertionError(f"no self-play game in 500 seeds was won by {winner}")


def team_log_won_by(mode: Any, p1: tuple[str, ...], p2: tuple[str, ...], winner: str) -> str:
    """A legal version-2 self-play log of a team mode (characters named as printed or by id)
    that side ``winner`` ("P1" or "P2") won."""
    from rules_engine.selfplay import play_match

    ids1, ids2 = tuple(c.lower() for c in p1), tuple(c.lower() for c in p2)
    for seed in range(200):
        game, log = play_match(mode, ids1, ids2, seed, bot="greedy")
        if game.outcome is not None and game.outcome.winner is not None \
                and game.outcome.winner.name == winner:
            return log.dumps()
    raise AssertionError(f"no self-play match in 200 seeds was won by {winner}")


def submit_verified(match: Match, side: int, text: str, capture: Any) -> VerificationRun:
    """Side ``side``'s player submits ``text`` as the match's log and its verification runs at
    once (``capture``: the captured on-commit callbacks, executed); the run, refreshed."""
    with capture(execute=True):
        outcome = match_log_submit(
            match=match, submitted_by=side_user(match, side), log_bytes=log_bytes(text)
        )
    assert outcome.run is not None
    outcome.run.refresh_from_db()
    return outcome.run
