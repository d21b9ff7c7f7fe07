#!/usr/bin/env python3
"""How long a disk takes to make a write durable: what every commit of the embedded store waits
for before its taps are acknowledged (`synchronous=FULL`: the WAL is synced at each commit).

Appends SIZE bytes to a file in DIR and syncs it (`fdatasync`), twenty times a second (a commit
window is 50 ms), for SECONDS; prints how long the syncs took. Run it on the disk of a server's
data directory before an event, idle and beside a load (BENCHMARKS.md, "The stalled seconds are
the disk"): a sync over 250 ms holds every acknowledgement of its window as long.

    python3 Benchmarks/fsync-latency.py [--dir DIR] [--seconds 60] [--size 40960]

The file is removed at the end, also when the run is interrupted (Ctrl-C, a TERM signal).
"""
import argparse
import json
import os
import signal
import sys
import tempfile
import time

import benchlib


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", default=".", help="a directory on the disk to measure (default: here)")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--size", type=int, default=40 * 1024, help="bytes per sync (a commit at 2,000 players: ~41 KiB)")
    args = parser.parse_args()
    if args.seconds <= 0 or args.size <= 0:
        parser.error("--seconds and --size must be positive")

    # A TERM ends the run as Ctrl-C does, through the `finally` that removes the file.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    fd, path = tempfile.mkstemp(prefix="fsync-latency.", dir=args.dir)
    chunk = os.urandom(args.size)
    syncs = []  # (seconds since the start, milliseconds)
    start = time.monotonic()
    try:
        while time.monotonic() - start < args.seconds:
            began = time.monotonic()
            os.write(fd, chunk)
            os.fdatasync(fd)
            took = time.monotonic() - began
            syncs.append((began - start, took * 1000))
            time.sleep(max(0.0, 0.05 - took))
    finally:
        os.close(fd)
        os.unlink(path)

    times = sorted(ms for _, ms in syncs)
    count = len(times)
    result = {
        "dir": os.path.abspath(args.dir),
        "syncs": count,
        "p50ms": round(benchlib.upper_percentile(times, 0.5), 1),
        "p99ms": round(benchlib.upper_percentile(times, 0.99), 1),
        "maxms": round(times[-1], 1),
        "over100ms": sum(ms > 100 for ms in times),
        "over250ms": sum(ms > 250 for ms in times),
        # When the slow ones came (seconds from the start): to set beside a load's stalled seconds.
        "slow": [[round(at, 1), round(ms)] for at, ms in syncs if ms > 100],
    }
    print(f"{count} syncs of {args.size} bytes in {result['dir']}: p50 {result['p50ms']} ms, "
          f"p99 {result['p99ms']} ms, max {result['maxms']} ms; over 100 ms: {result['over100ms']}, "
          f"over 250 ms: {result['over250ms']}")
    print("RESULT " + json.dumps(result))


if __name__ == "__main__":
    main()
