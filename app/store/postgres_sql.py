"""The PostgreSQL store's write statements, each ONE statement (data-modifying CTEs) so that it is
atomic on its own and costs one round trip, and the parameters each takes.

`APPEND` checks everything first (`checks`: the match's seq, that the written seats and the
notified players exist, that the idempotency key is free) and writes only if all hold: then it
moves `matches.seq` from `expected` to `last` (`WHERE seq = $2` also settles a race with another
process: PostgreSQL re-checks it on the row version it waited for), inserts the events, rewrites
the seats, records the idempotency key, and gives each notice the next cursor of its player
(`UPDATE players … RETURNING cursor`, whose row lock keeps cursors gap-free). A failed check
writes nothing and returns why; a unique violation (a seq, a key, a token hash, a player's second
seat) raises and so writes nothing either. The statement always returns exactly one row.
`APPEND_PLAIN` is the same for the usual action, which writes no seat, notice or key: it skips
those checks and writes, and returns the same row. `APPEND_PLAIN_BATCH` writes a whole batch of
plain appends (each of another match) in one statement, and returns that row for each;
`APPEND_KEYED_BATCH` does the same for a batch of which some also keep an idempotency key.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Final

from app.service.ports import Append, IdempotencyRecord, MatchRecord, NewEvent, SeatRecord, SeatWrite
from app.store.rows import appended_seq, json_text, last_write_per_seat, require_aware

MATCH_COLUMNS = (
    "id, game, players, options, status, seq, created_at, updated_at, secret, commitment, to_act, "
    "scores, winners, settings, visibility, host_token_hash, invite_hash, deadline_at, open_seats, bot_due"
)
_SEAT_RECORDSET = (
    "seat int, name text, token_hash text, bot boolean, joined_at timestamptz, player_id text, bot_level text"
)

# What every append statement writes first: the projection moves from `expected` to `last` (the
# SET of `_PROJECTION`), and the events go in after it. `_PLAIN_COLUMNS` are the first arguments of
# each append, in order (`plain_args`), with their types; the event types and data follow them.
_PLAIN_COLUMNS = (
    *(("match_id", "text"), ("expected", "bigint"), ("last", "bigint"), ("status", "text")),
    *(("to_act", "text"), ("scores", "text"), ("winners", "text"), ("deadline_at", "timestamptz")),
    *(("open_seats", "int"), ("bot_due", "bool"), ("at", "timestamptz")),
)
_N = len(_PLAIN_COLUMNS)
_EVENT_TYPES, _EVENT_DATA = _N, _N + 1  # their indexes in `plain_args`
_PROJECTION = """SET seq = {last}, status = {status}, to_act = {to_act}::jsonb, scores = {scores}::jsonb,
        winners = {winners}::jsonb, deadline_at = {deadline_at}, open_seats = {open_seats},
        bot_due = {bot_due}, updated_at = {at}"""
_INSERT_EVENTS = "INSERT INTO events (match_id, seq, commit_seq, type, data, recorded_at)"
_ADVANCE = "UPDATE matches\n    " + _PROJECTION.format_map(
    {name: f"${i}" for i, (name, _) in enumerate(_PLAIN_COLUMNS, 1)}
)
_APPENDED = f"""appended AS (
    {_INSERT_EVENTS}
    SELECT $1, $2 + e.ord, $3, e.type, e.data::jsonb, $11
    FROM advanced, unnest($12::text[], $13::text[]) WITH ORDINALITY AS e (type, data, ord)
)"""

APPEND = f"""
WITH seat_rows AS MATERIALIZED (
    SELECT * FROM jsonb_to_recordset($14::jsonb) AS s ({_SEAT_RECORDSET})
), notice_rows AS MATERIALIZED (
    SELECT * FROM unnest($20::text[], $21::text[], $22::text[])
        WITH ORDINALITY AS n (player_id, type, data, ord)
), checks AS MATERIALIZED (
    SELECT
        (SELECT seq FROM matches WHERE id = $1) AS actual,
        (SELECT count(*) FROM seats WHERE match_id = $1 AND seat IN (SELECT seat FROM seat_rows))
            = (SELECT count(*) FROM seat_rows) AS seats_known,
        (SELECT count(*) FROM players WHERE id IN (SELECT player_id FROM notice_rows))
            = (SELECT count(DISTINCT player_id) FROM notice_rows) AS players_known,
        $16::text IS NULL OR NOT EXISTS (
            SELECT 1 FROM idempotency_keys WHERE match_id = $1 AND seat = $15 AND key = $16
        ) AS key_free
), advanced AS (
    {_ADVANCE}
    FROM checks
    WHERE id = $1 AND seq = $2 AND checks.seats_known AND checks.players_known AND checks.key_free
    RETURNING id
), {_APPENDED}, seated AS (
    UPDATE seats
    SET name = s.name, token_hash = s.token_hash, bot = s.bot, joined_at = s.joined_at,
        player_id = s.player_id, bot_level = s.bot_level
    FROM advanced, seat_rows AS s
    WHERE seats.match_id = $1 AND seats.seat = s.seat
), remembered AS (
    INSERT INTO idempotency_keys (match_id, seat, key, request_hash, first_seq, last_seq, created_at)
    SELECT $1, $15, $16, $17, $18, $19, $11 FROM advanced WHERE $16::text IS NOT NULL
), counted AS (
    SELECT player_id, count(*) AS n FROM notice_rows GROUP BY player_id
), bumped AS (
    UPDATE players SET cursor = players.cursor + c.n
    FROM advanced, counted AS c
    WHERE players.id = c.player_id
    RETURNING players.id, players.cursor
), noticed AS (
    INSERT INTO notices (player_id, cursor, type, data, recorded_at)
    SELECT r.player_id, b.cursor - c.n + row_number() OVER (PARTITION BY r.player_id ORDER BY r.ord),
           r.type, r.data::jsonb, $11
    FROM notice_rows AS r
    JOIN bumped AS b ON b.id = r.player_id
    JOIN counted AS c ON c.player_id = r.player_id
    RETURNING player_id, cursor
)
SELECT checks.actual, checks.seats_known, checks.players_known, checks.key_free,
       EXISTS (SELECT 1 FROM advanced) AS advanced,
       (SELECT array_agg(n.cursor ORDER BY n.player_id, n.cursor) FROM noticed AS n) AS cursors
