#!/bin/sh
# Each game's ladder (`spielwerk ladder`, docs/agents.md "Bot levels"): the bots a player can
# choose from and the candidates for `best`, rated against each other with seat rotation over
# duplicate deals; the console output (ratings, seconds a decision), the load before and after
# and the wall time in bench/results/ladder-GAME/run.txt beside the ladder's own files.
# bench/ratings_from_ladders.py then writes spielwerk/agents/ratings.toml from them.
#
#   nice -n 19 bench/ladders.sh GAME GAMES [SEED] [JOBS]
#
# Run it again with a larger GAMES to extend a ladder (the games played are kept).
#
# The entrants: the game's three lower levels and its candidates for `best`, each under the
# spec it plays as: in Witches, Isolde and Tintenherz the plain search and the shipped
# network's search at equal time a decision; in Tintenblut the network's search (which beat
# the earlier best head to head, docs/agents.md); in Tainted Grail the network's search at 10
# iterations (its best since the network shipped; the network at its own 400 iterations takes
# a second a decision here and was left out to give the ladder more deals).
# ENTRANTS=a,b,c overrides them.
set -eu
game=$1 games=$2 seed=${3:-5} jobs=${4:-1}
bin=${SPIELWERK:-.venv/bin/spielwerk}
export COLUMNS=160  # the console table whole in run.txt
out=bench/results/ladder-$game
case $game in
    witches) default=heuristic,mcts:300,mcts:1000,mcts:0.25s,net:0.25s ;;
    isolde) default=heuristic,mcts:300,mcts:1000,mcts:0.25s,net:0.25s ;;
    inkheart_dice) default=mcts:300,mcts:1000,heuristic,mcts:0.25s,net:0.25s ;;
    inkspell) default=mcts:100,mcts:300,heuristic,net ;;
    tainted_grail) default=mcts:100,mcts:300,heuristic,net:10 ;;
    *) echo "no ladder entrants for $game: give ENTRANTS=..." >&2; default= ;;
esac
entrants=${ENTRANTS:-$default}
players=$(.venv/bin/python -c "from spielwerk.bench.run import usual_players; print(usual_players('$game'))")
mkdir -p "$out"
start=$(date +%s)
# A longer run of the same ladder resumes it: its report goes below the first one's.
[ -f "$out/games.jsonl" ] || : >"$out/run.txt"
{
    echo "command: spielwerk ladder $game --entrants $entrants -p $players -n $games --seed $seed --jobs $jobs --out $out"
    echo "machine: $(nproc)-core $(uname -m), $(python3 --version 2>&1), niceness $(nice); load before:"
    uptime
    echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- spielwerk || echo ' (with local changes)')"
} >>"$out/run.txt"
"$bin" ladder "$game" --entrants "$entrants" -p "$players" -n "$games" --seed "$seed" \
    --jobs "$jobs" --out "$out" 2>/dev/null >>"$out/run.txt"
{ echo "wall time: $(($(date +%s) - start)) s; load after:"; uptime; } >>"$out/run.txt"
