"""`python -m app`: serve the API with uvicorn (one worker) on the configured host and port."""

from __future__ import annotations

import gc

import uvicorn

from app.main import create_app
from app.settings import Settings

# The server allocates many short-lived objects per request (views, JSON). Collecting the youngest
# generation less often, and keeping the modules and app built at start-up out of every later
# collection (gc.freeze), cuts the collector's share of CPU and its pauses in the latency tail.
GC_THRESHOLDS = (20_000, 50, 100)


def main() -> None:
    settings = Settings()
    app = create_app(settings)
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        workers=1,
        ws_per_message_deflate=False,
        access_log=False,  # the app logs each request itself, without query strings (tokens)
        log_config=None,  # keep the JSON logging `create_app` configured
        proxy_headers=True,
    )


if __name__ == "__main__":
    main()
