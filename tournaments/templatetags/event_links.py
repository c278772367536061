"""``{% match_set_crumbs match %}``: the event and set a match is played for, as links above the
match page (issue 35: the match page had no way back to its set or event). The matches app
never imports tournaments; its page includes this block, as the event page includes the odds."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.models import Set

register = template.Library()


@register.inclusion_tag("tournaments/_match_crumbs.html")
def match_set_crumbs(match: Any) -> dict[str, Any]:
    s = (Set.objects.filter(set_matches__match_id=match.pk)
         .select_related("stage__event", "entrant_a", "entrant_b").first())
    return {"set": s, "event": s.stage.event if s is not None else None}


@register.simple_tag
def match_set_url(match: Any) -> str:
    """The page of the set a match is played for ("" for a match of no set)."""
    from django.urls import reverse

    s = Set.objects.filter(set_matches__match_id=match.pk).select_related("stage__event").first()
    if s is None:
        return ""
    return reverse("tournaments:set-detail", args=[s.stage.event.slug, s.pk])
