#!/usr/bin/env python3
"""A player's acknowledgements while other addresses flood a public endpoint (issue 26).

Run from anywhere:  python3 Benchmarks/flood.py --server PATH/touchschool-network
                        [--endpoint qr|search|healthz|schools|all] [--addresses 199] [--rate R] [--seconds 15]

Imports the official list into a fresh data directory and starts `serve --port 0` on it, then:
1. Idle: one player (its own address, 127.0.0.2) sends a batch of one tap every 100 ms, as a
   person tapping, for `--seconds`; the time from each batch sent to its ack is recorded.
2. Flood: the same player again while `--addresses` other addresses (127.0.1.1 ...) each keep one
   connection and send `--rate` requests a second to the endpoint (pipelined ten times a second),
   each far inside its own address's budget: ~5 a second each for QR codes, ~38 a second each for
   searches (7,665 a second in all, as the issue measured).
The result, a line per phase: the player's ack p50/p99/max, the server's CPU (utime + stime from
/proc) and the flood's answers by status. The flooders run in two processes of their own beside
the server on the same two cores, so the server's figures are under that load as well.
Standard library only.
"""

import argparse
import asyncio
import base64
import json
import multiprocessing
import os
import random
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

import benchlib

ENDPOINTS = {
    # The projector's code of its join address: the same text each time, as a projector asks.
    "qr": lambda i: "/v1/qr.svg?text=" + "http%3A%2F%2F192.168.0.10%3A8080%2F",
    # A code of a text of its own each time: nothing to cache.
    "qr-varied": lambda i: "/v1/qr.svg?text=http%3A%2F%2F10.0.0.1%2F" + str(random.getrandbits(40)),
    "search": lambda i: "/v1/search?q=" + random.choice(["%ED%95%9C%EB%B9%9B", "%EC%84%9C%EC%9A%B8", "%EB%AF%BC%EC%82%AC%EA%B3%A0", "gksqlc"]),
    "healthz": lambda i: "/healthz",
    "schools": lambda i: "/v1/schools",
    "scores": lambda i: "/v1/scores",
}
DEFAULT_RATES = {"qr": 5, "qr-varied": 5, "search": 38.5, "healthz": 38.5, "schools": 2, "scores": 5}


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Player:
    """A minimal WebSocket client (RFC 6455, text frames) speaking the play protocol."""

    def __init__(self, port, local):
        self.sock = socket.create_connection(("127.0.0.1", port), source_address=(local, 0))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /v1/play HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(4096)
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise RuntimeError(f"no upgrade: {head[:200]!r}")
        self.buffer = head.split(b"\r\n\r\n", 1)[1]
        self.device = base64.urlsafe_b64encode(os.urandom(32)).decode().rstrip("=")
        self.seq = 0
        self.sent = {}
        self.latencies = []
        self.lock = threading.Lock()

    def send(self, message):
        data = json.dumps(message).encode()
        mask = os.urandom(4)
        header = bytes([0x81])
        if len(data) < 126:
            header += bytes([0x80 | len(data)])
        else:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(data))
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def frames(self):
        while True:
            while len(self.buffer) < 2 or len(self.buffer) < self._frame_length():
                chunk = self.sock.recv(65536)
                if not chunk:
                    return
                self.buffer += chunk
            length, header = self._frame_length(), self._header_length()
            frame, self.buffer = self.buffer[:length], self.buffer[length:]
            opcode = frame[0] & 0x0F
            payload = frame[header:]
            if opcode == 0x9:  # ping: answer as every client does
                mask = os.urandom(4)
                self.sock.sendall(bytes([0x8A, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
            elif opcode == 0x8:
                return
            elif opcode == 0x1:
                yield json.loads(payload)

    def _header_length(self):
        size = self.buffer[1] & 0x7F
        return 2 + (2 if size == 126 else 8 if size == 127 else 0)

    def _frame_length(self):
        if len(self.buffer) < 2:
            return 2
        size = self.buffer[1] & 0x7F
        if size == 126:
            if len(self.buffer) < 4:
                return 4
            size = struct.unpack(">H", self.buffer[2:4])[0]
        elif size == 127:
            if len(self.buffer) < 10:
                return 10
            size = struct.unpack(">Q", self.buffer[2:10])[0]
        return self._header_length() + size

    def read_acks(self):
        for message in self.frames():
            if message.get("type") == "ack":
                with self.lock:
                    started = self.sent.pop(message["seq"], None)
                    if started is not None and self.recording:
                        self.latencies.append((time.monotonic() - started) * 1000)

    def tap(self, school, seconds):
        """One tap every 100 ms for `seconds`; returns the ack latencies of those batches."""
        with self.lock:
            self.latencies = []
            self.recording = True
        end = time.monotonic() + seconds
        next_at = time.monotonic()
        while time.monotonic() < end:
            now_ms = int(time.time() * 1000)
            self.seq += 1
            with self.lock:
                self.sent[self.seq] = time.monotonic()
            self.send({"type": "taps", "seq": self.seq, "taps": {school: 1}, "playerTaps": 1,
                       "switchedTo": school if self.seq == 1 else None, "best": 8, "startMs": now_ms - 90, "endMs": now_ms})
            next_at += 0.1
            time.sleep(max(0, next_at - time.monotonic()))
        time.sleep(1)  # the last acks
        with self.lock:
            self.recording = False
            return list(self.latencies)


async def flood_address(port, local, path_of, rate, seconds, counts):
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(local, 0), limit=1 << 24)
    end = time.monotonic() + seconds
    per_tick = rate / 10
    owed = 0.0
    index = 0
    while time.monotonic() < end:
        tick = time.monotonic()
        owed += per_tick
        count = int(owed)
        owed -= count
        if count:
            writer.write(b"".join(f"GET {path_of(index + n)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode() for n in range(count)))
            index += count
            for _ in range(count):
                head = await reader.readuntil(b"\r\n\r\n")
                status = int(head.split(b" ", 2)[1])
                length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1)) if b"ontent-length" in head.lower() else 0
                if b"transfer-encoding: chunked" in head.lower():
                    while True:
                        size = int((await reader.readuntil(b"\r\n")).strip(), 16)
                        await reader.readexactly(size + 2)
                        if size == 0:
                            break
                else:
                    await reader.readexactly(length)
                counts[status] = counts.get(status, 0) + 1
        await asyncio.sleep(max(0, 0.1 - (time.monotonic() - tick)))
    writer.close()


def flood_process(port, addresses, endpoint, rate, seconds, queue):
    counts = {}

    async def main():
        results = await asyncio.gather(*(flood_address(port, address, ENDPOINTS[endpoint], rate, seconds, counts) for address in addresses),
                                       return_exceptions=True)
        counts["errors"] = sum(1 for result in results if isinstance(result, Exception))

    asyncio.run(main())
    queue.put(counts)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True, help="touchschool-network (or touchschool) to run as `serve`")
    parser.add_argument("--endpoint", default="qr", choices=sorted(ENDPOINTS) + ["all"])
    parser.add_argument("--addresses", type=int, default=199)
    parser.add_argument("--rate", type=float, help="requests a second per address (default: per endpoint)")
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--list", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data",
                                                       "korea-schools-2026-03-20.cp949.csv"),
                        help="the official list, imported first (searches over 12,011 schools); '' for the starter catalog")
    options = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="touchschool-flood-")
    if options.list:
        subprocess.run([options.server, "import", options.list, "--data-dir", os.path.join(folder, "data")], check=True, capture_output=True)
    server, port = benchlib.start_server(options.server, os.path.join(folder, "data"), os.path.join(folder, "server.log"))
    try:
        player = Player(port, "127.0.0.2")
        player.send({"type": "hello", "protocol": 2, "device": player.device, "player": "probe"})
        threading.Thread(target=player.read_acks, daemon=True).start()
        player.tap("S0001", 3)  # warm up

        def phase(name, endpoint):
            started_cpu, started = cpu_seconds(server.pid), time.monotonic()
            processes, queue = [], multiprocessing.Queue()
            if endpoint:
                addresses = [f"127.0.1.{n}" for n in range(1, options.addresses + 1)]
                rate = options.rate or DEFAULT_RATES[endpoint]
                for half in (addresses[0::2], addresses[1::2]):
                    process = multiprocessing.Process(target=flood_process,
                                                      args=(port, half, endpoint, rate, options.seconds + 2, queue))
                    process.start()
                    processes.append(process)
                time.sleep(1)
            latencies = player.tap("S0001", options.seconds)
            counts = {}
            for process in processes:
                for key, value in queue.get(timeout=60).items():
                    counts[key] = counts.get(key, 0) + value
                process.join()
            cpu = (cpu_seconds(server.pid) - started_cpu) / (time.monotonic() - started)
            answered = sum(value for key, value in counts.items() if key != "errors")
            print(json.dumps({"phase": name, "acks": len(latencies), "ackP50ms": round(benchlib.upper_percentile(latencies, 0.5), 1),
                              "ackP99ms": round(benchlib.upper_percentile(latencies, 0.99), 1), "ackMaxms": round(max(latencies or [0]), 1),
                              "serverCores": round(cpu, 2), "floodPerSecond": round(answered / options.seconds),
                              "floodStatuses": {str(k): v for k, v in sorted(counts.items(), key=str)}}), flush=True)

        phase("idle", None)
        for endpoint in (sorted(set(ENDPOINTS)) if options.endpoint == "all" else [options.endpoint]):
            phase(f"flood {endpoint}", endpoint)
    finally:
        benchlib.stop_server(server)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
