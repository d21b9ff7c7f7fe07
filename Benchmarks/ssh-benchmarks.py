#!/usr/bin/env python3
"""The game over SSH (`serve --ssh-port`), measured with the real OpenSSH client.

Needs pyte (pip install pyte), ssh and ssh-keygen (Debian: openssh-client), and a build of
`touchschool` (with `touchschool-network` beside it): `swift build [-c release]`.

Run from anywhere:  python3 Benchmarks/ssh-benchmarks.py [--binary PATH] [--sessions N] [--seconds S]

1. Key press -> new "My taps" count on screen, at a human pace (50 keys, 150-200 ms apart): the
   game over SSH on loopback beside the local game (`touchschool --school`), in the same run, on
   the same starter catalog. Both in a pty read by pyte (terminal-benchmarks.py's harness), so "on
   screen" means what a terminal shows.
2. Sessions held while every player mashes: N ssh clients (a key each) join, choose 민사고 and press
   keys at 10 a second each (a different key each time, as a person mashing) for S seconds. The
   server's resident memory (VmRSS) before the first and with all N connected, its CPU
   (utime+stime) over the mashing, and whether the server counted every tap the screens showed.

The clients run on the same machine as the server (2 shared cores), so the CPU they take is not
the server's to spend: the figures are an upper bound on the server's cost per session.
"""

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import benchlib

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
spec = importlib.util.spec_from_file_location("terminal_benchmarks", os.path.join(HERE, "terminal-benchmarks.py"))
terminal = importlib.util.module_from_spec(spec)
spec.loader.exec_module(terminal)
PtyProcess, HarnessError, my_taps = terminal.PtyProcess, terminal.HarnessError, terminal.my_taps

SCHOOL = "S0336"  # 민족사관고등학교 in the starter catalog, found as 민사고
SEARCH = "민사고"
MASH_KEYS = b"qwertyuiopasdfghjklzxcvbnm"


