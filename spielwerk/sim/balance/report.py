"""What a balance run writes: plain-words findings, summary.json, CSV tables, PNG plots and one
self-contained report.html (plots embedded), answering the six questions in order."""

from __future__ import annotations

import csv
import html
import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from spielwerk.sim.balance.play import BalanceRow
from spielwerk.sim.report import html_table, image_tag, write_csv

TOP_COMPONENTS = 15


def pct(value: float) -> str:
    return "-" if value is None or math.isnan(value) else f"{100 * value:.0f}%"


def pct_interval(low: float, high: float) -> str:
    return f"[{100 * low:.0f}-{100 * high:.0f}]"


def points(value: float) -> str:
    """A win-rate difference in percentage points."""
    return f"{100 * value:+.1f} points"


def _rate_text(entry: Mapping[str, Any]) -> str:
    return f"{pct(entry['win_rate'])} {pct_interval(entry['low'], entry['high'])}"


# ---------------------------------------------------------------------- findings in words
def statements(report: Mapping[str, Any]) -> list[str]:
    """The findings a designer reads first, one sentence each."""
    lines: list[str] = []
    players = report["players"]
    coop = report["cooperative"]
    field = report.get("field") or {}
    summary = field.get("summary") or {}
    if summary.get("games"):
        if coop:
            team = summary["agents"][0]
            lines.append(
                f"A party of {players} heuristic players wins {_rate_text(team)} of "
                f"{summary['games']} games."
            )
        else:
            lines.extend(_seat_statements(summary, players, field))
    for count, other in sorted((report.get("seats") or {}).items(), key=lambda kv: int(kv[0])):
        if not other.get("games"):
            continue
        if coop:
            lines.append(f"With {count} players the party wins {_rate_text(other['agents'][0])}.")
        else:
            first = other["first_player"]
            if first:
                lines.append(
                    f"With {count} players the first player wins {_rate_text(first)}; "
                    f"fair is {pct(first['fair'])}."
                )
    lines.extend(_ladder_statements(report.get("ladder") or {}, players, coop))
    lines.extend(_component_statements(field, report.get("restricted") or {}))
    lines.extend(_strategy_statements(report.get("strategies") or {}, report.get("ladder") or {}))
    lines.extend(_drama_statements(summary, field.get("drama"), coop))
    lines.extend(_tune_statements(report.get("tune") or {}))
    return lines


def _seat_statements(
    summary: Mapping[str, Any], players: int, field: Mapping[str, Any]
) -> list[str]:
    lines = []
    fair = 1.0 / players
    seats = summary["seats"]
    first = summary["first_player"]
    if first:
        verdict = (
            "a measurable first-player advantage"
            if first["low"] > fair
            else "a measurable first-player handicap"
            if first["high"] < fair
            else "no measurable first-player advantage"
        )
        lines.append(
            f"Seat 0 (the first player) wins {_rate_text(first)} of {players}-player games "
            f"between equal heuristic players; fair is {pct(fair)}: {verdict} "
            f"({points(first['advantage'])}, p = {first['p_value']:.2g})."
        )
    worst = max(seats, key=lambda s: abs(s["win_rate"] - fair))
    if worst["seat"] != 0:
        lines.append(
            f"Seat {worst['seat']} wins {_rate_text(worst)} of {players}-player games; "
            f"fair is {pct(fair)}."
        )
    effect = summary.get("seat_effect")
    if effect:
        lines.append(
            f"Seat effect on wins: chi-square {effect['chi2']:.1f}, p = {effect['p_value']:.2g}."
        )
    for bonus in field.get("compensation") or []:
        if bonus["seat"] == worst["seat"] and (bonus["low"] > 0 or bonus["high"] < 0):
            word = "bonus" if bonus["bonus"] > 0 else "penalty"
            lines.append(
                f"Compensation: a {word} of {abs(bonus['bonus']):.1f} points "
                f"[{bonus['low']:+.1f} to {bonus['high']:+.1f}] for seat {bonus['seat']} "
                f"would make its win rate fair (scores as the games were played)."
            )
    return lines


