# Image for the web server, the Celery worker and Celery beat (docker-compose.yml).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

RUN groupadd --system decodoku && useradd --system --gid decodoku --home-dir /app decodoku

COPY requirements.txt .
# requirements.txt is a lock file: every package pinned and hashed.
RUN pip install --require-hashes --requirement requirements.txt

COPY . .

# Collect, hash and compress static files into /app/staticfiles (no SECRET_KEY
# is needed for this; the containers get theirs at run time).
RUN DEBUG=0 python manage.py collectstatic --noinput \
    && chown -R decodoku:decodoku /app

USER decodoku

EXPOSE 8000

HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://localhost:8000/healthz', timeout=4).status != 200)"]

# Apply pending migrations, then serve. WEB_CONCURRENCY sets gunicorn's worker
# count. Threaded workers, because a sync worker that streams one CSV export
# for longer than --timeout is killed mid-download; with threads the worker
# keeps answering its heartbeat while a thread streams, and the other threads
# keep serving moves. The worker class is gunicorn's gthread plus two threads
# that serve /healthz alone, so that probes are answered while every request
# thread waits (decodoku_site.gunicorn_worker). --limit-request-line above the
# longest URL the site reads (decodoku_site.errors.MAX_URL_LENGTH), so that the
# API itself answers 414 in JSON.
CMD ["sh", "-c", "python manage.py migrate --noinput && exec gunicorn decodoku_site.wsgi --bind 0.0.0.0:8000 --limit-request-line 8190 --workers ${WEB_CONCURRENCY:-3} --worker-class decodoku_site.gunicorn_worker.HealthzThreadWorker --threads ${WEB_THREADS:-4} --access-logfile -"]
