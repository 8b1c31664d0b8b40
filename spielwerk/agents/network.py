"""Trained policy-and-value networks as data: the model file, its checks, a NumPy forward pass.

A model file (`spielwerk-model/1`) is one NumPy `.npz` archive, read with `allow_pickle=False`
so that loading it can never run code:

- the weights of a multilayer perceptron, float32: `hidden_0/w`, `hidden_0/b`, ... (ReLU),
  then the heads `policy/w`, `policy/b` (one logit per player action id) and `value/w`,
  `value/b` (one value per seat, relative to the viewer: 0 is the viewer, 1 the next seat
  clockwise, ..., padded to the game's maximum player count);
- `metadata`: UTF-8 JSON bytes saying what the weights are for: the game, its options, the
  player counts, a hash of the observation layout and of the action table, how the value is
  scaled (`score_weight`), the search budget it plays with, and how it was trained (command,
  seed, time, evaluation figures).

The network reads `State.observation_tensor(seat)`, which a game builds from the seat's view
alone, and the legal-action mask; it never sees the true state of a hidden-information game.
Loading a file made for another game, option set, observation layout, action table or player
count raises `ModelMismatch` naming what differs. Training (`spielwerk.learn`) writes these
files; playing needs NumPy only.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import re
import zipfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from spielwerk.agents.base import Agent, Turn
from spielwerk.agents.mcts import MCTSAgent
from spielwerk.core.actions import Action
from spielwerk.core.errors import SpielwerkError
from spielwerk.core.game import Game
from spielwerk.core.registry import load
from spielwerk.core.state import CHANCE, TERMINAL, State

MODEL_FORMAT = "spielwerk-model/1"
METADATA_KEY = "metadata"
MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
"""Where the shipped networks live: `<game>.npz`, one per game."""

DEFAULT_EXPLORATION = 1.5
"""PUCT's constant where a model file names none (values are win shares in 0..1)."""

Array = npt.NDArray[np.float32]
Params = dict[str, Array]


class ModelError(SpielwerkError, ValueError):
    """A model file that cannot be read: missing, not an archive, or malformed."""


class ModelMismatch(ModelError):
    """A model file made for another game, options, observation layout or player count."""