def _ladder_statements(ladder: Mapping[str, Any], players: int, coop: bool) -> list[str]:
    rungs = [r for r in ladder.get("rungs", []) if r.get("agent")]
    if not rungs:
        return []
    fair = 1.0 if coop else 1.0 / players
    lines = []
    against = "as a party" if coop else f"in one seat against {players - 1} heuristic players"
    for rung in rungs:
        agent = rung["agent"]
        if rung["spec"] == "random":
            if coop:
                lines.append(f"A random party wins {_rate_text(agent)}.")
            else:
                lines.append(
                    f"Luck: a random player still wins {_rate_text(agent)} {against} "
                    f"(fair {pct(fair)})."
                )
    searches = [r for r in rungs if r["spec"] != "random"]
    if not searches:
        lines.append("Skill: no search rung finished a game within the budget.")
        return lines
    best = max(searches, key=lambda r: r["agent"]["win_rate"])
    agent = best["agent"]
    if coop:
        lines.append(f"Skill: the best rung, {best['spec']}, wins {_rate_text(agent)} as a party.")
        return lines
    decides = agent["low"] > fair
    lines.append(
        f"Skill: {best['spec']} wins {_rate_text(agent)} {against} (fair {pct(fair)}); "
        + (
            f"skill decides, yet the weaker seats still win {pct(1 - agent['win_rate'])} "
            "of those games."
            if decides
            else "no rung beats the heuristic field measurably at this budget."
        )
    )
    return lines


def _component_statements(field: Mapping[str, Any], restricted: Mapping[str, Any]) -> list[str]:
    effects = field.get("components") or []
    lines = []
    significant = [e for e in effects if e.get("significant")]
    if effects:
        top = effects[0]
        lines.append(
            f"Strongest component: {top['label']}: {points(top['effect'])} of win rate per "
            f"unit [{100 * top['low']:+.1f} to {100 * top['high']:+.1f}] (Holm p = "
            f"{top['p_holm']:.2g}); {len(significant)} of {len(effects)} components are "
            "significant after correcting for multiple comparisons."
        )
        bottom = effects[-1]
        if bottom["effect"] < 0:
            lines.append(
                f"Weakest component: {bottom['label']}: {points(bottom['effect'])} "
                f"[{100 * bottom['low']:+.1f} to {100 * bottom['high']:+.1f}] (Holm p = "
                f"{bottom['p_holm']:.2g})."
            )
    entries = [e for e in restricted.get("restricted", []) if e.get("versus_field")]
    if entries:
        worst = min(entries, key=lambda e: e["versus_field"]["difference"])
        measured = [e for e in entries if e["versus_field"]["high"] < 0]
        if measured:
            worst = min(measured, key=lambda e: e["versus_field"]["difference"])
        diff = worst["versus_field"]
        item = worst["spec"].partition(":")[2]
        lead = (
            f"Restricted play: forbidden {item}, the heuristic wins"
            if measured
            else "Restricted play: no forbidden component changed the win rate measurably; "
            f"forbidden {item}, the heuristic wins"
        )
        lines.append(
            f"{lead} {points(diff['difference'])} [{100 * diff['low']:+.1f} to "
            f"{100 * diff['high']:+.1f}] against the field's result on the same deals "
            f"({worst['games']} games)."
        )
    return lines


def _strategy_statements(strategies: Mapping[str, Any], ladder: Mapping[str, Any]) -> list[str]:
    entries = [e for e in strategies.get("strategies", []) if e.get("agent")]
    lines = []
    if entries:
        beating = [e for e in entries if e["agent"]["low"] > e["fair"]]
        if beating:
            for entry in beating:
                lines.append(
                    f"Dominant strategy: {entry['spec']} wins {_rate_text(entry['agent'])} "
                    f"against the heuristic field (fair {pct(entry['fair'])})."
                )
        else:
            best = max(entries, key=lambda e: e["agent"]["win_rate"])
            lines.append(
                f"No simple strategy beats the heuristic field; the best, {best['spec']}, "
                f"wins {_rate_text(best['agent'])} (fair {pct(best['fair'])})."
            )
    for spec, agreed in (ladder.get("agreement") or {}).items():
        if agreed["decisions"] >= 20 and agreed["agreed"] == agreed["decisions"]:
            lines.append(
                f"The best search ({ladder.get('top')}) never deviated from {spec} in "
                f"{agreed['decisions']} decisions where its rule applied."
            )
    return lines


