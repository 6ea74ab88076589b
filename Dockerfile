# Two stages: dependencies (cached until pyproject.toml changes), then the source; a slim runtime
# image runs `opportunist run` as a non-root user with the database on the /data volume.

FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
WORKDIR /src

# 1. Runtime dependencies only, read from pyproject.toml: this layer survives source changes.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt

# 2. The source, installed without touching the dependencies again.
COPY README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY rules ./rules
COPY storage ./storage
COPY render ./render
RUN pip install --no-deps .


FROM python:3.11-slim
RUN useradd --create-home --uid 10001 opportunist \
    && mkdir /data && chown opportunist:opportunist /data
COPY --from=build /opt/venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    OPPORTUNIST_DB=/data/opportunist.sqlite3
VOLUME ["/data"]
USER opportunist
WORKDIR /home/opportunist
# SIGTERM (docker stop) closes the database and exits 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["opportunist", "run"]
