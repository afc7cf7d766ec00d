"""Exact statistics for the sampler tests, standard library only: the chi-square tail and a
binomial bound, so that statistical tests run at a fixed seed and never flake."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Mapping


def chi_square_sf(x: float, df: int) -> float:
    """P(X ≥ x) for X chi-square with `df` degrees of freedom (regularized upper gamma Q(df/2, x/2))."""
    a, z = df / 2, x / 2
    if z <= 0:
        return 1.0
    if z < a + 1:  # series for the lower function P, then Q = 1 - P
        term = total = 1 / a
        n = a
        while term > total * 1e-15:
            n += 1
            term *= z / n
            total += term
        return max(0.0, 1 - total * math.exp(-z + a * math.log(z) - math.lgamma(a)))
    # continued fraction for Q (modified Lentz)
    tiny = 1e-300
    b = z + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return h * math.exp(-z + a * math.log(z) - math.lgamma(a))


def chi_square_p(observed: Counter[Hashable], expected: Mapping[Hashable, float]) -> float:
    """p-value of observed counts against exact probabilities `expected` (summing to 1); cells
    with small expectations are pooled so that every cell expects at least 5."""
    n = sum(observed.values())
    assert set(observed) <= set(expected), "a sample outside the support"
    cells: list[tuple[float, int]] = []
    pooled_e, pooled_o = 0.0, 0
    for key, p in sorted(expected.items(), key=lambda kv: kv[1]):  # the rarest cells pool first
        pooled_e += n * p
        pooled_o += observed[key]
        if pooled_e >= 5:
            cells.append((pooled_e, pooled_o))
            pooled_e, pooled_o = 0.0, 0
    if pooled_e and cells:
        e, o = cells.pop()
        cells.append((e + pooled_e, o + pooled_o))
    assert len(cells) >= 2
    stat = sum((o - e) ** 2 / e for e, o in cells)
    return chi_square_sf(stat, len(cells) - 1)


def binomial_upper(n: int, p: float, sigmas: float = 5.0) -> float:
    """A generous upper bound on a Binomial(n, p) count (mean plus `sigmas` deviations)."""
    return n * p + sigmas * math.sqrt(n * p * (1 - p)) + 1
