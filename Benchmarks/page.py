#!/usr/bin/env python3
"""The browser page of `touchschool serve` (issue 11): its size and its time to interactive on
loopback, beside a baseline in the same run, and what a tap costs with a small and a national
board.

Runs the real server on loopback and a real headless Chromium (Debian's chromium and
chromium-driver, driven by python3-selenium). Usage, from the repository root:

    swift build                                # both programs (`touchschool serve` hands over to touchschool-network)
    /usr/bin/python3 Benchmarks/page.py [--bin PATH] [--runs N] [--official CSV]

Boards: the starter catalog with every school holding taps, and (when the official list is
found, by default in /work/shared/data) the 12,011 schools of the official list, every one with
taps: the state file is written before the server starts.

Time to interactive: from the navigation's start to the page's performance mark
`touchschool-interactive` (handlers attached, taps accepted and kept), with the page's cache
disabled (every run downloads every file). Baseline: `GET /healthz` from the same server, a
one-line document (its DOMContentLoaded). Also when the socket was welcomed
(`touchschool-online`) and the school directory arrived (`touchschool-directory`).
"""
import argparse, gzip, json, os, random, re, shutil, statistics, subprocess, tempfile, time, urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

import benchlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def prepare(binary, official, folder):
    """A data directory whose every school has taps; returns (directory, catalog's school ids, label)."""
    data = os.path.join(folder, "data")
    os.makedirs(data)
    if official:
        subprocess.run([binary, "import", official, "--data-dir", data], check=True, stdout=subprocess.DEVNULL)
        catalog = json.load(open(os.path.join(data, "catalog.json")))
        label = "official list"
    else:
        catalog = json.load(open(os.path.join(ROOT, "Resources", "schools.json")))
        label = "starter catalog"
    ids = [school["id"] for school in catalog["schools"]]
    rng = random.Random(11)
    state = {"format": "touchschool-state", "version": 1, "scores": {i: rng.randint(1, 100_000) for i in ids}, "players": {}}
    json.dump(state, open(os.path.join(data, "state.json"), "w"))
    return data, ids, label


def sizes(url):
    """Per file: its bytes, the bytes sent to a browser that accepts gzip (urllib decodes
    nothing), and gzip -9 of it for reference."""
    rows = []
    # Every file of the page (index.html, main.js and the modules it preloads, as index.html lists
    # them), then the directory the board fetches.
    index = urllib.request.urlopen(url + "/").read().decode()
    modules = ["/main.js"] + re.findall(r'<link rel="modulepreload" href="([^"]+)"', index)
    for path in ["/"] + modules + ["/style.css", "/v1/schools"]:
        body = urllib.request.urlopen(url + path).read()
        request = urllib.request.Request(url + path, headers={"Accept-Encoding": "gzip"})
        served = urllib.request.urlopen(request).read()
        rows.append((path, len(body), len(served), len(gzip.compress(body, 9))))
    return rows


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,800",
                     "--lang=ko-KR", f"--user-data-dir={tempfile.mkdtemp(prefix='touchschool-bench-')}"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    return driver


