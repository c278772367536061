FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY yomi_site yomi_site
COPY health health
COPY matches matches
COPY tournaments tournaments
COPY stats stats
COPY rooms rooms
COPY rules_engine rules_engine
COPY templates templates
COPY static static
COPY manage.py ./
# Editable, so that imports, templates and static files all resolve from /app.
RUN pip install --no-cache-dir -e .
RUN useradd --create-home yomi && chown -R yomi /app
USER yomi
EXPOSE 8000
