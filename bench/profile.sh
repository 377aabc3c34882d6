#!/usr/bin/env bash
# CPU profile of Stator under load: JFR samples while wrk drives one workload, then the hottest
# methods and the share of the coordination of several servers (hotspots.js).
#
#   bench/profile.sh [--workload get|put|query|mixed] [--storage memory|rocksdb|cassandra]
#                    [--seconds 30] [--port 18060]
#                    [--dir stator-cassandra] [--keyspace stator_profile] [--servers 1|2]
#
# Starts Stator on a loopback port, preloads the benchmark table, warms up for 10 s, records
# with JFR's "profile" settings (allocation samples, and CPU samples every 2 ms rather than 10, as
# a server whose threads mostly wait gives few) during a wrk run (1 thread, 16 connections) and
# prints the summary. The recording stays in bench/out/profile-*/ for
# `jfr print` or JDK Mission Control.
#
# --storage cassandra runs `serve --storage cassandra` on the nodes of a cluster you started with
# `./stator cassandra start --dir D` (--dir; this script never starts or stops a node), on
# --keyspace, with a table without the GSI (as bench/cassandra.sh's, so a PutItem commits one
# item). --servers 2 starts a second server on the same keyspace that stays idle, so that two
# servers' background coordination (stream watermarks, leases, housekeeping) is live while the
# first is profiled. On Cassandra it also prints the CPU the nodes and the servers use idle (no
# server, one, two) and under the load, per request.
set -euo pipefail
bench="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$bench")"
workload=get storage=memory seconds=30 port=18060
dir=stator-cassandra keyspace=stator_profile servers=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --workload) workload="$2"; shift ;;
    --storage) storage="$2"; shift ;;
    --seconds) seconds="$2"; shift ;;
    --port) port="$2"; shift ;;
    --dir) dir="$2"; shift ;;
    --keyspace) keyspace="$2"; shift ;;
    --servers) servers="$2"; shift ;;
    -h|--help) sed -n '2,21p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
  shift
done
case "$servers" in 1|2) ;; *) echo "--servers is 1 or 2" >&2; exit 2 ;; esac
out="$bench/out/profile-$workload-$storage-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
log() { echo "[$(date +%H:%M:%S)] $*" >&2; }
# shellcheck source=bench/lib.sh
source "$bench/lib.sh"
trap 'stop_started 20; rm -rf "$out/data"' EXIT
command -v wrk >/dev/null || { log "installing wrk"; apt_install wrk; }
(cd "$root" && ./stator --version) >/dev/null

# The CPU the processes named use in SECONDS, as a share of a core (ticks are 1/100 s), after 5 s
# for what a start left running to finish.
idle_share() { # seconds pid...
  local seconds="$1" pid before=() i=0 line=""
  shift
  sleep 5
  for pid in "$@"; do before+=("$(cpu_ticks "$pid")"); done
  sleep "$seconds"
  for pid in "$@"; do
    line+=" $(awk -v t=$(($(cpu_ticks "$pid") - before[i])) -v s="$seconds" \
      'BEGIN {printf "%.3f", t / 100 / s}')"
    i=$((i + 1))
  done
  echo "${line# }"
}

preload=()
case "$storage" in
  memory) storage_args=(--in-memory) ;;
  rocksdb) storage_args=(--data-dir "$out/data") ;;
  cassandra)
    [[ "$dir" = /* ]] || dir="$root/$dir"
    contact_points="" replication=""
    cassandra_cluster "$dir"
    storage_args=(--storage cassandra --contact-points "$contact_points" --keyspace "$keyspace"
      --replication "$replication")
    preload=(--no-gsi --replace)
    log "idle, no server: each node $(idle_share 20 "${node_pids[@]}") of a core"
    ;;
  *) echo "--storage is memory, rocksdb or cassandra" >&2; exit 2 ;;
esac
url="http://127.0.0.1:$port/"
start stator "$port" env STATOR_SKIP_BUILD=1 "$root/stator" serve --port "$port" \
  "${storage_args[@]}"
wait_ready stator
pid="${pid_of[stator]}"
if [[ "$storage" == cassandra ]]; then
  # What the servers' background work (stream watermarks, leases, housekeeping) costs idle.
  log "idle, one server: each node, then the server: \
$(idle_share 20 "${node_pids[@]}" "$pid") of a core"
fi
if ((servers == 2)); then
  start second "$((port + 1))" env STATOR_SKIP_BUILD=1 "$root/stator" serve \
    --port "$((port + 1))" "${storage_args[@]}"
  wait_ready second
  if [[ "$storage" == cassandra ]]; then
    log "idle, two servers: each node, then each server: \
$(idle_share 20 "${node_pids[@]}" "$pid" "${pid_of[second]}") of a core"
  fi
fi
node "$bench/preload.js" "$url" ${preload[@]+"${preload[@]}"} >&2
timeout 60 wrk -t1 -c16 -d10s -s "$bench/wrk/$workload.lua" "$url" >/dev/null
jcmd "$pid" JFR.start name=bench settings=profile 'jdk.ExecutionSample#period=2ms' \
  filename="$out/recording.jfr" >/dev/null
server0=$(cpu_ticks "$pid")
second0=$( ((servers == 2)) && cpu_ticks "${pid_of[second]}" || echo 0)
nodes0=0
for p in ${node_pids[@]+"${node_pids[@]}"}; do nodes0=$((nodes0 + $(cpu_ticks "$p"))); done
timeout $((seconds + 30)) wrk -t1 -c16 -d"${seconds}s" -s "$bench/wrk/$workload.lua" "$url" \
  | tee "$out/wrk.txt" | grep RESULT
server1=$(cpu_ticks "$pid")
second1=$( ((servers == 2)) && cpu_ticks "${pid_of[second]}" || echo 0)
nodes1=0
for p in ${node_pids[@]+"${node_pids[@]}"}; do nodes1=$((nodes1 + $(cpu_ticks "$p"))); done
jcmd "$pid" JFR.stop name=bench >/dev/null
requests="$(field "$(grep RESULT "$out/wrk.txt")" requests)"
if [[ "$storage" == cassandra && -n "$requests" && "$requests" != 0 ]]; then
  awk -v n="$requests" -v s=$((server1 - server0)) -v o=$((second1 - second0)) \
    -v c=$((nodes1 - nodes0)) -v t="$seconds" 'BEGIN {
      printf "CPU under load, µs per request: server %.0f, nodes %.0f;", s * 1e4 / n, c * 1e4 / n
      printf " idle second server %.3f of a core\n", o / 100 / t }' | tee "$out/cpu.txt"
fi
jfr print --events jdk.ExecutionSample,jdk.ObjectAllocationSample --stack-depth 64 \
  "$out/recording.jfr" | node "$bench/hotspots.js" 30 | tee "$out/hotspots.txt"
