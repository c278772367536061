"""The base layout: navigation on every page, static files through whitenoise, the home page."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db

NAV = ["Events", "Players", "Characters", "Matches", "Stats", "API"]


def nav_links(html: str) -> dict[str, str]:
    nav = re.search(r'<nav aria-label="Main">(.*?)</nav>', html, re.S).group(1)
    return {label: href for href, label in re.findall(r'<a href="([^"]+)"[^>]*>([^<]+)</a>', nav)}


@pytest.mark.parametrize(
    "path", ["/", "/events/", "/players/", "/characters/", "/characters/grave/", "/matches/"]
)
def test_every_section_page_has_the_navigation_and_footer(client, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    html = response.content.decode()
    assert list(nav_links(html)) == NAV
    assert '<footer class="site-footer">' in html


def test_every_navigation_link_answers(client) -> None:
    links = nav_links(client.get("/").content.decode())
    for label, href in links.items():
        assert client.get(href).status_code == 200, label


def test_home_page_says_what_the_site_is_and_links_each_section(client) -> None:
    html = client.get("/").content.decode()
    assert "Yomi tournaments and leagues" in html
    assert "rules engine replays it" in html
    section_links = re.findall(r'<li class="card"><h2><a href="([^"]+)">([^<]+)</a>', html)
    assert [label for _, label in section_links] == NAV


def test_empty_sections_say_so_plainly(client) -> None:
    assert "No events yet." in client.get("/events/").content.decode()
    assert "No players yet." in client.get("/players/").content.decode()


def test_stylesheet_is_served_by_whitenoise(client) -> None:
    html = client.get("/").content.decode()
    href = re.search(r'<link rel="stylesheet" href="([^"]+)"', html).group(1)
    response = client.get(href)
    assert response.status_code == 200
    assert b".site-header" in b"".join(response.streaming_content)


def test_api_schema_and_docs_are_served(client) -> None:
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"openapi: 3" in schema.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"swagger-ui" in docs.content


def test_openapi_schema_generates_without_warnings(tmp_path) -> None:
    # a warning (two components with one name, an enum collision) would make the schema wrong
    call_command("spectacular", "--fail-on-warn", "--file", str(tmp_path / "schema.yml"))
    assert "/api/matches/{id}/logs/" in (tmp_path / "schema.yml").read_text()
