#!/usr/bin/env bash
# The load benchmark (issues 9 and 25): builds release, then at each player count runs the bare
# baseline server and `touchschool serve` under the same generator, one after the other, and
# prints a markdown table. Each player taps for its own school of the official list
# (../shared/data), as in a national event; the probe's school leads and every player times
# its taps' arrival on its own screen; every byte each player receives is counted. Steps go up
# until ours misses the floor (ack p99 > 500 ms or anything lost) past 2,000 players, or the list
# ends (LOAD_STOP=0: every step in LOAD_STEPS, whatever happens).
#
#   Benchmarks/load.sh                       # 500 1000 2000 3000 4000 players, 30 s each
#   LOAD_KINDS="bare real real-v1" LOAD_SERVER=… Benchmarks/load.sh   # also protocol 1 (the whole
#                                                   board to everyone), on a build from before it was refused
#   LOAD_STEPS="2000" LOAD_DURATION=20 Benchmarks/load.sh
#   LOAD_STEPS="500 1000 2000 3000 4000" LOAD_STOP=0 Benchmarks/load.sh   # issue 25's table
#   LOAD_SERVER=/elsewhere/bin/touchschool-network Benchmarks/load.sh   # another build, e.g. the
#                                                   one before a change, nothing built for it
#   LOAD_ROUND=1 LOAD_STEPS="1000" Benchmarks/load.sh   # a class's round running through the
#                                                   window: its messages counted apart (issue 28)
#   LOAD_KINDS="bare real real-tmpfs" Benchmarks/load.sh   # also ours with its data directory in
#                                                   memory (/dev/shm): what the disk's syncs add
#   LOAD_KINDS="bare real real-map" LOAD_STEPS="4000" Benchmarks/load.sh   # also ours with every
#                                                   player's screen showing the map and a projector's
#                                                   stream beside them (issue 50): the map's bytes
#
# Every run's raw result (one JSON object a line) is kept in $LOAD_RESULTS (default
# /tmp/touchschool-load-results.jsonl).
set -euo pipefail
cd "$(dirname "$0")"
. ./loadlib.sh

STEPS=${LOAD_STEPS:-"500 1000 2000 3000 4000"}
KINDS=${LOAD_KINDS:-"bare real"}
DURATION=${LOAD_DURATION:-30}
RAMP=${LOAD_RAMP:-200}
RESULTS=${LOAD_RESULTS:-/tmp/touchschool-load-results.jsonl}
STOP=${LOAD_STOP:-1}
ROUND=${LOAD_ROUND:-0}
FLOOR_P99_MS=500

# The server as installed (`scripts/build-release`, with the starter catalog beside it):
# `touchschool-network`, what `touchschool serve` hands over to. The generator and the baseline
# are this package's, in release.
SERVER=${LOAD_SERVER:-"$(cd .. && pwd)/.build/install/bin/touchschool-network"}
if [ -z "${LOAD_SERVER:-}" ]; then
    timeout 3600 ../scripts/build-release >&2  # incremental: quick when nothing changed
fi
for product in LoadGenerator BareWebSocketServer; do
    timeout 3600 swift build -c release --product "$product" >&2
done
BIN=$(swift build -c release --show-bin-path)

: > "$RESULTS"
# Ours with its data directory in memory: made fresh for each run, removed after it.
MEMORY_DATA=
trap '[ -n "$MEMORY_DATA" ] && rm -rf "$MEMORY_DATA"' EXIT
run() { # kind (bare; real: protocol 2; real-v1: protocol 1; real-tmpfs: protocol 2, data in memory; real-map: protocol 2, every screen on the map) server players
    local line kind=${1%-*} protocol=2 data=()
    [ "$1" = real-v1 ] && protocol=1
    [ "$1" = real-map ] && data=(--map)
    if [ "$1" = real-tmpfs ]; then
        MEMORY_DATA=$(mktemp -d /dev/shm/touchschool-load.XXXXXX)
        data=(--data-dir "$MEMORY_DATA")
    fi
    line=$(timeout $((180 + $3 / 50 + DURATION)) "$BIN/LoadGenerator" --kind "$kind" --protocol "$protocol" --server "$2" --players "$3" \
        --ramp "$RAMP" --duration "$DURATION" "${data[@]}" $([ "$ROUND" != 0 ] && [ "$kind" = real ] && echo --round) | generator_result) || true
    if [ -n "$MEMORY_DATA" ]; then
        rm -rf "$MEMORY_DATA"; MEMORY_DATA=
        [ -n "$line" ] && line=$(json_with "$line" dataInMemory true)
    fi
    if [ -z "$line" ]; then line="{\"kind\":\"$1\",\"protocol\":$protocol,\"players\":$3,\"lost\":-1,\"ackP99ms\":-1}"; fi
    echo "$line" >> "$RESULTS"
    echo "$line"
}

