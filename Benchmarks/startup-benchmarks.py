#!/usr/bin/env python3
"""Start-up and memory of the REAL release `touchschool` binary on the full official list.

Needs pyte (pip install pyte), fzf and less, and the official list beside the checkout
(../shared/data). Measures the build to install (`scripts/build-release`, run first, into
.build/install/bin: `touchschool` fully static) unless --binary names another. Run from anywhere:

    python3 Benchmarks/startup-benchmarks.py [--binary PATH] [--baseline-binary PATH] [--runs N]

Each figure comes with its baseline from the same run, the two alternating run by run:

1. Spawn → first frame of the game: from just before forkpty to the arrival of the output chunk
   after which the terminal (a pyte screen, 100×30, as in terminal-benchmarks.py) shows the game
   screen ("My taps"), started straight in the game (--school) on the imported full list.
   Baseline: `less` on the names file, from the same spawn to the first name on its screen.
2. Peak memory of `touchschool search --limit 20 QUERY` (ru_maxrss of the finished process, from
   wait4) beside `fzf --filter QUERY` over the same names and addresses.
3. Resident memory of an idle game (VmRSS and VmHWM from /proc/<pid>/status after 2 s in the game
   screen), beside `less` idle on the names file.

--baseline-binary adds another build (e.g. main's, or one linked statically) to 1-3, run in the
same rounds; it may be given several times.
"""

import argparse
import csv
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
UTF8_CSV = os.path.join(REPO, "..", "shared", "data", "korea-schools-2026-03-20.utf8.csv")
QUERIES = ["서울고", "민사고", "부산 금성초", "ㅎㅁㄱ", "경기과고", "gnlansrh"]

spec = importlib.util.spec_from_file_location("terminal_benchmarks", os.path.join(HERE, "terminal-benchmarks.py"))
terminal = importlib.util.module_from_spec(spec)
spec.loader.exec_module(terminal)
PtyProcess, HarnessError, run = terminal.PtyProcess, terminal.HarnessError, terminal.run


class SpawnedPty(PtyProcess):
    """PtyProcess, started with posix_spawn (vfork) on a new pty instead of forkpty: forking this
    Python process costs tens of ms, which would drown the start-up being measured."""

    def __init__(self, argv, shown, columns=terminal.COLUMNS, rows=terminal.ROWS):
        import fcntl, pyte, struct, termios, threading
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.chunks, self.lock, self.watch, self.on_chunk, self.closed = [], threading.Condition(), None, None, False
        env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8")
        env.pop("COLUMNS", None)
        env.pop("LINES", None)
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.fd = master
        self.first_shown = self.arm(shown)  # armed before the spawn: no chunk is missed
        self.reader.start()
        self.spawned_at = time.monotonic()
        self.pid = os.posix_spawn(argv[0] if os.path.isabs(argv[0]) else shutil.which(argv[0]), argv, env,
                                  file_actions=[(os.POSIX_SPAWN_DUP2, slave, 0), (os.POSIX_SPAWN_DUP2, slave, 1),
                                                (os.POSIX_SPAWN_DUP2, slave, 2)], setsid=True)
        os.close(slave)


def status_kb(pid, field):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise HarnessError(f"no {field} for {pid}")


def first_frame(argv, shown, timeout=10):
    """ms from spawn to the chunk after which shown(screen) holds; the process, still running."""
    process = SpawnedPty(argv, shown)
    start = process.spawned_at
    stamps = process.first_shown
    if not process.wait_for(shown, timeout):
        text = process.text()
        process.kill()
        raise HarnessError(f"{argv[0]} never showed its first screen:\n{text}")
    with process.lock:
        arrival = stamps[0] if stamps else time.monotonic()
    return (arrival - start) * 1000, process


