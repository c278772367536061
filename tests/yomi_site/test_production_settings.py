"""Production settings are safe: `check --deploy` passes, DEBUG is off unless set, no secret."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PRODUCTION_ENV = {
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "yomi.example.org",
    "DATABASE_URL": "sqlite:////tmp/yomi-deploy-check.sqlite3",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
}


OVERRIDDEN = {"DEBUG", "SECRET_KEY", "DJANGO_SETTINGS_MODULE"}


def run_python(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in OVERRIDDEN}
    return subprocess.run(
        [sys.executable, *args], cwd=REPO, env={**clean, **env},
        capture_output=True, text=True, timeout=120,
    )


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return run_python("manage.py", *args, env=env)


def test_check_deploy_passes_with_production_environment() -> None:
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_fails_when_hardening_is_switched_off() -> None:
    # proves the check above is able to fail
    result = manage(
        "check", "--deploy", "--fail-level", "WARNING",
        env={**PRODUCTION_ENV, "SECURE_SSL_REDIRECT": "0", "SECURE_HSTS_SECONDS": "0"},
    )
    assert result.returncode != 0
    assert "security.W008" in result.stderr + result.stdout


def test_debug_is_off_unless_set() -> None:
    result = run_python(
        "-c",
        "import os; os.environ['DJANGO_SETTINGS_MODULE'] = 'yomi_site.settings';"
        "from django.conf import settings;"  # settings only: no app needs loading
        "print(settings.DEBUG, settings.SECURE_SSL_REDIRECT)",
        env=PRODUCTION_ENV,
    )
    assert result.stdout.split() == ["False", "True"], result.stderr


def test_missing_secret_key_is_refused_when_debug_is_off() -> None:
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "SECRET_KEY"}
    result = manage("check", env=env)
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_a_malformed_boolean_names_the_variable() -> None:
    result = manage("check", env={**PRODUCTION_ENV, "DEBUG": "maybe"})
    assert result.returncode != 0
    assert "DEBUG='maybe' is not a boolean" in result.stderr


def test_no_secret_key_is_committed() -> None:
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split()
    offenders = []
    for name in tracked:
        path = REPO / name
        if path.suffix not in {".py", ".toml", ".yml", ".yaml", ".cfg", ".env", ".example", ""}:
            continue
        if not path.is_file():
            continue
        for line in path.read_text(errors="ignore").splitlines():
            stripped = line.strip()
            if stripped.startswith("SECRET_KEY") and "=" in stripped:
                value = stripped.split("=", 1)[1].strip().strip("\"'")
                if len(value) >= 30 and "replace" not in value and "os.environ" not in value:
                    offenders.append(f"{name}: {stripped}")
    assert offenders == []


def test_mail_links_follow_the_sites_configured_address() -> None:
    """Issue 35: notification mails linked to 127.0.0.1:8000 whatever the site's address was.
    The address is YOMI_SITE_URL, else the first trusted origin."""
    code = "from django.conf import settings; print(settings.YOMI_SITE_URL)"
    env = {**PRODUCTION_ENV, "DJANGO_SETTINGS_MODULE": "yomi_site.settings",
           "CSRF_TRUSTED_ORIGINS": "https://yomi.example.org"}
    shown = run_python("-c", code, env=env)
    assert shown.stdout.strip() == "https://yomi.example.org", shown.stderr
    env["YOMI_SITE_URL"] = "https://play.example.org"
    shown = run_python("-c", code, env=env)
    assert shown.stdout.strip() == "https://play.example.org", shown.stderr
