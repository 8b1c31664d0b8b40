#!/bin/sh
# Evaluate a trained network (docs/learning.md, "Results"): one `net` seat against the
# heuristic in every other seat, and against the plain search at the same wall time a
# decision, over duplicate deals with seat rotation (`spielwerk simulate`); in the co-operative
# Tainted Grail a whole net team and a whole heuristic team on the same deals.
#
#   bench/learning_eval.sh GAME MODEL ITERATIONS SECONDS GAMES [OUT]
#
# ITERATIONS: the net's search budget against the heuristic (1 = the policy head's favourite
# move; 0 skips that line-up); SECONDS: the time a decision of both searches in the equal-time
# line-up (0 skips it).
# Writes OUT (default bench/results/learning/GAME) with each simulate's report, the load
# before and after, and the wall time. JOBS=K plays the games in K worker processes (default 1).
set -eu
game=$1 model=$2 iterations=$3 seconds=$4 games=$5
out=${6:-bench/results/learning/$game}
bin=${SPIELWERK:-.venv/bin/spielwerk}
jobs=${JOBS:-1}
players=$(.venv/bin/python -c "from spielwerk.bench.run import usual_players; print(usual_players('$game'))")
mkdir -p "$out"
log="$out/evaluation.md"

seats() {  # seats FIRST OTHER: FIRST then OTHER in the remaining seats
    line=$1 i=1
    while [ "$i" -lt "$players" ]; do line="$line,$2" i=$((i + 1)); done
    echo "$line"
}

run() {  # run NAME LINEUP
    start=$(date +%s)
    echo "### $1" >>"$log"
    echo "load before: $(uptime)" >>"$log"
    echo '```' >>"$log"
    echo "$bin simulate $game --players $2 --games $games --seed 7 --jobs $jobs --out $out/$1" >>"$log"
    "$bin" simulate "$game" --players "$2" --games "$games" --seed 7 --jobs "$jobs" --out "$out/$1" \
        2>/dev/null | sed -n '/Agents/,/^Seat effect/p' >>"$log"
    echo '```' >>"$log"
    echo "load after: $(uptime); wall time $(($(date +%s) - start)) s" >>"$log"
    echo >>"$log"
}

echo "## $game: $model ($(uname -m), $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ))" >"$log"
echo >>"$log"
if [ "$game" = tainted_grail ]; then
    run net-team "$(seats "net:$model:$iterations" "net:$model:$iterations")"
    run heuristic-team "$(seats heuristic heuristic)"
else
    if [ "$iterations" != 0 ]; then
        run vs-heuristic "$(seats "net:$model:$iterations" heuristic)"
    fi
    if [ "$seconds" != 0 ]; then
        run vs-mcts "$(seats "net:$model:${seconds}s" "mcts:${seconds}s")"
    fi
fi
