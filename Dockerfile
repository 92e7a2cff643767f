# paiju in a container. Two stages: the first builds the wheel, the second installs it (with its
# dependencies) into a slim image that runs as an unprivileged user; the rooms live in the data
# volume /var/lib/paiju. Every setting comes from the environment (PAIJU_<SETTING>, see
# docs/operations.md); mount a TOML file and set PAIJU_CONFIG to use one.
#
#   docker build -t paiju .
#   docker run -p 127.0.0.1:8765:8765 -v paiju-data:/var/lib/paiju paiju
#
# Cleartext inside the container (PAIJU_PUBLIC_CLEARTEXT=true, announced by a warning at start):
# publish it only to the host's loopback for a TLS proxy, or mount a certificate and set
# PAIJU_TLS_CERT_FILE / PAIJU_TLS_KEY_FILE. Never -p 8765:8765 on a public address: tokens
# would travel in clear (docs/security.md). The metrics listener (9100) has no token: publish
# it only to the monitoring network.

FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY src ./src
RUN python -m pip wheel --no-cache-dir --no-deps --wheel-dir /dist .

FROM python:3.11-slim
COPY --from=build /dist /dist
RUN python -m pip install --no-cache-dir /dist/*.whl \
    && rm -rf /dist \
    && useradd --system --uid 10001 --user-group --home-dir /var/lib/paiju --create-home paiju
USER paiju
WORKDIR /var/lib/paiju
VOLUME ["/var/lib/paiju"]
ENV PYTHONUNBUFFERED=1 \
    PAIJU_HOST=0.0.0.0 \
    PAIJU_PORT=8765 \
    PAIJU_DATABASE=/var/lib/paiju/paiju.sqlite3 \
    PAIJU_ADMIN_TOKEN_FILE=/var/lib/paiju/admin.token \
    PAIJU_PUBLIC_CLEARTEXT=true \
    PAIJU_METRICS_HOST=0.0.0.0 \
    PAIJU_METRICS_PORT=9100
EXPOSE 8765 9100
# SIGTERM drains: hands in play finish (at most PAIJU_DRAIN_TIMEOUT, 120 s), then exit 0. Give
# `docker stop --time` (default 10 s) as long, or the rest is cut; a restart resumes it anyway.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 CMD ["paiju", "health"]
ENTRYPOINT ["paiju", "serve"]
