#!/usr/bin/env bash
# Standings that cost nothing to read (issue 48): at each player count, `touchschool serve` with a
# round running through the window and every player tapping in it (each for its own school of the
# official list, ../shared/data, as load.sh does); over the window's second half 20 readers, each
# from a loopback address of its own (127.0.0.2 … 127.0.0.21), read `GET /v1/rounds/ID` 2.5 times
# a second (50 a second in all). The players' ack p99 over the first half (no readers) is the
# same run's idle baseline. Prints a markdown table; every run's raw result (one JSON object a
# line) is kept in $ROUND_RESULTS (default /tmp/touchschool-round-readers.jsonl). Each run stops
# by itself (the generator's window, then the server stopped; `timeout` bounds it all).
#
#   Benchmarks/round-readers.sh                              # 1,000 and 5,000 players, 30 s each
#   ROUND_STEPS="1000" ROUND_DURATION=20 Benchmarks/round-readers.sh
#   LOAD_SERVER=/elsewhere/touchschool-network Benchmarks/round-readers.sh   # a build of its own
#   ROUND_BASELINE=/before/touchschool-network Benchmarks/round-readers.sh   # also the build
#                                      before the change, run after ours at each count
set -euo pipefail
cd "$(dirname "$0")"
. ./loadlib.sh

STEPS=${ROUND_STEPS:-"1000 5000"}
DURATION=${ROUND_DURATION:-30}
READERS=${ROUND_READERS:-20}
READS_PER_SECOND=${ROUND_READS_PER_SECOND:-2.5}
RAMP=${LOAD_RAMP:-200}
RESULTS=${ROUND_RESULTS:-/tmp/touchschool-round-readers.jsonl}

SERVER=${LOAD_SERVER:-"$(cd .. && pwd)/.build/install/bin/touchschool-network"}
if [ -z "${LOAD_SERVER:-}" ]; then
    timeout 3600 ../scripts/build-release >&2  # incremental: quick when nothing changed
fi
timeout 3600 swift build -c release --product LoadGenerator >&2
BIN=$(swift build -c release --show-bin-path)

: > "$RESULTS"
run() { # label server players
    local line
    line=$(timeout $((180 + $3 / 50 + DURATION)) "$BIN/LoadGenerator" --kind real --server "$2" --players "$3" --ramp "$RAMP" \
        --duration "$DURATION" --round --round-readers "$READERS" --reads-per-second "$READS_PER_SECOND" \
        | generator_result) || true
    [ -n "$line" ] || line="{\"players\":$3,\"lost\":-1}"
    line=$(json_with "$line" build "\"$1\"")
    echo "$line" >> "$RESULTS"
    echo "$line" >&2
}

for players in $STEPS; do
    echo "== $players players, $READERS readers ($(uptime | sed 's/.*load/load/'))" >&2
    run ours "$SERVER" "$players"
    sleep 2
    if [ -n "${ROUND_BASELINE:-}" ]; then
        echo "== $players players, $READERS readers, the build before ($(uptime | sed 's/.*load/load/'))" >&2
        run before "$ROUND_BASELINE" "$players"
        sleep 2
    fi
done

python3 - "$RESULTS" <<'EOF'
import json, sys
from benchlib import figure as f
rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
print("| players | server | ack p50 idle → reading | ack p99 idle | ack p99 reading | ratio | reads/s (answers by status) | read p50 / p99 | answer | server cores idle → reading | generator cores idle → reading | lost |")
print("| ---: | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | --- |")
for r in rows:
    name = {"ours": "standings shared", "before": "before (a store read each)"}.get(r.get("build"), r.get("build"))
    if r.get("lost", -1) < 0 and "ackP99msIdle" not in r:
        print(f"| {r['players']:,} | {name} | run failed | | | | | | | | | |"); continue
    idle, reading = r.get("ackP99msIdle", -1), r.get("ackP99msReading", -1)
    ratio = f"{reading / idle:.2f}×" if idle > 0 and reading > 0 else "—"
    statuses = ", ".join(f"{n:,} × {s if s != '0' else 'no answer'}" for s, n in sorted(r.get("roundReadStatuses", {}).items()))
    print(f"| {r['players']:,} | {name} | {f(r.get('ackP50msIdle'),1)} → {f(r.get('ackP50msReading'),1)} ms | {f(idle,1)} ms | "
          f"{f(reading,1)} ms | {ratio} | {f(r.get('roundReadsPerSecond'),1)} ({statuses}) | "
          f"{f(r.get('roundReadP50ms'),1)} / {f(r.get('roundReadP99ms'),1)} ms | {f(r.get('roundAnswerBytes',-1)/1024,0)} KiB | "
          f"{f(r.get('serverCoresIdle'),2)} → {f(r.get('serverCoresReading'),2)} | "
          f"{f(r.get('generatorCoresIdle'),2)} → {f(r.get('generatorCoresReading'),2)} | {r.get('lost')} |")
EOF
