"""The plain batch append reaches the rows of its matches through the primary key, never by reading
the matches table whole (checked with EXPLAIN of the generic plan PostgreSQL caches for the
prepared statement, never timed): a batch of a few appends must cost the same beside 5,000 matches
as beside 5. The planner sees only the statement, not how many appends a batch holds, so this guards
the estimate its input gets (`unnest` of arrays, here split from texts: 10 rows; a JSON document's
recordset would be taken for 100 and joined to `matches` by a whole-table scan up to thousands of
matches)."""

from __future__ import annotations

import pytest

from app.store.postgres_sql import APPEND_PLAIN_BATCH, plain_args, plain_batch_args

from .records import append, events
from .seeding import plan_scans, seeded_postgres

MATCHES = 5_000


@pytest.mark.postgres
async def test_postgres_plain_batch_reads_matches_by_their_key(fresh_postgres_url: str) -> None:
    async with seeded_postgres(fresh_postgres_url, MATCHES) as conn:
        await conn.execute("SET plan_cache_mode = force_generic_plan")  # what a reused statement gets
        await conn.execute(f"PREPARE batch AS {APPEND_PLAIN_BATCH}")
        batch = [plain_args(append(f"lobby-{i}", 0, events(1, 2))) for i in (1, 2)]
        args = plain_batch_args(batch)
        assert args is not None
        literals = [  # EXPLAIN EXECUTE takes no bound parameters: PostgreSQL writes each as a literal
            await conn.fetchval("SELECT quote_literal($1::text)", value) for value in args
        ]
        nodes = plan_scans(await conn.fetchval(f"EXPLAIN (FORMAT JSON) EXECUTE batch({', '.join(literals)})"))
        assert ("Seq Scan", "matches") not in nodes
        assert ("Index Scan", "matches") in nodes
