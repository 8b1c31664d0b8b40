"""Every refusal the server can send has words in both languages of the pages.

The server names each refusal by a code beside its English message (`spielwerk/web/errors.py`);
the table page shows `error.<code>` from its catalogue (the browser side is checked in
test_web_table_page.py). This reads the web package's source for every code it can send — the
second argument of a `ClientError` (or a subclass), a class's `code`, the third of a
websocket `error(...)` and the undo rule's refusals — and finds each in both catalogues.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from spielwerk.core.undo import REFUSALS
from spielwerk.web.i18n import catalogue

WEB = Path(__file__).parents[2] / "spielwerk" / "web"
ERRORS = {"ClientError", "TableNotFound", "DatabaseDown", "TooManyTables"}


def sent_codes() -> set[str]:
    codes = {f"undo_{key}" for key in REFUSALS}
    for path in WEB.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", getattr(node.func, "attr", None))
                position = 1 if name in ERRORS else 2 if name in ("error", "_error") else None
                if position is not None and len(node.args) > position:
                    argument = node.args[position]
                    if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                        codes.add(argument.value)
            elif isinstance(node, ast.ClassDef) and node.name in ERRORS:
                for statement in node.body:
                    if (
                        isinstance(statement, ast.Assign)
                        and [getattr(t, "id", None) for t in statement.targets] == ["code"]
                        and isinstance(statement.value, ast.Constant)
                    ):
                        codes.add(str(statement.value.value))
    return codes


def test_the_server_names_its_refusals() -> None:
    codes = sent_codes()
    for expected in ("refused", "not_your_turn", "stale", "undo_hidden", "not_invited", "db_down"):
        assert expected in codes
    assert len(codes) > 20


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_refusal_has_words_in_both_languages(lang: str) -> None:
    words = catalogue(lang)
    assert sorted(code for code in sent_codes() if f"error.{code}" not in words) == []