FROM checks
"""

APPEND_PLAIN = f"""
WITH advanced AS (
    {_ADVANCE}
    WHERE id = $1 AND seq = $2
    RETURNING id
), {_APPENDED}
SELECT (SELECT seq FROM matches WHERE id = $1) AS actual, true AS seats_known, true AS players_known,
       true AS key_free, EXISTS (SELECT 1 FROM advanced) AS advanced, NULL::bigint[] AS cursors
"""
"""`APPEND` for the usual action (no seat rows, no notices, no idempotency key): the same result
row, its first 13 parameters, and about half of PostgreSQL's CPU per append (`plain(append)`)."""
PLAIN_PARAMS = _N + 2

# A plain batch's columns each travel as ONE text, their values joined by ASCII's record separator
# (`plain_batch_args`), which PostgreSQL splits back (`string_to_array`, '' for NULL) and casts.
BATCH_SEPARATOR: Final = "\x1e"
_EVENT_COLUMN_TYPES: Final = ("text", "int", "text", "text")  # match id, ordinal, type, data
_BATCH_COLUMN_TYPES: Final = (*(t for _, t in _PLAIN_COLUMNS), *_EVENT_COLUMN_TYPES)


def _column(i: int, sql_type: str) -> str:
    return f"string_to_array(${i}, chr({ord(BATCH_SEPARATOR)}), '')::{sql_type}[]"


_KEY_COLUMNS: Final = (
    *(("match_id", "text"), ("seat", "int"), ("key", "text"), ("request_hash", "text")),
    *(("first_seq", "bigint"), ("last_seq", "bigint")),
)
_KEY_COLUMN_TYPES: Final = tuple(t for _, t in _KEY_COLUMNS)


