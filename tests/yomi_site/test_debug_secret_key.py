"""DEBUG=1 without SECRET_KEY: every process (each gunicorn worker) signs with the same key."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from http.cookiejar import CookieJar
from pathlib import Path

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher

from tests.conftest import REPO_ROOT, _database_url_for_worker
from tests.matches.factories import UserFactory
from tests.support.faults import free_port

# The key is made or read where the settings are (django.setup(), loading every app, added a
# second of CPU to each of the five starts and nothing to what they prove).
PRINT_KEY = "from django.conf import settings; print(settings.SECRET_KEY)"


def debug_env(key_file: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    env.update(DJANGO_SETTINGS_MODULE="yomi_site.settings", DEBUG="1",
               SECRET_KEY_FILE=str(key_file))
    return env


def test_processes_started_together_share_one_persisted_key(tmp_path: Path) -> None:
    key_file = tmp_path / "key"
    processes = [
        subprocess.Popen([sys.executable, "-c", PRINT_KEY], cwd=REPO_ROOT,
                         env=debug_env(key_file), stdout=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    keys = {p.communicate(timeout=60)[0].strip() for p in processes}
    assert len(keys) == 1
    key = keys.pop()
    assert len(key) >= 50
    assert key_file.read_text().strip() == key
    assert oct(key_file.stat().st_mode & 0o777) == "0o600"
    # a later start reads the same key
    again = subprocess.run([sys.executable, "-c", PRINT_KEY], cwd=REPO_ROOT,
                           env=debug_env(key_file), capture_output=True, text=True, check=True)
    assert again.stdout.strip() == key
    assert list(tmp_path.iterdir()) == [key_file]  # no temporary file left behind


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_login_holds_across_gunicorn_workers_with_debug(tmp_path: Path) -> None:
    user = UserFactory(username="gunicorn-user")
    # hashed with a hasher the server's (production) settings know; the suite's is MD5
    user.password = PBKDF2PasswordHasher().encode("pw-for-gunicorn", "somesalt1234", 1000)
    user.save()
    port = free_port()
    env = debug_env(tmp_path / "key")
    env.update(DATABASE_URL=_database_url_for_worker(), YOMI_RATE_LIMITS_ENABLED="0")
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "yomi_site.wsgi", "-b", f"127.0.0.1:{port}",
         "--workers", "3", "--log-level", "warning"],
        cwd=REPO_ROOT, env=env, start_new_session=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{base}/healthz", timeout=2)
                break
            except urllib.error.HTTPError:
                break  # answering (503 without a broker is fine here)
            except OSError:
                assert time.monotonic() < deadline, "gunicorn did not start"
                time.sleep(0.3)
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        page = browser.open(f"{base}/accounts/login/", timeout=10).read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        form = urllib.parse.urlencode({"username": "gunicorn-user", "password": "pw-for-gunicorn",
                                       "csrfmiddlewaretoken": token}).encode()
        request = urllib.request.Request(f"{base}/accounts/login/", data=form,
                                         headers={"Referer": f"{base}/accounts/login/"})
        landed = browser.open(request, timeout=10)
        body = landed.read().decode()
        assert landed.url == f"{base}/", re.findall(r"errorlist.*", body)  # logged in
        # every request, whichever worker takes it, sees the logged-in user; sent concurrently
        # (one at a time, the kernel tends to hand them all to the same idle worker)
        with ThreadPoolExecutor(max_workers=8) as pool:
            pages = list(pool.map(
                lambda _: browser.open(f"{base}/", timeout=20).read().decode(), range(48)
            ))
        assert sum("gunicorn-user" in page for page in pages) == 48
    finally:
        server.terminate()
        server.wait(timeout=30)
