# Game server image: a virtual environment built in one stage, copied into a slim non-root runtime.
# `python -m app` runs the Alembic migrations, then uvicorn (one worker) on $DRAGO_PORT or $PORT;
# `python -m app migrate` only migrates (a separate job). Versions are pinned by constraints.txt.
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md constraints.txt ./
COPY app ./app
COPY migrations ./migrations
RUN python -m venv /opt/venv && /opt/venv/bin/pip install --no-cache-dir -c constraints.txt .

FROM python:3.11-slim
RUN groupadd --gid 10001 drago && useradd --create-home --uid 10001 --gid 10001 drago && mkdir /data && chown 10001:10001 /data
COPY --from=build /opt/venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PORT=8000 \
    DATABASE_URL=sqlite+aiosqlite:////data/drago.db
USER 10001:10001
WORKDIR /home/drago
EXPOSE 8000
VOLUME ["/data"]
HEALTHCHECK --interval=30s --timeout=5s CMD ["python", "-m", "app", "healthcheck"]
CMD ["python", "-m", "app"]
