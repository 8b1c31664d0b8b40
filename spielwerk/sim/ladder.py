"""A rating ladder: a round robin of seat specs over duplicate deals, rated with openskill.

Competitive games: every combination of `players` different entrants is a line-up; each
line-up plays every deal once per rotation of its seats, so every entrant meets the same deals
from every seat. A game is rated as a free-for-all of one-seat teams, ranked by the result
(the winners first, tied, then the others by score). Cooperative games (every seat wins or
loses together): each entrant fills every seat as a team and plays the same deals against the
game itself, which is rated as one more player, so a team's rating says how often it beats the
game, on the same scale as the others'.

Ratings are openskill's Plackett-Luce model (Weng & Lin 2011, a maintained Bayesian rating
library made for multiplayer games and teams), processed in game order (deal by deal, all
line-ups of a deal before the next deal); each rating is mu with its 95% interval
mu ± 1.96 sigma. The games of a run are kept one JSON line each, so a run that stops can be
resumed with the same arguments (and extended with a larger `games`).
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from spielwerk.agents import make_agent
from spielwerk.core.errors import OptionError
from spielwerk.core.registry import load
from spielwerk.sim.plan import GameSpec, Variant
from spielwerk.sim.runner import GameRow, play_spec
from spielwerk.sim.stats import rate as win_rate

Z95 = 1.959963984540054
LADDER_FORMAT = "spielwerk-ladder/1"
GAMES_FILE = "games.jsonl"


@dataclass(frozen=True, slots=True)
class LadderSetup:
    """Everything that decides which games a ladder plays (all but how many deals)."""

    game: str
    entrants: tuple[str, ...]
    players: int
    seed: int
    options: tuple[tuple[str, str], ...]
    cooperative: bool

    @property
    def lineups(self) -> list[tuple[str, ...]]:
        if self.cooperative:
            return [(entrant,) * self.players for entrant in self.entrants]
        return list(itertools.combinations(self.entrants, self.players))

    @property
    def games_per_deal(self) -> int:
        return len(self.lineups) * self.players

    def header(self) -> dict[str, Any]:
        return {"format": LADDER_FORMAT} | asdict(self)


def doubling(spec: str, low: int, high: int) -> list[str]:
    """`mcts`, 100, 3200 -> mcts:100, mcts:200, ..., mcts:3200 (the skill ladder)."""
    if low < 1 or high < low:
        raise OptionError(f"a doubling ladder needs 1 <= low <= high, not {low} and {high}")
    budgets = []
    budget = low
    while budget <= high:
        budgets.append(f"{spec}:{budget}")
        budget *= 2
    return budgets


def setup_ladder(
    game: str,
    entrants: Sequence[str],
    players: int | None = None,
    seed: int = 0,
    options: Mapping[str, str] | None = None,
) -> LadderSetup:
    """Check the entrants and the player count; a cooperative game is detected by playing."""
    entrants = [spec.strip().lower() for spec in entrants]
    if len(set(entrants)) != len(entrants):
        raise OptionError("the ladder names an entrant twice")
    loaded = load(game, **dict(options or {}))
    if players is None:
        players = max(loaded.min_players, min(loaded.max_players, len(entrants)))
    loaded.new_state(players, seed=seed)  # the player count fits these options
    for spec in entrants:
        make_agent(spec, game, seed=0)
    cooperative = _is_cooperative(game, options or {}, players)
    if not cooperative and len(entrants) < players:
        raise OptionError(
            f"a {players}-player ladder needs at least {players} entrants, not {len(entrants)}"
        )
    if cooperative and not entrants:
        raise OptionError("the ladder needs at least one entrant")
    return LadderSetup(
        game, tuple(entrants), players, seed, tuple(sorted((options or {}).items())), cooperative
    )


def _is_cooperative(game: str, options: Mapping[str, str], players: int) -> bool:
    """Whether every seat wins or loses together (a random game says, by its result)."""
    variant = Variant("", tuple(sorted(options.items())))
    row = play_spec(GameSpec(0, game, variant, ("random",) * players, 0, 0, 0))
    return row.cooperative


def plan_ladder(setup: LadderSetup, games: int) -> list[GameSpec]:
    """At least `games` games, in whole deals: deal by deal, every line-up, every rotation.
    A game's index depends only on its deal, line-up and rotation, so a longer run of the
    same setup extends a shorter one."""
    if games < 1:
        raise OptionError(f"--games must be at least 1, not {games}")
    deals = math.ceil(games / setup.games_per_deal)
    variant = Variant("", setup.options)
    specs: list[GameSpec] = []
    for deal in range(deals):
        for lineup in setup.lineups:
            for rotation in range(setup.players):
                specs.append(
                    GameSpec(
                        len(specs), setup.game, variant, lineup, deal, setup.seed + deal, rotation
                    )
                )
    return specs


# ---------------------------------------------------------------------- keeping games on disk
def row_to_json(row: GameRow) -> dict[str, Any]:
    spec = row.spec
    return {
        "index": spec.index,
        "lineup": list(spec.lineup),
        "deal": spec.deal,
        "rotation": spec.rotation,
        "scores": list(row.scores),
        "win_shares": list(row.win_shares),
        "decisions": row.decisions,
        "steps": row.steps,
        "cooperative": row.cooperative,
        "think_seconds": [round(t, 6) for t in row.think_seconds],
        "seat_decisions": list(row.seat_decisions),
    }


def row_from_json(data: Mapping[str, Any], specs: Sequence[GameSpec]) -> GameRow:
    index = int(data["index"])
    if not 0 <= index < len(specs) or list(specs[index].lineup) != list(data["lineup"]):
        raise OptionError(f"game {index} in the ladder's file does not belong to this ladder")
    spec = specs[index]
    if (spec.deal, spec.rotation) != (data["deal"], data["rotation"]):
        raise OptionError(f"game {index} in the ladder's file does not belong to this ladder")
    return GameRow(
        spec,
        tuple(float(s) for s in data["scores"]),
        tuple(float(w) for w in data["win_shares"]),
        int(data["decisions"]),
        int(data["steps"]),
        bool(data["cooperative"]),
        # Files written before the ladder kept the time: no seconds a decision for those games.
        tuple(float(t) for t in data.get("think_seconds", ())),
        tuple(int(d) for d in data.get("seat_decisions", ())),
    )


class GameLog:
    """The ladder's games file: a header line (the setup), then one line per finished game.

    Opening an existing file with another setup is refused (it belongs to another ladder);
    games of deals beyond this run's plan are kept in the file and left out of the ratings.
    """

    def __init__(self, path: Path, setup: LadderSetup, specs: Sequence[GameSpec]) -> None:
        self.path = path
        self.rows: dict[int, GameRow] = {}
        if path.exists():
            lines = path.read_text(encoding="utf-8").splitlines()
            if not lines or json.loads(lines[0]) != json.loads(json.dumps(setup.header())):
                raise OptionError(
                    f"{path} holds another ladder (other game, entrants, players, seed or "
                    "options): give another --out"
                )
            entries = []
            for number, line in enumerate(lines[1:], start=2):
                try:
                    entries.append(json.loads(line))
                except json.JSONDecodeError:
                    if number != len(lines):
                        raise OptionError(f"{path} line {number} is not a game") from None
                    # A run stopped while writing its last line: drop that line.
                    path.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
            # A longer earlier run: its games beyond this plan stay in the file, unrated.
            known = max((int(entry["index"]) for entry in entries), default=0) + 1
            planned = plan_ladder(setup, max(known, len(specs)))
            for entry in entries:
                row = row_from_json(entry, planned)
                if row.spec.index < len(specs):
                    self.rows[row.spec.index] = row
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(setup.header()) + "\n", encoding="utf-8")

    def add(self, rows: Iterable[GameRow]) -> None:
        with self.path.open("a", encoding="utf-8") as file:
            for row in rows:
                self.rows[row.spec.index] = row
                file.write(json.dumps(row_to_json(row)) + "\n")


# ---------------------------------------------------------------------- ratings
def ranks(row: GameRow) -> list[float]:
    """Per seat, its place (0 = best): the winners share 0, the others follow by score."""
    others = sorted({s for s, w in zip(row.scores, row.win_shares, strict=True) if w <= 0})
    others.reverse()
    place = {score: i + 1 for i, score in enumerate(others)}
    return [
        0.0 if w > 0 else float(place[s]) for s, w in zip(row.scores, row.win_shares, strict=True)
    ]


def game_label(setup: LadderSetup) -> str:
    return f"{setup.game} (the game)"


def rate(setup: LadderSetup, rows: Sequence[GameRow]) -> dict[str, Any]:
    """Ratings (mu, sigma, 95% interval), games and win rates per entrant, best first."""
    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in setup.entrants}
    if setup.cooperative:
        ratings[game_label(setup)] = model.rating(name=game_label(setup))
    games = dict.fromkeys(ratings, 0)
    wins = dict.fromkeys(ratings, 0.0)
    thinking = _thinking(setup, rows)
    for row in sorted(rows, key=lambda r: r.spec.index):
        spec = row.spec
        if setup.cooperative:
            team, opponent = spec.lineup[0], game_label(setup)
            won = row.win_shares[0] > 0
            new_team, new_game = model.rate(
                [[ratings[team]], [ratings[opponent]]], ranks=[0.0, 1.0] if won else [1.0, 0.0]
            )
            ratings[team], ratings[opponent] = new_team[0], new_game[0]
            for name, won_it in ((team, won), (opponent, not won)):
                games[name] += 1
                wins[name] += float(won_it)
            continue
        seated = [spec.lineup[spec.entry_at(seat)] for seat in range(len(spec.lineup))]
        teams = model.rate([[ratings[name]] for name in seated], ranks=ranks(row))
        for seat, name in enumerate(seated):
            ratings[name] = teams[seat][0]
            games[name] += 1
            wins[name] += row.win_shares[seat]
    shares = _shares_by_deal(setup, rows)
    table: list[dict[str, Any]] = []
    for name, rating in ratings.items():
        mu, sigma = float(rating.mu), float(rating.sigma)
        interval = win_rate(shares.get(name, []))
        table.append(
            {
                "entrant": name,
                "mu": mu,
                "sigma": sigma,
                "low": mu - Z95 * sigma,
                "high": mu + Z95 * sigma,
                "games": games[name],
                "win_rate": wins[name] / games[name] if games[name] else 0.0,
                "win_low": interval["low"],
                "win_high": interval["high"],
                "seconds_per_decision": thinking.get(name),
            }
        )
    table.sort(key=lambda entry: -entry["mu"])
    return {
        "game": setup.game,
        "players": setup.players,
        "cooperative": setup.cooperative,
        "entrants": list(setup.entrants),
        "seed": setup.seed,
        "options": dict(setup.options),
        "games": len(rows),
        "model": "openskill PlackettLuce (mu 25, sigma 25/3 at the start)",
        "ratings": table,
    }


def _thinking(setup: LadderSetup, rows: Sequence[GameRow]) -> dict[str, float]:
    """Per entrant, its wall seconds a decision over the games that measured them (the
    strength of a time-budgeted seat depends on it, and a ladder compares seats at their own
    budgets, so the report says what each one took)."""
    seconds: dict[str, float] = {}
    decisions: dict[str, int] = {}
    for row in rows:
        if not row.think_seconds or not row.seat_decisions:
            continue
        spec = row.spec
        for seat in range(len(spec.lineup)):
            name = spec.lineup[0] if setup.cooperative else spec.lineup[spec.entry_at(seat)]
            seconds[name] = seconds.get(name, 0.0) + row.think_seconds[seat]
            decisions[name] = decisions.get(name, 0) + row.seat_decisions[seat]
    return {name: seconds[name] / decisions[name] for name in seconds if decisions[name]}


def _shares_by_deal(setup: LadderSetup, rows: Sequence[GameRow]) -> dict[str, list[list[float]]]:
    """Per entrant, its win shares grouped by deal (the game's own for the game itself)."""
    by_deal: dict[str, dict[int, list[float]]] = {}
    for row in rows:
        spec = row.spec
        if setup.cooperative:
            won = row.win_shares[0] > 0
            results = [(spec.lineup[0], float(won)), (game_label(setup), float(not won))]
        else:
            results = [
                (spec.lineup[spec.entry_at(seat)], row.win_shares[seat])
                for seat in range(len(spec.lineup))
            ]
        for name, share in results:
            by_deal.setdefault(name, {}).setdefault(spec.deal, []).append(share)
    return {name: list(deals.values()) for name, deals in by_deal.items()}


def apart(ratings: Sequence[Mapping[str, Any]]) -> list[tuple[str, str, bool]]:
    """Neighbours in the table (best first) and whether their 95% intervals are apart."""
    return [
        (upper["entrant"], lower["entrant"], lower["high"] < upper["low"])
        for upper, lower in itertools.pairwise(ratings)
    ]