def _drama_statements(
    summary: Mapping[str, Any], drama: Mapping[str, Any] | None, coop: bool
) -> list[str]:
    if not summary.get("games"):
        return []
    length = summary["length"]["decisions"]
    q = length["quantiles"]
    text = (
        f"Length: games last {q['median']:.0f} decisions (median; middle half "
        f"{q['q1']:.0f}-{q['q3']:.0f})"
    )
    if drama and not coop and drama["games_with_leader_at_two_thirds"]:
        changes = drama["lead_changes"]
        text += (
            f"; the lead changes {changes['mean']:.1f} times a game, and the leader after two "
            f"thirds of the game wins {pct(drama['leader_at_two_thirds_wins'])} "
            f"{pct_interval(drama['leader_low'], drama['leader_high'])}"
        )
    return [text + "."]


def _tune_statements(tune: Mapping[str, Any]) -> list[str]:
    lines = []
    for search in tune.get("searches", []):
        best = next((v for v in search["values"] if v["value"] == search["best"]), None)
        if best is None or best["metric"] is None:
            continue
        value, low, high = best["metric"]
        how = (
            "meets it with confidence"
            if best["confident"]
            else "meets it by its estimate"
            if best["meets"]
            else "comes closest (none meets it)"
        )
        lines.append(
            f"Rule variant for {tune['target']}: {search['key']}={best['value']} {how} "
            f"({value:.3g} [{low:.3g}-{high:.3g}] over {best['games']} games; the default is "
            f"{search['default']})."
        )
    return lines


# ---------------------------------------------------------------------- files
def write_report(out: Path, report: Mapping[str, Any], rows: Sequence[BalanceRow]) -> list[Path]:
    """Write summary.json, the CSV tables, the plots and report.html into `out`."""
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "summary.json"]
    written[0].write_text(json.dumps(report, indent=1, default=str) + "\n", encoding="utf-8")
    games_csv = out / "games.csv"
    write_csv(games_csv, rows)
    written.append(games_csv)
    written += _write_tables(out, report)
    plots = _plots(out, report)
    written += plots
    html_path = out / "report.html"
    html_path.write_text(_html(report, plots), encoding="utf-8")
    written.append(html_path)
    return written


def _lineup_rows(report: Mapping[str, Any]) -> list[list[Any]]:
    found = []
    for stage, key in (
        ("ladder", "rungs"),
        ("strategies", "strategies"),
        ("restricted", "restricted"),
    ):
        for entry in (report.get(stage) or {}).get(key, []):
            agent, diff = entry.get("agent"), entry.get("versus_field")
            found.append(
                [
                    stage,
                    entry["spec"],
                    entry["games"],
                    _f(agent and agent["win_rate"]),
                    _f(agent and agent["low"]),
                    _f(agent and agent["high"]),
                    _f(entry["fair"]),
                    _f(diff and diff["difference"]),
                    _f(diff and diff["low"]),
                    _f(diff and diff["high"]),
                ]
            )
    return found


def _f(value: Any) -> str:
    return "" if value is None else f"{value:.4f}"