def _batch(keyed: bool) -> str:
    """`APPEND_PLAIN_BATCH`, or with `keyed` `APPEND_KEYED_BATCH`: the same, whose appends may also
    keep an idempotency key (its columns follow the events'). As in `APPEND`, an append whose key is
    taken writes nothing (`key_free` false); the others write and keep their keys."""
    first_key = _N + len(_EVENT_COLUMN_TYPES) + 1
    keys = f"""
), keys AS MATERIALIZED (
    SELECT k.*, (
        SELECT true FROM idempotency_keys AS t
        WHERE t.match_id = k.match_id AND t.seat = k.seat AND t.key = k.key
    ) IS NOT NULL AS taken
    FROM unnest({", ".join(_column(first_key + i, t) for i, t in enumerate(_KEY_COLUMN_TYPES))})
        AS k ({", ".join(name for name, _ in _KEY_COLUMNS)})"""
    taken = "EXISTS (SELECT 1 FROM keys AS k WHERE k.match_id = i.match_id AND k.taken)"
    remembered = """, remembered AS (
    INSERT INTO idempotency_keys (match_id, seat, key, request_hash, first_seq, last_seq, created_at)
    SELECT k.match_id, k.seat, k.key, k.request_hash, k.first_seq, k.last_seq, a.at
    FROM keys AS k JOIN advanced AS a ON a.id = k.match_id
)"""
    return f"""
WITH input AS MATERIALIZED (
    SELECT * FROM unnest({", ".join(_column(i, t) for i, (_, t) in enumerate(_PLAIN_COLUMNS, 1))})
        AS i ({", ".join(name for name, _ in _PLAIN_COLUMNS)}){keys if keyed else ""}
), advanced AS (
    UPDATE matches AS m
    {_PROJECTION.format_map({name: f"i.{name}" for name, _ in _PLAIN_COLUMNS})}
    FROM input AS i
    WHERE m.id = i.match_id AND m.seq = i.expected{f" AND NOT {taken}" if keyed else ""}
    RETURNING m.id, i.expected, i.last, i.at
), appended AS (
    {_INSERT_EVENTS}
    SELECT a.id, a.expected + e.ord, a.last, e.type, e.data::jsonb, a.at
    FROM unnest({", ".join(_column(_N + i, t) for i, t in enumerate(_EVENT_COLUMN_TYPES, 1))})
        AS e (match_id, ord, type, data)
    JOIN advanced AS a ON a.id = e.match_id
){remembered if keyed else ""}
SELECT i.match_id, m.seq AS actual, true AS seats_known, true AS players_known,
       {f"NOT {taken}" if keyed else "true"} AS key_free,
       a.id IS NOT NULL AS advanced, NULL::bigint[] AS cursors
FROM input AS i
LEFT JOIN matches AS m ON m.id = i.match_id
LEFT JOIN advanced AS a ON a.id = i.match_id
"""


APPEND_PLAIN_BATCH = _batch(keyed=False)
"""`APPEND_PLAIN` for a whole batch of plain appends, each of another match, in ONE statement: its
arguments are the columns of theirs (`plain_batch_args`), and each append gets `APPEND_PLAIN`'s
row, after its match id. One statement instead of one per append took about 40% less of
PostgreSQL's CPU per append (16 writers, batches of 16: 56–62 µs against 91–106 µs, three paired
runs; `python -m bench.store_append --pg …` prints the database's CPU per append). The rows are
updated in the order of their match ids, so two processes' plain batches lock in the same order.

Each column is one text, not an array: asyncpg encodes an array element by element, with two
`isinstance` checks against `collections.abc` classes for each (written in Python), and a
`timestamptz` element through Python's datetime arithmetic; the fifteen arrays of a batch of four
three-event appends cost this process ~70–100 µs more CPU than fifteen texts (a sent batch ~460
against ~390 µs, three alternating runs on 2026-12-03), and PostgreSQL's splitting costs it
0–30 µs. `unnest` of a `string_to_array` keeps the planner's 10-row estimate of an array
parameter (the EXPLAIN test in `tests/store/test_append_plans.py` guards it)."""

