#!/bin/sh
# Installs fetch-history for one user: its three programs, a man page per command
# and the completion script of a shell, under a prefix. docs/install.md, "Install".
#
#   Scripts/install.sh [--prefix DIR] [--shell bash|zsh|fish|all|none] [--bin DIR]
#
#   --prefix DIR  where to install (default: ~/.local):
#                   DIR/bin/fetch-history, fetch-history-http, fetch-history-postgres
#                   DIR/share/man/man1/fetch-history.1, fetch-history-list.1, …
#                   DIR/share/bash-completion/completions/fetch-history
#                   DIR/share/zsh/site-functions/_fetch-history
#                   DIR/share/fish/vendor_completions.d/fetch-history.fish
#   --shell SHELL whose completion script to install (default: the shell
#                 $SHELL names; all: the three; none: none)
#   --bin DIR     install the programs already built in DIR rather than
#                 building them (`swift build -c release --static-swift-stdlib`,
#                 README's first command, which is a no-op once it has run)
#
# Nothing is written outside the prefix but what any `swift build` writes
# (this package's .build, the toolchain's caches in ~/.cache). Files already
# in the prefix are replaced.
set -eu

package=$(cd "$(dirname "$0")/.." && pwd)
prefix=${HOME:?HOME is not set}/.local
shell=$(basename "${SHELL:-}")
bin=

usage() {
    echo "usage: Scripts/install.sh [--prefix DIR] [--shell bash|zsh|fish|all|none] [--bin DIR]" >&2
    exit 64
}

while [ $# -gt 0 ]; do
    case $1 in
    --prefix) [ $# -ge 2 ] || usage; prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#*=}; shift ;;
    --shell) [ $# -ge 2 ] || usage; shell=$2; shift 2 ;;
    --shell=*) shell=${1#*=}; shift ;;
    --bin) [ $# -ge 2 ] || usage; bin=$2; shift 2 ;;
    --bin=*) bin=${1#*=}; shift ;;
    -h | --help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) usage ;;
    esac
done

case $shell in
bash | zsh | fish | all | none) ;;
'' | sh | dash) shell=none ;;
*) echo "install: no completion script for '$shell'; give --shell bash, zsh, fish, all or none" >&2; exit 64 ;;
esac
case $prefix in
/*) ;;
*) prefix=$(pwd)/$prefix ;;
esac

if [ -z "$bin" ]; then
    (cd "$package" && swift build -c release --static-swift-stdlib)
    bin=$(cd "$package" && swift build -c release --static-swift-stdlib --show-bin-path)
fi
for program in fetch-history fetch-history-http fetch-history-postgres; do
    [ -x "$bin/$program" ] || { echo "install: $bin/$program is missing; build it first" >&2; exit 1; }
done

# The programs, side by side: fetch-history hands HTTP over to the
# fetch-history-http next to it, PostgreSQL to fetch-history-postgres.
mkdir -p "$prefix/bin"
for program in fetch-history fetch-history-http fetch-history-postgres; do
    cp "$bin/$program" "$prefix/bin/.$program.new"
    chmod 755 "$prefix/bin/.$program.new"
    mv -f "$prefix/bin/.$program.new" "$prefix/bin/$program"
done
echo "installed $prefix/bin/fetch-history, fetch-history-http and fetch-history-postgres"

# A page per command, written from the commands' own description of
# themselves; the Swift toolchain runs the script, with its module cache in
# .build rather than in the user's home.
man1=$prefix/share/man/man1
mkdir -p "$man1"
"$bin/fetch-history" --experimental-dump-help \
    | swift -module-cache-path "$package/.build/module-cache" "$package/Scripts/man-pages.swift" "$man1" >/dev/null
echo "installed the man pages in $man1: man fetch-history, man fetch-history-list, …"

# The completion script, where each shell looks for it when fetch-history
# is first completed.
completion() {
    mkdir -p "$(dirname "$2")"
    "$bin/fetch-history" --generate-completion-script "$1" >"$2.new"
    mv -f "$2.new" "$2"
    echo "installed the $1 completion script: $2"
}
if [ "$shell" = bash ] || [ "$shell" = all ]; then
    completion bash "$prefix/share/bash-completion/completions/fetch-history"
fi
if [ "$shell" = zsh ] || [ "$shell" = all ]; then
    completion zsh "$prefix/share/zsh/site-functions/_fetch-history"
    echo "  zsh reads it from a folder on \$fpath: in ~/.zshrc, before compinit, fpath=($prefix/share/zsh/site-functions \$fpath)"
fi
if [ "$shell" = fish ] || [ "$shell" = all ]; then
    completion fish "$prefix/share/fish/vendor_completions.d/fetch-history.fish"
fi

case :${PATH:-}: in
*:"$prefix/bin":*) ;;
*) echo "note: $prefix/bin is not on your PATH; add it, and man finds the pages too" ;;
esac
