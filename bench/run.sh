#!/usr/bin/env bash
# The load benchmark: Stator beside dynalite on this machine, driven by the same generator.
#
#   bench/run.sh [--quick] [--duration SECONDS] [--repeats N] [--workloads "get put ..."]
#                [--port-base PORT]
#
# Starts on loopback: Stator in memory and on RocksDB, dynalite in memory and on LevelDB
# (--path), and nginx answering a 2-byte body (the machine's loopback ceiling). Preloads the same
# table into each (10,000 items of ~1 KB over 1,000 partitions, see preload.js), then for each
# workload runs wrk (1 thread, 16 connections, the Lua scripts in wrk/) against each server in
# turn, alternating the order, REPEATS times for DURATION seconds after a short warm-up. Every
# answer is checked (status 200 and the expected content); a run with a bad answer or a socket
# error is marked INVALID. A workload that a server does not answer yet is skipped for it with a
# note. Prints the table (report.js) and keeps the raw figures and logs in bench/out/run-*/.
#
# Installs what is missing: wrk and nginx (Debian packages), dynalite (npm, into
# bench/node_modules). Builds Stator when its jar is stale. Every server it starts is stopped on
# exit, and every wrk run is bounded by its duration (and a timeout).
#
# Environment: STATOR_JAVA_OPTS adds JVM flags to both Stator servers (e.g. a JFR recording).
set -euo pipefail

bench="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$bench")"

duration=10
repeats=3
warmup=5
workloads="get put query mixed update batch gsi"
port_base=18000
connections=16

while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) duration=5; repeats=2; warmup=3 ;;
    --duration) duration="$2"; shift ;;
    --repeats) repeats="$2"; shift ;;
    --workloads) workloads="$2"; shift ;;
    --port-base) port_base="$2"; shift ;;
    -h|--help) sed -n '2,22p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "unknown option: $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done

out="$bench/out/run-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
log() { echo "[$(date +%H:%M:%S)] $*" >&2; }
# shellcheck source=bench/lib.sh
source "$bench/lib.sh"

# ---- tools ---------------------------------------------------------------------------------

need_tools() {
  command -v wrk >/dev/null || { log "installing wrk"; apt_install wrk; }
  command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] \
    || { log "installing nginx"; apt_install nginx-light || apt_install nginx; }
  command -v node >/dev/null || { log "installing node"; apt_install nodejs npm; }
  need_dynalite
}

nginx_bin() { command -v nginx || echo /usr/sbin/nginx; }

# ---- processes -----------------------------------------------------------------------------

cleanup() {
  stop_started 10
  rm -rf "$out/stator-data" "$out/dynalite-data" "$out/nginx/tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- runs ----------------------------------------------------------------------------------

ticks_per_second=$(getconf CLK_TCK)
results="$out/results.tsv"
notes="$out/notes.txt"
printf 'workload\tserver\trep\trequests\tduration_us\tp50_us\tp99_us\tbad\tsocket_errors\tserver_cpu_s\tgenerator_cpu_s\n' >"$results"
: >"$notes"

# wrk against one server; prints the RESULT line's fields. Bounded by its duration + 30 s.
wrk_run() { # name script seconds connections logfile [script args...]
  local name="$1" script="$2" seconds="$3" conns="$4" logfile="$5"
  shift 5
  timeout $((seconds + 30)) wrk -t1 -c"$conns" -d"${seconds}s" --timeout 10s \
    -s "$bench/wrk/$script.lua" "http://127.0.0.1:${port_of[$name]}/" -- "$@" \
    >"$logfile" 2>"$logfile.err" || true
  grep '^RESULT' "$logfile" || echo "RESULT requests=0"
}

measure() { # workload name script [script args...]
  local workload="$1" name="$2" script="$3"
  shift 3
  local rep="$REP" pid="${pid_of[$name]}"
  local logfile="$out/wrk-$workload-$name-$rep.txt"
  local before after line gen
  before=$(cpu_ticks "$pid")
  local TIMEFORMAT='%U %S'
  gen=$( { time wrk_run "$name" "$script" "$duration" "$connections" "$logfile" "$@" >/dev/null; } 2>&1 )
  after=$(cpu_ticks "$pid")
  line=$(grep '^RESULT' "$logfile" || echo "RESULT requests=0 duration_us=1 bad=0 socket_errors=0")
  local server_cpu gen_cpu
  server_cpu=$(awk -v a="$before" -v b="$after" -v t="$ticks_per_second" 'BEGIN {printf "%.2f", (b - a) / t}')
  gen_cpu=$(awk -v g="$gen" 'BEGIN {split(g, x, " "); printf "%.2f", x[1] + x[2]}')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$workload" "$name" "$rep" \
    "$(field "$line" requests)" "$(field "$line" duration_us)" "$(field "$line" p50_us)" \
    "$(field "$line" p99_us)" "$(field "$line" bad)" "$(field "$line" socket_errors)" \
    "$server_cpu" "$gen_cpu" >>"$results"
  log "  $workload $name #$rep: $(field "$line" requests) requests, p50 $(field "$line" p50_us) us," \
    "p99 $(field "$line" p99_us) us, bad $(field "$line" bad), server CPU ${server_cpu}s"
}

# Whether a server answers a workload: one connection for one second, every answer good.
answers() { # workload name
  local logfile="$out/probe-$1-$2.txt" line
  line=$(wrk_run "$2" "$1" 1 1 "$logfile")
  if [[ "$(field "$line" requests)" -gt 0 && "$(field "$line" bad)" == 0 \
        && "$(field "$line" socket_errors)" == 0 ]]; then
    return 0
  fi
  echo "$1 skipped on $2: $(head -1 "$logfile.err" | cut -c1-200)" >>"$notes"
  return 1
}

# ---- main ----------------------------------------------------------------------------------

need_tools
log "building Stator when stale"
(cd "$root" && ./stator --version) >"$out/build.log" 2>&1 \
  || { cat "$out/build.log" >&2; exit 1; }

dynalite=(node "$bench/node_modules/dynalite/cli.js" --host 127.0.0.1
  --createTableMs 0 --deleteTableMs 0 --updateTableMs 0)
mkdir -p "$out/nginx/tmp" "$out/dynalite-data"
cat >"$out/nginx/nginx.conf" <<EOF
daemon off;
master_process on;
worker_processes 1;
pid $out/nginx/nginx.pid;
error_log $out/nginx/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $out/nginx/tmp;
  proxy_temp_path $out/nginx/tmp;
  fastcgi_temp_path $out/nginx/tmp;
  uwsgi_temp_path $out/nginx/tmp;
  scgi_temp_path $out/nginx/tmp;
  server {
    listen 127.0.0.1:$((port_base + 4));
    location / { return 200 "ok"; }
  }
}
EOF

