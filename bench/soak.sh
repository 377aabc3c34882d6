#!/usr/bin/env bash
# Memory and descriptors under a long mixed load: does the server's resident memory level off?
#
#   bench/soak.sh [--minutes 30] [--in-flight 16] [--port-base PORT] [-- SERVER OPTIONS...]
#
# Starts Stator on RocksDB in a fresh directory on loopback (options after -- go to
# `./stator serve`, e.g. -- --cache-size 64m; JAVA_OPTS reaches the JVM), runs bench/soak.js
# against it, and samples the server's resident memory (VmRSS) and open descriptors every 10 s.
# Prints the median and peak RSS of each third of the run and the descriptors at the start and
# the end, and keeps the samples with the logs in bench/out/soak-*/.
set -euo pipefail

bench="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$bench")"
minutes=30
in_flight=16
port_base=18090
server_options=()

while [[ $# -gt 0 ]]; do
  case "$1" in
    --minutes) minutes="$2"; shift ;;
    --in-flight) in_flight="$2"; shift ;;
    --port-base) port_base="$2"; shift ;;
    --) shift; server_options=("$@"); break ;;
    -h|--help) sed -n '2,11p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "unknown option: $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done

out="$bench/out/soak-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
log() { echo "[$(date +%H:%M:%S)] $*" >&2; }
# shellcheck source=bench/lib.sh
source "$bench/lib.sh"

command -v node >/dev/null || { log "installing node"; apt_install nodejs npm; }
log "building Stator when stale"
(cd "$root" && ./stator --version) >"$out/build.log" 2>&1 \
  || { cat "$out/build.log" >&2; exit 1; }

cleanup() {
  stop_started 10
  rm -rf "$out/stator-data"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start stator "$port_base" env STATOR_SKIP_BUILD=1 "$root/stator" serve --port "$port_base" \
  --data-dir "$out/stator-data" ${server_options[@]+"${server_options[@]}"}
wait_ready stator
pid="${pid_of[stator]}"

sample() { # seconds since start, VmRSS in MB, open descriptors
  local rss fds
  rss="$(awk '/^VmRSS:/ { printf "%d", $2 / 1024 }' "/proc/$pid/status" 2>/dev/null || echo 0)"
  fds="$(find "/proc/$pid/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)"
  echo "$1 $rss $fds"
}

log "soaking for $minutes minutes, $in_flight requests in flight (samples in $out/samples.txt)"
node "$bench/soak.js" "http://127.0.0.1:$port_base" --minutes "$minutes" \
  --in-flight "$in_flight" >"$out/load.log" 2>&1 &
load=$!
began=$SECONDS
sample 0 >"$out/samples.txt"
while kill -0 "$load" 2>/dev/null; do
  sleep 10
  sample $((SECONDS - began)) >>"$out/samples.txt"
done
wait "$load" || { log "the load failed: $(tail -3 "$out/load.log")"; exit 1; }
log "load: $(tail -1 "$out/load.log")"
# Idle a minute: what stays once the load is gone.
sleep 60
sample $((SECONDS - began)) >"$out/idle.txt"

node -e '
  const fs = require("fs")
  const rows = fs.readFileSync(process.argv[1], "utf8").trim().split("\n").map(l => l.split(" ").map(Number))
  const idle = fs.readFileSync(process.argv[2], "utf8").trim().split(" ").map(Number)
  const third = Math.floor(rows.length / 3)
  const lines = ["| part of the run | median RSS (MB) | peak RSS (MB) |", "|---|---:|---:|"]
  ;["first", "second", "last"].forEach((name, p) => {
    const part = rows.slice(p * third, p === 2 ? rows.length : (p + 1) * third).map(r => r[1]).sort((a, b) => a - b)
    lines.push(`| ${name} third | ${part[Math.floor((part.length - 1) / 2)]} | ${part[part.length - 1]} |`)
  })
  lines.push("", `descriptors: ${rows[0][2]} at the start, ${rows[rows.length - 1][2]} at the end;` +
    ` after a minute idle: ${idle[1]} MB resident, ${idle[2]} descriptors`)
  console.log(lines.join("\n"))
' "$out/samples.txt" "$out/idle.txt" | tee "$out/report.md"
