"""Which engine build judged a log (issue 32): each run records the release and the build
("0.3.0", "0.3.0+mypyc.1a2b3c4d"); the two builds of one release give the same verdicts, so a
log judged by either is not verified again, while another release's verdicts are."""

from __future__ import annotations

import logging

import pytest

import rules_engine
from matches import engine
from matches.models import VerificationRun
from matches.services import logs_judged_by_older_engine
from tests.matches.factories import self_play_log_text, submit_verified, versus_match
from yomi_site.celery import engine_build_report

pytestmark = pytest.mark.django_db


def test_a_run_records_the_release_and_the_build_that_judged_it(
    django_capture_on_commit_callbacks,
) -> None:
    run = submit_verified(versus_match(), 1, self_play_log_text(),
                          django_capture_on_commit_callbacks)
    assert run.engine_version == engine.ENGINE_VERSION
    assert rules_engine.__version__ + rules_engine.BUILD.label == engine.ENGINE_VERSION
    assert run.verdict["engine_version"] == engine.ENGINE_RELEASE  # the verdict: the release


@pytest.mark.parametrize(("judged_by", "stale"), [
    (rules_engine.__version__, False),
    (f"{rules_engine.__version__}+mypyc.1a2b3c4d", False),  # the other build, same release
    ("0.0.1", True),
    ("0.0.1+mypyc.1a2b3c4d", True),
    (f"{rules_engine.__version__}.1", True),  # a later release that starts alike
])
def test_either_build_of_this_release_is_current_any_other_release_is_stale(
    django_capture_on_commit_callbacks, judged_by: str, stale: bool,
) -> None:
    run = submit_verified(versus_match(), 1, self_play_log_text(seed=5),
                          django_capture_on_commit_callbacks)
    VerificationRun.objects.filter(pk=run.pk).update(engine_version=judged_by)
    assert logs_judged_by_older_engine().filter(pk=run.log_id).exists() is stale


def test_healthz_says_which_engine_the_web_process_runs(client) -> None:
    assert client.get("/healthz").json()["engine"] == engine.ENGINE_VERSION


def test_a_worker_says_at_start_which_engine_judges_its_logs(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="yomi_site.celery"):
        engine_build_report(sender="celery@box")
    assert caplog.messages == [
        f"worker celery@box: rules engine {engine.ENGINE_VERSION} "
        f"({rules_engine.BUILD.kind} build)"]
