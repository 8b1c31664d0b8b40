"""Model files and the NumPy network: the format, its checks and the seat `net:FILE`."""

from __future__ import annotations

import json
import random
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import spielwerk
from spielwerk.agents import make_agent
from spielwerk.agents.network import (
    METADATA_KEY,
    MODELS_DIR,
    Model,
    ModelError,
    ModelMismatch,
    NetworkAgent,
    NetworkPolicy,
    NetworkPrior,
    NetworkValuation,
    load_model,
    parse_network_spec,
    read_model,
    save_model,
)
from spielwerk.core.conformance import (
    check_observation_no_leak,
    games_under_test,
    play_on,
    random_step,
)
from spielwerk.sim.match import play_game

TinyModel = Callable[..., Model]


def write(tmp_path: Path, model, name: str = "model.npz") -> Path:
    path = tmp_path / name
    save_model(path, model.params, model.metadata)
    return path


def test_a_model_file_round_trips_weights_and_metadata(
    tmp_path: Path, tiny_model: TinyModel
) -> None:
    model = tiny_model(spielwerk.load("witches"), [4], hidden=(8, 4))
    path = write(tmp_path, model)
    again = read_model(path)
    assert again.metadata == {**model.metadata}
    assert set(again.params) == set(model.params)
    for name, array in model.params.items():
        np.testing.assert_array_equal(again.params[name], array)
    with zipfile.ZipFile(path) as archive:  # plain arrays and JSON, nothing pickled
        assert sorted(archive.namelist()) == sorted(
            f"{n}.npy" for n in [*model.params, METADATA_KEY]
        )
    with np.load(path, allow_pickle=False) as archive:
        meta = json.loads(archive[METADATA_KEY].tobytes())
    assert meta["format"] == "spielwerk-model/1" and meta["game"] == "witches"


def test_loading_for_another_game_names_the_games(tmp_path: Path, tiny_model: TinyModel) -> None:
    path = write(tmp_path, tiny_model(spielwerk.load("witches"), [4]))
    with pytest.raises(ModelMismatch, match="trained for the game 'witches', not 'isolde'"):
        load_model("isolde", path)
    with pytest.raises(ModelMismatch, match="trained for the game 'witches', not 'isolde'"):
        make_agent(f"net:{path}", "isolde", seed=1)


def test_another_player_count_or_option_or_layout_is_named(
    tmp_path: Path, tiny_model: TinyModel
) -> None:
    game = spielwerk.load("witches")
    model = read_model(write(tmp_path, tiny_model(game, [4])))
    model.check(game, 4)
    with pytest.raises(ModelMismatch, match="trained for 4 players, not 3"):
        model.check(game, 3)
    with pytest.raises(ModelMismatch, match=r"other options: wheel=descending \(game: ascending\)"):
        model.check(spielwerk.load("witches", wheel="ascending"), 4)
    # A file that does not name an option was made at its default (an option added later).
    save_model(tmp_path / "older.npz", model.params, {**model.metadata, "options": {}})
    older = read_model(tmp_path / "older.npz")
    older.check(game, 4)
    with pytest.raises(ModelMismatch, match=r"other options: wheel=descending \(game: ascending\)"):
        older.check(spielwerk.load("witches", wheel="ascending"), 4)
    stale = {**model.metadata, "layout_hash": "0123456789abcdef"}
    path = tmp_path / "stale.npz"
    save_model(path, model.params, stale)
    with pytest.raises(ModelMismatch, match="another observation layout or action table"):
        load_model("witches", path)


def test_the_seat_checks_the_player_count_on_its_first_turn(
    tmp_path: Path, tiny_model: TinyModel
) -> None:
    path = write(tmp_path, tiny_model(spielwerk.load("inkheart_dice"), [3]))
    agent = make_agent(f"net:{path}:5", "inkheart_dice", seed=1)
    game = spielwerk.load("inkheart_dice")
    with pytest.raises(ModelMismatch, match="trained for 3 players, not 2"):
        play_game(game, [agent, make_agent("random", "inkheart_dice", 2)], seed=3)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not a zip at all", "not an .npz archive"),
        (None, "no model metadata"),
    ],
)
def test_files_that_are_not_models_fail_clearly(
    tmp_path: Path, content: bytes | None, message: str
) -> None:
    path = tmp_path / "bad.npz"
    if content is None:
        np.savez(path, weights=np.zeros(3))
    else:
        path.write_bytes(content)
    with pytest.raises(ModelError, match=message):
        read_model(path)
    with pytest.raises(ModelError, match="no model file"):
        read_model(tmp_path / "missing.npz")


