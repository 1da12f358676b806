#!/usr/bin/env bash
# A private, throwaway Postgres cluster on 127.0.0.1 for tests and CI.
#   scripts/postgres-cluster.sh start DIR PORT   initdb (if needed) and start; prints the DATABASE_URL
#   scripts/postgres-cluster.sh stop DIR         stop it (fast)
# Postgres refuses to run as root, so as root the cluster runs as the `postgres` system user.
# PG_FSYNC=on turns fsync on; PG_OPTIONS adds server options (e.g. "-c shared_preload_libraries=pg_stat_statements").
set -euo pipefail

command=${1:-}
dir=${2:-}
port=${3:-55432}
[ -n "$command" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop DIR [PORT]" >&2; exit 2; }
dir=$(realpath -m "$dir")

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin" ] || { echo "No Postgres server found: apt-get install -y postgresql" >&2; exit 1; }

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$command" in
  start)
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$dir"; fi
    chmod 700 "$dir"
    if [ ! -f "$dir/PG_VERSION" ]; then
      as_owner "$bin/initdb" -D "$dir" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir.initdb.log" 2>&1 \
        || { cat "$dir.initdb.log" >&2; exit 1; }
    fi
    # Started from the data folder's parent: the caller's folder may be closed to the postgres user.
    # One retry after a pause (a cluster just stopped on the same port may still be letting go of it);
    # the server's log is shown when it still does not start.
    start_server() {
      (cd "$(dirname "$dir")" && as_owner "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w start \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=300 -c fsync=${PG_FSYNC:-off} ${PG_OPTIONS:-}" >/dev/null)
    }
    if ! start_server; then
      sleep 3
      start_server || { tail -n 30 "$dir/server.log" >&2; exit 1; }
    fi
    echo "postgresql://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    as_owner "$bin/pg_ctl" -D "$dir" -m fast -w stop >/dev/null 2>&1 || true
    ;;
  *)
    echo "usage: $0 start|stop DIR [PORT]" >&2; exit 2
    ;;
esac