def _write_tables(out: Path, report: Mapping[str, Any]) -> list[Path]:
    tables: dict[str, tuple[Sequence[str], list[list[Any]]]] = {}
    effects = (report.get("field") or {}).get("components") or []
    columns = (
        "key",
        "kind",
        "label",
        "effect",
        "low",
        "high",
        "p_value",
        "p_holm",
        "q_bh",
        "significant",
        "exposed_share",
        "mean_exposure",
        "win_with",
        "win_without",
    )
    tables["components.csv"] = (columns, [[e.get(c) for c in columns] for e in effects])
    tables["lineups.csv"] = (
        (
            "stage",
            "spec",
            "games",
            "win_rate",
            "low",
            "high",
            "fair",
            "versus_field",
            "vf_low",
            "vf_high",
        ),
        _lineup_rows(report),
    )
    seat_rows = []
    for players, summary in _all_counts(report):
        for seat in summary["seats"]:
            seat_rows.append(
                [
                    players,
                    seat["seat"],
                    seat["games"],
                    _f(seat["win_rate"]),
                    _f(seat["low"]),
                    _f(seat["high"]),
                    _f(seat["score"]["mean"]),
                ]
            )
    tables["seats.csv"] = (
        ("players", "seat", "games", "win_rate", "low", "high", "mean_score"),
        seat_rows,
    )
    tune_rows = []
    for search in (report.get("tune") or {}).get("searches", []):
        for value in search["values"]:
            metric = value["metric"] or [None, None, None]
            tune_rows.append(
                [
                    search["key"],
                    value["value"],
                    value["games"],
                    *(_f(m) for m in metric),
                    value["meets"],
                    value["confident"],
                ]
            )
    tables["tune.csv"] = (
        ("option", "value", "games", "metric", "low", "high", "meets", "confident"),
        tune_rows,
    )
    written = []
    for name, (header, body) in tables.items():
        path = out / name
        with path.open("w", newline="", encoding="utf-8") as file:
            writer = csv.writer(file)
            writer.writerow(header)
            writer.writerows(body)
        written.append(path)
    return written


def _all_counts(report: Mapping[str, Any]) -> list[tuple[int, Mapping[str, Any]]]:
    counts = []
    summary = (report.get("field") or {}).get("summary") or {}
    if summary.get("games"):
        counts.append((report["players"], summary))
    for count, other in (report.get("seats") or {}).items():
        if other.get("games"):
            counts.append((int(count), other))
    return sorted(counts, key=lambda c: c[0])


# ---------------------------------------------------------------------- plots
def _errorbars(
    axes: Any, labels: Sequence[str], entries: Sequence[tuple[float, float, float]]
) -> None:
    positions = list(range(len(labels)))
    values = [e[0] for e in entries]
    errors = [[max(0.0, e[0] - e[1]) for e in entries], [max(0.0, e[2] - e[0]) for e in entries]]
    axes.errorbar(values, positions, xerr=errors, fmt="o", capsize=3)
    axes.set_yticks(positions, labels)
    axes.invert_yaxis()


