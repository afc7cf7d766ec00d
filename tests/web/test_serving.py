"""The server serves the web client: the page at `/`, its assets under `/app/`, nothing from elsewhere.

The app is reached in-process (no lifespan is needed for static files); the docs and the OpenAPI
document must still be served beside the page.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import httpx
import pytest

from app.api.web import ASSETS, static_dir
from app.main import create_app
from app.settings import Settings

URL = re.compile(r"""(?:src|href)=["']([^"']+)["']""")


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(Settings(database_url="memory://", log_level="WARNING"))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as http:
        yield http


async def test_the_page_is_served_at_the_root_with_a_same_origin_policy(client: httpx.AsyncClient) -> None:
    page = await client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    policy = page.headers["content-security-policy"]
    assert "default-src 'none'" in policy
    for directive in ("script-src", "style-src", "connect-src"):
        assert f"{directive} 'self'" in policy
    assert '<div id="app"' in page.text
    head = await client.head("/")
    assert head.status_code == 200


async def test_every_asset_the_page_names_is_served_from_this_origin(client: httpx.AsyncClient) -> None:
    page = (await client.get("/")).text
    links = URL.findall(page)
    assets = [link for link in links if link.startswith(f"{ASSETS}/")]
    assert {f"{ASSETS}/app.js", f"{ASSETS}/style.css"} <= set(assets)
    for link in links:
        assert link.startswith(("/", "#", "data:")), f"{link} is not on this origin"
    for asset in assets:
        reply = await client.get(asset)
        assert reply.status_code == 200, asset
    script = await client.get(f"{ASSETS}/app.js")
    assert script.headers["content-type"].startswith(("text/javascript", "application/javascript"))


def test_the_built_files_name_no_other_host() -> None:
    for path in static_dir().iterdir():
        text = path.read_text(encoding="utf-8")
        # the SVG namespace is a name, never fetched
        assert not re.search(r"https?://(?!127\.0\.0\.1|localhost|www\.w3\.org/2000/svg\b)", text), (
            f"{path.name} names another host"
        )
        assert "//fonts." not in text and "@import" not in text


async def test_the_api_and_its_docs_are_still_served_beside_the_page(client: httpx.AsyncClient) -> None:
    for path in ("/docs", "/redoc", "/openapi.json", "/docs/assets/swagger-ui-bundle.js"):
        assert (await client.get(path)).status_code == 200, path
    document = (await client.get("/openapi.json")).json()
    assert "/" not in document["paths"]
    assert not any(path.startswith(ASSETS) for path in document["paths"])


async def test_unknown_asset_and_path_escape_are_404(client: httpx.AsyncClient) -> None:
    assert (await client.get(f"{ASSETS}/nope.js")).status_code == 404
    assert (await client.get(f"{ASSETS}/../__init__.py")).status_code == 404
    assert (await client.get(f"{ASSETS}/%2e%2e/__init__.py")).status_code == 404
