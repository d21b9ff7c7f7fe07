#!/usr/bin/env bash
# The board version's hot row (issue 17): does a sequence instead of the one-row counter shorten
# what every commit holds? pgbench, on a throwaway cluster (scripts/pg-cluster), plays the
# servers' commit transactions as PostgresBattleStore writes them (the board's version, then the
# schools' totals in id order with that version, a NOTIFY, COMMIT), with each pgbench client one
# server committing its 50 ms windows. Two variants of the version:
#   row       UPDATE touchschool_board SET version = version + 1 … RETURNING version (today)
#   sequence  SELECT nextval('touchschool_board_version') (no row lock)
#   sequence+xid  the sequence, and each total stamped with its transaction id
#             (pg_current_xact_id()): what a sequence needs to be correct, since numbers are taken
#             in one order and committed in another, and a poll reading "version > N" would skip a
#             commit that took a lower number and finished later; polls would read by transaction
#             id up to the snapshot's xmin instead
# and two commit shapes: every commit touching the same 150 schools (a class on a few schools:
# the schools' rows are as hot as the board's), and commits touching 20 of 3,000 schools at random
# (a national battle: only the board's row is shared).
#
#   Benchmarks/board-version.sh                 # clients 1 2 4 8, 15 s each
#   BV_CLIENTS="2 8" BV_SECONDS=10 Benchmarks/board-version.sh
set -euo pipefail
cd "$(dirname "$0")/.."
CLIENTS=${BV_CLIENTS:-"1 2 4 8"}
SECONDS_EACH=${BV_SECONDS:-15}
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
WORK=$(mktemp -d /tmp/touchschool-board-version-XXXXXX)
chmod 755 "$WORK" # the cluster runs as the postgres user when this runs as root
trap 'scripts/pg-cluster stop "$WORK/cluster" immediate >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
URL=$(scripts/pg-cluster start "$WORK/cluster")
psql -X -q "$URL" <<'SQL'
CREATE TABLE touchschool_board (id int PRIMARY KEY CHECK (id = 1), version bigint NOT NULL);
INSERT INTO touchschool_board VALUES (1, 0);
CREATE SEQUENCE touchschool_board_version;
CREATE TABLE touchschool_scores (school text PRIMARY KEY, total bigint NOT NULL, version bigint NOT NULL, xid xid8);
CREATE INDEX touchschool_scores_by_xid ON touchschool_scores (xid);
CREATE INDEX touchschool_scores_by_version ON touchschool_scores (version);
INSERT INTO touchschool_scores SELECT 'S' || lpad(g::text, 4, '0'), 0, 0 FROM generate_series(1, 3000) g;
SQL
for variant in row sequence sequence+xid; do
  stamp="" stamped=""
  if [ $variant = sequence+xid ]; then stamp=", xid" stamped=", pg_current_xact_id()"; fi
  if [ $variant = row ]; then
    version="UPDATE touchschool_board SET version = version + 1 WHERE id = 1 RETURNING version \\gset"
  else
    version="SELECT nextval('touchschool_board_version') AS version \\gset"
  fi
  cat >"$WORK/$variant-class.sql" <<SQL
BEGIN;
$version
INSERT INTO touchschool_scores (school, total, version$stamp) SELECT 'S' || lpad(g::text, 4, '0'), 10, :version$stamped FROM generate_series(1, 150) g ORDER BY 1 ON CONFLICT (school) DO UPDATE SET total = touchschool_scores.total + EXCLUDED.total, version = EXCLUDED.version$(echo "$stamp" | sed 's/, xid/, xid = EXCLUDED.xid/');
SELECT pg_notify('touchschool_board', :version::text);
COMMIT;
SQL
  cat >"$WORK/$variant-nation.sql" <<SQL
\\set first random(1, 2980)
BEGIN;
$version
INSERT INTO touchschool_scores (school, total, version$stamp) SELECT 'S' || lpad(g::text, 4, '0'), 10, :version$stamped FROM generate_series(:first, :first + 19) g ORDER BY 1 ON CONFLICT (school) DO UPDATE SET total = touchschool_scores.total + EXCLUDED.total, version = EXCLUDED.version$(echo "$stamp" | sed 's/, xid/, xid = EXCLUDED.xid/');
SELECT pg_notify('touchschool_board', :version::text);
COMMIT;
SQL
done
echo "| shape | clients | variant | commits/s | latency avg |"
echo "| --- | ---: | --- | ---: | ---: |"
for shape in class nation; do
  for clients in $CLIENTS; do
    for variant in row sequence sequence+xid; do
      out=$("$PGBIN/pgbench" -n -f "$WORK/$variant-$shape.sql" -c "$clients" -j "$clients" -T "$SECONDS_EACH" "$URL" 2>&1) || { echo "$out" >&2; exit 1; }
      tps=$(echo "$out" | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
      avg=$(echo "$out" | sed -n 's/^latency average = \(.*\)$/\1/p')
      echo "| $shape | $clients | $variant | ${tps%.*} | $avg |"
    done
  done
done