# ---------------------------------------------------------------------- fingerprints
def layout_hash(game: Game) -> str:
    """Fingerprint of what the network's input and output mean for `game`: the observation
    layout (names and sizes of its blocks) and the player actions (ids and JSON forms)."""
    layout = game.observation_layout
    if layout is None:
        raise ModelError(f"{game.name} defines no observation tensor, so no network can play it")
    actions = [
        game.actions[i].to_json() for i in range(game.num_distinct_actions)
    ]  # ids are positions in this list
    text = json.dumps(
        {"game": game.name, "layout": list(layout.fields), "actions": actions},
        sort_keys=True,
        separators=(",", ":"),
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def network_metadata(
    game: Game, players: Sequence[int], hidden: Sequence[int], score_weight: float = 0.0
) -> dict[str, Any]:
    """The metadata that ties a network to `game` (training details are added by the trainer)."""
    layout = game.observation_layout
    if layout is None:
        raise ModelError(f"{game.name} defines no observation tensor, so no network can play it")
    return {
        "format": MODEL_FORMAT,
        "game": game.name,
        "options": {key: str(value) for key, value in game.options.items()},
        "players": list(players),
        "layout_hash": layout_hash(game),
        "observation_size": layout.size,
        "num_actions": game.num_distinct_actions,
        "seats": game.max_players,
        "hidden": list(hidden),
        "score_weight": score_weight,
    }


def initial_params(metadata: Mapping[str, Any], seed: int) -> Params:
    """He-initialised weights for the network `metadata` describes (zero biases, small output
    layers so that an untrained policy is nearly flat and its values nearly 0)."""
    rng = np.random.default_rng(seed)
    sizes = [int(metadata["observation_size"]), *metadata["hidden"]]
    params: Params = {}
    for index, (rows, cols) in enumerate(itertools.pairwise(sizes)):
        weights = rng.standard_normal((rows, cols)) * np.sqrt(2.0 / rows)
        params[f"hidden_{index}/w"] = weights.astype(np.float32)
        params[f"hidden_{index}/b"] = np.zeros(cols, dtype=np.float32)
    last = sizes[-1]
    for head, size in (("policy", metadata["num_actions"]), ("value", metadata["seats"])):
        params[f"{head}/w"] = (rng.standard_normal((last, int(size))) * 0.01).astype(np.float32)
        params[f"{head}/b"] = np.zeros(int(size), dtype=np.float32)
    return params


# ---------------------------------------------------------------------- the model
@dataclass(frozen=True)
class Model:
    """Weights and metadata of one network (see the module docstring for the file format)."""

    params: Params
    metadata: dict[str, Any]

    @property
    def game_name(self) -> str:
        return str(self.metadata["game"])

    @property
    def hidden(self) -> list[int]:
        return [int(size) for size in self.metadata["hidden"]]

    @property
    def players(self) -> list[int]:
        return [int(n) for n in self.metadata["players"]]

    @property
    def score_weight(self) -> float:
        return float(self.metadata.get("score_weight", 0.0))

    @property
    def rollout_features(self) -> list[str] | None:
        """The features the model's rollout policy weighs, in order; None without one."""
        rollout = self.metadata.get("rollout_policy")
        return None if rollout is None else [str(name) for name in rollout["features"]]

    def check(self, game: Game, num_players: int | None = None) -> None:
        """Raise ModelMismatch unless this model was made for `game` (and `num_players`)."""
        meta = self.metadata
        if meta["game"] != game.name:
            raise ModelMismatch(
                f"this model was trained for the game {meta['game']!r}, not {game.name!r}"
            )
        options = {key: str(value) for key, value in game.options.items()}
        # An option the file does not name is at its default: a game that gained an option
        # whose default keeps the old rules still plays the models trained before.
        trained = {spec.name: str(spec.default) for spec in game.option_specs}
        trained.update({key: str(value) for key, value in meta.get("options", {}).items()})
        for key, value in game.retired_options.items():  # gone, at the value every game had
            if trained.get(key) == str(value):
                del trained[key]
        if trained != options:
            differ = sorted(
                key for key in set(options) | set(trained) if options.get(key) != trained.get(key)
            )
            shown = ", ".join(
                f"{key}={trained.get(key, '(default)')} (game: {options.get(key, '(none)')})"
                for key in differ
            )
            raise ModelMismatch(f"this {game.name} model was trained with other options: {shown}")
        expected = layout_hash(game)
        if meta["layout_hash"] != expected:
            raise ModelMismatch(
                f"this {game.name} model was made for another observation layout or action table "
                f"(model {meta['layout_hash']}, this version of the game {expected}): "
                "train it again with `spielwerk train`"
            )
        if num_players is not None and num_players not in self.players:
            counts = ", ".join(map(str, self.players))
            raise ModelMismatch(
                f"this {game.name} model was trained for {counts} players, not {num_players}"
            )

    # ------------------------------------------------------------------ forward pass
    def forward(self, observations: Array) -> tuple[Array, Array]:
        """Policy logits (batch, actions) and seat values (batch, max seats) of a batch of
        observation tensors (batch, observation size). Mirrors `spielwerk.learn.model.apply`."""
        x = observations
        params = self.params
        for index in range(len(self.hidden)):
            x = x @ params[f"hidden_{index}/w"] + params[f"hidden_{index}/b"]
            np.maximum(x, 0.0, out=x)
        logits = x @ params["policy/w"] + params["policy/b"]
        values = x @ params["value/w"] + params["value/b"]
        return logits, values

    def forward_one(self, observation: Sequence[float] | Array) -> tuple[Array, Array]:
        """`forward` of one observation, faster: observation tensors are mostly zeros, so the
        first layer sums only the weight rows of the non-zero entries."""
        x = np.asarray(observation, dtype=np.float32)
        params = self.params
        layers = len(self.hidden)
        h: Array
        if layers:
            nonzero = np.flatnonzero(x)
            h = x[nonzero] @ params["hidden_0/w"][nonzero] + params["hidden_0/b"]
            np.maximum(h, 0.0, out=h)
            for index in range(1, layers):
                h = h @ params[f"hidden_{index}/w"] + params[f"hidden_{index}/b"]
                np.maximum(h, 0.0, out=h)
        else:
            h = x
        return h @ params["policy/w"] + params["policy/b"], h @ params["value/w"] + params[
            "value/b"
        ]

    def evaluate(self, observation: Sequence[float], legal: Sequence[int]) -> tuple[Array, Array]:
        """For one observation: the policy over `legal` (probabilities in that order) and the
        value of every seat relative to the viewer."""
        logits, values = self.forward_one(observation)
        return masked_softmax(logits, legal), values


def masked_softmax(logits: Array, legal: Sequence[int]) -> Array:
    """Softmax of `logits` over the ids in `legal` only, in that order."""
    chosen = logits[np.asarray(legal, dtype=np.intp)]
    chosen = np.exp(chosen - chosen.max())
    result: Array = chosen / chosen.sum()
    return result


def legal_mask(legal: Sequence[int], num_actions: int) -> npt.NDArray[np.bool_]:
    """The legal-action mask the network's policy head is trained and read with."""
    mask = np.zeros(num_actions, dtype=np.bool_)
    mask[np.asarray(legal, dtype=np.intp)] = True
    return mask


def observe(state: State, seat: int) -> Array:
    """The network's input for `seat`: its observation tensor (built from its view alone)."""
    return np.asarray(state.observation_tensor(seat), dtype=np.float32)


# ---------------------------------------------------------------------- files
def save_model(path: Path, params: Mapping[str, Array], metadata: Mapping[str, Any]) -> None:
    """Write a model file (compressed .npz with the metadata as JSON bytes)."""
    meta = {"format": MODEL_FORMAT, **metadata}
    arrays = {name: np.asarray(array, dtype=np.float32) for name, array in params.items()}
    arrays[METADATA_KEY] = np.frombuffer(json.dumps(meta, indent=1).encode(), dtype=np.uint8)
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)  # type: ignore[arg-type]
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(buffer.getvalue())
    temporary.replace(path)  # a crash never leaves half a model behind


