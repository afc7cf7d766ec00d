"""The process the crash test kills: it appends to many matches at once through the real store
(so its appends go out in batched commits) and prints `ack <match> <seq>` for each append as soon
as the store acknowledged it, until it is killed.

Every commit is recognisable afterwards: each of its events says how many events the commit has,
it carries an idempotency key named after the seq it starts from, a notice for one of the players
names it, and the match's `to_act` is the parity of its last seq.

    python -m tests.store.crash_writer URL PLAYER,PLAYER,… MATCH MATCH …
"""

from __future__ import annotations

import asyncio
import sys
from datetime import UTC, datetime

from app.service.ports import Append, IdempotencyRecord, MatchUpdate, NewEvent, NewNotice
from app.store.factory import create_store


def commit_of(match_id: str, seq: int, player: str) -> Append:
    """The commit a match at `seq` gets next: 1 to 3 events, depending on `seq`."""
    size = 1 + seq % 3
    last = seq + size
    events = tuple(NewEvent("step", {"size": size, "at": seq + i}) for i in range(1, size + 1))
    return Append(
        match_id,
        seq,
        events,
        MatchUpdate("active", (last % 2,)),
        datetime.now(UTC),
        idempotency=IdempotencyRecord(match_id, 0, f"after-{seq}", "h", seq + 1, last),
        notices=(NewNotice(player, "step", {"match": match_id, "seq": last}),),
    )


async def main(url: str, players: list[str], matches: list[str]) -> None:
    store = create_store(url)

    async def play(i: int, match_id: str) -> None:
        record = await store.get_match(match_id)
        assert record is not None
        seq = record.seq
        while True:
            seq = (await store.append(commit_of(match_id, seq, players[i % len(players)]))).seq
            sys.stdout.write(f"ack {match_id} {seq}\n")
            sys.stdout.flush()

    await asyncio.gather(*(play(i, m) for i, m in enumerate(matches)))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2].split(","), sys.argv[3:]))
