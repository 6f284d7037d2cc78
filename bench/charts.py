"""Which renderer should draw the charts of issue 35: Vega-Lite (vl-convert-python) or
matplotlib's SVG backend, measured side by side on one chart of this repository.

The chart is the spec article's delay chart as it was drawn by hand on 2026-12-04 (that code is
gone: revision 4, articles/revised_2026_12_05_spec_chart.py, has the build draw it): two
panels, the delay before each retry and the time spent so far, for the literal, capped and
resolved schedules, with the ``maxDelay`` and budget lines. Its data is the fixture's
(``spec_chart_data()``), written here so the bench needs nothing else.

For each renderer, what issue 35 asks to compare:

* bytes: the same SVG twice in one process, and from two processes;
* time: a chart drawn in a new process (import included), and warm (median of 20);
* size: what installing it adds to a virtual environment (its package and dependencies);
* text: labels kept as ``<text>`` (the site's font, selectable, read by screen readers) or
  turned into paths;
* themes: whether a ``<style>`` in the page can recolour it for dark mode, i.e. whether its
  marks carry classes or ids a stylesheet can name.

Needs both candidates installed beside the project (neither is a dependency yet):

    pip install vl-convert-python matplotlib
    python bench/charts.py            # prints one JSON report

``python bench/charts.py --in-build 7`` measures instead what one chart adds to a build (vl-convert
only, as site_builder's ``charts`` extra installs it): a one-page site drawing this chart, against the
same site without it, each built from nothing seven times by turns.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

DATA = {
    "maxDelayMs": 5000,
    "budgetMs": 30000,
    "literalMs": [1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000, 512000],
    "cappedMs": [1000, 2000, 4000, 5000, 5000, 5000, 5000, 5000, 5000, 5000],
    "resolvedMs": [1000, 2000, 4000, 5000, 5000, 5000, 5000],
}
"""``spec_chart_data()`` of articles/revised_2026_12.py as of 2026-12-04 (the fields the chart
draws; the budget is the spec's ``BUDGET_MS``)."""

SCHEDULES = (("literal", "literalMs"), ("capped", "cappedMs"), ("resolved", "resolvedMs"))
WARM_RUNS = 20


def rows() -> list[dict[str, object]]:
    """The data as long-form rows: schedule, retry, delay and time so far (seconds)."""
    table: list[dict[str, object]] = []
    for name, key in SCHEDULES:
        total = 0
        for retry, delay in enumerate(DATA[key], start=1):  # type: ignore[arg-type]
            total += delay
            table.append({"schedule": name, "retry": retry, "delay": delay / 1000, "spent": total / 1000})
    return table


def vega_svg() -> str:
    """The chart as a Vega-Lite spec, drawn by vl-convert (Rust, no browser)."""
    import vl_convert

    spec = {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "data": {"values": rows()},
        "vconcat": [
            _vega_panel("Delay before each retry (s)", "delay", DATA["maxDelayMs"]),  # type: ignore[arg-type]
            _vega_panel("Time spent so far (s)", "spent", DATA["budgetMs"]),  # type: ignore[arg-type]
        ],
        "config": {"font": "system-ui, sans-serif"},
    }
    return str(vl_convert.vegalite_to_svg(vl_spec=spec))


def _vega_panel(title: str, field: str, limit_ms: int) -> dict[str, object]:
    """One panel: ``field`` by retry for each schedule (log scale), and the limit as a dashed rule."""
    line = {
        "mark": {"type": "line", "point": True},
        "encoding": {
            "x": {"field": "retry", "type": "ordinal", "title": "retry"},
            "y": {"field": field, "type": "quantitative", "scale": {"type": "log"}},
            "color": {"field": "schedule", "type": "nominal", "sort": [name for name, _ in SCHEDULES]},
        },
    }
    rule = {"mark": {"type": "rule", "strokeDash": [8, 4]}, "encoding": {"y": {"datum": limit_ms / 1000}}}
    return {"title": title, "width": 640, "height": 220, "layer": [line, rule]}


def matplotlib_svg() -> str:
    """The same chart with matplotlib's SVG backend, text kept as text and no date in it."""
    import io

    import matplotlib

    matplotlib.use("svg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.fonttype"] = "none"  # <text>, not glyph paths
    plt.rcParams["svg.hashsalt"] = "site-builder"  # ids that do not change from run to run
    plt.rcParams["font.family"] = "sans-serif"
    figure, (upper, lower) = plt.subplots(2, 1, figsize=(7.6, 6.7))
    for name, key in SCHEDULES:
        delays = [d / 1000 for d in DATA[key]]  # type: ignore[attr-defined]
        spent = [sum(delays[: i + 1]) for i in range(len(delays))]
        retries = list(range(1, len(delays) + 1))
        upper.plot(retries, delays, marker="o", label=name, gid=f"delay-{name}")
        lower.plot(retries, spent, marker="o", label=name, gid=f"spent-{name}")
    upper.axhline(DATA["maxDelayMs"] / 1000, linestyle="--", gid="max-delay")  # type: ignore[operator]
    lower.axhline(DATA["budgetMs"] / 1000, linestyle="--", gid="budget")  # type: ignore[operator]
    for axes, title in ((upper, "Delay before each retry (s)"), (lower, "Time spent so far (s)")):
        axes.set_yscale("log")
        axes.set_title(title)
        axes.set_xlabel("retry")
        axes.legend()
    out = io.StringIO()
    figure.savefig(out, format="svg", metadata={"Date": None})
    plt.close(figure)
    return out.getvalue()


RENDERERS = {"vega-lite": (vega_svg, ["vl-convert-python"]), "matplotlib": (matplotlib_svg, ["matplotlib"])}


def installed_bytes(distribution: str, seen: set[str] | None = None) -> int:
    """The size on disk of ``distribution`` and every distribution it requires (once each)."""
    seen = set() if seen is None else seen
    key = distribution.lower().replace("_", "-")
    if key in seen:
        return 0
    seen.add(key)
    try:
        dist = importlib.metadata.distribution(distribution)
    except importlib.metadata.PackageNotFoundError:
        return 0
    size = sum((Path(str(dist.locate_file(f)))).stat().st_size for f in dist.files or [] if _exists(dist, f))
    for requirement in dist.requires or []:
        if "extra ==" in requirement:
            continue
        name = re.split(r"[\s;<>=!~\[(]", requirement, maxsplit=1)[0]
        size += installed_bytes(name, seen)
    return size


def _exists(dist: importlib.metadata.Distribution, file: importlib.metadata.PackagePath) -> bool:
    return Path(str(dist.locate_file(file))).is_file()


def cold_seconds(name: str) -> tuple[float, str]:
    """One chart drawn in a new Python process, import included; and its SVG's hash."""
    code = f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import charts, hashlib; " + (
        f"svg = charts.RENDERERS[{name!r}][0](); print(hashlib.sha256(svg.encode()).hexdigest())"
    )
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return time.perf_counter() - started, done.stdout.strip()


