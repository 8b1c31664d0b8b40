#!/bin/bash
# Clone -> lobby answering, as on a fresh machine: a fresh clone, a fresh .venv, no pip cache
# (every package downloaded from PyPI). Usage: bench/fast_start.sh [REPO] [PORT]
# Prints the seconds from `git clone` to the lobby's first 200, and the load before and after.
set -u
REPO=${1:-$(git -C "$(dirname "$0")" rev-parse --show-toplevel)}
PORT=${2:-8765}
DIR=$(mktemp -d /tmp/spielwerk-fast-start-XXXXXX)
uptime
start=$(date +%s.%N)
git clone -q "$REPO" "$DIR/repo"
cd "$DIR/repo"
PIP_NO_CACHE_DIR=1 make run PORT="$PORT" > "$DIR/run.log" 2>&1 &
pid=$!
until curl -sf -o /dev/null "http://127.0.0.1:$PORT/"; do
  sleep 0.2
  if ! kill -0 $pid 2>/dev/null; then echo "make run stopped:"; cat "$DIR/run.log"; exit 1; fi
done
end=$(date +%s.%N)
echo "clone -> lobby answering: $(echo "$end - $start" | bc) s"
uptime
if grep -qi deprecat "$DIR/run.log"; then echo "deprecation warnings:"; grep -i deprecat "$DIR/run.log"; fi
pkill -P $pid; kill $pid 2>/dev/null
wait $pid 2>/dev/null
rm -rf "$DIR"
