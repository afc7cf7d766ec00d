"""The plain batch append reaches the rows of its matches through the primary key, never by reading
the matches table whole (checked with EXPLAIN of the generic plan PostgreSQL caches for the
prepared statement, never timed): a batch of a few appends must cost the same beside 5,000 matches
as beside 5. The planner sees only the statement, not how many appends a batch holds, so this guards
the estimate its input gets (`unnest` of arrays, here split from texts: 10 rows; a JSON document's
recordset would be taken for 100 and joined to `matches` by a whole-table scan up to thousands of
matches). The keyed batch probes the primary key of the kept idempotency keys with a plan made
when none was kept yet, as on a new database (a join to them was planned from the statistics of
the empty table, as a scan of every key kept: its cost grew with each action written)."""

from __future__ import annotations

import pytest

from app.store.postgres_sql import (
    APPEND_KEYED_BATCH,
    APPEND_PLAIN_BATCH,
    key_args,
    plain_args,
    plain_batch_args,
)

from .records import append, events, idem
from .seeding import plan_scans, seeded_postgres

MATCHES = 5_000
SEED_SEATS = f"""
INSERT INTO seats (match_id, seat, bot) SELECT 'lobby-' || i, 0, false FROM generate_series(1, {MATCHES}) AS i
"""
SEED_KEYS = f"""
INSERT INTO idempotency_keys (match_id, seat, key, request_hash, first_seq, last_seq, created_at)
SELECT 'lobby-' || i, 0, 'key-' || i, 'hash', 1, 1, now() FROM generate_series(1, {MATCHES}) AS i
"""


@pytest.mark.postgres
@pytest.mark.parametrize("keyed", [False, True], ids=["plain", "keyed"])
async def test_postgres_plain_batch_reads_matches_by_their_key(fresh_postgres_url: str, keyed: bool) -> None:
    async with seeded_postgres(fresh_postgres_url, MATCHES) as conn:
        await conn.execute("SET plan_cache_mode = force_generic_plan")  # what a reused statement gets
        await conn.execute(f"PREPARE batch AS {APPEND_KEYED_BATCH if keyed else APPEND_PLAIN_BATCH}")
        appends = [append(f"lobby-{i}", 0, events(1, 2), idempotency=idem(f"lobby-{i}")) for i in (1, 2)]
        batch = [plain_args(a) for a in appends]
        args = plain_batch_args(batch, [key_args(a) for a in appends] if keyed else ())
        assert args is not None
        literals = [  # EXPLAIN EXECUTE takes no bound parameters: PostgreSQL writes each as a literal
            await conn.fetchval("SELECT quote_literal($1::text)", value) for value in args
        ]
        explain = f"EXPLAIN (FORMAT JSON) EXECUTE batch({', '.join(literals)})"
        if keyed:
            # The plan is made with no key kept yet (as a server's first batches on a new database
            # are) and reused while thousands are written, the table's statistics not yet taken.
            await conn.fetchval(explain)
            await conn.execute(SEED_SEATS)
            await conn.execute(SEED_KEYS)
        nodes = plan_scans(await conn.fetchval(explain))
        assert ("Seq Scan", "matches") not in nodes
        assert ("Index Scan", "matches") in nodes
        if keyed:
            assert ("Seq Scan", "idempotency_keys") not in nodes
            assert {("Index Scan", "idempotency_keys"), ("Index Only Scan", "idempotency_keys")} & nodes
