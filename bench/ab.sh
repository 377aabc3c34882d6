#!/usr/bin/env bash
# A/B of Stator builds or JVM flags under the same load: server CPU per request, side by side.
#
#   bench/ab.sh WORKLOAD SECONDS ROUNDS NAME=JAR[:JVM flags [-- serve options]] ...
#   e.g. bench/ab.sh get 8 3 before=/tmp/before.jar: after=stator-server/target/stator.jar:
#        bench/ab.sh put 8 3 two=stator-server/target/stator.jar: \
#          one=stator-server/target/stator.jar:"-- --event-loops 1"
#
# Starts every variant at once on loopback (ports from AB_PORT, or a random one, upwards; in memory, or on RocksDB in a
# temporary directory when NAME contains "rocks"), preloads each (preload.js), warms each up for
# 5 s, then runs wrk (1 thread, 16 connections, wrk/WORKLOAD.lua) against each in turn for
# SECONDS, ROUNDS times, reversing the order every other round so drift hits all alike. Prints per
# run the requests, the server's CPU per request (utime + stime from /proc), wrk's p99 and the
# resident memory; at the end the resident memory after 15 s idle. CPU per request is the figure
# to compare on a busy machine: it does not grow while a process waits for a core.
set -euo pipefail
bench="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[[ $# -ge 4 ]] || { sed -n '2,15p' "${BASH_SOURCE[0]}"; exit 2; }
workload=$1 seconds=$2 rounds=$3
shift 3
declare -A pid port
names=()
next_port=${AB_PORT:-$((20000 + RANDOM % 20000))} # apart from other runs on the machine
tmp="$(mktemp -d)"
cleanup() {
  for n in "${names[@]}"; do kill "${pid[$n]}" 2>/dev/null || true; done
  for n in "${names[@]}"; do wait "${pid[$n]}" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
for spec in "$@"; do
  name=${spec%%=*} rest=${spec#*=}
  jar=${rest%%:*} words=() flags=() options=()
  [[ "$rest" == *:* ]] && read -r -a words <<<"${rest#*:}"
  # JVM flags up to a "--", options of `serve` after it.
  dashes=""
  for w in ${words[@]+"${words[@]}"}; do
    if [[ -z "$dashes" && "$w" == -- ]]; then dashes=1
    elif [[ -n "$dashes" ]]; then options+=("$w")
    else flags+=("$w"); fi
  done
  storage=(--in-memory)
  [[ "$name" == *rocks* ]] && storage=(--data-dir "$tmp/$name")
  java -XX:MaxRAMPercentage=25 -XX:+ExitOnOutOfMemoryError ${flags[@]+"${flags[@]}"} \
    -jar "$jar" serve --port "$next_port" "${storage[@]}" ${options[@]+"${options[@]}"} \
    >"$tmp/$name.log" 2>&1 &
  pid[$name]=$! port[$name]=$next_port
  names+=("$name")
  next_port=$((next_port + 1))
done
for n in "${names[@]}"; do
  for _ in $(seq 1 300); do curl -s -o /dev/null -m 1 "http://127.0.0.1:${port[$n]}/" && break; sleep 0.1; done
  node "$bench/preload.js" "http://127.0.0.1:${port[$n]}" >/dev/null
  timeout 60 wrk -t1 -c16 -d5s -s "$bench/wrk/$workload.lua" "http://127.0.0.1:${port[$n]}/" >/dev/null
done
ticks() { sed 's/.*) //' "/proc/$1/stat" | awk '{print $12 + $13}'; }
rss() { awk '/VmRSS/ {print int($2 / 1024)}' "/proc/$1/status"; }
hz=$(getconf CLK_TCK)
for r in $(seq 1 "$rounds"); do
  order=("${names[@]}")
  ((r % 2 == 0)) && mapfile -t order < <(printf '%s\n' "${names[@]}" | tac)
  for n in "${order[@]}"; do
    before=$(ticks "${pid[$n]}")
    line=$(timeout $((seconds + 30)) wrk -t1 -c16 -d"${seconds}s" -s "$bench/wrk/$workload.lua" \
      "http://127.0.0.1:${port[$n]}/" | grep RESULT || echo "RESULT requests=0 bad=0 p99_us=0")
    after=$(ticks "${pid[$n]}")
    field() { sed -n "s/.*[[:space:]]$1=\([0-9.]*\).*/\1/p" <<<" $line"; }
    echo "$workload $n round $r: $(field requests) requests," \
      "$(awk -v a="$after" -v b="$before" -v q="$(field requests)" -v hz="$hz" \
        'BEGIN {printf "%.1f", (q > 0 ? (a - b) * 1e6 / hz / q : 0)}') us CPU/request," \
      "bad $(field bad), p99 $(field p99_us) us, RSS $(rss "${pid[$n]}") MB"
  done
done
sleep 15
for n in "${names[@]}"; do echo "$n RSS after 15 s idle: $(rss "${pid[$n]}") MB"; done
