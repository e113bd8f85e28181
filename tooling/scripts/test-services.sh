#!/usr/bin/env bash
# Gives the command after it a throwaway PostgreSQL and Redis, then stops them.
#   bash tooling/scripts/test-services.sh vitest run
# TEST_DATABASE_URL / TEST_REDIS_URL already set are used as they are.
# Missing Debian packages (postgresql, redis-server) are installed when we are root.
set -euo pipefail

log() { printf '[test-services] %s\n' "$*" >&2; }

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

apt_updated=0
apt_install() {
  if [ "$(id -u)" != "0" ]; then
    log "missing $* and not root: install it, or set TEST_DATABASE_URL / TEST_REDIS_URL"; exit 1
  fi
  if [ "$apt_updated" = 0 ]; then
    log "apt-get update"; DEBIAN_FRONTEND=noninteractive timeout 600 apt-get update -qq >/dev/null; apt_updated=1
  fi
  log "installing $*"
  # Bounded like every child the tooling runs (decision 164).
  DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -qq "$@" >/dev/null
}

find_pg_bin() {
  local d
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && { echo "$d"; return 0; }
  done
  return 1
}

work=$(mktemp -d /tmp/svc-test-services.XXXXXX)
chmod 755 "$work"
pg_started=0
redis_started=0
pg_bin=""
cleanup() {
  local code=$?
  if [ "$pg_started" = 1 ]; then
    runuser -u postgres -- "$pg_bin/pg_ctl" -D "$work/pg" -m immediate stop >/dev/null 2>&1 || true
  fi
  if [ "$redis_started" = 1 ]; then
    redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
  exit $code
}
trap cleanup EXIT INT TERM

if [ -z "${TEST_DATABASE_URL:-}" ]; then
  pg_bin=$(find_pg_bin || true)
  if [ -z "$pg_bin" ]; then apt_install postgresql; pg_bin=$(find_pg_bin); fi
  PG_PORT=$(free_port)
  mkdir -p "$work/pg" "$work/pgsock"
  if [ "$(id -u)" = "0" ]; then
    chown postgres:postgres "$work/pg" "$work/pgsock"
    as_pg=(runuser -u postgres --)
  else
    as_pg=()
  fi
  "${as_pg[@]}" "$pg_bin/initdb" -D "$work/pg" -A trust -U postgres --no-sync >/dev/null
  "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$work/pg" -l "$work/pg/server.log" -w -o \
    "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $work/pgsock -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400" \
    start >/dev/null
  pg_started=1
  export TEST_PG_LOG="$work/pg/server.log"
  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres"
  log "PostgreSQL on port $PG_PORT"
fi

if [ -z "${TEST_REDIS_URL:-}" ]; then
  command -v redis-server >/dev/null || apt_install redis-server
  REDIS_PORT=$(free_port)
  redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save '' --appendonly no \
    --dir "$work" --logfile "$work/redis.log" >/dev/null
  for _ in $(seq 1 50); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
  redis_started=1
  export TEST_REDIS_URL="redis://127.0.0.1:$REDIS_PORT"
  log "Redis on port $REDIS_PORT"
fi

# The hosted connect page's browser test drives Debian's chromium through playwright-core (never a
# downloaded browser); install it when missing and we are root.
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = "0" ]; then apt_install chromium; fi

# The capture library's browser test feeds Chromium's fake microphone with speech that espeak-ng
# synthesizes at known rates; install it the same way.
if ! command -v espeak-ng >/dev/null && [ "$(id -u)" = "0" ]; then apt_install espeak-ng; fi

# The replica test and `pnpm bench:scale` put Debian's nginx in front of the API processes; each
# starts its own nginx from a config in a temp dir, so only the binary is needed here.
if [ ! -x /usr/sbin/nginx ] && [ "$(id -u)" = "0" ]; then apt_install nginx; fi

"$@"
