#!/usr/bin/env bash
# A connection flood: opens many connections to a server at once, holds them, closes them, and
# checks that the server serves again (issue 29: a flood past the open-file limit once stopped it
# for good).
#
#   bench/flood.sh [--host 127.0.0.1] [--port 8000] [--connections 25000] [--hold 5]
#   bench/flood.sh --start FD_LIMIT [--connections N] [--hold S] [-- serve options...]
#
# Against a running server by default. --start FD_LIMIT starts one itself (./stator serve
# --in-memory on a free port, under ulimit -n FD_LIMIT, with the serve options given after --,
# e.g. -- --max-connections 100000 to let the kernel refuse instead of the limit), and stops it
# after. The client raises its own open-file limit as far as it may. Each connection sends
# GET /; printed: the connections opened, their answers by status (200 served, 503 refused over
# --max-connections), those closed or reset unanswered, those still unanswered after --hold
# seconds (waiting in the backlog), the seconds from closing them all to the first 200 on a new
# connection ("never" within 60 s: the server does not recover), and the server's own figures
# from GET /stator/connections.
set -euo pipefail
bench="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$bench")"
host=127.0.0.1 port=8000 connections=25000 hold=5 start_limit="" serve_options=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --host) host="$2"; shift ;;
    --port) port="$2"; shift ;;
    --connections) connections="$2"; shift ;;
    --hold) hold="$2"; shift ;;
    --start) start_limit="$2"; shift ;;
    --) shift; serve_options=("$@"); break ;;
    -h|--help) sed -n '2,17p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
  shift
done
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"

server_pid=""
out="$(mktemp -d)"
cleanup() {
  if [[ -n "$server_pid" ]]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$out"
}
trap cleanup EXIT

if [[ -n "$start_limit" ]]; then
  (cd "$root" && ./stator --version) >/dev/null # builds the jar when stale
  port=$((20000 + RANDOM % 20000))
  (ulimit -n "$start_limit" && exec "$root/stator" serve --in-memory --port "$port" \
      ${serve_options[@]+"${serve_options[@]}"}) >"$out/server.out" 2>"$out/server.err" &
  server_pid=$!
  for _ in $(seq 1 300); do
    grep -q "listening on" "$out/server.out" 2>/dev/null && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$out/server.err" >&2; exit 1; }
    sleep 0.1
  done
  echo "server: $(head -1 "$out/server.out") under ulimit -n $start_limit"
fi

code="$(curl -s -o /dev/null -m 5 -w '%{http_code}' "http://$host:$port/" || true)"
[[ "$code" == 200 ]] || { echo "no healthy server on $host:$port (GET / answered $code)" >&2; exit 1; }

# The client's descriptors: enough for the flood (root may raise the hard limit), else as many as
# the hard limit allows.
ulimit -n $((connections + 1000)) 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
echo "client: ulimit -n $(ulimit -n), $connections connections, held ${hold}s"
"$java" "$bench/Flood.java" "$host" "$port" "$connections" "$hold" | tee "$out/flood.txt"

if [[ -n "$server_pid" ]]; then
  if kill -0 "$server_pid" 2>/dev/null; then echo "server-alive yes"; else echo "server-alive no"; fi
  echo "server-stderr-lines $(wc -l <"$out/server.err")"
  grep -m 3 . "$out/server.err" | sed 's/^/  /' || true
fi
grep -q "seconds-to-serve-again never" "$out/flood.txt" && exit 1
exit 0
