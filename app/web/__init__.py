"""The reference web client's built files (`static/`), served at `/` by `app.api.web`.

Data only: the page's TypeScript source is `web/` at the repository root, bundled into `static/`
by `npm run build` there; the bundle is committed so that running the server never needs Node
(`tests/web/test_build.py` fails when it is stale).
"""
