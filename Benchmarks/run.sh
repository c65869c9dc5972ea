#!/usr/bin/env bash
# Builds fetch-history and the benchmark harness in release, runs the
# benchmarks and prints Markdown reports of medians and ratios.
#
#   Benchmarks/run.sh                    # what the READMEs show: the suite, the answers and the HTTP
#                                        # source at 1,000,000 fetches, the imports at 1,000,000 and
#                                        # 10,000,000, and the scale curve to 10,000,000 (about 3 hours
#                                        # on 2 cores); writes the reports and scale-curve.svg into
#                                        # Benchmarks/, and a summary of the first four into the front
#                                        # page, README.md
#   Benchmarks/run.sh 100000             # a quick look at the suite (a few minutes); prints only
#   Benchmarks/run.sh 1000000,10000000 imports
#                                        # only import against SQLite's pure copy at each size, and pull
#                                        # of the first into a new file; writes its report and the
#                                        # summary (40 minutes)
#   Benchmarks/run.sh 1000000 answers    # only stats, stats --by problem and report (with PREVIOUS_CLI,
#                                        # report against that build's too); writes its report and
#                                        # the summary (10 minutes)
#   Benchmarks/run.sh 100000 curve       # the scale curve from 10,000 up to this size; prints only
#   Benchmarks/run.sh 0 http             # only the HTTP source (a minute or two; the size is unused);
#                                        # writes its report and the summary
#   Benchmarks/run.sh 0 binaries         # the programs' sizes and start-up; writes its report into
#                                        # Benchmarks/README.md and the front page (a minute)
#
# Environment: WORK (where histories and databases go; default
# /tmp/fetch-history-bench, never inside the repository), RECORD_COUNT
# (fetches per recording run; default 20000), REPETITION_SCALE (multiplies
# every repetition count; default 1), PREVIOUS_CLI (an earlier fetch-history
# binary whose imports and reports run in the same rounds: a change's before and after).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
# The full reports go into Benchmarks/README.md, a summary into the front page.
readme=
if [ $# -eq 0 ]; then readme="$here/README.md"; fi
size="${1:-1000000}"
mode="${2:-run}"
case "$mode" in run|imports|answers|curve|http|binaries) ;; *) echo "usage: $0 [SIZE] [run|imports|answers|curve|http|binaries]" >&2; exit 64 ;; esac
work="${WORK:-${TMPDIR:-/tmp}/fetch-history-bench}"

need() { command -v "$1" >/dev/null 2>&1; }
# The team history's comparisons run against a PostgreSQL server of their own
# when its binaries are installed (README's test command installs them).
if ! need sqlite3 || ! need curl || ! need valgrind || ! [ -x /usr/bin/time ] || ! pkg-config --exists sqlite3; then
    echo "installing sqlite3, curl, valgrind, GNU time and libsqlite3-dev" >&2
    apt-get update -qq && apt-get install -y -qq sqlite3 curl valgrind time libsqlite3-dev >&2
fi

echo "building (release)" >&2
# The harness, and fetch-history itself as a product of the dependency: both
# from the same sources, compiler and flags, and linked as README's first
# command builds it (--static-swift-stdlib).
build=(swift build -c release --static-swift-stdlib --package-path "$here")
"${build[@]}" --product fetch-history-bench >&2
"${build[@]}" --product fetch-history >&2
# Its companions too: an HTTP source hands over to the first, a postgres:// URL
# to the second.
"${build[@]}" --product fetch-history-http >&2
"${build[@]}" --product fetch-history-postgres >&2
bin="$("${build[@]}" --show-bin-path)"
export FETCH_HISTORY_REVISION="$(git -C "$root" describe --always --dirty 2>/dev/null || echo '(not a git checkout)')"

previous=()
if [ -n "${PREVIOUS_CLI:-}" ]; then previous=(--previous-cli "$PREVIOUS_CLI"); fi
common=(--cli "$bin/fetch-history" --work "$work" --repetition-scale "${REPETITION_SCALE:-1}")

if [ -n "$readme" ]; then
    "$bin/fetch-history-bench" run "${common[@]}" --size 1000000 --record-count "${RECORD_COUNT:-20000}" \
        --readme "$readme" "${previous[@]}"
    "$bin/fetch-history-bench" imports "${common[@]}" --sizes 1000000,10000000 --readme "$readme" "${previous[@]}"
    "$bin/fetch-history-bench" answers "${common[@]}" --size 1000000 --readme "$readme" "${previous[@]}"
    "$bin/fetch-history-bench" http "${common[@]}" --readme "$readme"
    "$bin/fetch-history-bench" summary --from "$readme" --readme "$root/README.md"
    "$bin/fetch-history-bench" binaries "${common[@]}" --readme "$readme" --front-page "$root/README.md"
    "$bin/fetch-history-bench" curve "${common[@]}" --sizes 10000,100000,1000000,10000000 \
        --svg "$here/scale-curve.svg" --readme "$readme"
elif [ "$mode" = http ]; then
    "$bin/fetch-history-bench" http "${common[@]}" --readme "$here/README.md"
    "$bin/fetch-history-bench" summary --from "$here/README.md" --readme "$root/README.md"
elif [ "$mode" = imports ]; then
    "$bin/fetch-history-bench" imports "${common[@]}" --sizes "$size" --readme "$here/README.md" "${previous[@]}"
    "$bin/fetch-history-bench" summary --from "$here/README.md" --readme "$root/README.md"
elif [ "$mode" = answers ]; then
    "$bin/fetch-history-bench" answers "${common[@]}" --size "$size" --readme "$here/README.md" "${previous[@]}"
    "$bin/fetch-history-bench" summary --from "$here/README.md" --readme "$root/README.md"
elif [ "$mode" = binaries ]; then
    "$bin/fetch-history-bench" binaries "${common[@]}" --readme "$here/README.md" --front-page "$root/README.md"
elif [ "$mode" = curve ]; then
    sizes=10000
    next=100000
    while [ "$next" -le "$size" ]; do sizes="$sizes,$next"; next=$((next * 10)); done
    "$bin/fetch-history-bench" curve "${common[@]}" --sizes "$sizes" --svg "$work/scale-curve.svg"
else
    "$bin/fetch-history-bench" "$mode" "${common[@]}" --size "$size" --record-count "${RECORD_COUNT:-20000}" \
        "${previous[@]}"
fi
