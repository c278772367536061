"""The personal API token in the OpenAPI schema (its own security scheme beside DRF's)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class ApiTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[misc]
    target_class = "accounts.authentication.ApiTokenAuthentication"
    name = "personalApiToken"
    priority = 1  # before drf-spectacular's own scheme for TokenAuthentication subclasses

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey", "in": "header", "name": "Authorization",
            "description": "A personal API token from /accounts/tokens/: `Token yomi_…`",
        }
