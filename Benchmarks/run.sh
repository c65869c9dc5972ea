#!/usr/bin/env bash
# Builds fetch-history and the benchmark harness in release, runs the whole
# suite and prints a Markdown report of medians and ratios.
#
#   Benchmarks/run.sh              # 1,000,000 fetches (about 20 minutes on 2 cores)
#   Benchmarks/run.sh 100000       # a quick look (about 2 minutes)
#   Benchmarks/run.sh 1000000 imports   # only import against SQLite's own bulk load
#
# Environment: WORK (where histories and databases go; default
# /tmp/fetch-history-bench, never inside the repository), RECORD_COUNT
# (fetches per recording run; default 20000), REPETITION_SCALE (multiplies
# every repetition count; default 1), PREVIOUS_CLI (an earlier fetch-history
# binary whose imports run in the same rounds: a change's before and after).
set -euo pipefail

size="${1:-1000000}"
mode="${2:-run}"
case "$mode" in run|imports) ;; *) echo "usage: $0 [SIZE] [imports]" >&2; exit 64 ;; esac
here="$(cd "$(dirname "$0")" && pwd)"
work="${WORK:-${TMPDIR:-/tmp}/fetch-history-bench}"

need() { command -v "$1" >/dev/null 2>&1; }
# The team history's comparisons run against a PostgreSQL server of their own
# when its binaries are installed (README's test command installs them).
if ! need sqlite3 || ! [ -x /usr/bin/time ] || ! pkg-config --exists sqlite3; then
    echo "installing sqlite3, GNU time and libsqlite3-dev" >&2
    apt-get update -qq && apt-get install -y -qq sqlite3 time libsqlite3-dev >&2
fi

echo "building (release)" >&2
# The harness, and fetch-history itself as a product of the dependency: both
# from the same sources, compiler and flags, and linked as the README builds
# it (--static-swift-stdlib).
build=(swift build -c release --static-swift-stdlib --package-path "$here")
"${build[@]}" >&2
"${build[@]}" --product fetch-history >&2
# Its companion too: a command naming a postgres:// URL hands over to it.
"${build[@]}" --product fetch-history-http >&2
bin="$("${build[@]}" --show-bin-path)"

echo "## Machine"
echo
echo "- CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores"
echo "- Memory: $(free -h | awk '/^Mem:/ {print $2 " total, " $7 " available"}')"
echo "- $(swift --version 2>/dev/null | head -1)"
echo "- $(sqlite3 --version | cut -d' ' -f1,2 | sed 's/^/sqlite3 /')"
echo "- fetch-history $(cd "$here/.." && git describe --always --dirty 2>/dev/null || echo '(not a git checkout)')"
echo "- work folder: $work ($(df -h "$(dirname "$work")" | awk 'NR==2 {print $1}'))"
echo

previous=()
if [ -n "${PREVIOUS_CLI:-}" ]; then previous=(--previous-cli "$PREVIOUS_CLI"); fi
"$bin/fetch-history-bench" "$mode" --cli "$bin/fetch-history" --size "$size" --work "$work" \
    --record-count "${RECORD_COUNT:-20000}" --repetition-scale "${REPETITION_SCALE:-1}" "${previous[@]}"