stator=(env STATOR_SKIP_BUILD=1 JAVA_OPTS="${STATOR_JAVA_OPTS:-}" "$root/stator" serve)
start stator-memory "$port_base" "${stator[@]}" --port "$port_base" --in-memory
start stator-rocksdb $((port_base + 1)) "${stator[@]}" --port $((port_base + 1)) \
  --data-dir "$out/stator-data"
start dynalite-memory $((port_base + 2)) "${dynalite[@]}" --port $((port_base + 2))
start dynalite-leveldb $((port_base + 3)) "${dynalite[@]}" --port $((port_base + 3)) \
  --path "$out/dynalite-data"
start nginx $((port_base + 4)) "$(nginx_bin)" -p "$out/nginx" -c "$out/nginx/nginx.conf"

servers=(stator-memory dynalite-memory stator-rocksdb dynalite-leveldb)
for s in "${servers[@]}" nginx; do wait_ready "$s"; done
for s in "${servers[@]}"; do
  log "preloading $s"
  node "$bench/preload.js" "http://127.0.0.1:${port_of[$s]}" | sed "s/^/$s: /" \
    | tee -a "$out/preload.txt" >&2
done
for s in "${servers[@]}"; do echo "$s idle_rss_mb=$(rss_mb "${pid_of[$s]}")" >>"$out/rss.txt"; done

log "loopback ceiling: nginx, 2-byte body, same generator settings"
for REP in $(seq 1 "$repeats"); do measure ceiling nginx get expect=; done

for workload in $workloads; do
  log "workload $workload"
  active=()
  for s in "${servers[@]}"; do
    if answers "$workload" "$s"; then active+=("$s"); else log "  $(tail -1 "$notes")"; fi
  done
  [[ ${#active[@]} -gt 0 ]] || continue
  for s in "${active[@]}"; do
    wrk_run "$s" "$workload" "$warmup" "$connections" "$out/warmup-$workload-$s.txt" >/dev/null
  done
  for REP in $(seq 1 "$repeats"); do
    order=("${active[@]}")
    if ((REP % 2 == 0)); then # reverse every other round, so drift hits both sides alike
      order=()
      for ((i = ${#active[@]} - 1; i >= 0; i--)); do order+=("${active[$i]}"); done
    fi
    for s in "${order[@]}"; do measure "$workload" "$s" "$workload"; done
  done
done

for s in "${servers[@]}"; do echo "$s end_rss_mb=$(rss_mb "${pid_of[$s]}")" >>"$out/rss.txt"; done
{
  echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)," \
    "$(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)"
  echo "load average before the report: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "settings: wrk 1 thread, $connections connections, $repeats x ${duration}s per server" \
    "and workload, ${warmup}s warm-up"
} >"$out/machine.txt"
node "$bench/report.js" "$out" | tee "$out/report.md"
