"""Prometheus metrics, in a registry per app (several apps in one test process never collide).

HTTP requests are counted and timed by route template (never by raw path); the service reports
matches created, actions appended and version conflicts through `ServiceMetrics`. Counters kept as
plain ints on hot paths (the live hub, the streams) are read at scrape time through `watch`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.gc_collector import GCCollector
from prometheus_client.process_collector import ProcessCollector

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class Metrics:
    def __init__(self) -> None:
        # Labelled children by (metric, label values): `labels()` costs more than the increment
        # itself, and the label values are few (routes, statuses, games, close codes).
        self._labelled: dict[tuple[object, tuple[str, ...]], object] = {}
        self.registry = CollectorRegistry()
        ProcessCollector(registry=self.registry)
        GCCollector(registry=self.registry)
        self.requests = Counter(
            "drago_http_requests_total",
            "HTTP requests by method, route template and status.",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "drago_http_request_duration_seconds",
            "HTTP request latency by method and route template.",
            ["method", "route"],
            registry=self.registry,
        )
        self.matches_created = Counter(
            "drago_matches_created_total", "Matches created.", ["game"], registry=self.registry
        )
        self.actions_appended = Counter(
            "drago_actions_appended_total",
            "Actions appended (human or server bot).",
            ["game", "bot"],
            registry=self.registry,
        )
        self.conflicts = Counter(
            "drago_version_conflicts_total",
            "Appends that lost a race for the next seq.",
            ["game"],
            registry=self.registry,
        )
        self.stream_closes = Counter(
            "drago_stream_closes_total",
            "Live streams ended, by close code ('client': the client closed or vanished).",
            ["code"],
            registry=self.registry,
        )
        self._watched = _Watched()
        self.registry.register(self._watched)

    def watch(self, prefix: str, source: Callable[[], Mapping[str, int]], gauges: Iterable[str] = ()) -> None:
        """Export `source()` at each scrape as `<prefix>_<name>`: gauges as named, else counters."""
        self._watched.sources.append((prefix, source, frozenset(gauges)))

    def stream_closed(self, code: str) -> None:
        self._child(self.stream_closes, code).inc()

    # ServiceMetrics
    def match_created(self, game: str) -> None:
        self._child(self.matches_created, game).inc()

    def action_appended(self, game: str, bot: bool) -> None:
        self._child(self.actions_appended, game, "true" if bot else "false").inc()

    def version_conflict(self, game: str) -> None:
        self._child(self.conflicts, game).inc()

    def observe(self, method: str, route: str, status: int, seconds: float) -> None:
        self._child(self.requests, method, route, str(status)).inc()
        self._child(self.latency, method, route).observe(seconds)

    def _child(self, metric: Any, *labels: str) -> Any:
        """`metric.labels(*labels)`, looked up once per (metric, labels)."""
        key = (metric, labels)
        child = self._labelled.get(key)
        if child is None:
            child = self._labelled[key] = metric.labels(*labels)
        return child

    def render(self) -> bytes:
        result: bytes = generate_latest(self.registry)
        return result


class _Watched:
    """A collector over plain-int counters, read when Prometheus scrapes."""

    def __init__(self) -> None:
        self.sources: list[tuple[str, Callable[[], Mapping[str, int]], frozenset[str]]] = []

    def collect(self) -> Iterator[Metric]:
        for prefix, source, gauges in self.sources:
            for name, value in sorted(source().items()):
                metric = f"{prefix}_{name}"
                if name in gauges:
                    yield GaugeMetricFamily(metric, f"{prefix} {name} (now).", value=value)
                else:
                    yield CounterMetricFamily(metric, f"{prefix} {name} (since start).", value=value)
