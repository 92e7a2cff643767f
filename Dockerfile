# The same steps as `make serve`: install the package, serve on the configured port with the
# SQLite file under /app/var (mount a volume there to keep rooms across containers).
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY src ./src
COPY configs ./configs
RUN python -m pip install --no-cache-dir .
RUN mkdir -p var
EXPOSE 8765
STOPSIGNAL SIGTERM
# Cleartext inside the container (public_cleartext, announced by a warning at start): publish it
# only to the host's loopback for a TLS proxy (docker run -p 127.0.0.1:8765:8765 ...), or mount a
# certificate and set tls_cert_file/tls_key_file. Never -p 8765:8765 on a public address:
# tokens would travel in clear. See docs/security.md.
CMD ["paiju", "serve", "--config", "configs/server.toml", "--host", "0.0.0.0", "--port", "8765", "--database", "var/paiju.sqlite3", "--set", "public_cleartext=true"]
