#!/usr/bin/env python3
"""Terminal benchmarks of the REAL release `touchschool` binary in a pseudo-terminal.

Needs pyte (a terminal emulator in Python):  pip install pyte
Needs the release build:                     swift build -c release --product touchschool
Needs the official list beside the checkout: ../shared/data/korea-schools-2026-03-20.cp949.csv

Run from anywhere:  python3 Benchmarks/terminal-benchmarks.py [--binary PATH]

Each figure is measured beside a baseline in the same run (a process that only echoes: `cat`
with its tty in raw mode), because these machines are shared and noisy. The game and the
baseline run in a pty (os.forkpty, TERM=xterm-256color, LANG=C.UTF-8, 100x30); a reader thread
stamps every output chunk with its arrival time and feeds it to a pyte screen, so "on screen"
means what a terminal would show, not just bytes written.

1. Key press -> new "My taps" count on screen, human pace (floor: one frame at 30 fps, 33 ms).
2. Flood of 10,000 keys within one second: largest gap between output chunks, time to settle,
   and whether counted (stats --json myTaps) + refused (the on-screen warning) == 10,000.
3. Idle CPU over 10 s in the game screen (utime+stime from /proc/<pid>/stat).
4. Output chunks per second during a 2 s burst of keys at 20/s (floor: 30 fps).

Exits non-zero only when the harness itself fails; missed floors are printed as MISSED.
"""

import argparse
import fcntl
import json
import os
import random
import re
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time

import benchlib

try:
    import pyte
except ImportError:
    sys.exit("terminal-benchmarks.py needs pyte: run `pip install pyte` (PyPI) and try again.")

COLUMNS, ROWS = 100, 30
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CSV = os.path.join(REPO, "..", "shared", "data", "korea-schools-2026-03-20.cp949.csv")
FRAME_FLOOR_MS = 1000 / 30
MY_TAPS = re.compile(r"My taps ([\d,]+)")
REFUSED = re.compile(r"([\d,]+) taps refused")
# The echo baseline: a process that reads its tty byte by byte and writes each byte back.
ECHO_ARGV = ["sh", "-c", "stty raw -echo; echo ready; exec cat"]


class HarnessError(Exception):
    pass


def number(text):
    return int(text.replace(",", ""))


