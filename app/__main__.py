"""`python -m app`: serve the API with uvicorn (one worker) on the configured host and port."""

from __future__ import annotations

import uvicorn

from app.main import create_app
from app.settings import Settings


def main() -> None:
    settings = Settings()
    uvicorn.run(
        create_app(settings),
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
