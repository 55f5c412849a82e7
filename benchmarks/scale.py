"""How memory and the pickled environment grow with project size, with and without the extension.

Each size is built once per variant (serial, clean): peak memory and the size of the
pickled environment are steady from run to run, unlike times, so one build says
enough. The report shows the memory ratio at each size and what each added page and
each added citation costs, so growth can be compared with the plain build's.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from benchmarks.generate import generate
from benchmarks.measure import sphinx

VARIANTS = (("plain", False), ("mlglossary", True))


def environment_bytes(out: Path) -> int:
    return (out / ".doctrees" / "environment.pickle").stat().st_size


def measure(workdir: Path, sizes: list[tuple[int, int]], terms: int, fmt: str) -> list[dict[str, float]]:
    """One row per (pages, citations per page): peak memory and environment size of each variant."""
    rows = []
    for pages, citations in sizes:
        row: dict[str, float] = {"pages": pages, "citations_per_page": citations}
        for name, extension in VARIANTS:
            src = generate(
                workdir / name / "src", pages=pages, citations=citations, terms=terms, fmt=fmt, extension=extension
            )
            out = workdir / name / "out"
            run = sphinx(src, out, "-E")
            row[f"{name}_maxrss_mib"] = run.maxrss_kib / 1024
            row[f"{name}_env_bytes"] = environment_bytes(out)
            row[f"{name}_seconds"] = run.seconds
        row["maxrss_ratio"] = row["mlglossary_maxrss_mib"] / row["plain_maxrss_mib"]
        row["extension_env_bytes_per_citation"] = (row["mlglossary_env_bytes"] - row["plain_env_bytes"]) / (
            pages * citations
        )
        rows.append(row)
    return rows


def growth(rows: list[dict[str, float]]) -> dict[str, float]:
    """Memory added per extra page between the smallest and the largest size, per variant (KiB)."""
    first, last = rows[0], rows[-1]
    pages = last["pages"] - first["pages"]
    if pages <= 0:
        return {}
    return {name: (last[f"{name}_maxrss_mib"] - first[f"{name}_maxrss_mib"]) * 1024 / pages for name, _ in VARIANTS}


def format_table(rows: list[dict[str, float]]) -> str:
    lines = [
        "| pages | citations/page | plain MiB | mlglossary MiB | ratio | plain env KiB | mlglossary env KiB "
        "| extension env bytes per citation |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        lines.append(
            f"| {row['pages']:.0f} | {row['citations_per_page']:.0f} | {row['plain_maxrss_mib']:.0f} "
            f"| {row['mlglossary_maxrss_mib']:.0f} | {row['maxrss_ratio']:.3f} | {row['plain_env_bytes'] / 1024:.0f} "
            f"| {row['mlglossary_env_bytes'] / 1024:.0f} | {row['extension_env_bytes_per_citation']:.1f} |"
        )
    return "\n".join(lines)


def _size(text: str) -> tuple[int, int]:
    pages, _, citations = text.partition("x")
    return int(pages), int(citations or 50)


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "sizes",
        nargs="*",
        type=_size,
        default=[(1000, 50), (5000, 50)],
        help="PAGESxCITATIONS, e.g. 1000x50 5000x50 (default)",
    )
    parser.add_argument("--terms", type=int, default=51)
    parser.add_argument("--format", choices=["md", "rst"], default="md")
    parser.add_argument("--json", type=Path, help="also write the report here")
    parser.add_argument("--workdir", type=Path, help="keep the projects here (default: a temporary folder)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        rows = measure(args.workdir or Path(tmp), args.sizes, args.terms, args.format)
    report: dict[str, object] = {"rows": rows, "memory_per_page_kib": growth(rows)}
    print(format_table(rows))
    for name, value in growth(rows).items():
        print(f"{name}: {value:.1f} KiB of peak memory per added page")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
