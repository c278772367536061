"""docker-compose.yml is checked statically: there is no Docker engine on the CI machine.

Every service's command must name modules, settings and management commands that exist, and the
environment it sets must be exactly what yomi_site/settings.py reads.
"""

from __future__ import annotations

import ast
import importlib
import re
import shlex
from pathlib import Path

import pytest
import yaml
from django.core.management import get_commands
from django.urls import resolve

REPO = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((REPO / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
APP_SERVICES = ["web", "worker", "beat"]  # and "migrate", which runs once before them


def settings_env_vars() -> set[str]:
    """Names the settings module reads from the environment (os.environ / env_bool / env_list)."""
    tree = ast.parse((REPO / "yomi_site" / "settings.py").read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = ast.unparse(node.func)
            if func in {"os.environ.get", "env_bool", "env_list", "os.getenv"}:
                names.add(node.args[0].value)
        if isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ":
            names.add(ast.literal_eval(node.slice))
    return names


def env_file_vars() -> dict[str, str]:
    pairs = {}
    for line in (REPO / ".env.example").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            pairs[key] = value
    return pairs


def compose_interpolated_vars() -> set[str]:
    return set(re.findall(r"\$\{(\w+)\}", (REPO / "docker-compose.yml").read_text()))


def command_words(service: str) -> list[str]:
    command = SERVICES[service]["command"]
    return command if isinstance(command, list) else shlex.split(command)


def test_compose_defines_the_six_services() -> None:
    assert set(SERVICES) == {"migrate", "web", "worker", "beat", "postgres", "redis"}


@pytest.mark.parametrize("service", ["web", "worker", "beat", "postgres", "redis"])
def test_long_running_services_have_health_checks(service: str) -> None:
    assert SERVICES[service]["healthcheck"]["test"]
    assert SERVICES[service]["restart"] == "unless-stopped"


@pytest.mark.parametrize("service", APP_SERVICES)
def test_app_services_start_after_the_migrations_on_a_healthy_database_and_broker(
    service: str,
) -> None:
    depends_on = SERVICES[service]["depends_on"]
    assert depends_on == {
        "postgres": {"condition": "service_healthy"},
        "redis": {"condition": "service_healthy"},
        "migrate": {"condition": "service_completed_successfully"},
    }


def test_migrate_runs_once_on_a_healthy_database() -> None:
    assert command_words("migrate") == ["django-admin", "migrate", "--noinput"]
    assert "migrate" in get_commands()
    assert SERVICES["migrate"]["restart"] == "no"  # a one-off: done, not restarted
    assert SERVICES["migrate"]["depends_on"]["postgres"] == {"condition": "service_healthy"}


@pytest.mark.parametrize("service", [*APP_SERVICES, "migrate"])
def test_app_service_environment_is_read_by_settings(service: str) -> None:
    read = settings_env_vars()
    assert set(SERVICES[service]["environment"]) <= read
    assert SERVICES[service]["env_file"] == ".env"


def test_example_env_file_sets_only_variables_that_something_reads() -> None:
    read = settings_env_vars() | compose_interpolated_vars()
    unknown = set(env_file_vars()) - read
    assert unknown == set()
    # and the settings that must be set in production are all there
    assert {"SECRET_KEY", "DEBUG", "ALLOWED_HOSTS"} <= set(env_file_vars())


def test_web_command_serves_the_asgi_app() -> None:
    # daphne serves the pages and the match rooms' websockets (issue 22): its last word is the
    # ASGI application. (The migrations run in the migrate service, collectstatic in the image.)
    daphne = command_words("web")
    assert daphne[0] == "daphne"
    module_name, _, attribute = daphne[-1].partition(":")
    assert (module_name, attribute) == ("yomi_site.asgi", "application")
    assert callable(getattr(importlib.import_module(module_name), attribute))


@pytest.mark.parametrize("service", ["worker", "beat"])
def test_celery_commands_name_the_project_app(service: str) -> None:
    words = command_words(service)
    assert words[0] == "celery"
    app_module = importlib.import_module(words[words.index("-A") + 1])
    assert app_module.celery_app.main == "yomi_site"
    assert words[words.index("-A") + 2] == ("worker" if service == "worker" else "beat")


def test_worker_health_check_pings_this_worker_of_the_project_app() -> None:
    check = SERVICES["worker"]["healthcheck"]["test"]
    assert check[0] == "CMD-SHELL"
    words = shlex.split(check[1])
    assert words[:5] == ["celery", "-A", "yomi_site", "inspect", "ping"]
    # celery's default node name: a ping answered by another worker would not count
    assert words[words.index("-d") + 1] == "celery@$$HOSTNAME"


def test_web_health_check_calls_the_healthz_view_on_an_allowed_host() -> None:
    check = " ".join(SERVICES["web"]["healthcheck"]["test"])
    host, path = re.search(r"http://([\w.]+):8000(/\S*?)'", check).groups()
    assert resolve(path).url_name == "healthz"
    # with DEBUG off Django answers 400 to a host it does not allow
    assert host in env_file_vars()["ALLOWED_HOSTS"].split(",")


def test_beat_health_check_reads_the_schedule_file_beat_writes() -> None:
    words = command_words("beat")
    schedule = words[words.index("--schedule") + 1]
    check = SERVICES["beat"]["healthcheck"]["test"][1]
    directory, name = schedule.rsplit("/", 1)
    assert f"find {directory} " in check and f"-name '{name}*'" in check


def test_beat_schedule_names_registered_tasks() -> None:
    from django.conf import settings

    from yomi_site.celery import app

    app.loader.import_default_modules()
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] in app.tasks
