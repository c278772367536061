"""The smoke test of the shipped tree: what the wheel holds must run the site, without Docker.

    python .ci/smoke.py [--engine interpreted|compiled] [--keep]

(``make smoke``; ``.ci/run`` runs it with the compiled engine, as the image does). Steps, each
timed, the first failure ends the run with a non-zero status:

1. Build the sdist, then the wheel from the sdist (``python -m build``), as a release would.
2. Check the wheel against the repository: every file git tracks in a top-level package (but
   ``tests``), in ``templates/`` and in ``static/`` must be in it (the last two as
   ``yomi_site/templates``, ``yomi_site/static``); with ``--engine compiled``, the compiled
   engine too. A file left out is named.
3. Install the wheel into a new virtualenv (not editable), and from then on run only that
   virtualenv's commands, from an empty directory, so nothing of the checkout can be imported.
4. With DEBUG off and a production environment: ``check --deploy`` (no warning allowed),
   ``makemigrations --check`` (a migration left out of the package shows as a change),
   ``migrate``, ``collectstatic``.
5. Start the ASGI server (daphne) and a Celery worker; fetch ``/healthz``, the home page, an
   event page and a room page (200, and the stylesheet the pages link, served by whitenoise);
   submit one self-play log through the API and wait for the worker's verdict ("legal"), with
   the engine version the worker reports (``+mypyc.`` when compiled).

It uses its own PostgreSQL database (created afresh, dropped at the end) and its own Celery
queue: SMOKE_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/yomi_smoke), SMOKE_REDIS_URL
(redis://127.0.0.1:6379/5), SMOKE_PORT (8321). Standard library only: it runs before anything
is installed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
import zipfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SITE_FILES = {"templates": "yomi_site/templates", "static": "yomi_site/static"}
COMPILED = "rules_engine/_compiled"


class SmokeFailure(Exception):
    pass


def step(name: str) -> Any:
    """Print a step's name and, when it ends, how long it took."""

    class Timer:
        def __enter__(self) -> None:
            self.started = time.monotonic()
            print(f"smoke: {name} ...", flush=True)

        def __exit__(self, kind: Any, *rest: Any) -> None:
            if kind is None:
                print(f"smoke:   ok ({time.monotonic() - self.started:.1f} s)", flush=True)

    return Timer()


def run(command: list[str], **kwargs: Any) -> str:
    """Run a command; its output, or a SmokeFailure carrying it."""
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        raise SmokeFailure(f"{' '.join(command)} exited {done.returncode}:\n"
                           f"{done.stdout[-4000:]}{done.stderr[-4000:]}")
    return done.stdout


def shipped_files() -> list[str]:
    """The files git tracks that the wheel must hold, by their path inside the wheel."""
    tracked = run(["git", "ls-files", "-z"], cwd=REPO).split("\0")
    packages = {p.parent.name for p in REPO.glob("*/__init__.py")} - {"tests"}
    expected = []
    for path in filter(None, tracked):
        top, _, rest = path.partition("/")
        if top in packages and rest:
            expected.append(path)
        elif top in SITE_FILES and rest:
            expected.append(f"{SITE_FILES[top]}/{rest}")
    return sorted(expected)


def wheel_check(wheel: Path, engine: str) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = [path for path in shipped_files() if path not in names]
    if missing:
        raise SmokeFailure(f"{len(missing)} file(s) of the repository are not in {wheel.name}: "
                           + ", ".join(missing[:30]))
    compiled = [n for n in names if n.startswith(COMPILED + "/")]
    if engine == "compiled" and not any(n.endswith(".so") for n in compiled):
        raise SmokeFailure(f"--engine compiled, but {wheel.name} holds no compiled engine "
                           "(run make compile first)")
    print(f"smoke:   {len(names)} files in {wheel.name}, every tracked file of the packages, "
          f"templates and static files among them; compiled engine files: {len(compiled)}")


def http(url: str, *, data: bytes | None = None, headers: dict[str, str] | None = None
         ) -> tuple[int, bytes]:
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def expect_200(url: str) -> bytes:
    status, body = http(url)
    if status != 200:
        raise SmokeFailure(f"GET {url}: {status}\n{body[:2000].decode(errors='replace')}")
    return body


