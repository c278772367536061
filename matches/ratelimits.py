"""Rate limits on abuse-prone writes: log submissions (and, through the site, logins).

Counting is django-ratelimit's (fixed windows in the Django cache: local memory for the embedded
``make run``, Redis with ``REDIS_URL``). Rates come from ``settings.YOMI_RATE_LIMITS`` (``"12/m"``;
empty turns one limit off) and ``YOMI_RATE_LIMITS_ENABLED`` turns them all off. If the cache
itself cannot be reached (Redis down), the request is let through and the failure logged: a
limit on abuse must not turn an outage of the cache into an outage of the site.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest
from django_ratelimit.core import get_usage

from matches.errors import MatchError, MatchErrorCode

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limited:
    """Which limit a request went over, and how long until its window ends."""

    name: str
    rate: str
    retry_after: int


def name_key(field: str) -> Callable[[str, HttpRequest], str]:
    """A key of the POSTed ``field`` as the login form reads it (Unicode NFKC, surrounding
    space stripped), case-folded: "name ", "name\t", "Name" and its full-width spelling, which all
    sign in as "name", count as one (issue 31)."""

    def key(group: str, request: HttpRequest) -> str:
        raw = request.POST.get(field, "")
        return unicodedata.normalize("NFKC", raw).strip().casefold()

    return key


def rate_limit_hit(request: HttpRequest, *, name: str,
                   key: str | Callable[[str, HttpRequest], str]) -> Limited | None:
    """Count this request against limit ``name`` (keyed by ``key``: "ip", "user", "post:x",
    or a callable of the group and the request)."""
    if not getattr(settings, "YOMI_RATE_LIMITS_ENABLED", True):
        return None
    rate = settings.YOMI_RATE_LIMITS.get(name, "")
    if not rate:
        return None
    try:
        usage = get_usage(request, group=f"yomi.{name}", key=key, rate=rate, increment=True)
    except Exception:  # the cache is down: fail open, loudly
        logger.warning("rate limit %s not checked: the cache is unreachable", name, exc_info=True)
        return None
    if usage is None or not usage["should_limit"]:
        return None
    return Limited(name=name, rate=rate, retry_after=max(1, int(usage["time_left"])))


def submission_rate_check(request: HttpRequest) -> None:
    """Raise RATE_LIMITED (a 429) if this user or this address sends logs too fast."""
    for name, key in (("submit_user", "user"), ("submit_ip", "ip")):
        limited = rate_limit_hit(request, name=name, key=key)
        if limited is not None:
            who = "you" if key == "user" else "your address"
            raise MatchError(
                MatchErrorCode.RATE_LIMITED,
                f"{who} submitted logs too often (limit {limited.rate}); "
                f"try again in {limited.retry_after} s",
                limit=limited.name, rate=limited.rate, retry_after=limited.retry_after,
            )
