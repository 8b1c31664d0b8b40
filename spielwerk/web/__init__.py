"""Web play: the lobby and a table page for every game, served by `spielwerk serve`.

`app` (FastAPI: pages, JSON API, one websocket per player), `tables` (the live tables: actions,
chance, bots, what each connection is sent), `storage` (tables, seats and the action log through
SQLAlchemy), `bots` (bot decisions in worker processes), `protocol` (every message a client may
send), `catalog` (the games on offer), `server` (uvicorn), `loadtest`; the pages and the boards
are in `static/`. Needs the `web` extra. See docs/web.md.
"""