for players in $STEPS; do
    ours=
    for kind in $KINDS; do
        echo "== $players players: $kind ($(uptime | sed 's/.*load/load/'))" >&2
        if [ "$kind" = bare ]; then
            run bare "$BIN/BareWebSocketServer" "$players" >&2
        else
            line=$(run "$kind" "$SERVER" "$players")
            echo "$line" >&2
            [ "$kind" = real ] && ours=$line
        fi
        echo "== $players players: $kind done ($(uptime | sed 's/.*load/load/'))" >&2
        sleep 2
    done
    [ -n "$ours" ] || continue
    if [ "$STOP" != 0 ] && [ "$players" -ge 2000 ] && python3 -c "
import json, sys
r = json.loads(sys.argv[1])
sys.exit(0 if r['lost'] != 0 or r['ackP99ms'] < 0 or r['ackP99ms'] > $FLOOR_P99_MS else 1)" "$ours"; then
        echo "== ours misses the floor at $players players: stopping" >&2
        break
    fi
done

python3 - "$RESULTS" <<'EOF'
import json, sys
from benchlib import figure as f
rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
by = {(r["kind"] + ("-v1" if r.get("protocol") == 1 else "") + ("-tmpfs" if r.get("dataInMemory") else "") + ("-map" if r.get("map") else ""), r["players"]): r
      for r in rows}
def ratio(ours, bare):
    return "—" if ours is None or bare is None or ours < 0 or bare <= 0 else f"{ours / bare:.1f}×"
def lost(r):
    if r.get("lost", -1) < 0: return "run failed"
    if r["lost"] == 0: return "0"
    parts = []
    if r.get("unacked"): parts.append(f"{r['unacked']} unacked")
    if r.get("duplicateAcks"): parts.append(f"{r['duplicateAcks']} acked twice")
    if r.get("tapsDifference", 0) != 0: parts.append(f"scores {r['tapsDifference']:+d} taps")
    dropped = r["players"] - r.get("connectedAtEnd", 0)
    if dropped: parts.append(f"{dropped} not connected")
    return ", ".join(parts) or str(r["lost"])
