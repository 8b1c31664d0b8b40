"""Games as Ray tasks (`--backend ray`; needs the `ray` extra).

Without an address, Ray starts a local instance for the run and stops it afterwards; with
`--ray-address` (e.g. `ray://head:10001` or `auto`) the chunks go to that cluster, whose nodes
must have spielwerk installed. Ray does the distribution; this module only chunks the games and
collects results as they finish.
"""

from __future__ import annotations

from collections.abc import Sequence

from spielwerk.core.errors import SpielwerkError
from spielwerk.sim.plan import GameSpec
from spielwerk.sim.runner import (
    POLL_SECONDS,
    GameRow,
    Player,
    Progress,
    RowsHook,
    Stop,
    chunked,
    interrupt_flag,
    play_chunk,
    play_spec,
)


def _play_chunk(specs: Sequence[GameSpec], play: Player) -> list[GameRow]:
    return play_chunk(specs, play)


def run_ray(
    specs: Sequence[GameSpec],
    address: str | None,
    progress: Progress | None,
    on_rows: RowsHook | None = None,
    play: Player = play_spec,
    stop: Stop | None = None,
    chunk_most: int = 64,
) -> tuple[list[GameRow], bool]:
    try:
        import ray
    except ImportError:
        raise SpielwerkError("the ray backend needs Ray: pip install 'spielwerk[ray]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(
            address=address,
            include_dashboard=False,
            log_to_driver=False,
            configure_logging=False,
        )
    rows: list[GameRow] = []
    try:
        remote_chunk = ray.remote(_play_chunk)
        resources = ray.cluster_resources()  # type: ignore[no-untyped-call]
        workers = max(1, int(resources.get("CPU", 1)))
        pending = [
            remote_chunk.remote(chunk, play) for chunk in chunked(specs, workers, chunk_most)
        ]
        with interrupt_flag() as interrupted:
            while pending and not interrupted.is_set() and not (stop is not None and stop()):
                done, pending = ray.wait(pending, num_returns=1, timeout=POLL_SECONDS)
                for chunk_rows in ray.get(done):
                    rows.extend(chunk_rows)
                    if on_rows is not None:
                        on_rows(chunk_rows)
                    if progress is not None:
                        progress(len(chunk_rows))
            for ref in pending:
                ray.cancel(ref)
        return rows, bool(pending)
    finally:
        if started_here:
            ray.shutdown()
