"""The benchmark runner works end to end on a tiny project (no timing assertions)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.generate import generate
from benchmarks.run import format_table, main


def test_generated_twins_cite_the_same_terms(tmp_path: Path):
    plain = generate(tmp_path / "plain", pages=2, citations=8, terms=10, fmt="rst", extension=False)
    ours = generate(tmp_path / "ours", pages=2, citations=8, terms=10, fmt="rst", extension=True)
    assert (plain / "page0001.rst").read_text() == (ours / "page0001.rst").read_text()
    assert ".. glossary::" in (plain / "glossary.rst").read_text()
    assert ".. mlglossary::" in (ours / "glossary.rst").read_text()


def test_runner_reports_ratios(tmp_path: Path):
    report = main(["--pages", "3", "--citations", "8", "--pairs", "1", "--workdir", str(tmp_path)])
    ratios = report["ratios"]
    assert set(ratios) == {
        "serial_s",
        "serial_cpu_s",
        "parallel_s",
        "parallel_cpu_s",
        "incremental_s",
        "incremental_cpu_s",
        "incremental_pages_written",
        "maxrss_kib",
        "output_bytes",
    }
    assert all(value > 0 for value in ratios.values())
    # an edit that changes no citation makes the extension write no page Sphinx doesn't
    written = {variant: report["medians"][variant]["incremental_pages_written"] for variant in ("plain", "mlglossary")}
    assert written["plain"] == written["mlglossary"] >= 1
    assert report["extension_bytes_per_page"] > 0
    assert "| serial_s |" in format_table(report)


def test_extension_bytes_count_the_card_block(tmp_path: Path):
    from benchmarks.run import _card_block_bytes

    html = '<p>x</p><div class="mlglossary-cards no-search" hidden><div class="mlglossary-card">a</div></div><p>y</p>'
    block = html[html.index("<div") : html.index("<p>y")]
    assert _card_block_bytes(html) == len(block)
    assert _card_block_bytes("<p>no cards</p>") == 0


def test_autolink_comparison(tmp_path: Path):
    report = main(
        ["--pages", "3", "--citations", "8", "--pairs", "1", "--compare", "autolink", "--workdir", str(tmp_path)]
    )
    assert (report["baseline"], report["candidate"]) == ("autolink-off", "autolink-first")
    assert "mlglossary_autolink = 'first'" in (tmp_path / "autolink-first" / "src" / "conf.py").read_text()
    page = (tmp_path / "autolink-first" / "out" / "page0001.html").read_text()
    assert "mlglossary-autolink" in page
    assert "| serial_s |" in format_table(report)


def test_scale_report(tmp_path: Path):
    from benchmarks.scale import format_table as scale_table
    from benchmarks.scale import main as scale_main

    report = scale_main(["2x4", "4x8", "--workdir", str(tmp_path)])
    rows = report["rows"]
    assert [(row["pages"], row["citations_per_page"]) for row in rows] == [(2, 4), (4, 8)]
    for row in rows:
        assert row["plain_maxrss_mib"] > 0 and row["mlglossary_maxrss_mib"] > 0
        assert row["extension_env_bytes_per_citation"] > 0  # its records are in the environment
    assert set(report["memory_per_page_kib"]) == {"plain", "mlglossary"}
    assert "| 4 | 8 |" in scale_table(rows)
