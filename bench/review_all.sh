#!/bin/sh
# The game review's measurements, one game after the other in one process at a time
# (docs/review.md): calibration (corpus, positions, fit, held-out figures, written into
# spielwerk/review/calibration.toml), then speed and noise. Run from the repository root:
#   nice -n 19 sh bench/review_all.sh [GAMES...]
set -e
OUT=${OUT:-bench/results/review}
GAMES=${GAMES:-610}
FIT=${FIT:-100}
REVIEWS=${REVIEWS:-12}
[ $# -gt 0 ] || set -- inkheart_dice inkspell tainted_grail witches isolde
for game in "$@"; do
  .venv/bin/python bench/review_calibration.py "$game" --games "$GAMES" --fit-games "$FIT" \
    --per-game 4 --out "$OUT" --write
done
for game in "$@"; do
  .venv/bin/python bench/review_noise.py "$game" --reviews "$REVIEWS" --out "$OUT"
done