def max_rss_kb(argv, stdin_path=None, ok=(0,)):
    """Peak resident memory by GNU time (%M): started from a small process, not forked from this
    Python, whose pages a forked child would count until it execs."""
    with tempfile.NamedTemporaryFile("r") as report:
        stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
        try:
            result = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report.name] + argv, stdin=stdin,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        finally:
            if stdin_path:
                stdin.close()
        if result.returncode not in ok:
            raise HarnessError(f"{' '.join(argv)} failed ({result.returncode})")
        return int(report.read().split()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary")
    parser.add_argument("--baseline-binary", action="append", default=[],
                        help="another build to measure in the same rounds, as PATH or LABEL=PATH (repeatable)")
    parser.add_argument("--runs", type=int, default=20)
    arguments = parser.parse_args()
    binary = arguments.binary
    if not binary:
        # The programs as installed, rebuilt first (incremental: quick when nothing changed).
        subprocess.run([os.path.join(REPO, "scripts", "build-release")], cwd=REPO, check=True, stdout=subprocess.DEVNULL)
        binary = os.path.join(REPO, ".build", "install", "bin", "touchschool")
    builds = {"touchschool": binary}
    for number, other in enumerate(arguments.baseline_binary, 1):
        label, _, path = other.rpartition("=")
        builds[label or f"baseline build {number}"] = path
    for tool in ("fzf", "less"):
        if not shutil.which(tool):
            raise HarnessError(f"{tool} is missing (apt-get install {tool})")

    with tempfile.TemporaryDirectory(prefix="touchschool-startup-") as workdir:
        lines = os.path.join(workdir, "lines.txt")
        names = os.path.join(workdir, "names.txt")
        with open(UTF8_CSV, encoding="utf-8") as source, open(lines, "w") as both, open(names, "w") as only:
            for row in csv.DictReader(source):
                both.write(f"{row['학교명']} {row['소재지도로명주소'] or row['소재지지번주소']}\n")
                only.write(row["학교명"] + "\n")
        first_name = open(names, encoding="utf-8").readline().strip()
        data, school = {}, {}
        for label, path in builds.items():
            data[label] = os.path.join(workdir, label.replace(" ", "-"))
            run([path, "import", "--data-dir", data[label], UTF8_CSV])
            answer = json.loads(run([path, "search", "서울고등학교", "--data-dir", data[label], "--json"]))
            # {"query", "schools", …}; a build from before it carried the suggestions printed the list alone.
            school[label] = (answer["schools"] if isinstance(answer, dict) else answer)[0]["id"]

        frames = {label: [] for label in list(builds) + ["less"]}
        idle = {label: [] for label in list(builds) + ["less"]}
        for _ in range(arguments.runs):
            for label, path in builds.items():
                argv = [path, "--school", school[label], "--data-dir", data[label], "--lang", "en", "--quiet"]
                ms, process = first_frame(argv, lambda s: terminal.my_taps(s) is not None)
                frames[label].append(ms)
                if len(idle[label]) < 3:
                    time.sleep(2)
                    idle[label].append((status_kb(process.pid, "VmRSS"), status_kb(process.pid, "VmHWM")))
                process.write(b"\x03")
                process.finish()
            ms, process = first_frame(["less", names], lambda s: first_name in s.display[0])
            frames["less"].append(ms)
            if len(idle["less"]) < 3:
                time.sleep(2)
                idle["less"].append((status_kb(process.pid, "VmRSS"), status_kb(process.pid, "VmHWM")))
            process.write(b"q")
            process.finish()

        memory = {query: {label: [] for label in list(builds) + ["fzf"]} for query in QUERIES}
        for _ in range(5):
            for query in QUERIES:
                for label, path in builds.items():
                    memory[query][label].append(max_rss_kb([path, "search", "--data-dir", data[label], "--limit", "20", query]))
                memory[query]["fzf"].append(max_rss_kb(["fzf", "--filter", query], lines, ok=(0, 1)))  # 1: no match

    print(f"{os.cpu_count()} cores, {arguments.runs} alternating runs, {binary}\n")
    print("| Spawn → first frame | p50 | p90 | min | ÷ less p50 |")
    print("|---|---:|---:|---:|---:|")
    less50 = statistics.median(frames["less"])
    for label, values in frames.items():
        values.sort()
        p50, p90 = statistics.median(values), values[int(0.9 * (len(values) - 1))]
        print(f"| {label} | {p50:.1f} ms | {p90:.1f} ms | {values[0]:.1f} ms | {p50 / less50:.2f} |")
    print("\n| Idle after 2 s | VmRSS | VmHWM |")
    print("|---|---:|---:|")
    for label, values in idle.items():
        print(f"| {label} | {max(v[0] for v in values) / 1024:.1f} MiB | {max(v[1] for v in values) / 1024:.1f} MiB |")
    print("\n| search peak memory (max of 5) | " + " | ".join(list(builds) + ["fzf", "ratio"]) + " |")
    print("|---|" + "---:|" * (len(builds) + 2))
    for query, by in memory.items():
        peaks = {label: max(values) / 1024 for label, values in by.items()}
        print(f"| {query} | " + " | ".join(f"{peaks[label]:.1f} MiB" for label in list(builds) + ["fzf"])
              + f" | {peaks['touchschool'] / peaks['fzf']:.2f} |")


if __name__ == "__main__":
    try:
        main()
    except HarnessError as error:
        sys.exit(f"startup-benchmarks.py: {error}")
