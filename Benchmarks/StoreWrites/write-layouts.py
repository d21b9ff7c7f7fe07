#!/usr/bin/env python3
"""Issue 25: what each layout of battle.sqlite writes per commit at 2,000 players, in rounds.

Each round runs, one process after the other: the server's tables as they were (LayoutCommits
`tables 1024`, the baseline of the round), SQLite's settings alone (a checkpoint every 10,000
pages; 512-byte pages), one row per device, the appended table of changes (`changes`, compacted
every 200 commits, with 1 and 4 KB pages), and SystemSQLiteCommits: the project's own statements as
SQLiteBattleStore runs them now. write_bytes of /proc/self/io, the final checkpoint counted.
Floors: 64 KiB a commit, 2 MiB/s (20 commits a second, one per 50 ms window).

    swift build -c release --product LayoutCommits && swift build -c release --product SystemSQLiteCommits
    ./write-layouts.py [ROUNDS]
"""
import re, subprocess, sys
from pathlib import Path

BIN = Path(__file__).parent / ".build" / "release"
RUNS = [
    ("before: the tables, 1 KB pages (the server until now)", ["LayoutCommits", "tables", "1024"]),
    ("(c) checkpoint every 10,000 pages", ["LayoutCommits", "tables", "1024", "10000"]),
    ("(c) 512-byte pages", ["LayoutCommits", "tables", "512"]),
    ("(b) one row per device", ["LayoutCommits", "one-row", "1024"]),
    ("(a) changes appended, compacted every 200 commits, 4 KB pages", ["LayoutCommits", "changes", "4096", "200"]),
    ("(a) changes appended, compacted every 200 commits, 1 KB pages", ["LayoutCommits", "changes", "1024", "200"]),
    ("after: SQLiteBattleStore's statements (TouchSchoolBattleDatabase)", ["SystemSQLiteCommits"]),
]
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
results = {name: [] for name, _ in RUNS}
for round in range(rounds):
    for name, command in RUNS:
        output = subprocess.run([str(BIN / command[0])] + command[1:], capture_output=True, text=True, check=True).stdout
        match = re.search(r"median (\d+) µs, p99 (\d+) µs, (\d+) bytes written per commit", output)
        results[name].append((int(match[1]), int(match[2]), int(match[3])))
        print(f"round {round + 1}: {name}: {output.strip()}", file=sys.stderr)

def span(values, fmt):
    low, high = min(values), max(values)
    return fmt(low) if fmt(low) == fmt(high) else f"{fmt(low)}–{fmt(high)}"

print("| layout | commit p50 | commit p99 | written per commit | per second (20 commits) | ratio to before (same round) | ≤ 64 KiB and ≤ 2 MiB/s |")
print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
before = results[RUNS[0][0]]
for name, _ in RUNS:
    rows = results[name]
    per_commit = [b for _, _, b in rows]
    ratios = [b / before[i][2] for i, (_, _, b) in enumerate(rows)]
    meets = all(b <= 65536 and b * 20 <= 2 * 1048576 for b in per_commit)
    print(f"| {name} | {span([m / 1000 for m, _, _ in rows], lambda v: f'{v:.1f} ms')} | {span([p / 1000 for _, p, _ in rows], lambda v: f'{v:.0f} ms')} | "
          f"{span([b / 1024 for b in per_commit], lambda v: f'{v:.1f} KiB')} | {span([b * 20 / 1048576 for b in per_commit], lambda v: f'{v:.2f} MiB/s')} | "
          f"{span(ratios, lambda v: f'{v:.2f}')} | {'yes' if meets else 'no'} |")
