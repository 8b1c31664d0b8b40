#!/bin/sh
# The lobby strengths of each game rated against each other (`spielwerk ladder`, docs/agents.md
# "Lobby strengths"): the four named levels of the game as entrants, seat rotation over
# duplicate deals, the console output with the load before and after and the wall time in
# bench/results/ladder-GAME/run.txt beside the ladder's own files.
#
#   bench/ladders.sh GAME GAMES [SEED] [JOBS]
set -eu
game=$1 games=$2 seed=${3:-5} jobs=${4:-1}
bin=${SPIELWERK:-.venv/bin/spielwerk}
out=bench/results/ladder-$game
entrants=$(.venv/bin/python -c "from spielwerk.agents.strengths import strengths; print(','.join(s.spec for s in strengths('$game')))")
players=$(.venv/bin/python -c "from spielwerk.bench.run import usual_players; print(usual_players('$game'))")
mkdir -p "$out"
start=$(date +%s)
{
    echo "command: spielwerk ladder $game --entrants $entrants -p $players -n $games --seed $seed --jobs $jobs --out $out"
    echo "machine: $(nproc)-core $(uname -m), $(python3 --version 2>&1); load before:"
    uptime
} >"$out/run.txt"
"$bin" ladder "$game" --entrants "$entrants" -p "$players" -n "$games" --seed "$seed" \
    --jobs "$jobs" --out "$out" 2>/dev/null >>"$out/run.txt"
{ echo "wall time: $(($(date +%s) - start)) s; load after:"; uptime; } >>"$out/run.txt"
