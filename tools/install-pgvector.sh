#!/usr/bin/env bash
# Installs the pgvector extension into the machine's PostgreSQL 15 from Debian's *source* package.
#
# Debian bookworm ships PostgreSQL 15 but no pgvector; the `trixie` suite has the `pgvector` source
# package, which builds against PostgreSQL 15 in seconds. This script:
#   1. adds a `deb-src` entry for `trixie` (the URI is copied from this machine's own Debian source list;
#      no binary `deb` entry for trixie is added, so no trixie package can ever be installed),
#   2. runs `apt-get update` and `apt-get source pgvector` in a temporary directory,
#   3. installs `postgresql-server-dev-15` (bookworm),
#   4. runs `make && make install` with PG_CONFIG pointing at PostgreSQL 15,
#   5. checks the result with `CREATE EXTENSION vector` in a scratch database.
# Idempotent: when the extension files are already installed it only runs the check (seconds).
#
# Environment: PG_CONFIG (default /usr/lib/postgresql/15/bin/pg_config), PGVECTOR_CHECK_URL (a
# PostgreSQL URL to run the check against; default postgresql://postgres@127.0.0.1:5432/postgres),
# PGVECTOR_SKIP_CHECK=1 to skip the check (e.g. when no server is running yet).
set -euo pipefail

PG_CONFIG="${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}"
CHECK_URL="${PGVECTOR_CHECK_URL:-postgresql://postgres@127.0.0.1:5432/postgres}"
SRC_LIST=/etc/apt/sources.list.d/pgvector-trixie-src.list

log() { printf '[install-pgvector] %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

installed() {
  local sharedir pkglibdir
  sharedir="$("$PG_CONFIG" --sharedir 2>/dev/null)" || return 1
  pkglibdir="$("$PG_CONFIG" --pkglibdir 2>/dev/null)" || return 1
  [ -f "$sharedir/extension/vector.control" ] && [ -f "$pkglibdir/vector.so" ]
}

# The first Debian archive URI (not debian-security) in the machine's own apt configuration.
debian_uri() {
  local uri=''
  shopt -s nullglob
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    uri="$(awk '
      /^[[:space:]]*URIs:/ { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }
    ' "$f")"
    [ -n "$uri" ] && break
  done
  if [ -z "$uri" ]; then
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
      [ -f "$f" ] || continue
      [ "$f" = "$SRC_LIST" ] && continue
      uri="$(awk '
        /^[[:space:]]*deb(-src)?[[:space:]]/ {
          for (i = 2; i <= NF; i++) { if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; continue }
            if ($i ~ /:\/\// && $i !~ /security/) { print $i; exit } }
        }' "$f")"
      [ -n "$uri" ] && break
    done
  fi
  shopt -u nullglob
  printf '%s' "$uri"
}

check() {
  if [ "${PGVECTOR_SKIP_CHECK:-0}" = 1 ]; then
    log 'check skipped (PGVECTOR_SKIP_CHECK=1)'
    return 0
  fi
  local db="pgvector_check_$$"
  local admin_psql=(psql "$CHECK_URL" -v ON_ERROR_STOP=1 -qAtX)
  "${admin_psql[@]}" -c "CREATE DATABASE $db" >/dev/null
  local base="${CHECK_URL%/*}"
  local out rc=0
  out="$(psql "$base/$db" -v ON_ERROR_STOP=1 -qAtX \
    -c 'CREATE EXTENSION vector' \
    -c "SELECT extversion FROM pg_extension WHERE extname = 'vector'" \
    -c "SELECT '[1,2,3]'::vector <=> '[1,2,4]'::vector" 2>&1)" || rc=$?
  local version="${out%%$'\n'*}"
  "${admin_psql[@]}" -c "DROP DATABASE IF EXISTS $db" >/dev/null
  if [ "$rc" != 0 ]; then
    log "CREATE EXTENSION vector failed: $out"
    return 1
  fi
  log "CREATE EXTENSION vector works (pgvector $version)"
}

if installed; then
  log "pgvector already installed for $("$PG_CONFIG" --version 2>/dev/null)"
  check
  exit 0
fi

uri="$(debian_uri)"
if [ -z "$uri" ]; then
  log 'no Debian archive URI found in the apt source lists; cannot add the trixie source entry'
  exit 1
fi
entry="deb-src $uri trixie main"
if [ ! -f "$SRC_LIST" ] || ! grep -qxF "$entry" "$SRC_LIST"; then
  log "adding source-only entry: $entry"
  printf '# Source packages only (pgvector is built from source against the local PostgreSQL).\n%s\n' \
    "$entry" | as_root tee "$SRC_LIST" >/dev/null
fi

log 'apt-get update'
as_root apt-get update -qq
log 'installing build dependencies (postgresql-server-dev-15, build tools)'
DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends \
  postgresql-server-dev-15 build-essential dpkg-dev >/dev/null

work="$(mktemp -d)"
chmod 755 "$work" # apt's download user must be able to write the source files here
trap 'rm -rf "$work"' EXIT
(
  cd "$work"
  log 'apt-get source pgvector (trixie)'
  apt-get source -qq --download-only pgvector >/dev/null
  dpkg-source -x --no-check ./pgvector_*.dsc src >/dev/null
  cd src
  log "building $(basename "$(ls "$work"/pgvector_*.dsc)" .dsc)"
  make -s PG_CONFIG="$PG_CONFIG" >/dev/null
  as_root make -s PG_CONFIG="$PG_CONFIG" install >/dev/null
)

installed || { log 'build finished but vector.control / vector.so are missing'; exit 1; }
log "installed for $("$PG_CONFIG" --version)"
check
