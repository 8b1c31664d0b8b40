"""Outcome helpers shared by games whose highest score wins and equal scores share the win."""

from __future__ import annotations

from collections.abc import Sequence


def top_scorers(scores: Sequence[float]) -> list[int]:
    """The seats with the highest score (several on a tie)."""
    best = max(scores)
    return [seat for seat, score in enumerate(scores) if score == best]


def shared_win_returns(scores: Sequence[float]) -> list[float]:
    """1 shared equally among the top scorers, 0 for everybody else."""
    winners = top_scorers(scores)
    share = 1.0 / len(winners)
    return [share if seat in winners else 0.0 for seat in range(len(scores))]