def read_model(path: Path) -> Model:
    """Read and validate a model file (its own consistency; `Model.check` for the game)."""
    if path.is_file() and not zipfile.is_zipfile(path):
        raise ModelError(f"{str(path)!r} is not a spielwerk model file (not an .npz archive)")
    try:
        with np.load(path, allow_pickle=False) as archive:
            arrays = {name: archive[name] for name in archive.files}
    except FileNotFoundError:
        raise ModelError(f"no model file {str(path)!r}") from None
    except IsADirectoryError:
        raise ModelError(f"{str(path)!r} is a directory, not a model file") from None
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        raise ModelError(f"{str(path)!r} is not a spielwerk model file ({error})") from None
    raw = arrays.pop(METADATA_KEY, None)
    if raw is None or raw.dtype != np.uint8 or raw.ndim != 1:
        raise ModelError(f"{str(path)!r} has no model metadata: not a spielwerk model file")
    try:
        metadata = json.loads(raw.tobytes().decode())
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ModelError(f"the metadata of {str(path)!r} is not JSON: {error}") from None
    return build_model(metadata, arrays, str(path))


def build_model(metadata: Any, arrays: Mapping[str, Any], origin: str = "model") -> Model:
    """Check metadata and weights against each other and make a Model."""
    if not isinstance(metadata, dict) or metadata.get("format") != MODEL_FORMAT:
        found = metadata.get("format") if isinstance(metadata, dict) else None
        raise ModelError(f"{origin} is not a {MODEL_FORMAT} file (format {found!r})")
    for key in ("game", "layout_hash", "observation_size", "num_actions", "seats"):
        if key not in metadata:
            raise ModelError(f"the metadata of {origin} lacks {key!r}")
    hidden = metadata.get("hidden")
    players = metadata.get("players")
    if not isinstance(hidden, list) or not all(isinstance(h, int) and h > 0 for h in hidden):
        raise ModelError(f"the metadata of {origin} has no valid 'hidden' layer sizes")
    if not isinstance(players, list) or not all(isinstance(n, int) and n > 0 for n in players):
        raise ModelError(f"the metadata of {origin} has no valid 'players' list")
    sizes = [int(metadata["observation_size"]), *hidden]
    expected: dict[str, tuple[int, ...]] = {}
    for index, (rows, cols) in enumerate(itertools.pairwise(sizes)):
        expected[f"hidden_{index}/w"] = (rows, cols)
        expected[f"hidden_{index}/b"] = (cols,)
    last = sizes[-1]
    expected["policy/w"] = (last, int(metadata["num_actions"]))
    expected["policy/b"] = (int(metadata["num_actions"]),)
    expected["value/w"] = (last, int(metadata["seats"]))
    expected["value/b"] = (int(metadata["seats"]),)
    rollout = metadata.get("rollout_policy")
    if rollout is not None:  # a learned rollout policy for the compiled search (optional)
        features = rollout.get("features") if isinstance(rollout, dict) else None
        if not isinstance(features, list) or not all(isinstance(f, str) for f in features):
            raise ModelError(f"the metadata of {origin} has a rollout policy without its features")
        expected[ROLLOUT_WEIGHTS] = (len(features),)
    if set(arrays) != set(expected):
        missing = sorted(set(expected) - set(arrays))
        extra = sorted(set(arrays) - set(expected))
        raise ModelError(f"{origin} has the wrong weights (missing {missing}, unexpected {extra})")
    params: Params = {}
    for name, shape in expected.items():
        array = np.asarray(arrays[name])
        if array.shape != shape or array.dtype.kind != "f":
            raise ModelError(
                f"{origin}: weights {name!r} have shape {array.shape} ({array.dtype}), "
                f"expected {shape} floats"
            )
        if not np.all(np.isfinite(array)):
            raise ModelError(f"{origin}: weights {name!r} are not all finite")
        params[name] = np.ascontiguousarray(array, dtype=np.float32)
    return Model(params, metadata)


