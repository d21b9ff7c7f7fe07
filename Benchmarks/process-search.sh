#!/usr/bin/env bash
# Whole-process time of `touchschool search` on the imported full official list, side by side
# with `fzf --filter` over the same names and addresses, in one hyperfine run per query so that
# the ratio is taken on the same machine at the same moment.
#
#   Benchmarks/process-search.sh [path/to/official.csv]
#
# Needs hyperfine and fzf (Debian: apt-get install hyperfine fzf). Prints a table of means and
# the ratio touchschool / fzf per query, and writes hyperfine's JSON under .build/process-search/.
set -euo pipefail
cd "$(dirname "$0")/.."
csv=${1:-../shared/data/korea-schools-2026-03-20.utf8.csv}
out=.build/process-search
mkdir -p "$out"
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT

# The build to install (scripts/build-release: touchschool fully static), unless $TOUCHSCHOOL_BIN.
if [ -z "${TOUCHSCHOOL_BIN:-}" ]; then scripts/build-release >/dev/null; fi
bin=${TOUCHSCHOOL_BIN:-.build/install/bin/touchschool}
"$bin" import --data-dir "$data" "$csv" >/dev/null

# The same text fzf searches: each school's name and address (which starts with its province and
# district), one per line, made from the CSV at run time.
python3 - "$csv" > "$data/lines.txt" <<'PY'
import csv, sys
with open(sys.argv[1], encoding="utf-8") as f:
    for row in csv.DictReader(f):
        print(row["학교명"], row["소재지도로명주소"] or row["소재지지번주소"])
PY
echo "schools: $(wc -l < "$data/lines.txt")"

queries=("서울고" "민사고" "대원외고" "ㅎㅁㄱ" "gnlansrh" "부산 금성초" "경기과고" "kis")
printf '%-14s %12s %12s %8s\n' query touchschool fzf ratio
for q in "${queries[@]}"; do
  json="$out/$(echo "$q" | tr ' ' '_').json"
  hyperfine -i --warmup 5 --runs 40 --export-json "$json" \
    "$bin search --data-dir $data --limit 20 '$q'" \
    "fzf --filter '$q' < $data/lines.txt" >/dev/null
  python3 - "$json" "$q" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
ours, fzf = r[0]["mean"] * 1000, r[1]["mean"] * 1000
print(f"{sys.argv[2]:<14} {ours:10.2f}ms {fzf:10.2f}ms {ours / fzf:8.2f}")
PY
done
