"""CSV for the statistics endpoints (``?format=csv``): one row per item of the response's
table (``results``, ``rows``, ``cells``, ``matchups`` or ``characters``), nested fields
flattened with dots. Python's csv module writes it; nothing else is needed."""

from __future__ import annotations

import csv
import io
from typing import Any

from rest_framework.renderers import BaseRenderer

TABLE_KEYS = ("results", "rows", "cells", "matchups", "characters")


def _flatten(row: Any, prefix: str = "") -> dict[str, Any]:
    if not isinstance(row, dict):
        return {prefix or "value": row}
    flat: dict[str, Any] = {}
    for key, value in row.items():
        name = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict):
            flat.update(_flatten(value, name))
        elif isinstance(value, list):
            flat[name] = " ".join(str(v) for v in value)
        else:
            flat[name] = value
    return flat


def table_rows(data: Any) -> list[dict[str, Any]]:
    """The rows a CSV of ``data`` holds (a list, or the first table key of a dict)."""
    if isinstance(data, list):
        return [_flatten(row) for row in data]
    if isinstance(data, dict):
        for key in TABLE_KEYS:
            if isinstance(data.get(key), list):
                return [_flatten(row) for row in data[key]]
        return [_flatten(data)]
    return [{"value": data}]


class CSVRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: dict[str, Any] | None = None) -> bytes:
        rows = table_rows(data)
        columns: list[str] = []
        for row in rows:
            columns.extend(k for k in row if k not in columns)
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return out.getvalue().encode("utf-8")
