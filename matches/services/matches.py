"""Creating matches and answering who may act for them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction

from matches.errors import MatchError, MatchErrorCode
from matches.models import SOLO_MODES, Match, MatchSide, Player
from matches.owners import owners

User = AbstractBaseUser | AnonymousUser


@transaction.atomic
def match_create(
    *,
    mode: str = Match.Mode.VERSUS,
    side_1: Sequence[Player],
    side_2: Sequence[Player],
    created_by: AbstractBaseUser | None = None,
    managers: Iterable[AbstractBaseUser] = (),
) -> Match:
    """A match between two sides; ``managers`` (event organizers) may act for it too. A solo
    mode (Training, Survival) has one player on side 1 and the engine's bot on side 2."""
    if mode in SOLO_MODES:
        if len(side_1) != 1 or side_2:
            raise MatchError(MatchErrorCode.INVALID_RESULT,
                             "a Training or Survival match has one player; the bot is side 2")
    elif not side_1 or not side_2:
        raise MatchError(MatchErrorCode.INVALID_RESULT, "a match needs a player on each side")
    players = [*side_1, *side_2]
    if len({p.pk for p in players}) != len(players):
        raise MatchError(MatchErrorCode.INVALID_RESULT, "a player cannot be on both sides")
    match = Match(mode=mode, created_by=created_by)
    match.full_clean()
    match.save()
    for side, roster in ((1, side_1), (2, side_2)):
        for order, player in enumerate(roster):
            MatchSide.objects.create(match=match, side=side, player=player, order=order)
    match.managers.set(list(managers))
    return match


def match_user_side(match: Match, user: User) -> int | None:
    """The side the user plays on, or None."""
    if not user.is_authenticated:
        return None
    # ordered by this match's own columns: the model's ordering ("match", ...) would join the
    # match table to order by its creation time, for rows of one match
    return (match.sides.filter(player__user_id=user.pk).order_by("side", "order")
            .values_list("side", flat=True).first())


def match_user_is_manager(match: Match, user: User) -> bool:
    """Staff, or whoever the match's owner says manages it now (else its own ``managers``)."""
    if not user.is_authenticated:
        return False
    if getattr(user, "is_staff", False):
        return True
    for owner in owners():
        answer = owner.user_is_manager(match, user)
        if answer is not None:
            return answer
    return match.managers.filter(pk=user.pk).exists()


def match_authorize_player_or_manager(match: Match, user: User, doing: str) -> int | None:
    """Return the user's side (None for a manager); refuse anyone else, saying what they tried."""
    side = match_user_side(match, user)
    if side is None and not match_user_is_manager(match, user):
        raise MatchError(
            MatchErrorCode.NOT_ALLOWED,
            f"only the match's players, its event's organizers or staff may {doing}",
        )
    return side


def match_authorize_manager(match: Match, user: User, doing: str) -> None:
    if not match_user_is_manager(match, user):
        raise MatchError(
            MatchErrorCode.NOT_ALLOWED, f"only the event's organizers or staff may {doing}"
        )
