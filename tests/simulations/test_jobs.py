"""Matchup jobs in-process: chunks stored once, resumed without doubling, the chart's arithmetic,
the pages, the downloads and the shell command."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from rules_engine.selfplay import play_game
from rules_engine.types import PlayerId
from simulations import selectors, services
from simulations.errors import SimulationError
from simulations.models import MatchupChunk, MatchupJob
from tests.matches.factories import UserFactory

pytestmark = pytest.mark.django_db
CHARS = ["grave", "jaina", "troq"]


def make_job(capture, *, games=4, chunk=2, chars=CHARS, bot="random") -> MatchupJob:
    with capture(execute=True):
        return services.matchup_job_create(bot=bot, games_per_pair=games, characters=chars,
                                           chunk_size=chunk)


def test_a_job_plays_every_chunk_once_and_finishes(django_capture_on_commit_callbacks) -> None:
    job = make_job(django_capture_on_commit_callbacks)
    job.refresh_from_db()
    assert job.status == MatchupJob.Status.FINISHED
    assert job.chunks.count() == job.chunks_total == 9 * 2
    progress = selectors.matchup_job_progress(job=job)
    assert (progress.games_done, progress.games_total, progress.eta_seconds) == (36, 36, 0.0)
    # each chunk is what play_game gives for its seeds
    chunk = job.chunks.get(p1="grave", p2="troq", index=1)
    winners = [play_game("grave", "troq", seed, bot="random")[0].outcome.winner
               for seed in (2, 3)]
    assert chunk.p1_wins == winners.count(PlayerId.P1)
    assert chunk.p2_wins == winners.count(PlayerId.P2)


def test_a_redelivered_chunk_counts_nothing_twice(django_capture_on_commit_callbacks) -> None:
    job = make_job(django_capture_on_commit_callbacks)
    before = list(MatchupChunk.objects.filter(job=job).values_list("id", "games"))
    assert services.matchup_chunk_run(job_id=job.pk, p1="grave", p2="jaina", index=0) is False
    assert services.matchup_job_resume(job=job) == 0
    assert list(MatchupChunk.objects.filter(job=job).values_list("id", "games")) == before


def test_a_resume_sends_only_the_missing_chunks(monkeypatch) -> None:
    sent: list[tuple] = []
    monkeypatch.setattr("simulations.tasks.matchup_chunk_task.delay",
                        lambda *args: sent.append(args))
    job = services.matchup_job_create(bot="random", games_per_pair=4, characters=CHARS,
                                      chunk_size=2)
    services.matchup_job_resume(job=job)
    assert len(sent) == 18
    for p1, p2, index in list(job.chunk_keys())[:5]:
        services.matchup_chunk_run(job_id=job.pk, p1=p1, p2=p2, index=index)
    sent.clear()
    assert services.matchup_job_resume(job=job) == 13
    assert {args[1:] for args in sent} == set(list(job.chunk_keys())[5:])
    assert MatchupJob.objects.get(pk=job.pk).status == MatchupJob.Status.RUNNING


def test_a_concurrent_second_store_is_refused(monkeypatch, django_capture_on_commit_callbacks):
    monkeypatch.setattr("simulations.tasks.matchup_chunk_task.delay", lambda *args: None)
    job = make_job(django_capture_on_commit_callbacks, games=2, chunk=2, chars=["grave"])
    # the first delivery stores while the second is still playing: the second's row is refused
    real_exists = MatchupChunk.objects.filter

    class Stale:
        def __init__(self, qs): self.qs = qs
        def exists(self): return False

    monkeypatch.setattr(MatchupChunk.objects, "filter", lambda **kw: Stale(real_exists(**kw)))
    assert services.matchup_chunk_run(job_id=job.pk, p1="grave", p2="grave", index=0) is True
    assert services.matchup_chunk_run(job_id=job.pk, p1="grave", p2="grave", index=0) is False
    monkeypatch.undo()
    assert MatchupChunk.objects.filter(job=job).count() == 1


def test_the_chart_pools_both_seats_out_of_ten() -> None:
    job = MatchupJob.objects.create(bot="random", games_per_pair=10, chunk_size=10,
                                    characters=["grave", "troq"])
    rows = [("grave", "troq", 6, 3, 1), ("troq", "grave", 2, 7, 1),
            ("grave", "grave", 5, 4, 1), ("troq", "troq", 4, 4, 2)]
    for p1, p2, w1, w2, d in rows:
        MatchupChunk.objects.create(job=job, p1=p1, p2=p2, index=0, games=10, p1_wins=w1,
                                    p2_wins=w2, draws=d, seconds=0.1)
    chart = selectors.matchup_job_chart(job=job)
    data = chart.as_dict()
    # grave v troq: 6 wins as P1 + 7 as P2, 2 draws, of 20 -> 10 * 14 / 20 = 7.0
    assert data["score"] == [[5.0, 7.0], [3.0, 5.0]]
    assert data["games"] == [[10, 20], [20, 10]]
    low, high = data["low"][0][1], data["high"][0][1]
    assert 4.5 < low < 7.0 < high < 8.8
    assert data["characters"] == ["grave", "troq"]


def test_unknown_bots_and_characters_are_refused() -> None:
    with pytest.raises(SimulationError, match="unknown bot"):
        services.matchup_job_create(bot="nope", games_per_pair=1)
    with pytest.raises(SimulationError, match="unknown characters: zed"):
        services.matchup_job_create(bot="random", games_per_pair=1, characters=["zed"])
    with pytest.raises(SimulationError):
        services.matchup_job_create(bot="greedy", games_per_pair=0)
    assert services.bot_validate("greedy") == "greedy"


def test_pages_progress_and_downloads(client, django_capture_on_commit_callbacks) -> None:
    job = make_job(django_capture_on_commit_callbacks, games=2, chunk=1)
    page = client.get(reverse("simulations:job", args=[job.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert 'id="plot-simheatmap"' in html and 'id="simulated-chart-table"' in html
    assert 'data-progress-url="/api/simulations/matchups/' in html
    progress = client.get(reverse("simulations-api:job", args=[job.pk])).json()
    assert progress["games_done"] == progress["games_total"] == 18
    assert progress["status"] == "finished" and progress["eta_seconds"] == 0
    chart = client.get(reverse("simulations:job-chart-json", args=[job.pk]))
    assert chart["Content-Disposition"].startswith("attachment")
    assert chart.json()["games"] == [[2, 4, 4], [4, 2, 4], [4, 4, 2]]
    csv_text = client.get(reverse("simulations:job-chart-csv", args=[job.pk])).content.decode()
    lines = csv_text.strip().splitlines()
    assert lines[0].startswith("character,opponent,score_out_of_10,games")
    assert len(lines) == 1 + 9 and lines[1].startswith("grave,grave,5.000,2,")
    listing = client.get(reverse("simulations:jobs")).content.decode()
    assert f"#{job.pk}" in listing
    stats_page = client.get(reverse("stats:matchups")).content.decode()
    assert 'id="simulated-chart-table"' in stats_page and f"simulation #{job.pk}" in stats_page
    assert client.get(reverse("simulations:job", args=[999999])).status_code == 404


def test_only_staff_start_jobs(client, monkeypatch) -> None:
    monkeypatch.setattr("simulations.tasks.matchup_chunk_task.delay", lambda *args: None)
    url = reverse("simulations:job-create")
    form = {"bot": "random", "games_per_pair": "3", "characters": "grave,troq"}
    client.force_login(UserFactory())
    assert client.post(url, form).status_code == 302
    assert not MatchupJob.objects.exists()
    client.force_login(UserFactory(is_staff=True))
    response = client.post(url, form)
    job = MatchupJob.objects.get()
    assert response["Location"] == reverse("simulations:job", args=[job.pk])
    assert (job.games_per_pair, job.characters) == (3, ["grave", "troq"])
    bad = client.post(url, {**form, "bot": "nope"}, follow=True)
    assert "unknown bot" in bad.content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_command_writes_the_chart(tmp_path) -> None:
    out = tmp_path / "chart.json"
    call_command("simulate_matchups", "--games-per-pair", "2", "--characters", "grave,troq",
                 "--bot", "greedy", "--out", str(out), "--timeout", "60")
    data = json.loads(out.read_text())
    assert data["characters"] == ["grave", "troq"]
    assert data["games"] == [[2, 4], [4, 2]]
    assert data["score"][0][0] == 5.0
    assert data["score"][0][1] + data["score"][1][0] == pytest.approx(10.0)


def test_the_sweeper_resumes_only_jobs_left_waiting(monkeypatch) -> None:
    import datetime as dt

    from django.utils import timezone

    sent: list[tuple] = []
    monkeypatch.setattr("simulations.tasks.matchup_chunk_task.delay",
                        lambda *args: sent.append(args))
    stale = services.matchup_job_create(bot="random", games_per_pair=2, characters=["grave"],
                                        chunk_size=1)
    fresh = services.matchup_job_create(bot="random", games_per_pair=2, characters=["troq"],
                                        chunk_size=1)
    long_ago = timezone.now() - dt.timedelta(hours=1)
    MatchupJob.objects.filter(pk=stale.pk).update(enqueued_at=long_ago)
    MatchupJob.objects.filter(pk=fresh.pk).update(enqueued_at=timezone.now())
    services.matchup_chunk_run(job_id=stale.pk, p1="grave", p2="grave", index=0)
    assert services.matchup_jobs_sweep() == 1
    assert sent == [(stale.pk, "grave", "grave", 1)]
    assert MatchupJob.objects.get(pk=stale.pk).enqueued_at > long_ago


def finished_job(bot: str, chars: list[str], wins: dict[tuple[str, str], tuple[int, int]],
                 games: int = 10) -> MatchupJob:
    """A finished job whose chunks say P1 and P2 won ``wins[(p1, p2)]`` (even when absent)."""
    from django.utils import timezone

    job = MatchupJob.objects.create(bot=bot, games_per_pair=games, chunk_size=games,
                                    characters=chars, status="finished",
                                    finished_at=timezone.now())
    for p1 in chars:
        for p2 in chars:
            w1, w2 = wins.get((p1, p2), (games // 2, games - games // 2))
            MatchupChunk.objects.create(job=job, p1=p1, p2=p2, index=0, games=games,
                                        p1_wins=w1, p2_wins=w2, draws=games - w1 - w2,
                                        seconds=0.1)
    return job


def test_the_best_bot_plays_by_default(monkeypatch, client) -> None:
    from rules_engine.bots import BEST_BOT, BOTS

    monkeypatch.setattr("simulations.tasks.matchup_chunk_task.delay", lambda *args: None)
    assert services.DEFAULT_BOT == BEST_BOT == "strong" and BEST_BOT in BOTS
    job = services.matchup_job_create(games_per_pair=1, characters=["grave"])
    assert job.bot == "strong"
    # the form offers every bot, the best selected; a post without a bot gets the best
    client.force_login(UserFactory(is_staff=True))
    listing = client.get(reverse("simulations:jobs")).content.decode()
    assert '<option value="strong" selected>' in listing and '<option value="random">' in listing
    client.post(reverse("simulations:job-create"), {"games_per_pair": "1", "characters": "troq"})
    assert MatchupJob.objects.order_by("-id").first().bot == "strong"


def test_the_chart_in_use_is_the_best_bots(client) -> None:
    greedy = finished_job("greedy", ["grave", "troq"], {})
    assert selectors.matchup_job_in_use() == greedy
    later_random = finished_job("random", ["grave", "troq"], {})  # newer, but a weaker bot
    assert selectors.matchup_job_in_use() == greedy
    strong = finished_job("strong", ["grave"], {})
    MatchupJob.objects.create(bot="strong", games_per_pair=1, chunk_size=1,
                              characters=["grave"])  # running: not a chart yet
    assert selectors.matchup_job_in_use() == strong
    html = client.get(reverse("simulations:job", args=[strong.pk])).content.decode()
    assert f"#{strong.pk}: strong bot</h1>" in html
    assert "the chart the simulated seeding and the odds use" in html
    html = client.get(reverse("simulations:job", args=[later_random.pk])).content.decode()
    assert "random bot</h1>" in html and "the odds use" not in html


@pytest.mark.django_db(transaction=True)
def test_the_command_plays_the_best_bot_and_says_so(tmp_path, capsys) -> None:
    import io

    out, err = tmp_path / "chart.json", io.StringIO()
    call_command("simulate_matchups", "--games-per-pair", "1", "--characters", "grave",
                 "--out", str(out), "--timeout", "60", stderr=err)
    data = json.loads(out.read_text())
    assert data["bot"] == "strong" and data["games"] == [[1]]
    assert "strong bot" in err.getvalue().splitlines()[0]
    assert "finished (strong bot)" in err.getvalue()


def test_chunks_keep_the_odd_seeds_half(django_capture_on_commit_callbacks) -> None:
    job = make_job(django_capture_on_commit_callbacks, games=5, chunk=3, chars=["grave", "troq"])
    # chunk 1 of grave v troq: seeds 3 (odd offset) and 4 (even)
    chunk = job.chunks.get(p1="grave", p2="troq", index=1)
    odd_winner = play_game("grave", "troq", 3, bot="random")[0].outcome.winner
    assert chunk.odd_games == 1 and chunk.games == 2
    assert (chunk.odd_p1_wins, chunk.odd_p2_wins, chunk.odd_draws) == (
        int(odd_winner is PlayerId.P1), int(odd_winner is PlayerId.P2), int(odd_winner is None))
    assert sum(c.odd_games for c in job.chunks.all()) == 4 * 2  # seeds 1 and 3 of each pair
    assert selectors.matchup_job_chart(job=job).reliability is not None


def halves_job(odd_share: dict[tuple[str, str], tuple[int, int]] | None) -> MatchupJob:
    """Three characters, 20 games per seating; ``odd_share[(p1, p2)]``: P1's and P2's wins
    among the 10 odd-seed games (None: chunks stored before halves were kept)."""
    chars = ["grave", "jaina", "troq"]
    job = MatchupJob.objects.create(bot="strong", games_per_pair=20, chunk_size=20,
                                    characters=chars, status="finished")
    p1_wins = {("grave", "jaina"): 16, ("grave", "troq"): 12, ("jaina", "troq"): 6,
               ("jaina", "grave"): 4, ("troq", "grave"): 8, ("troq", "jaina"): 14}
    for p1 in chars:
        for p2 in chars:
            w1 = p1_wins.get((p1, p2), 10)
            odd = {}
            if odd_share is not None:
                o1, o2 = odd_share.get((p1, p2), (w1 // 2, 10 - w1 // 2))
                odd = {"odd_games": 10, "odd_p1_wins": o1, "odd_p2_wins": o2, "odd_draws": 0}
            MatchupChunk.objects.create(job=job, p1=p1, p2=p2, index=0, games=20, p1_wins=w1,
                                        p2_wins=20 - w1, draws=0, seconds=1, **odd)
    return job


def test_the_split_half_reliability_on_the_page_and_in_the_json(client) -> None:
    even_like_odd = halves_job({})  # each half has exactly half of every count
    rel = selectors.matchup_job_chart(job=even_like_odd).reliability
    assert rel is not None and rel.pairs == 3
    assert rel.cells == pytest.approx(1.0) and rel.averages == pytest.approx(1.0)
    # grave v jaina scores 10/10 in the even half, 6/10 in the odd: the halves disagree there
    noisy = halves_job({("grave", "jaina"): (6, 4), ("jaina", "grave"): (4, 6)})
    rel = selectors.matchup_job_chart(job=noisy).reliability
    # the cells above the diagonal: odd [6, 6, 3], even [10, 6, 3]
    assert rel is not None and rel.cells == pytest.approx(10 / 148 ** 0.5)
    page = client.get(reverse("simulations:job", args=[noisy.pk])).content.decode()
    assert f'data-split="cells">{rel.cells:.3f}</strong>' in page
    assert f'data-split="averages">{rel.averages:.3f}</strong>' in page
    data = client.get(reverse("simulations:job-chart-json", args=[noisy.pk])).json()
    assert data["split_half"]["cells"] == round(rel.cells, 3) and data["split_half"]["pairs"] == 3
    old = halves_job(None)
    assert selectors.matchup_job_chart(job=old).reliability is None
    page = client.get(reverse("simulations:job", args=[old.pk])).content.decode()
    assert "not known for this chart" in page


@pytest.mark.django_db(transaction=True)
def test_the_command_prints_the_split_half_reliability(tmp_path) -> None:
    import io

    err = io.StringIO()
    call_command("simulate_matchups", "--games-per-pair", "4", "--characters",
                 "grave,troq,jaina", "--bot", "random", "--out", str(tmp_path / "c.json"),
                 "--timeout", "120", stderr=err)
    job = MatchupJob.objects.get()
    rel = selectors.matchup_job_chart(job=job).reliability
    assert rel is not None and rel.pairs == 3
    line = next(x for x in err.getvalue().splitlines() if x.startswith("split-half"))
    shown = "n/a" if rel.cells is None else f"{rel.cells:.3f}"
    assert f"cells r = {shown} over 3 pairs" in line
