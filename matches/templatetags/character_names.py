"""``{{ id|character_name }}``: a character as the game prints it ("Grave", not "grave").

Engine ids are for logs and URLs; pages show the character's name (issue 35). A lineup
("grave,jaina" or a list) gives its names joined with ", "; an unknown id is shown as given.
"""

from __future__ import annotations

from typing import Any

from django import template

from rules_engine.cards import characters

register = template.Library()


@register.filter
def character_name(value: Any) -> str:
    if value is None or value == "":
        return ""
    known = characters()
    parts = value if isinstance(value, list | tuple) else str(value).split(",")
    return ", ".join(known[p].name if p in known else str(p) for p in (str(x).strip()
                                                                         for x in parts))
