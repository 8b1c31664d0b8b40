#!/bin/sh
# The `best` seat against the heuristic (issue 16's bar), one game after another, each a
# `spielwerk simulate` with seat rotation over duplicate deals, its table, the load before and
# after and the wall time in bench/results/strength/GAME-LINEUP.txt (the report beside it).
#
#   bench/strength_best.sh [GAMES] [SEED] [JOBS] [GAME ...]
#
# Defaults: 200 games (201 for three players, whole rotations), seed 1, 1 job, every game.
# Tainted Grail is co-operative: a `best` team and a heuristic team play the same deals.
# LINEUP=best,mcts:1000,heuristic plays that line-up instead (one game or several of the
# same player count), e.g. `best` against `mcts:1000` on paired deals; the agents' table gives
# each one's seconds a decision.
set -eu
games=${1:-200} seed=${2:-1} jobs=${3:-1}
shift 3 2>/dev/null || shift $#
bin=${SPIELWERK:-.venv/bin/spielwerk}
out=bench/results/strength
mkdir -p "$out"

run() {  # run GAME LINEUP COUNT
    name="$1-$(echo "$2" | tr ',:' '-_')"
    log="$out/$name.txt"
    start=$(date +%s)
    {
        echo "command: spielwerk simulate $1 --players $2 --games $3 --seed $seed --jobs $jobs --out $out/$name"
        echo "machine: $(nproc)-core $(uname -m), $(python3 --version 2>&1); load before:"
        uptime
    } >"$log"
    "$bin" simulate "$1" --players "$2" --games "$3" --seed "$seed" --jobs "$jobs" \
        --out "$out/$name" 2>/dev/null >>"$log"
    { echo "wall time: $(($(date +%s) - start)) s; load after:"; uptime; } >>"$log"
}

for game in ${*:-tainted_grail witches inkheart_dice isolde}; do
    if [ -n "${LINEUP:-}" ]; then
        seats=$(echo "$LINEUP" | tr ',' '\n' | wc -l)
        run "$game" "$LINEUP" $((games + (seats - games % seats) % seats))
        continue
    fi
    case $game in
        tainted_grail) run "$game" best,best "$games"; run "$game" heuristic,heuristic "$games" ;;
        witches | isolde) run "$game" best,heuristic,random,random "$games" ;;
        *) run "$game" best,heuristic,random $((games + (3 - games % 3) % 3)) ;;
    esac
done
