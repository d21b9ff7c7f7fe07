#!/usr/bin/env python3
"""What a screen that shows a page of the ranking receives while every row of it changes (issue 25:
"per player <= 2 KiB/s on the wire ... a projector's board stream is bounded the same way").

Run from anywhere:  python3 Benchmarks/watchers.py --server PATH/touchschool-network
                        [--list ../shared/data/korea-schools-2026-03-20.cp949.csv] [--seconds 30]

Imports the official list into a fresh data directory, starts `serve --port 0` on it and scores
its first 200 schools. Then tappers (40 devices from one address, each a batch of 16 of those
schools every 0.8 s: 20 taps a second each, inside a device's judge) change every school of the
national top 200 about four times a second: each row of a page of the top changes at every one
of the server's intervals, a national event's worst case for a page watcher. Measured for
`--seconds`, the bytes each reader receives (what its socket reads: frames or events with their
headers):
- a player (hello, its school one of the 200) watching nothing: its view and its acks;
- a player watching the national top 10 and top 100 (the terminal's ranking screen shows about a
  screenful; the page's ranking list watches 100 places);
- the projector's board stream, `GET /v1/board?count=11` (ten rows shown, the eleventh says
  whether a next page has taps) and its second page (`from=10`).
Every process it starts is gone when it ends. Standard library only (flood.py's player).
"""

import argparse
import importlib.util
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request

import benchlib

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("flood", os.path.join(HERE, "flood.py"))
flood = importlib.util.module_from_spec(spec)
spec.loader.exec_module(flood)

SCORED = 200
TAPPERS = 40
TAPPER_EVERY = 0.8


def counting_reader(sock, counts, name, stop):
    """Reads `sock` until `stop`, adding what it read to `counts[name]` (while counts['on'])."""
    sock.settimeout(0.5)
    while not stop.is_set():
        try:
            data = sock.recv(65536)
        except socket.timeout:
            continue
        except OSError:
            return
        if not data:
            return
        if counts["on"]:
            counts[name] += len(data)


def player(port, school, watch):
    """A play socket: hello, a batch of no taps choosing `school`, and `watch` (or none)."""
    reader = flood.Player(port, "127.0.0.5")
    reader.send({"type": "hello", "protocol": 2, "device": reader.device, "player": "watcher"})
    now = int(time.time() * 1000)
    reader.seq = 1
    reader.send({"type": "taps", "seq": 1, "taps": {}, "playerTaps": 0, "best": 0, "startMs": now, "endMs": now,
                 "switchedTo": school})
    if watch:
        reader.send({"type": "watch", "league": {}, "from": 0, "count": watch})
    # The bytes already buffered past the upgrade's head belong to the count too, but they come
    # before the measured window starts.
    reader.buffer = b""
    return reader.sock


def stream(port, query):
    sock = socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.6", 0))
    sock.sendall(f"GET /v1/board?{query} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    return sock


def tapper_loop(port, schools, stop, refused):
    tapper = flood.Player(port, "127.0.0.4")
    tapper.send({"type": "hello", "protocol": 2, "device": tapper.device, "player": "tapper"})

    def acks():
        try:
            for message in tapper.frames():
                if message.get("type") == "ack" and message.get("refused"):
                    refused[0] += message["refused"]
        except OSError:
            pass  # closed at the end
    threading.Thread(target=acks, daemon=True).start()
    offset = 0
    while not stop.is_set():
        tapper.seq += 1
        now = int(time.time() * 1000)
        chunk = [schools[(offset + i) % len(schools)] for i in range(16)]
        offset += 16
        tapper.send({"type": "taps", "seq": tapper.seq, "taps": {school: 1 for school in chunk}, "playerTaps": 16,
                     "best": 20, "startMs": now - int(TAPPER_EVERY * 1000), "endMs": now})
        stop.wait(TAPPER_EVERY)
    tapper.sock.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--list", default=os.path.join(HERE, "..", "..", "shared", "data", "korea-schools-2026-03-20.cp949.csv"))
    parser.add_argument("--seconds", type=float, default=30)
    options = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="touchschool-watchers-")
    data = os.path.join(folder, "data")
    subprocess.run([options.server, "import", options.list, "--data-dir", data], check=True, capture_output=True)
    ids = [school["id"] for school in json.load(open(os.path.join(data, "catalog.json")))["schools"]][:SCORED]
    server, port = benchlib.start_server(options.server, data, os.path.join(folder, "server.log"))
    stop = threading.Event()
    sockets = []
    try:
        readers = {
            "player, no watch": player(port, ids[100], None),
            "player watching the top 10": player(port, ids[101], 10),
            "player watching the top 100": player(port, ids[102], 100),
            "projector stream, page 1 (count=11)": stream(port, "count=11"),
            "projector stream, page 2 (count=11&from=10)": stream(port, "count=11&from=10"),
        }
        sockets = list(readers.values())
        counts = {"on": False, **{name: 0 for name in readers}}
        for name, sock in readers.items():
            threading.Thread(target=counting_reader, args=(sock, counts, name, stop), daemon=True).start()
        refused = [0]
        # Each tapper starts at its own place in the list, and they are spread over the 0.8 s.
        tappers = []
        for index in range(TAPPERS):
            spread = ids[(index * 5) % SCORED:] + ids[:(index * 5) % SCORED]
            thread = threading.Thread(target=tapper_loop, args=(port, spread, stop, refused), daemon=True)
            thread.start()
            tappers.append(thread)
            time.sleep(TAPPER_EVERY / TAPPERS)
        time.sleep(5)  # the first pages, views and welcomes go before the window
        counts["on"] = True
        started = time.monotonic()
        time.sleep(options.seconds)
        counts["on"] = False
        seconds = time.monotonic() - started
        board = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/scores", timeout=10))
        print(f"{TAPPERS} tappers, {TAPPERS * 16 / TAPPER_EVERY:.0f} taps a second over the top {SCORED} schools "
              f"({len(board.get('scores', {}))} schools with taps; refused {refused[0]}), {seconds:.0f} s:\n")
        print("| reader | bytes a second | KiB/s | floor 2 KiB/s |\n| --- | ---: | ---: | --- |")
        for name in readers:
            rate = counts[name] / seconds
            print(f"| {name} | {rate:,.0f} | {rate / 1024:.2f} | {'met' if rate <= 2048 else 'over'} |")
    finally:
        stop.set()
        for sock in sockets:
            sock.close()
        benchlib.stop_server(server)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