def test_weights_of_the_wrong_shape_or_not_finite_are_refused(
    tmp_path: Path, tiny_model: TinyModel
) -> None:
    model = tiny_model(spielwerk.load("witches"), [4])
    params = dict(model.params)
    params["policy/b"] = np.zeros(3, dtype=np.float32)
    save_model(tmp_path / "shape.npz", params, model.metadata)
    with pytest.raises(ModelError, match=r"'policy/b' have shape \(3,\)"):
        read_model(tmp_path / "shape.npz")
    params = dict(model.params)
    params["value/b"] = np.full_like(params["value/b"], np.nan)
    save_model(tmp_path / "nan.npz", params, model.metadata)
    with pytest.raises(ModelError, match="not all finite"):
        read_model(tmp_path / "nan.npz")


def test_seat_specs_tell_budgets_from_file_names() -> None:
    assert parse_network_spec("") == (None, None)
    assert parse_network_spec("800") == (None, "800")
    assert parse_network_spec("1.5s") == (None, "1.5s")
    assert parse_network_spec("Models/W.npz") == ("Models/W.npz", None)
    assert parse_network_spec("Models/W.npz:0.5s") == ("Models/W.npz", "0.5s")
    assert parse_network_spec("w.npz:200") == ("w.npz", "200")


def test_forward_one_equals_the_batched_forward(tiny_model: TinyModel) -> None:
    game = spielwerk.load("isolde")
    model = tiny_model(game, [4], hidden=(32, 16))
    state = game.new_state(4, seed=2)
    rng = random.Random(2)
    for _ in range(60):
        random_step(state, rng)
    tensor = state.observation_tensor(1)
    logits, values = model.forward(np.asarray([tensor], dtype=np.float32))
    one_logits, one_values = model.forward_one(tensor)
    np.testing.assert_allclose(one_logits, logits[0], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(one_values, values[0], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", games_under_test())
def test_the_network_reads_only_the_seat_s_view(name: str, tiny_model: TinyModel) -> None:
    """The prior's move weights and the value head's reading are the same on the true state
    and on any resample for the deciding seat: the network sees what the seat may know."""
    game = spielwerk.load(name)
    players = game.min_players
    model = tiny_model(game, [players])
    prior, valuation = NetworkPrior(model), NetworkValuation(model)
    rng = random.Random(5)
    state = game.new_state(players, seed=11)
    checked = 0
    for step in range(400):
        if state.is_terminal():
            break
        if step % 7 == 0:
            check_observation_no_leak(state, rng, prior)
            seat = state.to_move if isinstance(state.to_move, int) else None
            if seat is not None and seat >= 0:
                values = valuation.leaf(state)
                assert values == valuation.leaf(state.resample(seat, rng))
                checked += 1
        actor = state.to_move
        if isinstance(actor, frozenset):
            for seat in sorted(actor):
                state.apply(rng.choice(state.legal_ids(seat)), seat)
        elif actor == -1:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_ids(actor)))
    assert checked > 0


def test_a_network_seat_plays_a_whole_game(tmp_path: Path, tiny_model: TinyModel) -> None:
    game = spielwerk.load("inkheart_dice")
    path = write(tmp_path, tiny_model(game, [3]))
    agents = [make_agent(f"net:{path}:20", "inkheart_dice", seed=s) for s in range(2)]
    agents.append(make_agent("heuristic", "inkheart_dice", seed=3))
    assert isinstance(agents[0], NetworkAgent)
    state = play_game(game, agents, seed=4)
    assert state.is_terminal()
    assert agents[0].search.last_iterations in (0, 20)