ROLLOUT_WEIGHTS = "rollout/w"
"""The weights of a model's learned rollout policy (`spielwerk.learn.rollout_policy`): one per
feature its metadata's `rollout_policy.features` names."""


def rollout_weights(model: Model) -> Array | None:
    """The model's rollout policy weights, checked against the game's compiled rollout policy
    (the same features in the same order); None if the model has none. ModelMismatch if the
    kernel computes other features than the model was learned on."""
    features = model.rollout_features
    if features is None:
        return None
    from spielwerk.agents.rollouts import ROLLOUT_POLICIES, learned_rollout

    name = model.game_name
    learned = learned_rollout(name) if name in ROLLOUT_POLICIES else None
    if learned is None:
        raise ModelMismatch(f"this {name} model has a rollout policy, but {name} has none")
    computed = list(learned.features)
    if features != computed:
        raise ModelMismatch(
            f"this {name} model's rollout policy weighs the features {features}, but this "
            f"version of the game's kernel computes {computed}: learn it again with "
            "`python -m spielwerk.learn.rollout_policy`"
        )
    return model.params[ROLLOUT_WEIGHTS]


def shipped_model_path(game_name: str) -> Path:
    return MODELS_DIR / f"{game_name}.npz"


def load_model(game_name: str, path: str | Path | None = None) -> Model:
    """The model at `path` (default: the one shipped for the game), checked against the game
    with its default options (`Model.check` again with the real options and player count)."""
    if path is None:
        shipped = shipped_model_path(game_name)
        if not shipped.exists():
            raise ModelError(
                f"no network ships for {game_name} yet: train one with "
                f"`spielwerk train {game_name}` and seat it as net:FILE"
            )
        path = shipped
    model = read_model(Path(path))
    if model.game_name != game_name:
        raise ModelMismatch(
            f"{str(path)!r} was trained for the game {model.game_name!r}, not {game_name!r}"
        )
    try:
        game = load(game_name, **model.metadata.get("options", {}))
    except SpielwerkError as error:
        raise ModelMismatch(f"{str(path)!r} names options this game lacks: {error}") from None
    model.check(game)
    return model


