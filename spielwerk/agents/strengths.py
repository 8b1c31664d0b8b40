"""The bots a player chooses from: four levels in every game (easy, medium, hard, strongest),
each the seat spec that the game's own ladder puts in that place, and the names bots sit
under at a table (docs/agents.md "Bot levels").

Each game names the three seats below its strongest (`LOWER_LEVELS`); the strongest is always
`best`, rated as the seat it plays as (`configs.best_seat`). Their order comes from the game's
ladder (`ratings.toml`, written from the runs in bench/results/ladder-GAME by
bench/ratings_from_ladders.py): weakest first, so "hard" is whatever that ladder rates above
"medium", and a new ladder that reorders them reorders the lobby.
"""

from __future__ import annotations

from dataclasses import dataclass

from spielwerk.agents.configs import best_seat
from spielwerk.core.data import read_toml
from spielwerk.core.i18n import Lang, shared_texts


@dataclass(frozen=True, slots=True)
class Rating:
    """An openskill rating from a ladder run: mu and its 95% interval, and the wall seconds
    the seat took a decision in that run (None where the run did not measure it)."""

    mu: float
    low: float
    high: float
    seconds: float | None = None


LEVELS = ("easy", "medium", "hard", "strongest")
"""The four levels, weakest first: the same words in every game."""

LOWER_LEVELS: dict[str, tuple[str, str, str]] = {
    # The plain search beats the heuristic by far (docs/agents.md "All games at a glance").
    "witches": ("heuristic", "mcts:300", "mcts:1000"),
    "isolde": ("heuristic", "mcts:300", "mcts:1000"),
    # The compiled search is quick at any budget, but the ladder rates it below the heuristic.
    "inkheart_dice": ("mcts:300", "mcts:1000", "heuristic"),
    # The heuristic beats the plain search by far; more iterations of a search that loses to
    # it would only make the player wait (mcts:1000 thinks 1-2 s a move in Tainted Grail).
    "inkspell": ("mcts:100", "mcts:300", "heuristic"),
    "tainted_grail": ("mcts:100", "mcts:300", "heuristic"),
}
"""Per game, the seats offered below `best` (in any order: the ladder orders them)."""

BOT_NAMES = ("Anna", "Ben", "Clara", "David", "Emma", "Felix", "Greta", "Hugo")
"""The name a bot sits under, by seat (the first seat's bot is always Anna): the same in both
languages, and none of them a character of a game."""


@dataclass(frozen=True, slots=True)
class Level:
    """One of a game's four levels: what the player picks and what the table stores."""

    key: str
    """easy, medium, hard or strongest."""
    spec: str
    """The seat spec the table runs (the strongest is `best`)."""
    rated_as: str
    """The ladder entrant whose rating it carries (`best` is rated as the seat it plays as)."""
    rating: Rating | None
    """None for a game no ladder has rated yet."""


def _measured() -> dict[str, dict[str, Rating]]:
    data = read_toml("spielwerk.agents", "ratings.toml")
    return {
        game: {
            spec: Rating(
                float(r["mu"]),
                float(r["low"]),
                float(r["high"]),
                None if r.get("seconds") is None else float(r["seconds"]),
            )
            for spec, r in table.get("ratings", {}).items()
        }
        for game, table in data.items()
    }


RATINGS: dict[str, dict[str, Rating]] = _measured()
"""Per game and ladder entrant, its rating (`ratings.toml`)."""


def levels(game_name: str) -> list[Level]:
    """The game's four levels, weakest first by its ladder's ratings (a game no ladder has
    rated keeps the order of `LOWER_LEVELS`, then `best`)."""
    lower = LOWER_LEVELS.get(game_name, ("heuristic", "mcts:300", "mcts:1000"))
    measured = RATINGS.get(game_name, {})
    seats = [(spec, spec) for spec in lower] + [("best", best_seat(game_name))]
    rated = [(spec, entrant, measured.get(entrant)) for spec, entrant in seats]
    if all(rating is not None for _, _, rating in rated):
        rated.sort(key=lambda seat: seat[2].mu if seat[2] is not None else 0.0)
    return [
        Level(key, spec, entrant, rating)
        for key, (spec, entrant, rating) in zip(LEVELS, rated, strict=True)
    ]


def level_of(game_name: str, spec: str) -> Level | None:
    """The level a seat spec is in this game, or None (a spec typed by hand, `random`)."""
    wanted = spec.strip().lower()
    return next((level for level in levels(game_name) if level.spec == wanted), None)


def bot_name(seat: int) -> str:
    """The name of the bot in `seat` (from 0)."""
    return BOT_NAMES[seat % len(BOT_NAMES)]


def level_word(key: str, lang: Lang) -> str:
    """A level as the lobby offers it: "Hard", „Schwer“."""
    return shared_texts().say(lang, f"bot.level.{key}")


def level_about(key: str, lang: Lang) -> str:
    """A level in one plain line, for players."""
    return shared_texts().say(lang, f"bot.about.{key}")


def bot_label(game_name: str, spec: str, seat: int, lang: Lang) -> str:
    """A bot at the table: "Clara (Hard bot)", „Clara (schwerer Bot)“; a bot that is no level
    of the game "Clara (bot)" (a random one "Clara (random bot)")."""
    level = level_of(game_name, spec)
    kind = level.key if level is not None else "random" if spec == "random" else "other"
    return shared_texts().say(lang, f"bot.seat.{kind}", name=bot_name(seat))


def technical(level: Level, lang: Lang) -> str:
    """What the level is in the docs' terms, for a tooltip: its seat spec (and the seat `best`
    plays as), its ladder rating and its time a move."""
    spec = level.spec if level.spec == level.rated_as else f"{level.spec} = {level.rated_as}"
    rating = level.rating
    if rating is None:
        return spec
    say = shared_texts().say
    text = say(
        lang,
        "bot.tech",
        spec=spec,
        mu=f"{rating.mu:.1f}",
        low=f"{rating.low:.1f}",
        high=f"{rating.high:.1f}",
    )
    if rating.seconds is not None:
        text += say(lang, "bot.tech_time", seconds=f"{rating.seconds:.3f}")
    return text
