#!/usr/bin/env python3
# A server's whole start, spawn to its "listening on" line, on copies of one data directory whose
# state.json holds a large battle (StartTimes makes one of 100,000 devices and leaves it in
# /tmp/touchschool-store-writes-*): a baseline server that keeps state.json, then this build's first
# start (which moves state.json into battle.sqlite) and a later start, three of each.
#
#   python3 Benchmarks/StoreWrites/server-start-times.py DIR BASELINE_SERVER THIS_SERVER
# (the servers: `touchschool-network` of each build, with its resource bundles beside it)
import os, shutil, subprocess, sys, tempfile, time

source, baseline, current = sys.argv[1:4]

def start(binary, directory):
    began = time.monotonic()
    process = subprocess.Popen([binary, "serve", "--port", "0", "--data-dir", directory], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, env={**os.environ, "DATABASE_URL": ""})
    line = process.stdout.readline()
    elapsed = time.monotonic() - began
    process.terminate()
    process.wait(timeout=30)
    assert b"listening on" in line, line
    return elapsed

def copy():
    directory = tempfile.mkdtemp(prefix="touchschool-start-")
    shutil.copy(f"{source}/state.json", directory)
    return directory

rows = {"baseline (state.json)": [], "first start (moves it in)": [], "later start (battle.sqlite)": []}
made = []
for _ in range(3):
    made.append(copy())
    rows["baseline (state.json)"].append(start(baseline, made[-1]))
    made.append(copy())
    rows["first start (moves it in)"].append(start(current, made[-1]))
    rows["later start (battle.sqlite)"].append(start(current, made[-1]))
for name, times in rows.items():
    print(f"{name}: median {sorted(times)[1] * 1000:.0f} ms ({', '.join(f'{t * 1000:.0f}' for t in times)})")
for directory in made:
    shutil.rmtree(directory)
