#!/usr/bin/env bash
# Start-up time and resident memory of the Stator server (see startup.js).
#
#   bench/startup.sh [--quick] [--million] [--runs N] [--items N]
#
# Default: 5 launches per storage to time the start to the first answered GET /, then the RSS at
# idle and after loading 100,000 items of ~1 KB. --quick: 3 launches and 20,000 items.
# --million: 1,000,000 items (takes minutes while loading goes through PutItem).
set -euo pipefail
bench="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$bench")"
runs=5
items=100000
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) runs=3; items=20000 ;;
    --million) items=1000000 ;;
    --runs) runs="$2"; shift ;;
    --items) items="$2"; shift ;;
    -h|--help) sed -n '2,9p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
  shift
done
command -v node >/dev/null || { echo "needs node (apt-get install -y nodejs)" >&2; exit 1; }
(cd "$root" && ./stator --version) >/dev/null  # builds the jar when stale
out="$bench/out/startup-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
node "$bench/startup.js" "$root/stator-server/target/stator.jar" --runs "$runs" --items "$items" \
  --out "$out" | tee "$out/report.md"
