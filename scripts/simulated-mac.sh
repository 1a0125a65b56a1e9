#!/usr/bin/env bash
# The tests as on a developer's Mac set up as docs/mac.md says, simulated on Linux (issue 63):
# - a PATH of Homebrew's shape only: <prefix>/bin holds the machine's programs but none of PostgreSQL's
#   (no bare psql), and PostgreSQL's programs are only in the keg-only <prefix>/opt/postgresql@N/bin,
#   linked to Debian's, with HOMEBREW_PREFIX set as `brew shellenv` sets it;
# - the browser tests' pages with a Mac's user agent (BRICK_WORK_E2E_UA=mac): they take ⌘ for Ctrl.
# What only a Mac has (its platform, SIP, Google Chrome.app, Apple silicon) is the Mac lane's in CI
# (.github/workflows/ci.yml); the tests inject those facts where they matter.
#
#   scripts/simulated-mac.sh              npm test in it
#   scripts/simulated-mac.sh CMD ARGS…    any other command in it (npx vitest run FILE)
set -euo pipefail
cd "$(dirname "$0")/.."

debian=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$debian" ] || [ ! -x "$debian/initdb" ]; then
  echo "simulated-mac: needs Debian's PostgreSQL (/usr/lib/postgresql/N/bin) to link into the Homebrew-shaped keg" >&2
  exit 2
fi
version=$(basename "$(dirname "$debian")")
version=${version%%.*}

sim=$(mktemp -d "${TMPDIR:-/tmp}/brick-work-mac-XXXXXX")
trap 'rm -rf "$sim"' EXIT
# Readable by all: as root the tests run PostgreSQL's programs as the postgres user.
chmod 755 "$sim"
prefix="$sim/homebrew"
keg="$prefix/opt/postgresql@$version/bin"
mkdir -p "$prefix/bin" "$keg"

# The keg: every program of Debian's PostgreSQL, and nothing of it elsewhere.
for program in "$debian"/*; do
  ln -s "$program" "$keg/$(basename "$program")"
done

# <prefix>/bin: the first of each program on today's PATH, PostgreSQL's left out (its programs, Debian's
# wrappers of them on the PATH, and postgresql-common's pg_* tools).
IFS=: read -r -a dirs <<<"$PATH"
for dir in "${dirs[@]}"; do
  [ -d "$dir" ] || continue
  for program in "$dir"/*; do
    name=$(basename "$program")
    [ -x "$program" ] && [ ! -d "$program" ] || continue
    [ -e "$prefix/bin/$name" ] && continue
    [ -e "$debian/$name" ] && continue
    case "$name" in pg_*) continue ;; esac
    case "$(readlink -f "$program")" in */pg_wrapper) continue ;; esac
    ln -s "$program" "$prefix/bin/$name"
  done
done

export PATH="$prefix/bin"
export HOMEBREW_PREFIX="$prefix"
export BRICK_WORK_E2E_UA=mac

for program in psql initdb pg_ctl postgres; do
  if command -v "$program" >/dev/null; then
    echo "simulated-mac: $program is still on the PATH ($(command -v "$program"))" >&2
    exit 2
  fi
done
echo "simulated Mac: PATH=$PATH (no psql), PostgreSQL in $keg, HOMEBREW_PREFIX=$prefix, BRICK_WORK_E2E_UA=mac"

if [ $# -eq 0 ]; then set -- npm test; fi
# Not exec: the trap removes the folder when the command ends.
"$@"
