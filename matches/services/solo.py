"""Solo runs: a Training game or a Survival run (RULES.md §12) a player submits on their own.

The player submits the log; the match is created for it (side 1: the player; side 2: the
engine's bot, no player) and the log goes through the ordinary submission and verification. The
verifier recomputes every bot choice, so the player's endorsement alone makes a legal log the
result (:func:`matches.services.results.match_settle`).
"""

from __future__ import annotations

import json

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from matches.errors import MatchError, MatchErrorCode
from matches.models import SOLO_MODES, Match, MatchSide, Player
from matches.services.matches import match_create
from matches.services.submission import (
    SubmissionOutcome,
    log_text_decode,
    match_log_submit,
)


def solo_run_submit(*, user: AbstractBaseUser, log_bytes: bytes) -> SubmissionOutcome:
    """Create a Training or Survival match for ``user``'s player and submit ``log_bytes`` to it.

    Refused (nothing stored) when the log is unreadable, is not a Training or Survival log, or
    the user has no player."""
    text, mode = log_text_decode(log_bytes)
    if mode not in SOLO_MODES:
        raise MatchError(
            MatchErrorCode.LOG_MODE_MISMATCH,
            f"the log records a {mode} game ($.mode); only Training and Survival logs are "
            "submitted on their own",
            json_path="$.mode", log_mode=mode,
        )
    player = Player.objects.filter(user=user).first()
    if player is None:
        raise MatchError(MatchErrorCode.NOT_ALLOWED, "only a player can submit a solo run")
    character = json.loads(text)["sides"]["P1"]["characters"][0]
    with transaction.atomic():
        match = match_create(mode=mode, side_1=[player], side_2=[], created_by=user)
        MatchSide.objects.filter(match=match, side=1).update(character=character)
        return match_log_submit(match=match, submitted_by=user, log_bytes=log_bytes)


def is_solo(match: Match) -> bool:
    return match.mode in SOLO_MODES