def mark(driver, name, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = driver.execute_script(f"const m = performance.getEntriesByName('{name}'); return m.length ? m[0].startTime : null")
        if value is not None:
            return value
        time.sleep(0.02)
    raise RuntimeError(f"no mark {name}")


TAP_COST = """
const play = document.getElementById('play');
const r = play.getBoundingClientRect();
const n = arguments[0];
const t0 = performance.now();
for (let i = 0; i < n; i++) {
  play.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true, cancelable: true, pointerId: 1 + (i % 5),
    clientX: r.left + (i * 37) % r.width, clientY: r.top + (i * 53) % r.height}));
}
return (performance.now() - t0) * 1000 / n;
"""

FRAMES = """
const done = arguments[arguments.length - 1];
const play = document.getElementById('play');
const r = play.getBoundingClientRect();
const gaps = [];
let last = 0, taps = 0;
const tapper = setInterval(() => {
  play.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true, cancelable: true, pointerId: 1,
    clientX: r.left + Math.random() * r.width, clientY: r.top + Math.random() * r.height}));
  taps++;
}, 25);
function frame(now) {
  if (last) gaps.push(now - last);
  last = now;
  if (gaps.length < 180) requestAnimationFrame(frame); else { clearInterval(tapper); done({gaps, taps}); }
}
requestAnimationFrame(frame);
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "debug", "touchschool"))
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--official", default="/work/shared/data/korea-schools-2026-03-20.cp949.csv")
    options = parser.parse_args()
    boards = [None] + ([options.official] if os.path.exists(options.official) else [])
    print(f"binary {options.bin}, {options.runs} runs, Chromium headless, loopback\n")
    for official in boards:
        folder = tempfile.mkdtemp(prefix="touchschool-page-bench-")
        server = driver = None
        try:
            data, ids, label = prepare(options.bin, official, folder)
            server, port = benchlib.start_server(options.bin, data, os.path.join(folder, "server.log"))
            url = f"http://127.0.0.1:{port}"
            print(f"## {label}: {len(ids):,} schools, every one with taps\n")
            print("| file | bytes | sent to a browser accepting gzip | gzip -9 (reference) |\n| --- | ---: | ---: | ---: |")
            total = total_served = total_gzip = 0
            for path, raw, served, packed in sizes(url):
                print(f"| `{path}` | {raw:,} | {served:,} | {packed:,} |")
                if not path.startswith("/v1/"):
                    total, total_served, total_gzip = total + raw, total_served + served, total_gzip + packed
            print(f"| the page (HTML + JS + CSS) | {total:,} | {total_served:,} | {total_gzip:,} |\n")

            driver = browser()
            school = ids[len(ids) // 2]
            rows = {"baseline: /healthz DOMContentLoaded": [], "page: DOMContentLoaded": [], "page: interactive (mark)": [],
                    "page: online (welcome)": [], "page: directory loaded": []}
            for _ in range(options.runs):
                driver.get(url + "/healthz")
                rows["baseline: /healthz DOMContentLoaded"].append(driver.execute_script(
                    "return performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd"))
                driver.get(f"{url}/?school={school}")
                rows["page: interactive (mark)"].append(mark(driver, "touchschool-interactive"))
                rows["page: online (welcome)"].append(mark(driver, "touchschool-online"))
                rows["page: directory loaded"].append(mark(driver, "touchschool-directory"))
                rows["page: DOMContentLoaded"].append(driver.execute_script(
                    "return performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd"))
            base = statistics.median(rows["baseline: /healthz DOMContentLoaded"])
            print("| from navigation start (ms) | median | p90 | median / baseline |\n| --- | ---: | ---: | ---: |")
            for name, values in rows.items():
                print(f"| {name} | {statistics.median(values):.1f} | {benchlib.percentile(values, 0.9):.1f} | {statistics.median(values) / base:.1f} |")

            costs = [driver.execute_script(TAP_COST, 200) for _ in range(5)]
            print(f"\nOne tap's handler (200 synthetic pointerdowns, 5 rounds): median {statistics.median(costs):.1f} µs per tap")
            driver.set_script_timeout(30)
            for view in ["game", "board"]:
                # On the board the taps arrive as they would from other players: the whole
                # league is ranked again at most four times a second.
                driver.execute_script(f"document.getElementById('to-{view}').click()")
                time.sleep(0.5)
                result = driver.execute_async_script(FRAMES)
                gaps = result["gaps"]
                print(f"Frames on the {view} view while tapping 40 times a second ({result['taps']} taps, {len(gaps)} frames): "
                      f"median {statistics.median(gaps):.1f} ms, p99 {benchlib.percentile(gaps, 0.99):.1f} ms, longest {max(gaps):.1f} ms, "
                      f"over 25 ms: {sum(1 for g in gaps if g > 25)}")
            print()
        finally:
            if driver:
                driver.quit()
            if server:
                benchlib.stop_server(server)
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