def report(name: str) -> dict[str, object]:
    draw, distributions = RENDERERS[name]
    cold, other_process = cold_seconds(name)
    first = draw()
    times = []
    for _ in range(WARM_RUNS):
        started = time.perf_counter()
        again = draw()
        times.append(time.perf_counter() - started)
    digest = hashlib.sha256(first.encode()).hexdigest()
    return {
        "version": importlib.metadata.version(distributions[0]),
        "sameBytesInOneProcess": again == first,
        "sameBytesInTwoProcesses": other_process == digest,
        "coldSeconds": round(cold, 3),
        "warmMedianSeconds": round(statistics.median(times), 4),
        "svgBytes": len(first.encode()),
        "textElements": len(re.findall(r"<text\b", first)),
        "glyphPaths": len(re.findall(r"<path[^>]*\bid=\"[^\"]*glyph|<use[^>]*#glyph|DejaVuSans-", first)),
        "classedElements": len(re.findall(r"<\w+[^>]*\bclass=\"", first)),
        "idElements": len(re.findall(r"<\w+[^>]*\bid=\"", first)),
        "installedMegabytes": round(installed_bytes(distributions[0]) / 1e6, 1),
    }


SITE = """\
[tool.site_builder]
title = "Chart cost"
base_url = "https://example.org/"
min_body_chars = 20
min_sources = 0
"""
BATCH = """\
from site_builder import chart, fixture, paragraph, revision


@fixture
def delays() -> dict:
    return {"chart": ROWS, "checks": {"rows": len(ROWS) == 27}}


ROWS = __ROWS__
SPEC = __SPEC__

revisions = [revision(slug="delays", title="Delays", categories=["Bench"], excerpt="One chart.",
                      published="2026-12-05", sources=[],
                      body=[paragraph("The delays of three schedules, drawn."), __CHART__])]
"""
CHART = 'chart(delays, SPEC, alt="Three delay schedules", caption="Delays")'


def build_cost(runs: int) -> dict[str, object]:
    """One chart's cost in a build: a one-page site whose article draws the delay chart above,
    against the same site with a paragraph in the chart's place, each built from nothing
    (``--no-cache``, a new process) ``runs`` times, the two taking turns."""
    import tempfile

    spec = {key: value for key, value in json.loads(json.dumps(_spec())).items() if key != "data"}
    sites = {}
    for name, block in (("with a chart", CHART), ("without", 'paragraph("No chart here.")')):
        root = Path(tempfile.mkdtemp(prefix="chart-cost-"))
        (root / "articles").mkdir()
        (root / "pyproject.toml").write_text(SITE, "utf-8")
        text = (
            BATCH.replace("__ROWS__", repr(rows()))
            .replace("__SPEC__", repr(spec))
            .replace("__CHART__", block)
        )
        (root / "articles" / "delays.py").write_text(text, "utf-8")
        sites[name] = root
    seconds: dict[str, list[float]] = {name: [] for name in sites}
    for _ in range(runs):
        for name, root in sites.items():
            started = time.perf_counter()
            command = [sys.executable, "-m", "site_builder", "build", "--root", str(root), "--no-cache"]
            subprocess.run(command, check=True, capture_output=True)
            seconds[name].append(time.perf_counter() - started)
    medians = {name: statistics.median(values) for name, values in seconds.items()}
    return {
        "runs": {name: [round(v, 3) for v in values] for name, values in seconds.items()},
        "medianSeconds": {name: round(value, 3) for name, value in medians.items()},
        "oneChartSeconds": round(medians["with a chart"] - medians["without"], 3),
    }


def _spec() -> dict[str, object]:
    """The Vega-Lite spec :func:`vega_svg` draws, without drawing it."""
    return {
        "vconcat": [
            _vega_panel("Delay before each retry (s)", "delay", DATA["maxDelayMs"]),  # type: ignore[arg-type]
            _vega_panel("Time spent so far (s)", "spent", DATA["budgetMs"]),  # type: ignore[arg-type]
        ],
        "config": {"font": "system-ui, sans-serif"},
    }


def main() -> None:
    if sys.argv[1:2] == ["--in-build"]:
        print(json.dumps(build_cost(int(sys.argv[2]) if len(sys.argv) > 2 else 5), indent=2))
        return
    print(json.dumps({name: report(name) for name in RENDERERS}, indent=2))


if __name__ == "__main__":
    main()