APPEND_KEYED_BATCH = _batch(keyed=True)
"""`APPEND_PLAIN_BATCH` for a batch of which some appends also keep an idempotency key (`batchable`:
the SDKs send one with every action), with their keys as six more columns (`key_args`). Each
such append writes only if its key is free, and answers as `APPEND` does; the batch's other
appends write as in `APPEND_PLAIN_BATCH`. Sent as one `APPEND` per append (before), a keyed action
cost PostgreSQL about twice the CPU of an unkeyed one: 417 against 225 µs per action at 16 matches,
and 240–251 µs in this statement (the server's load with `--keys` of `bench.api`, the database's
processes read from `/proc`, 2026-12-07); the server's own CPU per action stays within the noise.

Each key is looked up by a scalar subquery, which PostgreSQL runs as one probe of the primary key
per key. As a join (or an `EXISTS`), the plan followed the table's statistics, which trail a young
and growing table: planned as a hash join over every key kept, it cost more per batch with each
action written (303–429 µs per action in runs of 9,600 on a new database)."""


def plain_batch_args(
    batch: Sequence[tuple[Any, ...]], keys: Sequence[tuple[Any, ...]] = ()
) -> tuple[str, ...] | None:
    """`APPEND_PLAIN_BATCH`'s arguments: `plain_args` of appends of distinct matches, as columns
    (sorted by match id), then their events as four columns (match id, ordinal, type, data), each
    column packed as one text; with `keys` (`key_args` of the appends that keep a key: then the
    arguments are `APPEND_KEYED_BATCH`'s), the keys' six columns after them. None if a text value is
    empty or holds the separator (never so for ids, types, request hashes and orjson's JSON, which
    escapes control characters; a key may): send them one by one."""
    rows = sorted(batch, key=lambda a: a[0])
    columns = [[a[k] for a in rows] for k in range(_N)]
    match_ids: list[str] = []
    ordinals: list[int] = []
    types: list[str] = []
    data: list[str] = []
    for a in rows:
        match_ids += [a[0]] * len(a[_EVENT_TYPES])
        ordinals += range(1, len(a[_EVENT_TYPES]) + 1)
        types += a[_EVENT_TYPES]
        data += a[_EVENT_DATA]
    columns += [match_ids, ordinals, types, data]
    sql_types = _BATCH_COLUMN_TYPES
    if keys:
        columns += [[k[j] for k in keys] for j in range(len(_KEY_COLUMNS))]
        sql_types += _KEY_COLUMN_TYPES
    packed: list[str] = []
    for values, sql_type in zip(columns, sql_types, strict=True):
        text = _packed(values, sql_type)
        if text is None:
            return None
        packed.append(text)
    return tuple(packed)


def _packed(values: list[Any], sql_type: str) -> str | None:
    """`values` joined by `BATCH_SEPARATOR` as PostgreSQL reads them back as `sql_type` ('' for None)."""
    if sql_type == "text":
        text = BATCH_SEPARATOR.join(values)
        return None if "" in values or text.count(BATCH_SEPARATOR) != max(len(values) - 1, 0) else text
    return BATCH_SEPARATOR.join(map(_TO_TEXT[sql_type], values))


def _time_text(at: datetime | None) -> str:
    return "" if at is None else at.isoformat()


_TO_TEXT: Final[dict[str, Callable[[Any], str]]] = {
    "bigint": str,
    "int": str,
    "bool": lambda b: "t" if b else "f",
    "timestamptz": _time_text,
}


CREATE_MATCH = f"""
WITH created AS (
    INSERT INTO matches ({MATCH_COLUMNS})
    VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, $10, $11::jsonb, $12::jsonb, $13::jsonb,
            $14::jsonb, $15, $16, $17, $18, $19, $20)
    RETURNING id
), seated AS (
    INSERT INTO seats (match_id, seat, name, token_hash, bot, joined_at, player_id, bot_level)
    SELECT created.id, s.* FROM created, jsonb_to_recordset($21::jsonb) AS s ({_SEAT_RECORDSET})
)
INSERT INTO events (match_id, seq, commit_seq, type, data, recorded_at)
SELECT created.id, e.ord, $6, e.type, e.data::jsonb, $7
FROM created, unnest($22::text[], $23::text[]) WITH ORDINALITY AS e (type, data, ord)
"""

