"""Pages of the accounts app: sign-up and confirmation, profile, personal API tokens."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from accounts import selectors, services
from accounts.forms import ApiTokenForm, ConfirmationResendForm, ProfileForm, SignUpForm
from matches.ratelimits import name_key, rate_limit_hit


def _form_errors(form: object, exc: ValidationError) -> None:
    if hasattr(exc, "error_dict"):
        for field, errors in exc.error_dict.items():
            for error in errors:
                form.add_error(field, error)  # type: ignore[attr-defined]
    else:
        form.add_error(None, exc)  # type: ignore[attr-defined]


@require_http_methods(["GET", "POST"])
def sign_up(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("accounts:profile")
    form = SignUpForm(request.POST or None)
    status = 200
    if request.method == "POST":
        limited = rate_limit_hit(request, name="signup_ip", key="ip")
        if limited is not None:
            # an unbound form: validating the one sent would say whether its username or
            # address is taken, to a caller over the limit
            form = SignUpForm(initial={"username": request.POST.get("username", "")})
            form.cleaned_data = {}
            form.add_error(None, f"Too many sign-ups from your address (limit {limited.rate}); "
                                 f"try again in {limited.retry_after} seconds.")
            response = render(request, "accounts/signup.html", {"form": form}, status=429)
            response["Retry-After"] = str(limited.retry_after)
            return response
        if form.is_valid():
            try:
                user = services.user_sign_up(
                    username=form.cleaned_data["username"], email=form.cleaned_data["email"],
                    password=form.cleaned_data["password1"],
                    display_name=form.cleaned_data["display_name"],
                    site_url=request.build_absolute_uri("/"),
                )
            except ValidationError as exc:
                _form_errors(form, exc)
            else:
                if user.is_active:
                    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                    messages.success(request, f"Welcome, {form.cleaned_data['display_name']}!")
                    return redirect("accounts:profile")
                # the mail is owed, sent by the workers after the commit: on its way either way
                return render(request, "accounts/signup_done.html", {"email": user.email})
        status = 400
    return render(request, "accounts/signup.html", {"form": form}, status=status)


@require_http_methods(["GET", "POST"])
def confirmation_resend(request: HttpRequest) -> HttpResponse:
    """Ask for the confirmation mail again (the first was lost, or its link expired): counted
    per address and per e-mail address asked for; the answer is the same whether an account
    waits for that address or not."""
    form = ConfirmationResendForm(request.POST or None)
    if request.method == "POST":
        for name, key in (("resend_ip", "ip"), ("resend_email", name_key("email"))):
            limited = rate_limit_hit(request, name=name, key=key)
            if limited is not None:
                form = ConfirmationResendForm()
                form.cleaned_data = {}  # not validated: nothing about the address is said
                form.add_error(None, f"Too many confirmation mails asked for (limit "
                                     f"{limited.rate}); try again in {limited.retry_after} "
                                     "seconds.")
                response = render(request, "accounts/confirmation_resend.html", {"form": form},
                                  status=429)
                response["Retry-After"] = str(limited.retry_after)
                return response
        if form.is_valid():
            services.confirmation_mail_queue(email=form.cleaned_data["email"],
                                             site_url=request.build_absolute_uri("/"))
            return render(request, "accounts/confirmation_resend_done.html",
                          {"email": form.cleaned_data["email"]})
        return render(request, "accounts/confirmation_resend.html", {"form": form}, status=400)
    return render(request, "accounts/confirmation_resend.html", {"form": form})


def activate(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    user = services.user_activate(uidb64=uidb64, token=token)
    if user is None:
        return render(request, "accounts/activation_invalid.html", status=400)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, "Your e-mail address is confirmed and your account is active.")
    return redirect("accounts:profile")


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    current = selectors.profile_initial(user=request.user)
    form = ProfileForm(request.POST or None, initial=current)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.profile_update(user=request.user, **form.cleaned_data)
            except ValidationError as exc:
                _form_errors(form, exc)
            else:
                messages.success(request, "Profile saved.")
                return redirect("accounts:profile")
        status = 400
    return render(request, "accounts/profile.html", {
        "form": form, "player": selectors.player_of(user=request.user),
    }, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def api_tokens(request: HttpRequest) -> HttpResponse:
    form = ApiTokenForm(request.POST or None)
    status, new_key = 200, None
    if request.method == "POST":
        if form.is_valid():
            try:
                _token, new_key = services.api_token_create(
                    user=request.user, name=form.cleaned_data["name"]
                )
            except ValidationError as exc:
                _form_errors(form, exc)
                status = 400
            else:
                form = ApiTokenForm()
                status = 201
        else:
            status = 400
    response = render(request, "accounts/api_tokens.html", {
        "form": form, "tokens": selectors.api_tokens_of(user=request.user), "new_key": new_key,
    }, status=status)
    # the key is shown once: never from a cache or the browser's history
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def api_token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    token = selectors.api_token_of(user=request.user, token_id=token_id)
    if token is None:
        return render(request, "accounts/api_token_missing.html", status=404)
    if request.method == "POST":
        services.api_token_revoke(user=request.user, token_id=token.pk)
        messages.success(request, f"Token “{token.name}” revoked; it no longer works.")
        return redirect("accounts:api-tokens")
    return render(request, "accounts/api_token_revoke.html", {"token": token})
