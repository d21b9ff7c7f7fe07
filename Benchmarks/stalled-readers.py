#!/usr/bin/env python3
"""Readers that never read, on a changing national board (issue 26).

Run from anywhere:  python3 Benchmarks/stalled-readers.py --server PATH/touchschool-network
                        [--list ../shared/data/korea-schools-2026-03-20.cp949.csv] [--streams 600] [--players 300]

Imports the official list into a fresh data directory, starts `serve --port 0` on it, and gives
`--schools` schools a score (players of their own devices, 16 schools a batch), so that the board
a reader receives first is as large as a national event's. Then, from one address each kind:
`--streams` board streams (`GET /v1/board?count=100`, a page of 100 places) and `--players` play sockets (hello and a watch of the
national top 100, then nothing),
every one with a 4 KB receive buffer and never read, while one player keeps the board changing
(16 schools every 400 ms). Every 5 s: how many of them the server still holds open (its own
gauges in /metrics: reading the sockets to see their end would make them readers), and its
resident memory. The result: the seconds until all were closed (or how many were left at `--seconds`),
and the server's memory before and at its peak. Standard library only (flood.py's player).
"""

import argparse
import importlib.util
import json
import os
import random
import re
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


def resident_kb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def mute_socket(port, local, request):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.bind((local, 0))
    sock.connect(("127.0.0.1", port))
    sock.sendall(request)
    return sock


def gauges(port):
    """The server's open board streams and play connections (/metrics): reading the sockets
    themselves to see their end would make them readers."""
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
    value = lambda name: int(float(re.search(rf"^{name} (\S+)$", text, re.M).group(1)))
    return value("touchschool_open_board_streams"), value("touchschool_open_connections")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--list", default=os.path.join(HERE, "..", "..", "shared", "data", "korea-schools-2026-03-20.cp949.csv"))
    parser.add_argument("--schools", type=int, default=6000)
    parser.add_argument("--streams", type=int, default=600)
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=120)
    options = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="touchschool-stalled-")
    data = os.path.join(folder, "data")
    subprocess.run([options.server, "import", options.list, "--data-dir", data], check=True, capture_output=True)
    ids = json.load(open(os.path.join(data, "catalog.json")))["schools"]
    ids = [school["id"] for school in ids][: options.schools]
    server, port = benchlib.start_server(options.server, data, os.path.join(folder, "server.log"))
    sockets = []
    try:

        # The board: every school of `ids` scored, 16 a batch, 200 taps a device (within its burst).
        for start in range(0, len(ids), 192):
            player = flood.Player(port, "127.0.0.3")
            player.send({"type": "hello", "protocol": 2, "device": player.device, "player": "filler"})
            for offset in range(start, min(start + 192, len(ids)), 16):
                player.seq += 1
                now = int(time.time() * 1000)
                chunk = ids[offset:offset + 16]
                player.send({"type": "taps", "seq": player.seq, "taps": {school: 1 for school in chunk}, "playerTaps": 0,
                             "best": 8, "startMs": now - 400, "endMs": now})
            last = player.seq
            for message in player.frames():
                if message.get("type") == "ack" and message["seq"] == last:
                    break
            player.sock.close()

        before = resident_kb(server.pid)
        request = b"GET /v1/board?count=100 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        streams = [mute_socket(port, "127.0.2.1", request) for _ in range(options.streams)]
        players = []
        for _ in range(options.players):
            player = flood.Player(port, "127.0.2.2")
            player.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            player.send({"type": "hello", "protocol": 2, "device": player.device, "player": "mute"})
            # A player is sent what its screen shows: the national top 100 changes with every batch.
            player.send({"type": "watch", "league": {}, "from": 0, "count": 100})
            players.append(player.sock)
        sockets = streams + players
        opened = time.monotonic()

        tapper = flood.Player(port, "127.0.0.4")
        tapper.send({"type": "hello", "protocol": 2, "device": tapper.device, "player": "tapper"})
        threading.Thread(target=lambda: [None for _ in tapper.frames()], daemon=True).start()
        peak, samples = before, []
        next_sample = opened
        while time.monotonic() - opened < options.seconds:
            tapper.seq += 1
            now = int(time.time() * 1000)
            tapper.send({"type": "taps", "seq": tapper.seq, "taps": {school: 1 for school in random.sample(ids, 16)},
                         "playerTaps": 0, "best": 8, "startMs": now - 400, "endMs": now})
            time.sleep(0.4)
            if time.monotonic() >= next_sample:
                next_sample += 5
                open_streams, open_players = gauges(port)
                open_players -= 1  # the tapper
                rss = resident_kb(server.pid)
                peak = max(peak, rss)
                samples.append({"s": round(time.monotonic() - opened), "streamsOpen": open_streams,
                                "playersOpen": open_players, "rssMB": round(rss / 1024, 1)})
                if open_streams == 0 and open_players == 0:
                    break
        print(json.dumps({"streams": len(streams), "players": len(players), "schoolsScored": len(ids),
                          "allClosedAfterS": samples[-1]["s"] if samples and samples[-1]["streamsOpen"] == 0
                          and samples[-1]["playersOpen"] == 0 else None,
                          "rssBeforeMB": round(before / 1024, 1), "rssPeakMB": round(peak / 1024, 1), "samples": samples}))
    finally:
        for sock in sockets:
            sock.close()
        benchlib.stop_server(server)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