# ---------------------------------------------------------------------- search parts
def deciding_seat(state: State) -> int | None:
    """The seat whose observation values a state: the one to move (the lowest of several
    deciding at once); None at a chance node or the end."""
    to_move = state.to_move
    if isinstance(to_move, frozenset):
        return min(to_move)
    if to_move in (CHANCE, TERMINAL):
        return None
    return int(to_move)


class NetworkPrior:
    """The policy head as the search's prior (`spielwerk.agents.guidance.Prior`): the move
    probabilities of `seat` from its observation tensor of the (determinized) state."""

    def __init__(self, model: Model) -> None:
        self.model = model

    def __call__(self, state: State, seat: int, legal: Sequence[int]) -> Sequence[float]:
        if len(legal) == 1:
            return [1.0]
        policy, _ = self.model.evaluate(state.observation_tensor(seat), legal)
        return policy.tolist()  # type: ignore[no-any-return]


class NetworkValuation:
    """The value head as the search's leaf valuation (`spielwerk.agents.guidance.Valuation`):
    every seat's value read from the deciding seat's observation. A finished game is valued as
    the network was trained: win share plus `score_weight` x the seat's final score."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.score_weight = model.score_weight

    def leaf(self, state: State) -> Sequence[float] | None:
        seat = deciding_seat(state)
        if seat is None:
            return None
        n = state.num_players
        _, relative = self.model.forward_one(state.observation_tensor(seat))
        return [float(relative[(p - seat) % n]) for p in range(n)]

    def terminal(self, state: State) -> Sequence[float]:
        return terminal_values(state, self.score_weight)


def terminal_values(state: State, score_weight: float) -> list[float]:
    """What a finished game is worth to each seat: its return (a win is 1, shared among tied
    winners) plus `score_weight` x its final score. The value head learns this."""
    returns = [float(r) for r in state.returns()]
    if not score_weight:
        return returns
    scores = state.result()["scores"]
    return [r + score_weight * float(s) for r, s in zip(returns, scores, strict=True)]


def network_search_agent(
    model: Model,
    iterations: int | None,
    seed: int | None,
    exploration: float | None = None,
    seconds: float | None = None,
) -> MCTSAgent:
    """The information-set MCTS guided by `model`: its policy head is the PUCT prior, its value
    head values every new node (no rollouts)."""
    if exploration is None:
        exploration = float(model.metadata.get("exploration", DEFAULT_EXPLORATION))
    return MCTSAgent(
        iterations=iterations,
        seconds=seconds,
        exploration=exploration,
        seed=seed,
        prior=NetworkPrior(model),
        valuation=NetworkValuation(model),
        rollout_decisions=0,
    )


KERNEL_SEARCH = "kernel"
"""A model's `search` when it plays with the compiled search of its game
(`spielwerk.agents.kernel_network`); else ("puct", the default) the PUCT search above."""


def network_player(
    model: Model,
    iterations: int | None,
    seconds: float | None,
    seed: int | None,
    exploration: float | None = None,
) -> Agent:
    """The search a model plays with, as its file says: the network-guided PUCT search, or
    the compiled search with the network judging the root's moves."""
    if model.metadata.get("search") != KERNEL_SEARCH:
        return network_search_agent(model, iterations, seed, exploration, seconds)
    from spielwerk.agents.kernel_network import DEFAULT_BLEND, KernelNetworkAgent
    from spielwerk.games.kernels import has_kernel

    if not has_kernel(model.game_name):
        raise ModelError(
            f"this {model.game_name} model plays with the compiled search, which needs Numba: "
            "pip install 'spielwerk[kernels]'"
        )
    return KernelNetworkAgent(
        model,
        model.game_name,
        iterations=iterations,
        seconds=seconds,
        seed=seed,
        blend=float(model.metadata.get("blend", DEFAULT_BLEND)),
        exploration=float(model.metadata.get("exploration", 0.7))
        if exploration is None
        else exploration,
        score_weight=model.score_weight,
        leaf_mix=float(model.metadata.get("leaf_mix", 0.0)),
        rollout_weights=rollout_weights(model),
        rollout_decisions=_optional_number(model, "rollout_decisions", int),
        lead_scale=_optional_number(model, "lead_scale", float),
        leaf_estimate=bool(model.metadata.get("leaf_estimate", False)),
    )


