"""Measure the extension on a prepared real site: clean builds, variants interleaved.

Hosted documentation and CI start cold, so every build is clean: a fresh output folder
and no environment from an earlier build. Each repetition builds every variant in turn
(plain, mlglossary, autolink), serially and with ``-j 2``, each in its own
``sphinx-build`` process; CPU time counts the build and its worker processes. The
report gives medians and the median of the per-repetition ratios against plain.
"""

from __future__ import annotations

import shutil
import statistics
from pathlib import Path

from benchmarks.measure import output_size, sphinx
from benchmarks.site_prep import VARIANTS, Prepared

BASELINE = "plain"

#: measures whose ratio against plain is reported
RATIO_KEYS = (
    "serial_cpu_s",
    "serial_s",
    "parallel_cpu_s",
    "parallel_s",
    "maxrss_kib",
    "parallel_maxrss_kib",
    "output_bytes",
)


def output_folders(out: Path) -> int:
    """Folders holding at least one HTML page (what ``-j`` prepares cards for, per folder)."""
    return len({page.parent for page in out.rglob("*.html") if "_static" not in page.parts})


def _clean(out: Path) -> Path:
    shutil.rmtree(out, ignore_errors=True)
    return out


def measure_site(
    prepared: Prepared, workdir: Path, *, reps: int, warmup: int = 1, variants: tuple[str, ...] = tuple(VARIANTS)
) -> dict[str, object]:
    """Build ``variants`` of ``prepared`` ``reps`` times (after ``warmup`` dropped rounds)."""
    if BASELINE not in variants:
        raise ValueError(f"the variants measured must include {BASELINE!r}, the baseline")
    results: dict[str, dict[str, list[float]]] = {variant: {} for variant in variants}
    pages: dict[str, int] = {}
    folders: dict[str, int] = {}
    for rep in range(-warmup, reps):
        for variant in variants:
            src = prepared.variant(variant)
            # the plain build must be warning-free; the others' warnings are counted
            allow = variant != BASELINE
            serial_out = _clean(workdir / prepared.site / variant / "serial")
            serial = sphinx(src, serial_out, "-E", allow_warnings=allow)
            if rep < 0:
                continue  # a warm-up round builds each variant once, serially
            parallel = sphinx(
                src, _clean(workdir / prepared.site / variant / "j2"), "-E", "-j", "2", allow_warnings=allow
            )
            record = results[variant]
            for key, value in (
                ("serial_s", serial.seconds),
                ("serial_cpu_s", serial.cpu_seconds),
                ("parallel_s", parallel.seconds),
                ("parallel_cpu_s", parallel.cpu_seconds),
                ("maxrss_kib", serial.maxrss_kib),
                ("parallel_maxrss_kib", parallel.maxrss_kib),
                ("output_bytes", output_size(serial_out)),
                ("warnings", max(len(serial.warnings), len(parallel.warnings))),
            ):
                record.setdefault(key, []).append(value)
            pages[variant] = sum(1 for _ in serial_out.rglob("*.html"))
            folders[variant] = output_folders(serial_out)
    medians = {v: {k: statistics.median(values) for k, values in r.items()} for v, r in results.items()}
    ratios = {
        variant: {
            key: statistics.median(a / b for a, b in zip(results[variant][key], results[BASELINE][key], strict=True))
            for key in RATIO_KEYS
        }
        for variant in variants
        if variant != BASELINE
    }
    added_rss_mib = {
        variant: statistics.median(
            (a - b) / 1024 for a, b in zip(results[variant]["maxrss_kib"], results[BASELINE]["maxrss_kib"], strict=True)
        )
        for variant in ratios
    }
    return {
        "site": prepared.site,
        "commit": prepared.commit,
        "reps": reps,
        "warmup": warmup,
        "html_pages": pages,
        "output_folders": folders,
        "rounds": results,
        "medians": medians,
        "ratios": ratios,
        "added_rss_mib": added_rss_mib,
    }


def format_site_table(report: dict[str, object]) -> str:
    """A Markdown table: each measure's median per variant, and each variant's ratio to plain."""
    medians = report["medians"]
    ratios = report["ratios"]
    assert isinstance(medians, dict) and isinstance(ratios, dict)
    candidates = list(ratios)
    head = ["measure", BASELINE, *candidates, *(f"{c} / {BASELINE}" for c in candidates)]
    rows = ["| " + " | ".join(head) + " |", "| --- |" + " ---: |" * (len(head) - 1)]
    scale = {"maxrss_kib": 1 / 1024, "parallel_maxrss_kib": 1 / 1024, "output_bytes": 1 / 1e6}
    names = {
        "serial_cpu_s": "clean build, serial, CPU (s)",
        "serial_s": "clean build, serial, wall (s)",
        "parallel_cpu_s": "clean build, `-j 2`, CPU (s)",
        "parallel_s": "clean build, `-j 2`, wall (s)",
        "maxrss_kib": "peak RSS, serial (MiB)",
        "parallel_maxrss_kib": "peak RSS, `-j 2` (MiB)",
        "output_bytes": "output, HTML+JS+CSS (MB)",
        "warnings": "warnings",
    }
    for key in (*RATIO_KEYS, "warnings"):
        factor = scale.get(key, 1.0)
        digits = 0 if key == "warnings" else 2
        cells = [names[key]] + [f"{medians[v][key] * factor:.{digits}f}" for v in (BASELINE, *candidates)]
        cells += [f"{ratios[c][key]:.3f}" if key in ratios[c] else "" for c in candidates]
        rows.append("| " + " | ".join(cells) + " |")
    added = report["added_rss_mib"]
    assert isinstance(added, dict)
    rows.append(
        "| added peak RSS, serial (MiB) | | "
        + " | ".join(f"{added[c]:+.1f}" for c in candidates)
        + " |"
        + " |" * len(candidates)
    )
    return "\n".join(rows)
