"""Rate limits on logins and log submissions: per user/username and per address, a clear 429."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from matches.models import MatchLog
from tests.conftest import REPO_ROOT
from tests.matches.factories import UserFactory, self_play_log_text, side_user, versus_match
from tests.support.faults import free_port

pytestmark = pytest.mark.django_db


@pytest.fixture
def limits(settings):
    cache.clear()
    settings.YOMI_RATE_LIMITS_ENABLED = True
    settings.YOMI_RATE_LIMITS = {
        "login_ip": "6/m", "login_username": "3/m", "submit_user": "3/m", "submit_ip": "5/m",
    }
    yield settings.YOMI_RATE_LIMITS
    with contextlib.suppress(Exception):  # a test may have pointed the cache at a dead port
        cache.clear()


def login(username: str, password: str, ip: str = "10.0.0.1"):
    return Client(REMOTE_ADDR=ip).post(
        "/accounts/login/", {"username": username, "password": password}
    )


def test_wrong_passwords_are_stopped_per_username_and_then_not_checked(limits) -> None:
    victim = UserFactory(username="victim")
    victim.set_password("right-password")
    victim.save()
    assert login("victim", "right-password", ip="10.0.0.2").status_code == 302  # it works
    cache.clear()
    for _ in range(3):
        assert login("victim", "wrong").status_code == 200  # the form again, with its error
    refused = login("victim", "right-password")  # even the right one: not checked any more
    assert refused.status_code == 429
    assert "Too many login attempts (limit 3/m)" in refused.content.decode()
    assert 0 < int(refused["Retry-After"]) <= 60
    assert "_auth_user_id" not in refused.wsgi_request.session


def test_the_admin_login_is_limited_too(limits) -> None:
    client = Client(REMOTE_ADDR="10.0.0.5")
    for _ in range(3):
        response = client.post("/admin/login/", {"username": "admin", "password": "guess"})
        assert response.status_code == 200
    refused = client.post("/admin/login/", {"username": "admin", "password": "guess"})
    assert refused.status_code == 429
    assert "Too many login attempts" in refused.content.decode()
    assert client.get("/admin/login/").status_code == 200  # the page itself still shows


def test_logins_are_stopped_per_address_across_usernames(limits) -> None:
    for i in range(6):
        assert login(f"user{i}", "wrong", ip="10.0.0.9").status_code == 200
    assert login("someone-else", "wrong", ip="10.0.0.9").status_code == 429
    assert login("someone-else", "wrong", ip="10.0.0.10").status_code == 200


def submit(user, match, text: str, ip: str):
    client = APIClient(REMOTE_ADDR=ip)
    client.force_authenticate(user)
    return client.post(f"/api/matches/{match.pk}/logs/", {"log_text": text}, format="json")


def distinct_logs(n: int) -> list[str]:
    return [self_play_log_text("grave", "jaina", seed) for seed in range(1, n + 1)]


def test_submissions_are_limited_per_user_with_a_clear_429(limits) -> None:
    match = versus_match()
    user = side_user(match, 1)
    logs = distinct_logs(4)
    for text in logs[:3]:
        assert submit(user, match, text, "10.0.1.1").status_code == 201
    refused = submit(user, match, logs[3], "10.0.1.2")  # another address does not help
    assert refused.status_code == 429
    body = refused.json()
    assert body["code"] == "rate_limited"
    assert body["limit"] == "submit_user"
    assert int(refused["Retry-After"]) == body["retry_after"]
    assert MatchLog.objects.filter(match=match).count() == 3
    # the opponent is not affected
    assert submit(side_user(match, 2), match, logs[0], "10.0.1.3").status_code == 200


def test_submissions_are_limited_per_address(limits) -> None:
    logs = distinct_logs(3)
    matches = [versus_match() for _ in range(3)]
    users = [side_user(m, 1) for m in matches]
    statuses = [
        submit(users[i % 3], matches[i % 3], logs[i // 3], "10.0.2.1").status_code
        for i in range(6)
    ]
    assert statuses == [201, 201, 201, 201, 201, 429]


def test_an_unreachable_cache_lets_requests_through(limits, settings) -> None:
    settings.CACHES = {"default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }}
    match = versus_match()
    assert submit(side_user(match, 1), match, distinct_logs(1)[0], "10.0.3.1").status_code == 201


def test_the_embedded_default_counts_in_local_memory_without_redis() -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
    env.update(DJANGO_SETTINGS_MODULE="yomi_site.settings", DEBUG="1")
    out = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); from django.conf import settings;"
         "print(settings.CACHES['default']['BACKEND']); print(settings.YOMI_RATE_LIMITS_ENABLED)"],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, check=True,
    ).stdout.split()
    assert out == ["django.core.cache.backends.locmem.LocMemCache", "True"]


def test_the_match_page_form_is_limited_too(limits) -> None:
    match = versus_match()
    client = Client(REMOTE_ADDR="10.0.4.1")
    client.force_login(side_user(match, 1))
    logs = distinct_logs(4)
    for text in logs[:3]:
        assert client.post(f"/matches/{match.pk}/", {"log_text": text}).status_code == 302
    refused = client.post(f"/matches/{match.pk}/", {"log_text": logs[3]})
    assert refused.status_code == 429
    assert "submitted logs too often (limit 3/m)" in refused.content.decode()
    assert MatchLog.objects.filter(match=match).count() == 3
