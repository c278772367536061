"""Template context for every page: the header's count of the user's open sets."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from tournaments import selectors


def open_sets(request: HttpRequest) -> dict[str, Any]:
    # Lazy: the COUNT runs only on pages that render the header (never for JSON answers).
    user = getattr(request, "user", None)
    return {"my_open_set_count": SimpleLazyObject(lambda: selectors.user_open_set_count(user))}
