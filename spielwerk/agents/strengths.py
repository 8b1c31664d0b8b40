"""The lobby's bot strengths by name: beginner, club, expert and best, per game a seat spec with
its measured rating (`spielwerk ladder`, docs/agents.md).

The names follow the measured order in each game, so "expert" is always stronger than "club":
where the heuristic plays better than the plain search (Tintenherz, Tintenblut, Tainted Grail),
it is the expert and the searches rank below it.
"""

from __future__ import annotations

from dataclasses import dataclass

from spielwerk.agents.heuristics import heuristic_factory
from spielwerk.core.data import read_toml


@dataclass(frozen=True, slots=True)
class Rating:
    """An openskill rating from a ladder run: mu and its 95% interval."""

    mu: float
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class Strength:
    name: str
    spec: str
    rating: Rating | None = None
    """None until a ladder has measured it."""

    def label(self) -> str:
        text = f"{self.name.capitalize()} ({self.spec})"
        if self.rating is not None:
            r = self.rating
            text += f", rating {r.mu:.1f} [{r.low:.1f}-{r.high:.1f}]"
        return text


NAMES = ("beginner", "club", "expert", "best")

_SEARCH_FIRST = ("heuristic", "mcts:300", "mcts:1000", "best")
"""Where the plain search beats the heuristic (Witches, Isolde)."""
_HEURISTIC_FIRST = ("mcts:100", "mcts:300", "heuristic", "best")
"""Where the heuristic beats the plain search (Tintenblut, Tainted Grail): more iterations
of a search that loses to the heuristic only make the player wait (mcts:1000 thinks 1-2 s a
move in Tainted Grail; in Tintenblut, compiled, some 10 ms, and still loses to the heuristic),
so the two weaker levels are the quick ones."""

_SEARCH_THEN_HEURISTIC = ("mcts:300", "mcts:1000", "heuristic", "best")
"""Tintenherz: the compiled search is quick at any budget, but its ladder (300 games) rates
mcts:300 21.8 and mcts:1000 23.4 below the heuristic's 27.8 and best's 28.2."""

_ORDER: dict[str, tuple[str, ...]] = {
    "witches": _SEARCH_FIRST,
    "inkheart_dice": _SEARCH_THEN_HEURISTIC,
    "isolde": _SEARCH_FIRST,
    "inkspell": _HEURISTIC_FIRST,
    "tainted_grail": _HEURISTIC_FIRST,
}


def _measured() -> dict[str, dict[str, Rating]]:
    data = read_toml("spielwerk.agents", "ratings.toml")
    return {
        game: {
            spec: Rating(float(r["mu"]), float(r["low"]), float(r["high"]))
            for spec, r in table.items()
            if isinstance(r, dict)
        }
        for game, table in data.items()
    }


RATINGS: dict[str, dict[str, Rating]] = _measured()
"""Per game and spec, the ratings measured by the ladder runs (`ratings.toml`, written from
bench/results/ladder-GAME by bench/ratings_from_ladders.py; docs/agents.md)."""


def strengths(game_name: str) -> list[Strength]:
    """The four named strengths of a game, weakest first."""
    order = _ORDER.get(game_name, _SEARCH_FIRST)
    measured = RATINGS.get(game_name, {})
    return [
        Strength(name, spec, measured.get(spec)) for name, spec in zip(NAMES, order, strict=True)
    ]


def lobby_levels(game_name: str) -> list[dict[str, str]]:
    """The lobby's choices: random and the heuristic first (by their own names), then the
    named strengths weakest first, each spec once; a strength's label carries its rating.
    A game without a heuristic offers none."""
    try:
        has_heuristic = heuristic_factory(game_name) is not None
    except Exception:  # a game whose heuristic does not import yet simply offers none
        has_heuristic = False
    named = {s.spec: s for s in strengths(game_name) if has_heuristic or s.spec != "heuristic"}
    levels = [{"spec": "random", "label": "Random"}]
    if has_heuristic:
        heuristic = named.get("heuristic")
        label = heuristic.label() if heuristic is not None else "Heuristic"
        levels.append({"spec": "heuristic", "label": label})
    for strength in named.values():
        if strength.spec != "heuristic":
            levels.append({"spec": strength.spec, "label": strength.label()})
    return levels
