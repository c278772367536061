"""The simulated chart renders on a phone, and a running job's page updates live
(Debian's Chromium via Playwright; skipped without it unless YOMI_REQUIRE_SERVICES=1)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from simulations.models import MatchupChunk, MatchupJob
from tests.stats.test_browser import _rendered
from tests.support.browser import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def chunk(job: MatchupJob, p1: str, p2: str, w1: int, w2: int) -> None:
    MatchupChunk.objects.create(job=job, p1=p1, p2=p2, index=0, games=10, p1_wins=w1,
                                p2_wins=w2, draws=10 - w1 - w2, seconds=0.5)


def test_the_simulated_heatmap_renders_on_a_phone(browser, live_server) -> None:
    job = MatchupJob.objects.create(bot="greedy", games_per_pair=10, chunk_size=10,
                                    characters=["grave", "troq"], status="finished")
    for p1, p2, w1, w2 in [("grave", "troq", 8, 2), ("troq", "grave", 3, 7),
                           ("grave", "grave", 5, 5), ("troq", "troq", 4, 6)]:
        chunk(job, p1, p2, w1, w2)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(live_server.url + reverse("simulations:job", args=[job.pk]))
    plot = _rendered(page, "simheatmap")
    heatmap = plot["data"][0]
    assert heatmap["type"] == "heatmap" and heatmap["x"] == ["Grave", "Troq"]
    assert heatmap["z"] == [[5.0, 7.5], [2.5, 5.0]]  # grave: 15 wins of 20 -> 7.5
    assert plot["svg"] >= 1 and "7.5" in plot["texts"]
    assert page.evaluate("document.querySelector('main').scrollWidth") <= 390


def test_a_running_job_page_updates_its_progress(browser, live_server) -> None:
    job = MatchupJob.objects.create(bot="random", games_per_pair=10, chunk_size=10,
                                    characters=["grave", "troq"])
    chunk(job, "grave", "troq", 5, 5)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(live_server.url + reverse("simulations:job", args=[job.pk]))
    assert page.locator("#p-games").inner_text() == "10"
    chunk(job, "troq", "grave", 5, 5)
    wait_until(page, "document.getElementById('p-games').textContent === '20'", timeout=15)
    assert page.locator("#p-rate").inner_text() != "\u2013"  # an en dash: no rate yet