def test_the_server_caps_a_network_seat_s_thinking_time(
    tmp_path: Path, tiny_model: TinyModel
) -> None:
    """--max-bot-seconds holds for a network seat too: its search stops there whatever the
    iteration budget the model file or the spec names."""
    from spielwerk.web.bots import capped

    model = tiny_model(spielwerk.load("inkheart_dice"), [3])
    path = write(tmp_path, model)
    # A model that plays with the compiled search (the kernel expert's) is capped alike.
    kernel = Model(model.params, {**model.metadata, "search": "kernel"})
    kernel_path = write(tmp_path, kernel, "kernel.npz")
    for file in (path, kernel_path):
        for spec, seconds in ((f"net:{file}:20000", 0.5), (f"net:{file}:0.2s", 0.2)):
            agent = capped(make_agent(spec, "inkheart_dice", seed=1), 0.5)
            assert isinstance(agent, NetworkAgent) and agent.search.seconds == seconds


def test_the_web_offers_only_the_shipped_network(tmp_path: Path, tiny_model: TinyModel) -> None:
    """A web seat can never name a file on the server; net:BUDGET keeps the search limits."""
    from spielwerk.agents import AgentSpecError
    from spielwerk.web.bots import check_bot_spec, is_search

    path = write(tmp_path, tiny_model(spielwerk.load("witches"), [4]))
    for spec in (f"net:{path}", "net:/etc/passwd", f"net:{path}:100"):
        with pytest.raises(AgentSpecError, match="plays the shipped model"):
            check_bot_spec(spec, "witches")
    assert is_search("net") and is_search("net:2s")


def test_a_research_policy_reads_pettingzoo_observations(
    tmp_path: Path, tiny_model: TinyModel
) -> None:
    from spielwerk.adapters.pettingzoo import env as make_env

    game = spielwerk.load("witches")
    path = write(tmp_path, tiny_model(game, [4]))
    environment = make_env("witches", num_players=4)
    environment.reset(seed=3)
    policy = NetworkPolicy.load(environment.unwrapped.game, path, num_players=4)
    with pytest.raises(ModelMismatch, match="not 3"):
        NetworkPolicy.load(game, path, num_players=3)
    steps = 0
    for _agent in environment.agent_iter(max_iter=200):
        observation, _, termination, truncation, _ = environment.last()
        if termination or truncation:
            environment.step(None)
            continue
        probabilities = policy.probabilities(observation["observation"], observation["action_mask"])
        assert probabilities.sum() == pytest.approx(1.0, abs=1e-5)
        assert np.all(probabilities[observation["action_mask"] == 0] == 0)
        action = policy(observation)
        assert observation["action_mask"][action] == 1
        environment.step(action)
        steps += 1
    assert steps > 10


def test_the_adapters_load_a_network_policy(tmp_path: Path, tiny_model: TinyModel) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from spielwerk.adapters.openspiel import network_policy, register
    from spielwerk.adapters.pettingzoo import raw_env

    path = write(tmp_path, tiny_model(spielwerk.load("inkheart_dice"), [3]))
    assert isinstance(raw_env("inkheart_dice", 3).network_policy(path), NetworkPolicy)
    with pytest.raises(ModelMismatch, match="not 2"):
        raw_env("inkheart_dice", 2).network_policy(path)
    register()
    game = pyspiel.load_game("spielwerk_inkheart_dice(players=3)")
    policy = network_policy(game, path)
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in play_on(state.inner, until=lambda s: not s.is_chance()):
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    probabilities = policy.action_probabilities(state)
    assert sorted(probabilities) == state.legal_actions()
    assert sum(probabilities.values()) == pytest.approx(1.0, abs=1e-5)


SHIPPED = sorted(path.stem for path in MODELS_DIR.glob("*.npz"))


@pytest.mark.parametrize("name", SHIPPED)
def test_a_shipped_network_fits_its_game_and_plays(name: str) -> None:
    """Every file in spielwerk/models is a model of the game it is named after, for the
    current rules (observation layout, actions, options), under 2 MB, and the seat `net`
    plays it."""
    path = MODELS_DIR / f"{name}.npz"
    assert path.stat().st_size <= 2_000_000
    model = load_model(name, None)
    game = spielwerk.load(name)
    players = model.players[0]
    model.check(game, players)
    assert model.metadata["training"]["command"].startswith(f"spielwerk train {name}")
    agents = [make_agent("net:1", name, seed=1)]
    agents += [make_agent("random", name, seed=2 + s) for s in range(players - 1)]
    assert play_game(game, agents, seed=5).is_terminal()