class Server:
    """`touchschool serve --port 0 --ssh-port 0` on a fresh data directory (the starter catalog)."""

    def __init__(self, binary, workdir):
        self.data = os.path.join(workdir, "server")
        self.log = open(os.path.join(workdir, "server.log"), "w+")
        self.process = subprocess.Popen([binary, "serve", "--port", "0", "--ssh-port", "0", "--data-dir", self.data],
                                        stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            self.log.seek(0)
            text = self.log.read()
            http = re.search(r"listening on http://127\.0\.0\.1:(\d+) ", text)
            ssh = re.search(r"\bssh -p (\d+) ", text)  # the greeting's "SSH, no install" row
            if http and ssh:
                self.http, self.ssh = int(http.group(1)), int(ssh.group(1))
                # The networked program serves; `touchschool` hands `serve` to it.
                self.pid = self.serving_pid()
                return
            if self.process.poll() is not None:
                raise HarnessError("the server ended at start:\n" + text)
            time.sleep(0.05)
        self.stop()
        raise HarnessError("the server did not listen within 60 s")

    def serving_pid(self):
        children = subprocess.run(["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True).stdout.split()
        return int(children[0]) if children else self.process.pid

    def total(self, school):
        with urllib.request.urlopen(f"http://127.0.0.1:{self.http}/v1/scores", timeout=5) as response:
            return json.load(response)["scores"].get(school, 0)

    def rss_kb(self):
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        raise HarnessError("no VmRSS")

    def threads(self):
        return len(os.listdir(f"/proc/{self.pid}/task"))

    def cpu_ms(self):
        with open(f"/proc/{self.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def make_key(workdir, name):
    path = os.path.join(workdir, name)
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", path], check=True)
    return path


def ssh_player(server, key, user):
    """An ssh client in a pty, in the game on 민사고's screen."""
    process = PtyProcess(["ssh", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
                          "-o", "SendEnv=LANG", "-o", "IdentitiesOnly=yes", "-i", key, "-p", str(server.ssh), f"{user}@127.0.0.1"])
    if not process.wait_for(lambda s: any("Search for your school" in line for line in s.display), 30):
        text = process.text()
        process.kill()
        raise HarnessError("the SSH game never showed the search:\n" + text)
    process.write(SEARCH.encode())
    if not process.wait_for(lambda s: any("민족사관고등학교" in line for line in s.display[3:]), 10):
        raise HarnessError("the search never showed 민족사관고등학교:\n" + process.text())
    process.write(b"\r")
    if not process.wait_for(lambda s: my_taps(s) == 0, 10):
        raise HarnessError("the SSH game never showed 'My taps 0':\n" + process.text())
    return process


def local_player(binary, workdir):
    data = os.path.join(workdir, "local")
    process = PtyProcess([binary, "--school", SCHOOL, "--data-dir", data, "--lang", "en", "--quiet"])
    if not process.wait_for(lambda s: my_taps(s) is not None, 10):
        raise HarnessError("the local game never showed 'My taps':\n" + process.text())
    return process


def latency(process):
    base = my_taps(process.screen)
    return terminal.human_key_times(process, lambda s, i, key: my_taps(s) == base + i + 1)


def summary(values):
    return f"{benchlib.percentile(values, 0.5):.1f} / {benchlib.percentile(values, 0.99):.1f} / {max(values):.1f} ms"


def mash(players, seconds, per_second=10):
    """Each player presses a key every 1/per_second s (staggered), a different key each time."""
    stop = time.monotonic() + seconds
    sent = [0] * len(players)

    def run(index, process):
        next_at = time.monotonic() + index * (1 / per_second) / len(players)
        while next_at < stop:
            time.sleep(max(0.0, next_at - time.monotonic()))
            process.write(bytes([MASH_KEYS[sent[index] % len(MASH_KEYS)]]))
            sent[index] += 1
            next_at += 1 / per_second

    threads = [threading.Thread(target=run, args=(i, p)) for i, p in enumerate(players)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(sent)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(REPO, ".build", "release", "touchschool"))
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        sys.exit(f"no {args.binary}: build it (swift build -c release), or give --binary")
    workdir = tempfile.mkdtemp(prefix="touchschool-ssh-bench-")
    server = Server(args.binary, workdir)
    players = []
    try:
        key = make_key(workdir, "latency")
        remote = ssh_player(server, key, "latency")
        ssh_ms, ssh_missing = latency(remote)
        remote.write(b"\x03")
        remote.finish()
        local = local_player(args.binary, workdir)
        local_ms, local_missing = latency(local)
        local.write(b"\x03")
        local.finish()

        before_rss, before_threads = server.rss_kb(), server.threads()
        before_total = server.total(SCHOOL)
        for index in range(args.sessions):
            players.append(ssh_player(server, make_key(workdir, f"p{index}"), f"p{index}"))
        joined_rss, joined_threads = server.rss_kb(), server.threads()
        cpu_before, wall_before = server.cpu_ms(), time.monotonic()
        sent = mash(players, args.seconds)
        cpu = server.cpu_ms() - cpu_before
        wall = (time.monotonic() - wall_before) * 1000
        mashing_rss = server.rss_kb()
        time.sleep(5)  # the keys still in flight on a loaded machine, the last syncs (every 500 ms), the commit window
        shown = sum(my_taps(p.screen) or 0 for p in players)
        counted = server.total(SCHOOL) - before_total
        for process in players:
            process.write(b"\x03")
        for process in players:
            process.finish()
        players.clear()

        print(f"binary: {args.binary}; {os.cpu_count()} cores; clients and server on one machine")
        print()
        print("| Measurement | over SSH (loopback) | local game (same run) |")
        print("|---|---|---|")
        print(f"| Key -> new count on screen, p50 / p99 / max (50 keys, 150-200 ms apart) | {summary(ssh_ms)} ({ssh_missing} missed) "
              f"| {summary(local_ms)} ({local_missing} missed) |")
        print()
        n = args.sessions
        print(f"| {n} SSH players mashing at 10 keys/s for {args.seconds:.0f} s | value |")
        print("|---|---|")
        print(f"| Server RSS before / with {n} connected / while mashing | {before_rss / 1024:.1f} / {joined_rss / 1024:.1f} / {mashing_rss / 1024:.1f} MB |")
        print(f"| Memory per session (connected - before) / {n} | {(joined_rss - before_rss) / n:.0f} KB |")
        print(f"| Server threads before / with {n} connected | {before_threads} / {joined_threads} |")
        print(f"| Server CPU while mashing (utime+stime / wall) | {cpu:.0f} ms / {wall:.0f} ms = {100 * cpu / wall:.1f} % of a core; "
              f"{100 * cpu / wall / n:.2f} % of a core per session |")
        print(f"| Keys sent / shown counted on the players' screens / counted by the server | {sent} / {shown} / {counted} |")
    finally:
        for process in players:
            try:
                process.kill()
            except Exception:
                pass
        server.stop()


if __name__ == "__main__":
    try:
        main()
    except HarnessError as error:
        sys.exit(f"ssh-benchmarks: {error}")