INSERT_PLAYER = (
    "INSERT INTO players (id, name, key_hash, created_at, cursor, name_key) VALUES ($1, $2, $3, $4, $5, $6)"
)
SET_KEY = "UPDATE players SET key_hash = $2 WHERE id = $1"
SET_BAN = "UPDATE players SET banned_at = $2, ban_reason = $3 WHERE id = $1"
BANNED_AMONG = "SELECT id FROM players WHERE id = ANY($1::text[]) AND banned_at IS NOT NULL"
PUT_SNAPSHOT = """
INSERT INTO snapshots (match_id, seq, version, data, created_at) VALUES ($1, $2, $3, $4, now())
ON CONFLICT (match_id) DO UPDATE
SET seq = excluded.seq, version = excluded.version, data = excluded.data, created_at = excluded.created_at
WHERE snapshots.seq <= excluded.seq
"""
PRUNE = "DELETE FROM idempotency_keys WHERE created_at < $1"


def _aware(at: datetime | None) -> datetime | None:
    return None if at is None else require_aware(at)


def _seats_json(seats: list[SeatRecord] | list[SeatWrite]) -> str:
    return json_text(
        [
            {
                "seat": s.seat,
                "name": s.name,
                "token_hash": s.token_hash,
                "bot": s.bot,
                "joined_at": None if s.joined_at is None else require_aware(s.joined_at).isoformat(),
                "player_id": s.player_id,
                "bot_level": s.bot_level,
            }
            for s in seats
        ]
    )


def _events(events: tuple[NewEvent, ...] | list[NewEvent]) -> tuple[list[str], list[str]]:
    return [e.type for e in events], [json_text(e.data) for e in events]


def create_match_args(m: MatchRecord, seats: list[SeatRecord], events: list[NewEvent]) -> tuple[object, ...]:
    return (
        *(m.id, m.game, m.players, json_text(m.options), m.status, m.seq),
        *(require_aware(m.created_at), require_aware(m.updated_at)),
        *(m.secret, m.commitment, json_text(m.to_act), json_text(m.scores), json_text(m.winners)),
        *(json_text(m.settings), m.visibility, m.host_token_hash, m.invite_hash, _aware(m.deadline_at)),
        *(m.open_seats, m.bot_due, _seats_json(seats), *_events(events)),
    )


def batchable(a: Append) -> bool:
    """Whether `APPEND_KEYED_BATCH` writes `a` as `APPEND` would: it writes no seat and no notice."""
    return not a.seats and not a.notices


def plain(a: Append) -> bool:
    """Whether `APPEND_PLAIN` writes `a` (its first `PLAIN_PARAMS` arguments) as `APPEND` would:
    `batchable`, and it keeps no idempotency key."""
    return batchable(a) and a.idempotency is None


def _key_values(i: IdempotencyRecord) -> tuple[object, ...]:
    return (i.seat, i.key, i.request_hash, i.first_seq, i.last_seq)


def key_args(a: Append) -> tuple[object, ...]:
    """The idempotency key of `a` as `APPEND_KEYED_BATCH` takes it (its match first); `a` keeps one."""
    if a.idempotency is None:
        raise ValueError(f"the append to match {a.match_id} keeps no idempotency key")
    return (a.match_id, *_key_values(a.idempotency))


def plain_args(a: Append) -> tuple[object, ...]:
    """The first `PLAIN_PARAMS` arguments of `append_args(a)`: all that `APPEND_PLAIN` takes."""
    u = a.update
    return (
        *(a.match_id, a.expected_seq, appended_seq(a), u.status, json_text(u.to_act)),
        *(json_text(u.scores), json_text(u.winners), _aware(u.deadline_at), u.open_seats, u.bot_due),
        require_aware(a.at),
        *_events(a.events),
    )


def append_args(a: Append, plain: tuple[object, ...] | None = None) -> tuple[object, ...]:
    """`APPEND`'s arguments (`plain`: `plain_args(a)`, if built already)."""
    i = a.idempotency
    return (
        *(plain_args(a) if plain is None else plain),
        _seats_json(last_write_per_seat(a.seats)),
        *((None,) * 5 if i is None else _key_values(i)),
        [n.player_id for n in a.notices],
        [n.type for n in a.notices],
        [json_text(n.data) for n in a.notices],
    )
