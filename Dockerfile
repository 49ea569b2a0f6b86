# boostlab for a classroom: one container serves the app to every student on the network.
#
#   docker build -t boostlab .
#   docker run --rm -p 8501:8501 boostlab          # then open http://<this machine's IP>:8501
#
# Runtime dependencies only (requirements.txt); no tests, no dev tools, no browser.
# See docs/classroom-server.md for sizing, the shared cache and warming it before class.
# Pinned by version (Python 3.11.7, Debian bookworm: the interpreter the tests run on), so a
# rebuild next term gets the same base; bump it deliberately.
FROM python:3.11.7-slim-bookworm

# No usage statistics, no file watcher (the code does not change in class), and no welcome
# banner: with --server.address 0.0.0.0 it asks checkip.amazonaws.com for an "External URL"
# and its "Local URL" is the container's own address anyway.
ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    STREAMLIT_BROWSER_GATHER_USAGE_STATS=false \
    STREAMLIT_SERVER_HEADLESS=true \
    STREAMLIT_SERVER_RUN_ON_SAVE=false \
    STREAMLIT_SERVER_FILE_WATCHER_TYPE=none \
    STREAMLIT_LOGGER_HIDE_WELCOME_MESSAGE=true

WORKDIR /app

# Dependencies first, so that editing the app does not reinstall them.
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt

# The app: the router, the pages, the UI helpers, the algorithm core, the shipped datasets,
# the committed benchmark results the benchmark page reads, and the Streamlit config.
COPY app.py serve.py LICENSE ./
COPY .streamlit/config.toml .streamlit/config.toml
COPY views/ views/
COPY server/ server/
COPY ui/ ui/
COPY boostcore/ boostcore/
COPY docs/ docs/
COPY assets/ assets/
COPY benchmarks/results/ benchmarks/results/

# Compile once at build time (the app files stay root-owned and read-only for the server),
# put plotly.js where the lecture views load it from (static/, served at app/static/; the
# server could not write it there as the unprivileged user), then run as that user.
RUN python -m compileall -q /app \
    && python -c "from ui.lecture import ensure_plotly_js; ensure_plotly_js()" \
    && useradd --create-home --uid 10001 --user-group --shell /usr/sbin/nologin boostlab
USER boostlab

EXPOSE 8501

# slim has no curl: ask the health endpoint with the interpreter that is already there.
HEALTHCHECK --interval=30s --timeout=5s --start-period=40s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; r = urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4); sys.exit(0 if r.read().strip() == b'ok' else 1)"]

CMD ["streamlit", "run", "serve.py", "--server.address", "0.0.0.0", "--server.port", "8501", "--server.headless", "true"]
