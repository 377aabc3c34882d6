#!/usr/bin/env bash
# CPU profile of Stator under load: JFR samples while wrk drives one workload, then the hottest
# methods (hotspots.js).
#
#   bench/profile.sh [--workload get|put|query|mixed] [--storage memory|rocksdb] [--seconds 30]
#
# Starts Stator on a loopback port, preloads the benchmark table, warms up for 10 s, records
# with JFR's "profile" settings during a wrk run (1 thread, 16 connections) and prints the
# summary. The recording stays in bench/out/profile-*/ for `jfr print` or JDK Mission Control.
set -euo pipefail
bench="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$bench")"
workload=get storage=memory seconds=30 port=18060
while [[ $# -gt 0 ]]; do
  case "$1" in
    --workload) workload="$2"; shift ;;
    --storage) storage="$2"; shift ;;
    --seconds) seconds="$2"; shift ;;
    --port) port="$2"; shift ;;
    -h|--help) sed -n '2,10p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
  shift
done
out="$bench/out/profile-$workload-$storage-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
(cd "$root" && ./stator --version) >/dev/null
storage_args=(--in-memory)
[[ "$storage" == rocksdb ]] && storage_args=(--data-dir "$out/data")
env STATOR_SKIP_BUILD=1 "$root/stator" serve --port "$port" "${storage_args[@]}" \
  >"$out/stator.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$out/data"' EXIT
for _ in $(seq 1 300); do
  curl -s -o /dev/null -m 1 "http://127.0.0.1:$port/" && break
  sleep 0.1
done
node "$bench/preload.js" "http://127.0.0.1:$port" >&2
url="http://127.0.0.1:$port/"
timeout 60 wrk -t1 -c16 -d10s -s "$bench/wrk/$workload.lua" "$url" >/dev/null
jcmd "$pid" JFR.start name=bench settings=profile filename="$out/recording.jfr" >/dev/null
timeout $((seconds + 30)) wrk -t1 -c16 -d"${seconds}s" -s "$bench/wrk/$workload.lua" "$url" \
  | tee "$out/wrk.txt" | grep RESULT
jcmd "$pid" JFR.stop name=bench >/dev/null
jfr print --json --events jdk.ExecutionSample --stack-depth 64 "$out/recording.jfr" \
  | node "$bench/hotspots.js" 30 | tee "$out/hotspots.txt"
