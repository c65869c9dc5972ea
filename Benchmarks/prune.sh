#!/bin/sh
# Measures `fetch-history prune` of 900k of 1M fetches: time, and the
# database's size before and after. Everything happens in a scratch folder
# under /tmp, never in the user's default database.
#
#   swift build -c release --product fetch-history
#   Benchmarks/prune.sh [FETCHES]          # default 1000000; prunes all but a tenth
set -eu
count=${1:-1000000}
binary=${FETCH_HISTORY:-$(cd "$(dirname "$0")/.." && pwd)/.build/release/fetch-history}
scratch=$(mktemp -d /tmp/fetch-history-prune.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

# The history: sessions of 1,000 fetches over 100 days from 2026-08-01, 80%
# succeeded, 10% failed, 5% cancelled, 5% timed out, random (v4) ids as
# imported histories have; one JSON line each, as `export` writes them.
python3 - "$count" > "$scratch/fetches.jsonl" <<'PY'
import sys, uuid, random, datetime
random.seed(1)
n = int(sys.argv[1])
start = datetime.datetime(2026, 8, 1, tzinfo=datetime.timezone.utc).timestamp() * 1000
span = 100 * 86_400_000
def iso(ms):
    s, m = divmod(int(ms), 1000)
    return datetime.datetime.fromtimestamp(s, datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%S') + '.%03dZ' % m
out = sys.stdout
for k in range(n):
    sid = str(uuid.UUID(int=random.getrandbits(128), version=4))
    if k % 1000 == 0:
        session = sid
    at = int(start + span * k / n)
    duration = random.randint(5, 3000)
    r = random.random()
    outcome, value, error, reason = 'succeeded', str(random.randint(1, 100)), 'null', 'null'
    if r < 0.1: outcome, value, error = 'failed', 'null', '"HTTP 503"'
    elif r < 0.15: outcome, value, reason = 'cancelled', 'null', '"user"'
    elif r < 0.2: outcome, value = 'timed-out', 'null'
    fid = str(uuid.UUID(int=random.getrandbits(128), version=4))
    out.write('{"id":"%s","session":"%s","source":"random","outcome":"%s","cancelReason":%s,"value":%s,"error":%s,"startedAt":"%s","endedAt":"%s","durationMs":%d,"status":null,"bytes":null}\n'
              % (fid, session, outcome, reason, value, error, iso(at), iso(at + duration), duration))
PY

db="$scratch/history.sqlite"
"$binary" import "$scratch/fetches.jsonl" --database "$db"
echo "before: $(stat -c %s "$db") bytes"
"$binary" prune --keep $((count / 10)) --dry-run --database "$db"
/usr/bin/time -f "prune: %e s wall, %U s user, %S s sys, %M KiB max RSS" \
    "$binary" prune --keep $((count / 10)) --database "$db"
echo "after: $(stat -c %s "$db") bytes (-wal: $(stat -c %s "$db-wal" 2>/dev/null || echo none))"
