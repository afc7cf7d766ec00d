"""The client's address behind a proxy: `X-Forwarded-For` and `Forwarded` from trusted peers only.

A load balancer connects to the server itself, so every request's peer address is the proxy's; the
address of the real client is in a header the proxy adds. `ForwardedFor` (the outermost ASGI
layer) replaces `scope["client"]` with that address when, and only when, the peer is one of
`DRAGO_TRUSTED_PROXIES` (addresses or networks, default loopback). Everything that names the
client — the rate limits' per-address budgets, the access log — reads `scope["client"]`, so they all
see the same address.

Which address: the header's list is read from the right (the hop nearest to the server) and the
first address that is not a trusted proxy is the client; when every hop is trusted, the leftmost.
`Forwarded` (RFC 7239) wins over `X-Forwarded-For` when both are present. A header that cannot be
read — an element that is not an IP address (`unknown`, an obfuscated `_name`, garbage), an empty
element — is ignored as a whole and the peer's address is kept: a half-understood chain would let a
client choose its own address. A header from an untrusted peer is always ignored.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Sequence

from starlette.types import ASGIApp, Receive, Scope, Send

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

_FOR = re.compile(r'(?i)^\s*for\s*=\s*(?:"([^"]*)"|([^;,"\s]*))\s*$')


def parse_networks(values: Iterable[str]) -> tuple[Network, ...]:
    """The networks of `DRAGO_TRUSTED_PROXIES` (validated by `app.settings`: a value that is not an
    address or a network stops the server at start with the reason)."""
    return tuple(ipaddress.ip_network(v.strip(), strict=False) for v in values if v.strip())


def _address(text: str) -> Address | None:
    """An IP address from a header element (`1.2.3.4`, `1.2.3.4:80`, `[::1]`, `[::1]:80`, `::1`)."""
    text = text.strip()
    if text.startswith("["):
        host, bracket, _ = text[1:].partition("]")
        if not bracket:
            return None
        text = host
    elif text.count(":") == 1:  # IPv4 with a port
        text = text.partition(":")[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _forwarded_chain(values: Sequence[str]) -> list[Address] | None:
    """The `for=` addresses of `Forwarded` headers, oldest hop first; None when unreadable."""
    chain: list[Address] = []
    for value in values:
        for element in value.split(","):
            found = None
            for pair in element.split(";"):
                match = _FOR.match(pair)
                if match is not None:
                    found = _address(match.group(1) if match.group(1) is not None else match.group(2))
                    if found is None:
                        return None
            if found is None:  # an element without a `for=` cannot be placed in the chain
                return None
            chain.append(found)
    return chain


def _x_forwarded_chain(values: Sequence[str]) -> list[Address] | None:
    chain: list[Address] = []
    for value in values:
        for element in value.split(","):
            found = _address(element)
            if found is None:
                return None
            chain.append(found)
    return chain


class TrustedProxies:
    """Which peers may name the client, and the client they name."""

    def __init__(self, networks: Sequence[Network]) -> None:
        self.networks = tuple(networks)

    def trusts(self, address: Address | str) -> bool:
        try:
            ip = ipaddress.ip_address(address) if isinstance(address, str) else address
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip.version == n.version and ip in n for n in self.networks)

    def client(self, peer: str, forwarded: Sequence[str], x_forwarded_for: Sequence[str]) -> str:
        """The client's address for a request from `peer` with these header values."""
        if not self.trusts(peer):
            return peer
        if forwarded:
            chain = _forwarded_chain(forwarded)
        elif x_forwarded_for:
            chain = _x_forwarded_chain(x_forwarded_for)
        else:
            return peer
        if not chain:
            return peer
        for hop in reversed(chain):
            if not self.trusts(hop):
                return str(hop)
        return str(chain[0])


class ForwardedFor:
    """ASGI middleware: `scope["client"]` becomes the address a trusted proxy forwarded."""

    def __init__(self, app: ASGIApp, proxies: TrustedProxies) -> None:
        self.app = app
        self.proxies = proxies

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            peer = scope.get("client")
            if peer:
                forwarded: list[str] = []
                x_forwarded_for: list[str] = []
                for name, value in scope.get("headers", ()):
                    if name == b"forwarded":
                        forwarded.append(value.decode("latin-1"))
                    elif name == b"x-forwarded-for":
                        x_forwarded_for.append(value.decode("latin-1"))
                if forwarded or x_forwarded_for:
                    client = self.proxies.client(str(peer[0]), forwarded, x_forwarded_for)
                    if client != peer[0]:
                        scope = {**scope, "client": (client, 0)}
        await self.app(scope, receive, send)