def _plots(out: Path, report: Mapping[str, Any]) -> list[Path]:
    plots = []
    effects = (report.get("field") or {}).get("components") or []
    if effects:
        shown = effects[:TOP_COMPONENTS] + [
            e for e in effects[-5:] if e not in effects[:TOP_COMPONENTS]
        ]
        figure = Figure(figsize=(8, 0.32 * len(shown) + 1.2))
        axes = figure.add_subplot(1, 1, 1)
        _errorbars(
            axes, [e["label"] for e in shown], [(e["effect"], e["low"], e["high"]) for e in shown]
        )
        axes.axvline(0, color="grey", linestyle="--")
        axes.set_xlabel("effect on win rate (per unit of exposure), 95% interval")
        axes.set_title("Component strength (strongest and weakest)")
        plots.append(_save(figure, out / "components.png"))
    entries = [
        (stage, e)
        for stage, key in (
            ("ladder", "rungs"),
            ("strategies", "strategies"),
            ("restricted", "restricted"),
        )
        for e in (report.get(stage) or {}).get(key, [])
        if e.get("agent")
    ]
    if entries:
        figure = Figure(figsize=(8, 0.32 * len(entries) + 1.2))
        axes = figure.add_subplot(1, 1, 1)
        _errorbars(
            axes,
            [f"{stage}: {e['spec']}" for stage, e in entries],
            [(e["agent"]["win_rate"], e["agent"]["low"], e["agent"]["high"]) for _, e in entries],
        )
        axes.axvline(entries[0][1]["fair"], color="grey", linestyle="--", label="fair share")
        axes.set_xlabel("win rate against the heuristic field, 95% interval")
        axes.set_title("Skill ladder, simple strategies and restricted play")
        axes.legend(loc="lower right")
        plots.append(_save(figure, out / "lineups.png"))
    counts = _all_counts(report)
    if counts and not report["cooperative"]:
        figure = Figure(figsize=(8, 3.6))
        axes = figure.add_subplot(1, 1, 1)
        for players, summary in counts:
            seats = summary["seats"]
            axes.errorbar(
                [s["seat"] + 0.08 * (players - 4) for s in seats],
                [s["win_rate"] for s in seats],
                yerr=[
                    [max(0.0, s["win_rate"] - s["low"]) for s in seats],
                    [max(0.0, s["high"] - s["win_rate"]) for s in seats],
                ],
                fmt="o-",
                capsize=3,
                label=f"{players} players (fair {1 / players:.2f})",
            )
        axes.set_xlabel("seat (0 moves first)")
        axes.set_ylabel("win rate")
        axes.set_title("Seat edge by player count, equal heuristic players")
        axes.legend(fontsize="small")
        plots.append(_save(figure, out / "seats.png"))
    lengths = (report.get("field") or {}).get("lengths") or []
    if lengths:
        figure = Figure(figsize=(8, 3.2))
        axes = figure.add_subplot(1, 1, 1)
        axes.hist(lengths, bins=min(30, max(5, len(set(lengths)))))
        axes.set_xlabel("decisions per game")
        axes.set_ylabel("games")
        axes.set_title("Game length, equal heuristic players")
        plots.append(_save(figure, out / "length.png"))
    searches = [s for s in (report.get("tune") or {}).get("searches", []) if s["values"]]
    for search in searches:
        measured = [v for v in search["values"] if v["metric"] is not None]
        if not measured:
            continue
        figure = Figure(figsize=(8, 3.2))
        axes = figure.add_subplot(1, 1, 1)
        labels = [v["value"] for v in measured]
        axes.errorbar(
            range(len(labels)),
            [v["metric"][0] for v in measured],
            yerr=[
                [max(0.0, v["metric"][0] - v["metric"][1]) for v in measured],
                [max(0.0, v["metric"][2] - v["metric"][0]) for v in measured],
            ],
            fmt="o",
            capsize=3,
        )
        axes.set_xticks(range(len(labels)), labels)
        axes.set_xlabel(search["key"])
        axes.set_title(f"Rule-variant search: target {report['tune']['target']}")
        plots.append(_save(figure, out / f"tune-{search['key']}.png"))
    return plots


def _save(figure: Figure, path: Path) -> Path:
    figure.tight_layout()
    figure.savefig(path, dpi=90)
    return path


# ---------------------------------------------------------------------- html
def _html(report: Mapping[str, Any], plots: Sequence[Path]) -> str:
    run = report["run"]
    e = html.escape
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>spielwerk balance: {e(report['game'])}</title>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        "<style>body{font-family:sans-serif;max-width:64em;margin:auto;padding:1em}"
        "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;"
        "padding:.2em .6em;text-align:right}td:first-child{text-align:left}"
        "img{max-width:100%}li{margin:.3em 0}</style></head><body>",
        f"<h1>Balance report: {e(report['title'])}, {report['players']} players</h1>",
        f"<p><code>{e(run['command'])}</code><br>{e(run['machine'])}; started {e(run['started'])}, "
        f"{run['elapsed_seconds']:.0f} s of a {run['budget_seconds']:.0f} s budget; "
        f"load average {e(run['load_before'])} before, {e(run['load_after'])} after; "
        f"{run['games']} games.</p>",
    ]
    if not report["complete"]:
        parts.append(f"<p><strong>{e(report['incomplete_reason'])}</strong></p>")
    parts.append("<h2>Findings</h2><ul>")
    parts.extend(f"<li>{e(line)}</li>" for line in report["statements"])
    parts.append("</ul>")
    parts.append(_section_ladder(report))
    parts.append(_section_seats(report))
    parts.append(_section_components(report))
    parts.append(_section_strategies(report))
    parts.append(_section_drama(report))
    parts.append(_section_tune(report))
    parts.append("<h2>Plots</h2>")
    parts.extend(image_tag(plot) for plot in plots)
    parts.append(
        "<h2>Method</h2><p>See docs/analysis.md: duplicate deals with seat rotation; Wilson "
        "intervals at the effective number of games; component effects by least squares "
        "within each game with seat controls, deal-clustered errors, Holm and "
        "Benjamini-Hochberg corrections; line-ups compared with the field on the same deals "
        "and seats.</p></body></html>"
    )
    return "\n".join(parts)


