#!/usr/bin/env bash
# Table lifecycle: CreateTable and DeleteTable, Stator beside dynalite (see lifecycle.js).
#
#   bench/lifecycle.sh [--tables 0,50,200] [--rounds 15] [--port-base PORT]
#
# Starts on loopback Stator in memory and on RocksDB, dynalite in memory and on LevelDB (--path),
# and times, on each, CreateTable until ACTIVE and DeleteTable until gone, with 0 and then more
# other tables in the store, as a test suite that makes a table per test sees them. Installs
# dynalite (npm, into bench/node_modules) when missing; builds Stator when its jar is stale.
# Prints a Markdown table and keeps it with the servers' logs in bench/out/lifecycle-*/.
set -euo pipefail

bench="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$bench")"
tables=0,50,200
rounds=15
port_base=18060

while [[ $# -gt 0 ]]; do
  case "$1" in
    --tables) tables="$2"; shift ;;
    --rounds) rounds="$2"; shift ;;
    --port-base) port_base="$2"; shift ;;
    -h|--help) sed -n '2,10p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "unknown option: $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done

out="$bench/out/lifecycle-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
log() { echo "[$(date +%H:%M:%S)] $*" >&2; }
# shellcheck source=bench/lib.sh
source "$bench/lib.sh"

command -v node >/dev/null || { log "installing node"; apt_install nodejs npm; }
need_dynalite
log "building Stator when stale"
(cd "$root" && ./stator --version) >"$out/build.log" 2>&1 \
  || { cat "$out/build.log" >&2; exit 1; }

cleanup() {
  stop_started 10
  rm -rf "$out/stator-data" "$out/dynalite-data"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

stator=(env STATOR_SKIP_BUILD=1 "$root/stator" serve)
dynalite=(node "$bench/node_modules/dynalite/cli.js" --host 127.0.0.1
  --createTableMs 0 --deleteTableMs 0 --updateTableMs 0)
mkdir -p "$out/dynalite-data"
start stator-memory "$port_base" "${stator[@]}" --port "$port_base" --in-memory
start stator-rocksdb $((port_base + 1)) "${stator[@]}" --port $((port_base + 1)) \
  --data-dir "$out/stator-data"
start dynalite-memory $((port_base + 2)) "${dynalite[@]}" --port $((port_base + 2))
start dynalite-leveldb $((port_base + 3)) "${dynalite[@]}" --port $((port_base + 3)) \
  --path "$out/dynalite-data"
servers=(stator-memory dynalite-memory stator-rocksdb dynalite-leveldb)
targets=()
for s in "${servers[@]}"; do
  wait_ready "$s"
  targets+=("$s=http://127.0.0.1:${port_of[$s]}")
done
log "timing CreateTable and DeleteTable with $tables other tables, $rounds rounds each"
node "$bench/lifecycle.js" "${targets[@]}" --tables "$tables" --rounds "$rounds" \
  | tee "$out/report.md"
