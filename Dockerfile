# syntax=docker/dockerfile:1
# The production image (docs/deploy.md): the project installed from its wheel, with the rules
# engine's compiled build inside it. The C compiler and mypy live only in the build stage.
# tests/yomi_site/test_dockerfile.py checks these steps against the project (no Docker in CI);
# .ci/smoke.py builds and installs the same wheel and runs the site from it.
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
# mypyc (part of mypy) and the build frontend, as the dev extras name them
RUN pip install --no-cache-dir "mypy>=1.11" "build>=1.2"
WORKDIR /src
COPY . .
# The compiled engine into rules_engine/_compiled (what `make compile` runs), then the sdist and
# the wheel built from it (what .ci/smoke.py runs): the wheel carries the compiled build, which
# needs nothing installed beside it (mypyc's runtime is compiled into its shared library).
RUN python -m rules_engine.tools.compile
RUN python -m build --outdir /dist .

FROM ${PYTHON_IMAGE} AS runtime
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DJANGO_SETTINGS_MODULE=yomi_site.settings \
    STATIC_ROOT=/app/staticfiles \
    YOMI_ENGINE=compiled
COPY --from=build /dist /tmp/dist
# Not editable: the package and its dependencies in site-packages, nothing else of the tree.
RUN pip install --no-cache-dir /tmp/dist/*.whl \
 && rm -rf /tmp/dist \
 && useradd --create-home --uid 1000 yomi
WORKDIR /app
# The static files, gathered and hashed at build time (whitenoise serves them from STATIC_ROOT).
# The settings need a key to load: a throwaway one, for this step only.
# YOMI_ENGINE=compiled: importing the engine fails here if its compiled build is not usable.
RUN DEBUG=0 SECRET_KEY=collectstatic-only-not-a-secret django-admin collectstatic --noinput \
 && python -c "import rules_engine; print('rules engine:', rules_engine.BUILD)"
USER yomi
EXPOSE 8000
# web by default; docker-compose.yml runs the migrations, the workers and beat from this image
CMD ["daphne", "-b", "0.0.0.0", "-p", "8000", "--websocket-max-message-size", "65536", "yomi_site.asgi:application"]