print("| players | server | taps/s acked (offered) | ack p50 | ack p99 | tap→other p50 | tap→other p99 | server CPU µs / player-s | server cores | KiB/s per player, mean (max) | views/s per player × B | welcome (first view) | KB / connection | generator cores | others' cores | lost |")
print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
counts = sorted({r["players"] for r in rows})
for n in counts:
    for kind, name in (("bare", "bare baseline"), ("real", "touchschool serve (views)"), ("real-tmpfs", "touchschool serve (views), data in memory"),
                       ("real-map", "touchschool serve (views), every screen on the map"), ("real-v1", "touchschool serve, protocol 1")):
        r = by.get((kind, n))
        if not r: continue
        if r.get("lost", -1) < 0 and "tapsPerSecondAcked" not in r:
            print(f"| {n:,} | {name} | run failed | | | | | | | | | | | | | |"); continue
        print(f"| {n:,} | {name} | {f(r['tapsPerSecondAcked'])} ({f(r['tapsPerSecondOffered'])}) | {f(r['ackP50ms'],1)} ms | {f(r['ackP99ms'],1)} ms | "
              f"{f(r['otherP50ms'],1)} ms | {f(r['otherP99ms'],1)} ms | {f(r['serverCPUusPerPlayerSecond'])} | {f(r['serverCores'],2)} | "
              f"{f(r.get('bytesPerPlayerSecondMean',-1)/1024,2)} ({f(r.get('bytesPerPlayerSecondMax',-1)/1024,2)}) | "
              f"{f(r.get('viewsPerPlayerSecond',-1),2)} × {f(r.get('viewBytesMean',-1))} | {f(r.get('welcomeBytesMax',-1))} B"
              + (f" ({r['firstViewBytesMax']:,} B)" if r.get('firstViewBytesMax') else "") + " | "
              f"{f(r['kBPerConnection'],1)} | {f(r['generatorCores'],2)} | {f(r['othersCores'],2)} | {lost(r)} |")
    for kind, name in (("real", "ratio ours / bare"), ("real-tmpfs", "ratio ours, data in memory / bare"), ("real-map", "ratio ours, on the map / bare")):
        b, o = by.get(("bare", n)), by.get((kind, n))
        if not (b and o and b.get("ackP99ms", -1) > 0 and o.get("ackP99ms", -1) > 0 and b.get("serverCPUusPerPlayerSecond")):
            continue
        print(f"| {n:,} | {name} | | {o['ackP50ms']/b['ackP50ms']:.1f}× | {o['ackP99ms']/b['ackP99ms']:.1f}× | "
              f"{ratio(o['otherP50ms'], b['otherP50ms'])} | {ratio(o['otherP99ms'], b['otherP99ms'])} | "
              f"{o['serverCPUusPerPlayerSecond']/b['serverCPUusPerPlayerSecond']:.2f}× | {o['serverCores']/max(b['serverCores'],0.001):.2f}× | "
              f"{o.get('bytesPerPlayerSecondMean',-1)/max(b.get('bytesPerPlayerSecondMean',-1),0.001):.2f}× | | | "
              f"{o['kBPerConnection']/max(b['kBPerConnection'],0.001):.2f}× | | | |")
print()
print("What each server wrote to storage in the window (write_bytes of /proc/PID/io; ours: battle.sqlite, its log and "
      "checkpoints; floors at 2,000 players: 64 KiB a commit, 2 MiB/s):")
for n in counts:
    for kind, name in (("bare", "bare baseline"), ("real", "touchschool serve")):
        r = by.get((kind, n))
        if r and "serverWriteBytesPerSecond" in r:
            print(f"- {n:,} players, {name}: {r['serverWriteBytesPerSecond']/1048576:,.2f} MiB/s"
                  + (f", {r['serverWriteBytesPerCommit']/1024:,.1f} KiB a commit ({r['commitsPerSecond']:.1f} commits/s)" if kind == "real" else ""))
for r in rows:
    if r.get("round") and r.get("roundMessagesPerPlayerSecond", -1) >= 0:
        print(f"- {r['players']:,} players with a round running: {r['roundMessagesPerPlayerSecond']:.2f} round messages/s per player, "
              f"{r['roundBytesPerPlayerSecond']:.0f} B/s of {r['bytesPerPlayerSecondMean']/1024:.2f} KiB/s in all")
for r in rows:
    if r.get("map"):
        print(f"- {r['players']:,} players, every screen on the map: {r['mapMessagesPerPlayerSecond']:.2f} map messages/s per player, "
              f"{r['mapBytesPerPlayerSecond']:.0f} B/s of {r['bytesPerPlayerSecondMean']/1024:.2f} KiB/s in all (a player's budget: 2 KiB/s); "
              f"a projector's stream: {r['streamMapBytesPerSecond']:.0f} B/s of map events ({r['streamMapEventsPerSecond']:.1f} a second) "
              f"of {r['streamBytesPerSecond']/1024:.2f} KiB/s in all (its budget: 1.5 KiB/s)")
held = [r["players"] for r in rows if r["kind"] == "real" and r.get("lost") == 0 and 0 < r.get("ackP99ms", -1) < 500]
print()
print(f"Most players held by touchschool serve (ack p99 < 500 ms, nothing lost): {max(held):,}" if held else
      "touchschool serve held no step (ack p99 < 500 ms, nothing lost)")
EOF
