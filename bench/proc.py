"""What /proc says about a server under benchmark (Linux): its CPU time and its resident memory."""

from __future__ import annotations

import os
from pathlib import Path

CLK_TCK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """utime + stime of process `pid` (all its threads), as the yardsticks' load clients read it."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def postgres_cpu_seconds() -> float:
    """utime + stime of every PostgreSQL process on this machine (0 when none is local): what a
    benchmark's statements cost the database, beside what they cost the client."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "cmdline").read_bytes().startswith(b"postgres"):
                total += cpu_seconds(int(entry.name))
        except OSError:  # gone meanwhile, or not ours to read
            continue
    return total
