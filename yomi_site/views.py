"""Site-wide pages that belong to no single app."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.views import LoginView, PasswordResetView
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render

from accounts.services import password_reset_mail_queue
from matches.ratelimits import Limited, name_key, rate_limit_hit

SECTIONS = [
    ("Events", "tournaments:event-list", "Brackets, Swiss, round robin and leagues."),
    ("Players", "matches:player-list", "Everyone who plays here, with ratings and results."),
    ("Characters", "characters", "The 20 characters: cards, abilities and matchup statistics."),
    ("Matches", "matches:match-list", "Submitted match logs and the rules engine's verdicts."),
    ("Stats", "stats:index",
     "Matchup chart, character and player statistics, leaderboards from verified logs."),
    ("API", "api-docs", "The REST API, with its OpenAPI schema and browsable docs."),
]


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"sections": SECTIONS})



def login_limit_hit(request: HttpRequest) -> Limited | None:
    """Count a login attempt per address and per username tried; the limit it went over."""
    for name, key in (("login_ip", "ip"), ("login_username", name_key("username"))):
        limited = rate_limit_hit(request, name=name, key=key)
        if limited is not None:
            return limited
    return None


def _too_many(limited: Limited) -> str:
    return (f"Too many login attempts (limit {limited.rate}); "
            f"try again in {limited.retry_after} seconds.")


class RateLimitedLoginView(LoginView):
    """Django's login page, with every POST counted per address and per username tried.

    Over either limit (``YOMI_RATE_LIMITS`` "login_ip", "login_username") the password is not
    checked at all: the page answers 429 saying when to try again.
    """

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        limited = login_limit_hit(request)
        if limited is None:
            return super().post(request, *args, **kwargs)
        form = self.get_form_class()(request, data=request.POST)
        form.cleaned_data = {}  # not validated: the password is never checked
        form.add_error(None, _too_many(limited))
        response = self.render_to_response(self.get_context_data(form=form))
        response.status_code = 429
        response["Retry-After"] = str(limited.retry_after)
        return response


class RateLimitedPasswordResetView(PasswordResetView):
    """Django's password reset, counted per address and per e-mail address asked for
    (``YOMI_RATE_LIMITS`` "reset_ip", "reset_email"): over either, no mail is sent and the
    page says when to try again, the same whether the address has an account or not.

    The mail is not sent in the request: it is owed in the database and sent by the workers
    after the commit (``accounts.services.password_reset_mail_queue``), so a broker or mail
    server outage never turns the request into an error; the page after it says so.
    """

    def form_valid(self, form: Any) -> HttpResponse:
        password_reset_mail_queue(email=form.cleaned_data["email"],
                                  domain=self.request.get_host(),
                                  use_https=self.request.is_secure())
        return HttpResponseRedirect(self.get_success_url())

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        for name, key in (("reset_ip", "ip"), ("reset_email", name_key("email"))):
            limited = rate_limit_hit(request, name=name, key=key)
            if limited is not None:
                form = self.get_form_class()()
                form.cleaned_data = {}  # not validated: nothing about the address is said
                form.add_error(None, f"Too many password resets asked for (limit "
                                     f"{limited.rate}); try again in {limited.retry_after} "
                                     "seconds.")
                response = self.render_to_response(self.get_context_data(form=form))
                response.status_code = 429
                response["Retry-After"] = str(limited.retry_after)
                return response
        return super().post(request, *args, **kwargs)


def admin_login(request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
    """The admin's login, under the same limits (it checks passwords too)."""
    if request.method == "POST":
        limited = login_limit_hit(request)
        if limited is not None:
            response = HttpResponse(_too_many(limited), status=429, content_type="text/plain")
            response["Retry-After"] = str(limited.retry_after)
            return response
    return admin.site.login(request, extra_context)


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page links: send them to the site's icon
    (resolved at request time: the static manifest is not read when the URLs are imported)."""
    from django.http import HttpResponsePermanentRedirect
    from django.templatetags.static import static

    return HttpResponsePermanentRedirect(static("favicon.svg"))
