#!/usr/bin/env bash
# The load benchmark of issue 10, in one run: at each player count, the same generator against
# one embedded `touchschool serve` (the baseline), one instance on PostgreSQL and two instances on
# the same PostgreSQL (a throwaway cluster from scripts/pg-cluster, emptied between runs), one
# after the other. Prints a markdown table and the most players each holds (ack p99 < 500 ms,
# nothing lost); the floor: two instances hold at least 80 % of what the embedded server holds.
#
#   Benchmarks/load-postgres.sh                        # 1000 2000 3000 4000 5000 players, 20 s each
#   LOAD_STEPS="2000" LOAD_DURATION=20 Benchmarks/load-postgres.sh
#
# Raw results (one JSON object a line): $LOAD_RESULTS (default /tmp/touchschool-load-pg.jsonl).
set -euo pipefail
cd "$(dirname "$0")"
. ./loadlib.sh

STEPS=${LOAD_STEPS:-"1000 2000 3000 4000 5000"}
DURATION=${LOAD_DURATION:-20}
RAMP=${LOAD_RAMP:-250}
RESULTS=${LOAD_RESULTS:-/tmp/touchschool-load-pg.jsonl}

# The server as installed (`scripts/build-release`, with the starter catalog beside it):
# `touchschool-network`, what `touchschool serve` hands over to. The generator
# are this package's, in release.
SERVER="$(cd .. && pwd)/.build/install/bin/touchschool-network"
timeout 3600 ../scripts/build-release >&2  # incremental: quick when nothing changed
for product in LoadGenerator; do
    timeout 3600 swift build -c release --product "$product" >&2
done
BIN=$(swift build -c release --show-bin-path)

CLUSTER=$(mktemp -d /tmp/touchschool-load-pg-XXXXXX)
trap '../scripts/pg-cluster stop "$CLUSTER" immediate || true; rm -rf "$CLUSTER"' EXIT
URL=$(../scripts/pg-cluster start "$CLUSTER")
PGPID=$(head -1 "$CLUSTER/data/postmaster.pid")
echo "== PostgreSQL at $URL (postmaster $PGPID)" >&2

: > "$RESULTS"
run() { # label players [generator options…]
    local label=$1 players=$2 line
    shift 2
    line=$(timeout $((150 + players / 50 + DURATION)) "$BIN/LoadGenerator" --kind real --server "$SERVER" \
        --players "$players" --ramp "$RAMP" --duration "$DURATION" "$@" | generator_result) || true
    if [ -z "$line" ]; then line="{\"players\":$players,\"lost\":-1,\"ackP99ms\":-1}"; fi
    line=$(json_with "$line" label "\"$label\"")
    echo "$line" >> "$RESULTS"
    echo "$line" >&2
}
empty_database() {
    psql -X -q "$URL" -c "DROP TABLE IF EXISTS touchschool_board, touchschool_scores, touchschool_devices,
        touchschool_catalog, touchschool_moves, touchschool_migrations" >/dev/null
}

for players in $STEPS; do
    echo "== $players players: embedded" >&2
    run embedded "$players"
    sleep 2
    echo "== $players players: 1 instance on PostgreSQL" >&2
    empty_database
    run postgres-1 "$players" --instances 1 --postgres "$URL" --postgres-pid "$PGPID"
    sleep 2
    echo "== $players players: 2 instances on PostgreSQL" >&2
    empty_database
    run postgres-2 "$players" --instances 2 --postgres "$URL" --postgres-pid "$PGPID"
    sleep 2
done

python3 - "$RESULTS" <<'PY'
import json, sys
from benchlib import figure as f
rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
names = {"embedded": "1 embedded", "postgres-1": "1 on PostgreSQL", "postgres-2": "2 on PostgreSQL"}
print("| players | servers | taps/s acked (offered) | ack p50 | ack p99 | tap→other p99 | servers' cores | server CPU µs / player-s | PostgreSQL cores | commits/s | PostgreSQL transactions/s | rows / commit | PostgreSQL CPU ms / commit | lost |")
print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
for r in sorted(rows, key=lambda r: (r["players"], list(names).index(r["label"]))):
    if "tapsPerSecondAcked" not in r:
        print(f"| {r['players']:,} | {names[r['label']]} | run failed | | | | | | | | | | | |"); continue
    print(f"| {r['players']:,} | {names[r['label']]} | {f(r['tapsPerSecondAcked'])} ({f(r['tapsPerSecondOffered'])}) | "
          f"{f(r['ackP50ms'],1)} ms | {f(r['ackP99ms'],1)} ms | {f(r['otherP99ms'],1)} ms | {f(r['serverCores'],2)} | "
          f"{f(r['serverCPUusPerPlayerSecond'])} | {f(r.get('pgCores'),2)} | {f(r.get('commitsPerSecond'),1)} | {f(r.get('pgTransactionsPerSecond'),1)} | "
          f"{f(r.get('pgRowsPerCommit'),1)} | {f(r.get('pgCPUmsPerCommit'),2)} | {r['lost']} |")
held = {}
for label in names:
    ok = [r["players"] for r in rows if r["label"] == label and r.get("lost") == 0 and 0 < r.get("ackP99ms", -1) < 500]
    held[label] = max(ok) if ok else 0
print()
for label, name in names.items():
    print(f"- {name}: holds {held[label]:,} players (ack p99 < 500 ms, nothing lost)")
if held["embedded"]:
    ratio = held["postgres-2"] / held["embedded"]
    print(f"- two instances on PostgreSQL / one embedded: {ratio:.0%} (floor 80 %): {'met' if ratio >= 0.8 else 'MISSED'}")
PY
