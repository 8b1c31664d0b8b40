#!/bin/sh
# The five balance reports of docs/analysis.md and the planted-imbalance check, each with a
# 10-minute budget; `uptime` before and after each run goes into
# bench/results/balance-<game>/run.txt. Run from the repository root:
#   sh bench/balance_reports.sh                  # one after another, --jobs 2 each
#   PARALLEL=1 JOBS=1 sh bench/balance_reports.sh  # all five at once, one core each
set -u
JOBS=${JOBS:-2}
run() {
    name=$1; shift
    dir=bench/results/balance-$name
    mkdir -p "$dir"
    {
        echo "command: spielwerk balance $* --jobs $JOBS --out $dir --fresh"
        echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
        echo "commit: $(git rev-parse --short HEAD)"
        echo "before: $(uptime)"
    } > "$dir/run.txt"
    start=$(date +%s)
    .venv/bin/spielwerk balance "$@" --jobs "$JOBS" --out "$dir" --fresh > "$dir/stdout.txt" 2> /dev/null
    echo "exit code: $?" >> "$dir/run.txt"
    echo "after: $(uptime)" >> "$dir/run.txt"
    echo "wall time: $(( $(date +%s) - start )) s" >> "$dir/run.txt"
    rm -rf "$dir/partial" "$dir/games.csv"  # raw games: regenerate with the command
}
for game in ${GAMES:-witches inkheart_dice isolde inkspell tainted_grail}; do
    if [ -n "${PARALLEL:-}" ]; then
        run "$game" "$game" --budget "${BUDGET:-10m}" &
    else
        run "$game" "$game" --budget "${BUDGET:-10m}"
    fi
done
wait
if [ -z "${GAMES:-}" ]; then
    run witches-planted witches --option plant=grey-9 --budget "${PLANTED_BUDGET:-4m}"
fi