N = TypeVar("N", int, float)


def _optional_number(model: Model, key: str, kind: Callable[[Any], N]) -> N | None:
    """The metadata's `key` as a number, None if absent; a ModelError naming it if it is not
    one (a file edited by hand must fail clearly, not deep in the search)."""
    value = model.metadata.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ModelError(f"the model's {key} must be a number, not {value!r}")
    return kind(value)


def root_visits(root: Any, turn: Turn, legal: Sequence[int]) -> list[int]:
    """Visit counts of the search root's children for the ids in `legal` (keyed by id, or by
    ((seat, id),) at a simultaneous decision, as `spielwerk.agents.mcts` keys them)."""
    simultaneous = turn.sample is not None and isinstance(turn.sample.to_move, frozenset)
    children = root.children
    counts = []
    for action in legal:
        child = children.get(((turn.player, action),) if simultaneous else action)
        counts.append(0 if child is None else int(child.visits))
    return counts


# ---------------------------------------------------------------------- the seat
class NetworkAgent(Agent):
    """The seat `net` / `net:PATH`: the network-guided search. It checks on its first turn
    that the model was made for the game, options and player count being played."""

    name = "net"
    wants_sample = True

    def __init__(
        self,
        model: Model,
        iterations: int | None = None,
        seconds: float | None = None,
        seed: int | None = None,
    ) -> None:
        self.model = model
        if iterations is None and seconds is None:
            iterations = int(model.metadata.get("play_iterations", DEFAULT_PLAY_ITERATIONS))
        self.search = network_player(model, iterations, seconds, seed)
        self._checked: tuple[int, int] | None = None

    def check_game(self, game: Game, num_players: int) -> None:
        """Raise ModelMismatch unless the model fits this game and player count."""
        key = (id(game), num_players)
        if self._checked != key:
            self.model.check(game, num_players)
            self._checked = key

    def act(self, turn: Turn) -> Action:
        if turn.sample is None:
            raise RuntimeError("the network seat needs a determinization (wants_sample)")
        self.check_game(turn.sample.game, turn.sample.num_players)
        return self.search.act(turn)