def _difference_text(diff: Mapping[str, Any]) -> str:
    low, high = 100 * diff["low"], 100 * diff["high"]
    return f"{points(diff['difference'])} [{low:+.1f} to {high:+.1f}]"


def _lineup_table(entries: Sequence[Mapping[str, Any]]) -> str:
    body = []
    for entry in entries:
        agent, diff = entry.get("agent"), entry.get("versus_field")
        body.append(
            [
                entry["spec"],
                str(entry["games"]),
                _rate_text(agent) if agent else "-",
                pct(entry["fair"]),
                _difference_text(diff) if diff else "-",
            ]
        )
    return html_table(
        ("line-up entry 0", "games", "win rate [95%]", "fair", "against the field, same deals"),
        body,
    )


def _section_ladder(report: Mapping[str, Any]) -> str:
    ladder = report.get("ladder") or {}
    parts = ["<h2>1. Skill ladder</h2>"]
    if not ladder.get("rungs"):
        return parts[0] + "<p>Not run (no time left).</p>"
    parts.append(
        "<p>Each rung plays one seat against heuristic players (a cooperative game: the whole "
        "party), on the field's deals.</p>"
    )
    parts.append(_lineup_table(ladder["rungs"]))
    agreement = ladder.get("agreement") or {}
    if agreement:
        body = [
            [spec, str(a["decisions"]), f"{pct(a['share'])} {pct_interval(a['low'], a['high'])}"]
            for spec, a in agreement.items()
        ]
        parts.append(
            f"<p>How often the best rung ({html.escape(str(ladder['top']))}) chose as each "
            "simple strategy's rule would, where the rule applied:</p>"
        )
        parts.append(html_table(("strategy", "decisions", "agreed"), body))
    return "\n".join(parts)


def _section_seats(report: Mapping[str, Any]) -> str:
    parts = ["<h2>2. First-player and seat edge</h2>"]
    for players, summary in _all_counts(report):
        rows = [
            [str(s["seat"]), str(s["games"]), _rate_text(s), f"{s['score']['mean']:.1f}"]
            for s in summary["seats"]
        ]
        parts.append(f"<h3>{players} players</h3>")
        parts.append(html_table(("seat", "games", "win rate [95%]", "mean score"), rows))
    compensation = (report.get("field") or {}).get("compensation") or []
    if compensation:
        parts.append(
            f"<p>Compensation at {report['players']} players: the score bonus that alone "
            "would bring each seat to the fair share (scores as the games were played; "
            "bootstrap interval over deals):</p>"
        )
        parts.append(
            html_table(
                ("seat", "bonus", "95% interval"),
                [
                    [str(c["seat"]), f"{c['bonus']:+.1f}", f"{c['low']:+.1f} to {c['high']:+.1f}"]
                    for c in compensation
                ],
            )
        )
    return "\n".join(parts)


