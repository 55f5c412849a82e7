"""Build the synthetic project with and without the extension, alternately, and compare.

Each measurement is a fresh ``sphinx-build`` process. Pairs run A B A B ... after one
warm-up pair, and the report gives medians and the median of per-pair ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.generate import generate
from benchmarks.measure import output_size, package_folder, sphinx
from benchmarks.page_cost import enlarged_package
from benchmarks.site_bench import format_site_table, measure_site
from benchmarks.site_prep import BUILD_ROOT, load
from benchmarks.sites import SITES

#: the checkout whose package a run measures (or enlarges: ``--entries``)
PROJECT_ROOT = Path(__file__).resolve().parent.parent


def pages_written_since(out: Path, moment: float) -> int:
    """Content pages an incremental build wrote (index and search pages are always rewritten)."""
    always = {"genindex.html", "search.html", "py-modindex.html"}
    return sum(1 for p in out.rglob("*.html") if p.name not in always and p.stat().st_mtime >= moment)


def extension_bytes_per_page(out: Path) -> float:
    """CSS + JS of the extension, the site's card file (loaded once per visit) and any per-page card block, averaged."""
    pages = [p for p in out.glob("page*.html")]
    static = sum(
        (out / "_static" / name).stat().st_size
        for name in ("mlglossary.js", "mlglossary.css", "mlglossary-cards.js")
        if (out / "_static" / name).exists()
    )
    cards = 0
    for page in pages:
        cards += _card_block_bytes(page.read_text(encoding="utf-8"))
    return static + cards / max(1, len(pages))


def _card_block_bytes(html: str) -> int:
    """Size of the page's hidden block of tooltip cards (0 when it has none)."""
    start = html.find('<div class="mlglossary-cards')
    if start < 0:
        return 0
    depth, position = 0, start
    while True:
        opening = html.find("<div", position)
        closing = html.find("</div>", position)
        if closing < 0:
            return len(html) - start
        if 0 <= opening < closing:
            depth, position = depth + 1, opening + 4
        else:
            depth, position = depth - 1, closing + 6
            if depth == 0:
                return position - start


#: what each comparison builds: baseline first, then the variant measured against it
COMPARISONS = {
    "extension": (("plain", False, "off"), ("mlglossary", True, "off")),
    "autolink": (("autolink-off", True, "off"), ("autolink-first", True, "first")),
}


def measure(
    workdir: Path,
    *,
    pages: int,
    citations: int,
    terms: int,
    fmt: str,
    pairs: int,
    compare: str = "extension",
    warmup: int = 1,
) -> dict[str, object]:
    variants = {}
    for name, extension, autolink in COMPARISONS[compare]:
        variants[name] = generate(
            workdir / name / "src",
            pages=pages,
            citations=citations,
            terms=terms,
            fmt=fmt,
            extension=extension,
            autolink=autolink,
        )
    baseline, candidate = list(variants)
    results: dict[str, dict[str, list[float]]] = {v: {} for v in variants}

    def record(variant: str, key: str, value: float) -> None:
        results[variant].setdefault(key, []).append(value)

    for pair in range(1 - warmup, pairs + 1):  # pairs below 1 warm caches up and are dropped
        for variant, src in variants.items():
            out = workdir / variant / "out"
            serial = sphinx(src, out, "-E")
            if pair < 1:
                continue  # a warm-up pair builds each variant once, serially
            parallel = sphinx(src, workdir / variant / "out-j2", "-E", "-j", "2")
            page = src / f"page{pages // 2:04d}.{fmt}"
            page.write_text(page.read_text() + f"\nEdited in pair {pair}.\n")
            before = time.time()
            incremental = sphinx(src, out)
            record(variant, "incremental_pages_written", pages_written_since(out, before))
            record(variant, "serial_s", serial.seconds)
            record(variant, "serial_cpu_s", serial.cpu_seconds)
            record(variant, "parallel_s", parallel.seconds)
            record(variant, "parallel_cpu_s", parallel.cpu_seconds)
            record(variant, "incremental_s", incremental.seconds)
            record(variant, "incremental_cpu_s", incremental.cpu_seconds)
            record(variant, "maxrss_kib", serial.maxrss_kib)
            record(variant, "output_bytes", output_size(out))
    report: dict[str, object] = {
        "compare": compare,
        "baseline": baseline,
        "candidate": candidate,
        "pages": pages,
        "citations_per_page": citations,
        "terms": terms,
        "format": fmt,
        "pairs": pairs,
        "warmup_pairs": warmup,
        "rounds": results,  # every pair's values, to say which targets hold in each
        "medians": {v: {k: statistics.median(vals) for k, vals in r.items()} for v, r in results.items()},
        "ratios": {
            key: statistics.median(a / b for a, b in zip(results[candidate][key], results[baseline][key], strict=True))
            for key in results[baseline]
        },
        "extension_bytes_per_page": extension_bytes_per_page(workdir / candidate / "out"),
    }
    return report


