# The casino server. Data (the SQLite ledger) lives on the /data volume.
#   docker build -t casino .
#   docker run -p 4000:4000 -p 4080:4080 -v casino-data:/data casino
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY server ./server
# compiled here, once: PYTHONDONTWRITEBYTECODE keeps the image read-only, and without
# .pyc files every game process a restart starts compiles the casino again (~0.2 s)
RUN pip install --no-cache-dir . \
 && python -m compileall -q /app/server \
 && useradd --system --create-home --uid 10001 casino \
 && mkdir -p /data && chown casino:casino /data
COPY config ./config
COPY rooms ./rooms

USER casino
VOLUME ["/data"]
EXPOSE 4000 4080
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD python -c "import socket; socket.create_connection(('127.0.0.1', 4000), 3).close()"
STOPSIGNAL SIGTERM
# The pid file on /data (the user cannot write under /app): `docker exec <container>
# casino restart --pid-file /data/casino.pid` restarts the game process, nobody disconnected.
CMD ["casino", "serve", "--host", "0.0.0.0", "--port", "4000", "--config", "/app/config", "--rooms", "/app/rooms", "--data", "/data/casino.db", "--pid-file", "/data/casino.pid"]
