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
CMD ["paiju", "serve", "--config", "configs/server.toml", "--host", "0.0.0.0", "--port", "8765", "--database", "var/paiju.sqlite3"]