# Run in the installed virtualenv (django-admin shell): the data the pages and the submission
# need, made through the project's own services and models; prints it as JSON.
SETUP = """
import json
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from matches.models import Player
from matches.services.matches import match_create
from rooms.services import room_open_practice
from tournaments.models import Event
from rules_engine.selfplay import play_game

User = get_user_model()
users = [User.objects.create_user(username=f"smoke-{side}", password="smoke-not-a-secret")
         for side in (1, 2)]
players = [Player.objects.create(user=u, display_name=u.username) for u in users]
event = Event.objects.create(name="Smoke test open", slug="smoke-test-open", mode="versus",
                             status="registration")
event.organizers.add(users[0])
match = match_create(side_1=[players[0]], side_2=[players[1]], created_by=users[0])
room = room_open_practice(user=users[0], name="smoke room")
log = play_game("grave", "jaina", 7, bot="greedy")[1].dumps()
print(json.dumps({"event": f"/events/{event.slug}/", "match": match.pk, "room": room.pk,
                  "token": Token.objects.create(user=users[0]).key, "log": log}))
"""


def database(url: str, action: str) -> None:
    """Create (afresh) or drop the smoke test's database, through the server's "postgres"."""
    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    run(["psql", admin, "-q", "-c", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'])
    if action == "create":
        run(["psql", admin, "-q", "-c", f'CREATE DATABASE "{name}"'])


def smoke(work: Path, engine: str) -> None:
    python = sys.executable
    dist, venv, home = work / "dist", work / "venv", work / "run"
    home.mkdir(parents=True)
    with step("build the sdist, then the wheel from it"):
        run([python, "-m", "build", "--outdir", str(dist), str(REPO)])
        wheel = next(dist.glob("*.whl"))
        print(f"smoke:   {', '.join(p.name for p in sorted(dist.iterdir()))}")
    with step("the wheel holds every shipped file"):
        wheel_check(wheel, engine)
    with step("install the wheel into a new virtualenv"):
        # pip runs from here into the new environment (pip --python): nothing else is in it.
        # No byte-compiling of the 6,000 modules installed (17 s of CPU, two thirds of the
        # install): the commands below compile only those they import, once (their
        # environment, made afresh below, lets Python write the bytecode).
        run([python, "-m", "venv", "--without-pip", str(venv)])
        run([python, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
             "--quiet", "--disable-pip-version-check", "--no-compile", str(wheel)])
    db_url = os.environ.get("SMOKE_DATABASE_URL",
                            "postgres://postgres@127.0.0.1:5432/yomi_smoke")
    port = os.environ.get("SMOKE_PORT", "8321")
    queue = f"smoke-{uuid.uuid4().hex[:8]}"
    env = {
        "PATH": f"{venv / 'bin'}:{os.environ['PATH']}", "HOME": str(home),
        "DJANGO_SETTINGS_MODULE": "yomi_site.settings", "DEBUG": "0",
        "SECRET_KEY": "smoke-" + uuid.uuid4().hex * 2, "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_URL": db_url, "STATIC_ROOT": str(work / "staticfiles"),
        "REDIS_URL": os.environ.get("SMOKE_REDIS_URL", "redis://127.0.0.1:6379/5"),
        "CELERY_TASK_DEFAULT_QUEUE": queue, "YOMI_ENGINE": engine, "LOG_LEVEL": "WARNING",
    }
    admin = [str(venv / "bin" / "django-admin")]
    with step("check --deploy (production settings as shipped: no warning)"):
        print("smoke:   " + run([*admin, "check", "--deploy", "--fail-level", "WARNING"],
                                cwd=home, env=env).strip())
    # plain http on loopback from here on (a TLS proxy's job in production)
    env["SECURE_SSL_REDIRECT"] = "0"
    database(db_url, "create")
    processes: list[subprocess.Popen[bytes]] = []
    try:
        with step("makemigrations --check, migrate, collectstatic"):
            run([*admin, "makemigrations", "--check", "--dry-run"], cwd=home, env=env)
            run([*admin, "migrate", "--noinput"], cwd=home, env=env)
            run([*admin, "collectstatic", "--noinput"], cwd=home, env=env)
        with step("an event, a match, a room and a log (the installed services)"):
            data = json.loads(run([*admin, "shell", "-c", SETUP], cwd=home, env=env)
                              .strip().splitlines()[-1])
        with step("start daphne and a Celery worker"):
            worker_log = work / "worker.log"
            processes.append(subprocess.Popen(
                [str(venv / "bin" / "daphne"), "-b", "127.0.0.1", "-p", port,
                 "yomi_site.asgi:application"], cwd=home, env=env,
                stdout=(work / "daphne.log").open("wb"), stderr=subprocess.STDOUT,
                start_new_session=True))
            processes.append(subprocess.Popen(
                [str(venv / "bin" / "celery"), "-A", "yomi_site", "worker", "-Q", queue,
                 "-n", f"{queue}@%h", "--concurrency=1", "--without-gossip", "--without-mingle",
                 "-l", "warning"], cwd=home, env=env, stdout=worker_log.open("wb"),
                stderr=subprocess.STDOUT, start_new_session=True))
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while http_status(base + "/healthz") != 200:
                if time.monotonic() > deadline or any(p.poll() is not None for p in processes):
                    raise SmokeFailure("daphne did not answer /healthz with 200:\n"
                                       + (work / "daphne.log").read_text()[-4000:])
                time.sleep(0.5)
        with step("/healthz, the home page, an event page, a room page, a static file"):
            health = json.loads(expect_200(base + "/healthz"))
            print(f"smoke:   /healthz: {health}")
            pages = [base + "/", base + data["event"], f"{base}/rooms/{data['room']}/"]
            for url in pages:
                body = expect_200(url).decode()
                css = re.findall(r'href="(/static/[^"]+\.css)"', body)
                if not css:
                    raise SmokeFailure(f"{url} links no stylesheet")
            stylesheet = expect_200(base + css[0])
            if not re.search(r"\.[0-9a-f]{12}\.css$", css[0]) or not stylesheet:
                raise SmokeFailure(f"{css[0]} is not a manifest (hashed) static file")
            print(f"smoke:   pages {', '.join(p.removeprefix(base) for p in pages)}; "
                  f"{css[0]} ({len(stylesheet)} bytes)")
        with step("submit a log through the API; the worker verifies it"):
            status, body = http(
                f"{base}/api/matches/{data['match']}/logs/",
                data=json.dumps({"log_text": data["log"]}).encode(),
                headers={"Authorization": f"Token {data['token']}",
                         "Content-Type": "application/json"})
            if status != 201:
                raise SmokeFailure(f"the submission answered {status}: {body[:2000]!r}")
            run_ = verified_run(f"{base}/api/matches/{data['match']}/", data["token"],
                                processes, worker_log)
            version = run_["engine_version"]
            if (engine == "compiled") != ("+mypyc." in version):
                raise SmokeFailure(f"the worker reports engine {version} with --engine {engine}")
            print(f"smoke:   verdict {run_['status']} by engine {version} in "
                  f"{run_['duration_ms']} ms; the worker said: "
                  + " ".join(line for line in worker_log.read_text().splitlines()
                             if "rules engine" in line)[-200:])
    finally:
        for process in processes:
            os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
        database(db_url, "drop")


def http_status(url: str) -> int:
    try:
        return http(url)[0]
    except OSError:
        return 0


def verified_run(url: str, token: str, processes: list[subprocess.Popen[bytes]],
                 worker_log: Path) -> dict[str, Any]:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        status, body = http(url, headers={"Authorization": f"Token {token}"})
        if status != 200:
            raise SmokeFailure(f"GET {url}: {status} {body[:2000]!r}")
        run_ = json.loads(body)["logs"][0]["latest_run"]
        if run_ and run_["status"] not in ("pending", "running"):
            if run_["status"] != "legal":
                raise SmokeFailure(f"the log was judged {run_['status']}: {run_['verdict']}")
            return dict(run_)
        if any(p.poll() is not None for p in processes):
            break
        time.sleep(0.5)
    raise SmokeFailure("no verdict from the worker:\n" + worker_log.read_text()[-4000:])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", choices=["interpreted", "compiled"], default="interpreted")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    args = parser.parse_args()
    started = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="yomi-smoke-"))
    try:
        smoke(work, args.engine)
    except SmokeFailure as failure:
        print(f"smoke: FAILED: {failure}", file=sys.stderr)
        return 1
    finally:
        if args.keep:
            print(f"smoke: work directory kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print(f"smoke: the shipped tree works ({time.monotonic() - started:.0f} s in all)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