def _section_components(report: Mapping[str, Any]) -> str:
    field = report.get("field") or {}
    effects = field.get("components") or []
    parts = ["<h2>3. Component strength</h2>"]
    if not effects:
        return parts[0] + "<p>Not enough games.</p>"
    parts.append(
        "<p>Win-rate effect per unit of exposure within each game, controlling for the seat; "
        "deal-clustered 95% intervals; Holm-adjusted p-values (family-wise) and BH q-values "
        f"over all {len(effects)} components; * significant after Holm.</p>"
    )
    shown = effects[:TOP_COMPONENTS] + [
        x for x in effects[-5:] if x not in effects[:TOP_COMPONENTS]
    ]
    parts.append(
        html_table(
            ("component", "effect [95%]", "Holm p", "BH q", "exposed", "win with / without"),
            [
                [
                    x["label"] + (" *" if x["significant"] else ""),
                    f"{100 * x['effect']:+.1f} [{100 * x['low']:+.1f} to {100 * x['high']:+.1f}]",
                    f"{x['p_holm']:.2g}",
                    f"{x['q_bh']:.2g}",
                    pct(x["exposed_share"]),
                    f"{pct(x['win_with'])} / {pct(x['win_without'])}",
                ]
                for x in shown
            ],
        )
    )
    parts.append("<p>All components: components.csv.</p>")
    restricted = (report.get("restricted") or {}).get("restricted") or []
    if restricted:
        parts.append(
            "<h3>Restricted play</h3><p>The heuristic forbidden one component (it never "
            "uses it while it has another choice) against heuristic players:</p>"
        )
        parts.append(_lineup_table(restricted))
    return "\n".join(parts)


def _section_strategies(report: Mapping[str, Any]) -> str:
    entries = (report.get("strategies") or {}).get("strategies") or []
    parts = ["<h2>4. Dominant strategies</h2>"]
    if not entries:
        return parts[0] + "<p>Not run.</p>"
    parts.append(
        "<p>Each simple strategy is the heuristic with one fixed rule, in one seat "
        "against heuristic players; it dominates if its interval lies above the fair "
        "share.</p>"
    )
    parts.append(_lineup_table(entries))
    return "\n".join(parts)


def _section_drama(report: Mapping[str, Any]) -> str:
    field = report.get("field") or {}
    summary = field.get("summary") or {}
    parts = ["<h2>5. Length and drama</h2>"]
    if not summary.get("games"):
        return parts[0] + "<p>Not enough games.</p>"
    length = summary["length"]["decisions"]
    q = length["quantiles"]
    parts.append(
        html_table(
            ("decisions per game", "mean [95%]", "min", "q1", "median", "q3", "max"),
            [
                [
                    "",
                    f"{length['mean']:.1f} [{length['low']:.1f}-{length['high']:.1f}]",
                    *(f"{q[k]:.0f}" for k in ("min", "q1", "median", "q3", "max")),
                ]
            ],
        )
    )
    drama = field.get("drama")
    if drama and not report["cooperative"]:
        parts.append(
            f"<p>Lead changes per game: {drama['lead_changes']['mean']:.2f} "
            f"[{drama['lead_changes']['low']:.2f}-{drama['lead_changes']['high']:.2f}] "
            f"(distribution {html.escape(json.dumps(drama['lead_changes_hist']))}). The sole "
            f"leader after two thirds of the decisions wins "
            f"{pct(drama['leader_at_two_thirds_wins'])} "
            f"{pct_interval(drama['leader_low'], drama['leader_high'])} of "
            f"{drama['games_with_leader_at_two_thirds']} games that had one.</p>"
        )
    return "\n".join(parts)


def _section_tune(report: Mapping[str, Any]) -> str:
    tune = report.get("tune") or {}
    parts = ["<h2>6. Rule-variant search</h2>"]
    searches = tune.get("searches") or []
    if not searches:
        return parts[0] + "<p>No option to tune (give --tune key=lo..hi).</p>"
    parts.append(f"<p>Target: <code>{html.escape(tune['target'])}</code>.</p>")
    for search in searches:
        parts.append(
            f"<h3>{html.escape(search['key'])} (default {html.escape(search['default'])}; "
            f"best {html.escape(str(search['best']))})</h3>"
        )
        parts.append(
            html_table(
                ("value", "games", "metric [95%]", "meets", "with confidence"),
                [
                    [
                        v["value"],
                        str(v["games"]),
                        "-"
                        if v["metric"] is None
                        else f"{v['metric'][0]:.3g} [{v['metric'][1]:.3g}-{v['metric'][2]:.3g}]",
                        "yes" if v["meets"] else "no",
                        "yes" if v["confident"] else "no",
                    ]
                    for v in search["values"]
                ],
            )
        )
    return "\n".join(parts)
