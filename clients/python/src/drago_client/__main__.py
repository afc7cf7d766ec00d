"""`python -m drago_client verify <server> <match>`: re-deal a finished match and check it (exit 0 if
verified, 1 with the first difference otherwise, 2 when the server reveals nothing).
See `drago_client.fairness`."""

from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.request
from typing import Any

from drago_client.fairness import verify


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as reply:  # noqa: S310 (the user names the server)
        return json.load(reply)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m drago_client")
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("verify", help="verify a finished match's deal and every later roll")
    check.add_argument("server", help="the server's base URL, e.g. http://127.0.0.1:8000")
    check.add_argument("match", help="the match id")
    args = parser.parse_args(argv)
    base = args.server.rstrip("/")
    try:
        reveal = _get(f"{base}/v1/matches/{args.match}/reveal")
        catalogue = _get(f"{base}/v1/games/{reveal['game']}")["catalogue"]
    except urllib.error.HTTPError as e:  # e.g. 409: the match is not over, nothing is revealed yet
        print(f"{args.match}: the server answered {e.code}: {e.read().decode('utf-8', 'replace')}")
        return 2
    verdict = verify(reveal, catalogue)
    if verdict.ok:
        print(f"{args.match}: deal verified ({verdict.algorithm})")
        return 0
    print(f"{args.match}: {verdict.field}: {verdict.message}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