class PtyProcess:
    """A program in a pty, its output mirrored on a pyte screen by a reader thread."""

    def __init__(self, argv, columns=COLUMNS, rows=ROWS):
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.chunks = []  # (arrival time, byte count) of every read from the pty
        self.lock = threading.Condition()
        self.watch = None  # (predicate on the screen, list to append the arrival time to once true)
        self.on_chunk = None  # called with (arrival time, screen) after every chunk, under the lock
        self.closed = False
        env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8")
        env.pop("COLUMNS", None)
        env.pop("LINES", None)
        pid, fd = os.forkpty()
        if pid == 0:
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
                os.execvpe(argv[0], argv, env)
            finally:
                os._exit(127)
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.pid, self.fd = pid, fd
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        while True:
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                data = b""
            arrival = time.monotonic()
            with self.lock:
                if not data:
                    self.closed = True
                    self.lock.notify_all()
                    return
                self.chunks.append((arrival, len(data)))
                self.stream.feed(data)
                if self.watch and self.watch[0](self.screen):
                    self.watch[1].append(arrival)
                    self.watch = None
                if self.on_chunk:
                    self.on_chunk(arrival, self.screen)
                self.lock.notify_all()

    def text(self):
        with self.lock:
            return "\n".join(self.screen.display)

    def wait_for(self, predicate, timeout):
        """Waits until predicate(screen) holds; returns whether it did within timeout."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while not predicate(self.screen):
                left = deadline - time.monotonic()
                if left <= 0 or self.closed:
                    return False
                self.lock.wait(left)
            return True

    def arm(self, predicate):
        """From now on, stamps the arrival of the first chunk after which predicate(screen) holds."""
        stamps = []
        with self.lock:
            self.watch = (predicate, stamps)
        return stamps

    def write(self, data):
        view = memoryview(data)
        while view:
            written = os.write(self.fd, view)
            view = view[written:]

    def cpu_ms(self):
        """utime + stime in ms, from /proc/<pid>/stat (after the parenthesised command name)."""
        with open(f"/proc/{self.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])
        return ticks * 1000 / os.sysconf("SC_CLK_TCK")

    def cpu_ns_scheduled(self):
        """Time on CPU in ns from /proc/<pid>/schedstat (finer than stat's clock ticks), or None."""
        try:
            with open(f"/proc/{self.pid}/schedstat") as schedstat:
                return int(schedstat.read().split()[0])
        except OSError:
            return None

    def voluntary_switches(self):
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                if line.startswith("voluntary_ctxt_switches:"):
                    return int(line.split()[1])
        raise HarnessError(f"no voluntary_ctxt_switches in /proc/{self.pid}/status")

    def finish(self, timeout=10):
        """Waits for the program to exit; kills it (and fails) if it does not."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self.reader.join(2)
                os.close(self.fd)
                return status
            time.sleep(0.02)
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)
        raise HarnessError(f"pid {self.pid} did not exit within {timeout} s")

    def kill(self):
        os.kill(self.pid, signal.SIGKILL)
        self.finish()


class Game:
    """Fresh data dirs copied from one imported template, and the game started in them."""

    def __init__(self, binary, workdir):
        self.binary = binary
        self.workdir = workdir
        self.template = os.path.join(workdir, "template")
        run([binary, "import", "--data-dir", self.template, CSV])
        answer = json.loads(run([binary, "search", "서울고등학교", "--data-dir", self.template, "--json"]))
        # {"query", "schools", …}; a build from before it carried the suggestions printed the list alone.
        found = answer["schools"] if isinstance(answer, dict) else answer
        if not found:
            raise HarnessError("search found no school to play for")
        self.school = found[0]["id"]
        self.runs = 0

    def start(self):
        self.runs += 1
        data = os.path.join(self.workdir, f"run{self.runs}")
        shutil.copytree(self.template, data)
        process = PtyProcess([self.binary, "--school", self.school, "--data-dir", data, "--lang", "en", "--quiet"])
        process.data = data
        if not process.wait_for(lambda s: my_taps(s) is not None, 10):
            text = process.text()
            process.kill()
            raise HarnessError("the game screen never showed 'My taps':\n" + text)
        return process

    def quit_and_count(self, process):
        """Ctrl-C (quits and saves), then myTaps from `stats --json`."""
        process.write(b"\x03")
        process.finish()
        return json.loads(run([self.binary, "stats", "--json", "--data-dir", process.data]))["myTaps"]


def start_echo():
    process = PtyProcess(ECHO_ARGV)
    if not process.wait_for(lambda s: "ready" in s.display[0], 5):
        process.kill()
        raise HarnessError("the echo baseline never started")
    with process.lock:
        process.screen.reset()
    return process


def run(argv):
    result = subprocess.run(argv, capture_output=True, text=True)
    if result.returncode != 0:
        raise HarnessError(f"{' '.join(argv)} failed ({result.returncode}): {result.stderr.strip()}")
    return result.stdout


def my_taps(screen):
    for line in screen.display[:4]:
        match = MY_TAPS.search(line)
        if match:
            return number(match.group(1))
    return None


def refused_taps(screen):
    for line in screen.display[-3:]:
        match = REFUSED.search(line)
        if match:
            return number(match.group(1))
    return None


HUMAN_KEYS = [ord(c) for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"]


def human_key_times(process, expect, keys=50, seed=1):
    """Writes `keys` different keys 150-200 ms apart; for each, ms until expect(screen, i) holds."""
    rng = random.Random(seed)
    latencies, missing = [], 0
    for i in range(keys):
        key = bytes([HUMAN_KEYS[i % len(HUMAN_KEYS)]])
        stamps = process.arm(lambda s, i=i, key=key: expect(s, i, key))
        sent = time.monotonic()
        process.write(key)
        if process.wait_for(lambda s: bool(stamps), 1.0):
            latencies.append((stamps[0] - sent) * 1000)
        else:
            missing += 1
            with process.lock:
                process.watch = None
        time.sleep(max(0.0, sent + rng.uniform(0.150, 0.200) - time.monotonic()))
    return latencies, missing


def measure_latency(game):
    process = game.start()
    base = my_taps(process.screen)
    game_ms, game_missing = human_key_times(process, lambda s, i, key: my_taps(s) == base + i + 1)
    game.quit_and_count(process)

    echo = start_echo()
    echo_ms, echo_missing = human_key_times(
        echo, lambda s, i, key: s.cursor.x == (i + 1) % COLUMNS and s.display[0][i % COLUMNS] == key.decode())
    echo.kill()
    return game_ms, game_missing, echo_ms, echo_missing


def flood_keys(count=10_000, seed=2):
    rng = random.Random(seed)
    return bytes(rng.randrange(0x21, 0x7F) for _ in range(count))


def write_flood(process, keys, chunk=100, every=0.010):
    start = time.monotonic()
    for index in range(0, len(keys), chunk):
        time.sleep(max(0.0, start + (index // chunk) * every - time.monotonic()))
        process.write(keys[index:index + chunk])
    return start, time.monotonic()


def largest_gap_ms(chunks, start, end):
    times = [t for t, _ in chunks if start <= t <= end]
    edges = [start] + times + [end]
    return max(b - a for a, b in zip(edges, edges[1:])) * 1000


def measure_flood(game):
    process = game.start()
    changes = []  # (arrival, my taps, refused) whenever either changes on screen
    warnings = []  # refused counts of each warning shown, the latest last
    warning_gone = [True]  # the warning line left the screen since the last count seen

    def on_chunk(arrival, screen):
        counts = (my_taps(screen), refused_taps(screen))
        if not changes or changes[-1][1:] != counts:
            changes.append((arrival, *counts))
            refused = counts[1]
            if refused is None:
                warning_gone[0] = True
            elif warning_gone[0] or not warnings:
                # Only a warning that left the screen and came back starts a new count; a screen
                # caught halfway through redrawing the number must not.
                warnings.append(refused)
                warning_gone[0] = False
            else:
                warnings[-1] = refused

    base = my_taps(process.screen)
    with process.lock:
        process.on_chunk = on_chunk
    keys = flood_keys()
    start, end = write_flood(process, keys)
    time.sleep(3.0)  # the warning stays 2 s after the last refused tap; the count is long settled by then
    with process.lock:
        process.on_chunk = None
        chunks = list(process.chunks)
        on_screen = my_taps(process.screen)
    counted = game.quit_and_count(process) - base
    # The count settles at the last change of "My taps" or of the refused count; the warning
    # going away 2 s later is not the count settling.
    settled = max([now for (_, *old), (now, taps, refused) in zip(changes, changes[1:])
                   if taps != old[0] or (refused is not None and refused != old[1])] + [end])
    refused = sum(warnings)
    game_result = {
        "write_ms": (end - start) * 1000,
        "gap_ms": largest_gap_ms(chunks, start, settled),
        "settle_ms": (settled - end) * 1000,
        "counted": counted, "on_screen": on_screen - base, "refused": refused, "warnings": len(warnings),
    }

    echo = start_echo()
    echoed = [0]

    def on_echo(arrival, screen):
        echoed[0] = arrival

    with echo.lock:
        echo.on_chunk = on_echo
    start, end = write_flood(echo, keys)
    time.sleep(1.0)
    with echo.lock:
        chunks = list(echo.chunks)
    echo.kill()
    total = sum(size for t, size in chunks if t >= start)
    echo_result = {
        "write_ms": (end - start) * 1000,
        "gap_ms": largest_gap_ms(chunks, start, max(end, echoed[0])),
        "settle_ms": (max(end, echoed[0]) - end) * 1000,
        "echoed": total,
    }
    return game_result, echo_result


def measure_idle(game, seconds=10.0):
    process = game.start()
    echo = start_echo()
    time.sleep(1.0)  # past the first frame and the first sync
    before = (process.cpu_ms(), process.cpu_ns_scheduled(), echo.cpu_ms(), echo.cpu_ns_scheduled())
    with process.lock:
        chunks_before = len(process.chunks)
    time.sleep(seconds)
    after = (process.cpu_ms(), process.cpu_ns_scheduled(), echo.cpu_ms(), echo.cpu_ns_scheduled())
    with process.lock:
        frames = len(process.chunks) - chunks_before
    game.quit_and_count(process)
    echo.kill()

    def usage(cpu_before, cpu_after, sched_before, sched_after):
        sched = None if sched_before is None else (sched_after - sched_before) / 1e6
        return {"ms": cpu_after - cpu_before, "sched_ms": sched, "percent": (cpu_after - cpu_before) / (seconds * 10)}

    return (usage(before[0], after[0], before[1], after[1]) | {"chunks": frames},
            usage(before[2], after[2], before[3], after[3]))


def frames_during(process, seconds=2.0, rate=20, seed=3):
    """Keys at `rate` a second (each 25-75 ms after the last, as a human's are uneven) for `seconds`.

    Returns output chunks/s, frames/s (chunks < 5 ms apart merged into one) and wake-ups/s
    (voluntary context switches: each is one sleep of the frame loop in its terminal read).
    A frame that changes nothing on screen sends no bytes, so chunks count visible changes.
    """
    rng = random.Random(seed)
    switches_before = process.voluntary_switches()
    start = time.monotonic()
    due = start
    while due < start + seconds:
        time.sleep(max(0.0, due - time.monotonic()))
        process.write(bytes([HUMAN_KEYS[rng.randrange(len(HUMAN_KEYS))]]))
        due += rng.uniform(0.5, 1.5) / rate
    time.sleep(max(0.0, start + seconds - time.monotonic()))
    wakeups = process.voluntary_switches() - switches_before
    with process.lock:
        times = [t for t, _ in process.chunks if start <= t < start + seconds]
    frames = sum(1 for a, b in zip([float("-inf")] + times, times) if b - a >= 0.005)
    return len(times) / seconds, frames / seconds, wakeups / seconds


def measure_frame_rate(game):
    process = game.start()
    time.sleep(0.5)
    game_rates = frames_during(process)
    game.quit_and_count(process)
    echo = start_echo()
    echo_rates = frames_during(echo)
    echo.kill()
    return game_rates, echo_rates


def verdict(ok):
    return "ok" if ok else "MISSED"


def table(latency, flood, idle, frames):
    game_ms, game_missing, echo_ms, echo_missing = latency
    game_flood, echo_flood = flood
    game_idle, echo_idle = idle
    (game_chunks, game_fps, game_wakeups), (echo_chunks, echo_fps, echo_wakeups) = frames
    rows = []

    def row(what, game, baseline, floor, ok):
        rows.append(f"| {what} | {game} | {baseline} | {floor} | {verdict(ok)} |")

    def spread(values, missing):
        if not values:
            return f"none seen ({missing} missing)"
        text = f"{benchlib.percentile(values, 0.5):.1f} / {benchlib.percentile(values, 0.99):.1f} / {max(values):.1f} ms"
        return text + (f" ({missing} of {len(values) + missing} never shown)" if missing else "")

    row(f"Key → new count on screen, p50 / p99 / max ({len(game_ms) + game_missing} keys, 150–200 ms apart)",
        spread(game_ms, game_missing), spread(echo_ms, echo_missing) + " (echo)", "≤ 33 ms (one frame at 30 fps)",
        bool(game_ms) and not game_missing and max(game_ms) <= FRAME_FLOOR_MS)
    row("Flood of 10,000 keys: time to write them all (100 × 100 every 10 ms)",
        f"{game_flood['write_ms']:.0f} ms", f"{echo_flood['write_ms']:.0f} ms", "≈ 1,000 ms",
        game_flood["write_ms"] <= 1500)
    row("Flood: largest gap between output chunks, first key to settled",
        f"{game_flood['gap_ms']:.0f} ms", f"{echo_flood['gap_ms']:.0f} ms", "≤ 33 ms (frames keep coming)",
        game_flood["gap_ms"] <= FRAME_FLOOR_MS)
    row("Flood: last key written → count settled on screen",
        f"{game_flood['settle_ms']:.0f} ms", f"{echo_flood['settle_ms']:.0f} ms (last echo)", "≤ 33 ms",
        game_flood["settle_ms"] <= FRAME_FLOOR_MS)
    total = game_flood["counted"] + game_flood["refused"]
    row("Flood: counted (stats myTaps) + refused (on-screen warning) = 10,000",
        f"{game_flood['counted']:,} + {game_flood['refused']:,} = {total:,}"
        f" (screen showed {game_flood['on_screen']:,} counted; {game_flood['warnings']} warning(s))",
        f"{echo_flood['echoed']:,} bytes echoed", "= 10,000", total == 10_000 and game_flood["on_screen"] == game_flood["counted"])
    row("Idle 10 s in the game screen: CPU (utime+stime; schedstat)",
        f"{game_idle['ms']:.0f} ms = {game_idle['percent']:.2f} % of a core; {game_idle['sched_ms']:.1f} ms;"
        f" {game_idle['chunks']} output chunks",
        f"{echo_idle['ms']:.0f} ms = {echo_idle['percent']:.2f} %; {echo_idle['sched_ms']:.1f} ms (cat blocked on its tty)",
        "≈ baseline (≤ 1 % of a core)", game_idle["percent"] <= 1.0)
    row("2 s of keys at 20/s (25–75 ms apart): output chunks/s; frames/s (chunks < 5 ms apart merged)",
        f"{game_chunks:.1f}; {game_fps:.1f}", f"{echo_chunks:.1f}; {echo_fps:.1f} (echo)", "≥ 30 fps",
        game_fps >= 30)
    row("Same 2 s: frame-loop wake-ups/s (voluntary context switches; each wake ≥ 16 ms after the last frame draws)",
        f"{game_wakeups:.1f}", f"{echo_wakeups:.1f} (echo)", "≥ 30 /s", game_wakeups >= 30)
    header = ["| Measurement | touchschool | Baseline (same run) | Floor | Verdict |", "|---|---|---|---|---|"]
    return "\n".join(header + rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", help="the touchschool binary (default: the release build)")
    arguments = parser.parse_args()
    binary = arguments.binary
    if not binary:
        bin_path = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=REPO,
                                  capture_output=True, text=True).stdout.strip()
        binary = os.path.join(bin_path, "touchschool")
    if not os.access(binary, os.X_OK):
        raise HarnessError(f"no binary at {binary}: swift build -c release --product touchschool")
    if not os.path.exists(CSV):
        raise HarnessError(f"the official list is missing: {CSV}")
    with tempfile.TemporaryDirectory(prefix="touchschool-termbench-") as workdir:
        game = Game(binary, workdir)
        print("latency…", file=sys.stderr)
        latency = measure_latency(game)
        print("flood…", file=sys.stderr)
        flood = measure_flood(game)
        print("idle…", file=sys.stderr)
        idle = measure_idle(game)
        print("frame rate…", file=sys.stderr)
        frames = measure_frame_rate(game)
    print(f"{os.cpu_count()} cores, {COLUMNS}×{ROWS}, TERM=xterm-256color, {binary}\n")
    print(table(latency, flood, idle, frames))


if __name__ == "__main__":
    try:
        main()
    except HarnessError as error:
        sys.exit(f"terminal-benchmarks.py: {error}")
