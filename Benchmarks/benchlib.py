"""Helpers the Python benchmarks beside this file share, kept here once.

Imported by the scripts in this folder (`import benchlib`: Python puts a script's own folder on
the import path, so they run from anywhere). Standard library only.
"""
import os
import re
import signal
import subprocess
import threading


def percentile(values, fraction):
    """Nearest rank: the value at `fraction` (0.5, 0.9, 0.99) of the way from the least to the
    greatest, rounded to the nearer index."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def upper_percentile(values, fraction):
    """The value at index floor(`fraction` × count), NaN when there is none: the rule flood.py's and
    fsync-latency.py's figures in BENCHMARKS.md were taken with, kept so that they stay comparable
    with their history (on few samples it can read a rank above `percentile`)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def start_server(program, data, log_path):
    """`program serve --port 0` on `data` (its standard error in `log_path`), in a session of its
    own; the process and its port, once it says where it listens. The rest of its output is read
    and dropped so that a full pipe never stalls it."""
    log = open(log_path, "w")
    server = subprocess.Popen([program, "serve", "--port", "0", "--data-dir", data],
                              stdout=subprocess.PIPE, stderr=log, text=True, start_new_session=True)
    for line in server.stdout:
        found = re.search(r"listening on http://127\.0\.0\.1:(\d+) ", line)
        if found:
            threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
            return server, int(found.group(1))
    stop_server(server)
    raise RuntimeError("the server did not say where it listens")


def stop_server(server):
    """SIGTERM to its session (it saves and closes), SIGKILL after 20 s."""
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


def figure(value, digits=0):
    """A figure for a results table, thousands separated: "—" for one missing or negative (the load
    generator's -1: not measured, or the run failed)."""
    return "—" if value is None or (isinstance(value, (int, float)) and value < 0) else f"{value:,.{digits}f}"
