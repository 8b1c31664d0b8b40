"""Game review: every decision of one seat judged by the strongest search, from what the seat
knew (docs/review.md)."""

from spielwerk.review.engine import (
    REVIEW_FORMAT,
    THRESHOLDS,
    Decision,
    GameReview,
    MoveChance,
    ReviewError,
    review_game,
)
from spielwerk.review.search import ReviewUnavailable

__all__ = [
    "REVIEW_FORMAT",
    "THRESHOLDS",
    "Decision",
    "GameReview",
    "MoveChance",
    "ReviewError",
    "ReviewUnavailable",
    "review_game",
]