def format_table(report: dict[str, object]) -> str:
    medians = report["medians"]
    ratios = report["ratios"]
    assert isinstance(medians, dict) and isinstance(ratios, dict)
    baseline, candidate = report["baseline"], report["candidate"]
    rows = [f"| measure | {baseline} | {candidate} | ratio |", "| --- | ---: | ---: | ---: |"]
    for key in ratios:
        rows.append(f"| {key} | {medians[baseline][key]:.2f} | {medians[candidate][key]:.2f} | {ratios[key]:.3f} |")
    rows.append(f"| extension bytes per page | | {report['extension_bytes_per_page']:.0f} | |")
    return "\n".join(rows)


def measure_sites(
    names: list[str], workdir: Path, *, reps: int, warmup: int, build_root: Path
) -> tuple[dict[str, object], dict[str, str]]:
    """Measure each prepared site; say why each other one is skipped."""
    reports: dict[str, object] = {}
    skipped: dict[str, str] = {}
    for name in names:
        prepared = load(name, build_root)
        if prepared is None:
            skipped[name] = f"not prepared: python -m benchmarks.sites prepare {name} --git-dir DIR"
        elif prepared.commit != SITES[name].commit:
            skipped[name] = f"prepared at {prepared.commit}, pinned at {SITES[name].commit}: prepare it again"
        else:
            report = measure_site(prepared, workdir / "sites", reps=reps, warmup=warmup)
            print(f"\n{name} @ {prepared.commit[:12]}: {reps} reps after {warmup} warm-up, clean builds")
            print(format_site_table(report))
            reports[name] = report
    for name, reason in skipped.items():
        print(f"\n{name}: skipped, {reason}")
    return reports, skipped


def use_enlarged_glossary(folder: Path, entries: int, languages: Sequence[str] = ()) -> Path:
    """Make every build of this run import a copy of the package whose glossaries hold
    ``entries`` entries (``benchmarks.page_cost.enlarged_package``), and check that they do."""
    root = enlarged_package(folder, PROJECT_ROOT, entries, languages)
    inherited = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join([str(root), *([inherited] if inherited else [])])
    imported = package_folder(os.environ["PYTHONPATH"])
    if not imported.is_relative_to(root.resolve()):
        raise SystemExit(f"the builds would import {imported}, not the enlarged copy under {root}")
    print(f"glossary: a copy of the package with {entries} entries a language, in {root}")
    return root


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, default=50)
    parser.add_argument("--citations", type=int, default=40)
    parser.add_argument("--terms", type=int, default=51)
    parser.add_argument("--format", choices=["md", "rst"], default="md")
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=1, help="pairs run first and dropped")
    parser.add_argument("--json", type=Path, help="also write the report here")
    parser.add_argument("--workdir", type=Path, help="keep the projects here (default: a temporary folder)")
    parser.add_argument(
        "--compare",
        choices=sorted(COMPARISONS),
        default="extension",
        help="extension: plain Sphinx vs the extension; autolink: the extension with auto-linking off vs 'first'",
    )
    parser.add_argument("--no-synthetic", action="store_true", help="measure the real sites only")
    parser.add_argument(
        "--sites", nargs="*", choices=sorted(SITES), help="real sites to measure (default: every prepared one)"
    )
    parser.add_argument("--no-sites", action="store_true", help="measure the synthetic project only")
    parser.add_argument("--site-reps", type=int, default=3, help="rounds of clean builds per site")
    parser.add_argument("--site-warmup", type=int, default=1, help="rounds built first and dropped")
    parser.add_argument("--sites-dir", type=Path, default=BUILD_ROOT, help="where sites were prepared")
    parser.add_argument(
        "--entries",
        type=int,
        default=0,
        help="measure a copy of the package whose glossaries hold this many entries (issue 27's targets: 300)",
    )
    args = parser.parse_args(argv)
    report: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as tmp:
        workdir = args.workdir or Path(tmp)
        if args.entries:
            use_enlarged_glossary(workdir / f"glossary-{args.entries}", args.entries)
        if not args.no_synthetic:
            report = measure(
                workdir,
                pages=args.pages,
                citations=args.citations,
                terms=args.terms,
                fmt=args.format,
                pairs=args.pairs,
                compare=args.compare,
                warmup=args.warmup,
            )
            print(
                f"{args.compare}: {args.pages} pages x {args.citations} citations, {args.terms} terms, "
                f"{args.format}, {args.pairs} pairs"
            )
            print(format_table(report))
        if not args.no_sites:
            names = sorted(SITES) if args.sites is None else args.sites
            sites, skipped = measure_sites(
                names, workdir, reps=args.site_reps, warmup=args.site_warmup, build_root=args.sites_dir
            )
            report["sites"], report["sites_skipped"] = sites, skipped
    if args.entries:
        report["glossary_entries"] = args.entries
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
