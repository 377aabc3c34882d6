#!/usr/bin/env bash
# stator import and stator export of a large table (issue 25): their time, items/s, MB/s and
# peak heap, against a server on loopback.
#
#   bench/transfer.sh [--items N] [--storage rocksdb|memory] [--heap SIZE] [--port P]
#
# Writes N items (default 1,000,000, about 200 bytes each) as a gzip'd DYNAMODB_JSON file
# (bench/TransferItems.java), starts ./stator serve on a fresh data directory, runs
# ./stator import --from FILE --table Transfer --key pk:S, then ./stator export --table Transfer
# --to DIR, each with a heap of --heap (default 256m) to show that they stream, checks that the
# export holds N items, and prints each command's summary. The server is stopped at the end.
set -euo pipefail
bench="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$bench")"
items=1000000 storage=rocksdb heap=256m port=18700
while [[ $# -gt 0 ]]; do
  case "$1" in
    --items) items="$2"; shift ;;
    --storage) storage="$2"; shift ;;
    --heap) heap="$2"; shift ;;
    --port) port="$2"; shift ;;
    -h|--help) sed -n '2,12p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
  shift
done
out="$bench/out/transfer-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
log() { echo "[$(date +%H:%M:%S)] $*" | tee -a "$out/log.txt" >&2; }
# shellcheck source=bench/lib.sh
source "$bench/lib.sh"
trap 'stop_started 10' EXIT
trap 'exit 130' INT TERM

(cd "$root" && ./stator --version) >/dev/null  # builds the jar when stale
jar="$root/stator-server/target/stator.jar"
log "writing $items items to $out/items.json.gz"
java "$bench/TransferItems.java" "$items" "$out/items.json.gz"
if [[ $storage == memory ]]; then
  store=(--in-memory)
else
  store=(--data-dir "$out/data")
fi
start server "$port" java -jar "$jar" serve --port "$port" "${store[@]}" --no-console
wait_ready server
endpoint="http://127.0.0.1:$port"

log "import"
java "-Xmx$heap" -jar "$jar" import --from "$out/items.json.gz" --table Transfer --key pk:S \
  --endpoint "$endpoint" --progress lines | tee "$out/import.txt"
log "export"
java "-Xmx$heap" -jar "$jar" export --table Transfer --to "$out/export" \
  --endpoint "$endpoint" --progress lines | tee "$out/export.txt"
exported="$(cat "$out"/export/AWSDynamoDB/*/manifest-files.json \
  | sed -n 's/.*"itemCount":\([0-9]*\).*/\1/p' | awk '{ n += $1 } END { print n }')"
if [[ "$exported" != "$items" ]]; then
  log "the export holds $exported items, not $items"
  exit 1
fi
log "the export holds all $items items; server RSS $(rss_mb "${pid_of[server]}") MB"
{
  echo "# stator import / export, $items items, $storage storage, -Xmx$heap, $(nproc) cores"
  echo
  echo "- import: $(cat "$out/import.txt")"
  echo "- export: $(head -1 "$out/export.txt")"
} | tee "$out/report.md"
