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
    assert set(ratios) == {"serial_s", "parallel_s", "incremental_s", "maxrss_kib", "output_bytes"}
    assert all(value > 0 for value in ratios.values())
    assert report["extension_bytes_per_page"] > 0
    assert "| serial_s |" in format_table(report)