class FittingNetworkAgent(Agent):
    """A `best` seat that is the network's search: where the shipped network was not made for
    the table (another player count, other options), its turns go to the search `fallback`
    builds instead, so `best` sits at every table the game allows."""

    name = "net"
    wants_sample = True

    def __init__(self, network: NetworkAgent, fallback: Callable[[], Agent]) -> None:
        self.network = network
        self._fallback = fallback
        self._chosen: tuple[tuple[int, int], Agent] | None = None

    def chosen(self, game: Game, num_players: int) -> Agent:
        """The bot that plays this table: the network's search if its model fits."""
        key = (id(game), num_players)
        if self._chosen is None or self._chosen[0] != key:
            try:
                self.network.check_game(game, num_players)
                agent: Agent = self.network
            except ModelMismatch:
                agent = self._fallback()
            self._chosen = (key, agent)
        return self._chosen[1]

    def act(self, turn: Turn) -> Action:
        if turn.sample is None:
            raise RuntimeError("the network seat needs a determinization (wants_sample)")
        return self.chosen(turn.sample.game, turn.sample.num_players).act(turn)

    def adjust(self, change: Callable[[Agent], Agent]) -> None:
        """Apply `change` to both bots this seat may play as (the fallback when it is built):
        a server's time cap reaches whichever plays."""
        self.network = change(self.network)  # type: ignore[assignment]
        build = self._fallback
        self._fallback = lambda: change(build())
        self._chosen = None


DEFAULT_PLAY_ITERATIONS = 400
"""Search iterations per decision of the seat `net` where the model file names none."""

_BUDGET = re.compile(r"^(\d+|\d+(\.\d*)?s|\.\d+s)$")


def parse_network_spec(rest: str) -> tuple[str | None, str | None]:
    """What follows `net:` in a seat spec: (path or None, budget or None). `net:500` and
    `net:1.5s` are budgets for the shipped model; `net:FILE` and `net:FILE:1.5s` name a file."""
    if not rest:
        return None, None
    if _BUDGET.match(rest.lower()):
        return None, rest.lower()
    path, sep, last = rest.rpartition(":")
    if sep and path and _BUDGET.match(last.lower()):
        return path, last.lower()
    return rest, None


def network_agent(rest: str, game_name: str, seed: int | None) -> NetworkAgent:
    """The agent of the seat spec `net` + (":" + `rest`)."""
    path, budget = parse_network_spec(rest)
    model = load_model(game_name, path)
    if budget is None:
        return NetworkAgent(model, seed=seed)
    if budget.endswith("s"):
        seconds = float(budget[:-1])
        if not seconds > 0:
            raise ModelError(f"bad network budget {budget!r}: give a positive number of seconds")
        return NetworkAgent(model, seconds=seconds, seed=seed)
    iterations = int(budget)
    if iterations < 1:
        raise ModelError(f"bad network budget {budget!r}: give at least one iteration")
    return NetworkAgent(model, iterations=iterations, seed=seed)


# ---------------------------------------------------------------------- research use
class NetworkPolicy:
    """A trained network as a plain policy, without search, for research code: an observation
    tensor and a legal-action mask in (as the PettingZoo environment's observations carry
    them), move probabilities over every player action id out.

        policy = NetworkPolicy.load(env.game, num_players=4)    # the shipped network
        action = policy(observation)                            # its most probable move
    """

    def __init__(self, model: Model) -> None:
        self.model = model

    @classmethod
    def load(
        cls, game: Game, path: str | Path | None = None, num_players: int | None = None
    ) -> NetworkPolicy:
        """The model at `path` (default: the shipped one), checked against `game`."""
        model = load_model(game.name, path)
        model.check(game, num_players)
        return cls(model)

    def probabilities(
        self, observation: Sequence[float] | Array, action_mask: Sequence[Any] | npt.NDArray[Any]
    ) -> Array:
        """One probability per player action id; 0 where the mask is 0."""
        legal = np.flatnonzero(np.asarray(action_mask))
        if not len(legal):
            raise ValueError("the action mask allows no action")
        logits, _ = self.model.forward_one(observation)
        result = np.zeros(len(logits), dtype=np.float32)
        result[legal] = masked_softmax(logits, legal.tolist())
        return result

    def value(self, observation: Sequence[float]) -> Array:
        """The value head: one value per seat, the observing seat first, then clockwise."""
        return self.model.forward_one(observation)[1]

    def __call__(self, observation: Mapping[str, Any]) -> int:
        """The most probable legal action of a PettingZoo observation dict."""
        probabilities = self.probabilities(observation["observation"], observation["action_mask"])
        return int(np.argmax(probabilities))
