# What the load scripts (load.sh, round-readers.sh, load-postgres.sh) share, sourced by each after
# it has changed into Benchmarks/ (so that their summaries' `python3 -` finds benchlib.py too).

# The LoadGenerator's result, read from its output on standard input: the JSON object after
# "RESULT ", nothing when it printed none (the caller then records the run as failed).
generator_result() {
    grep '^RESULT ' | head -1 | cut -c8-
}

# The JSON object $1 with the key $2 set to the JSON value $3 (`true`, `"text"`).
json_with() {
    python3 -c 'import json, sys; r = json.loads(sys.argv[1]); r[sys.argv[2]] = json.loads(sys.argv[3]); print(json.dumps(r))' "$1" "$2" "$3"
}
