"""Every builder takes a project using the extension, without warnings or stray HTML."""

from __future__ import annotations

import pytest

BUILDERS = ["html", "dirhtml", "singlehtml", "epub", "latex", "text", "man", "texinfo", "gettext", "xml", "pseudoxml"]


@pytest.mark.parametrize("buildername", BUILDERS)
@pytest.mark.parametrize("twin", ["basic-md", "basic-rst"])
def test_builder(root_app, twin, buildername):
    app = root_app(buildername, twin)
    app.build()
    assert app.warning.getvalue() == ""
    outputs = [p for p in app.outdir.rglob("*") if p.is_file()]
    assert outputs
    if buildername in {"text", "man", "texinfo", "latex"}:
        text = "\n".join(
            p.read_text(encoding="utf-8", errors="replace")
            for p in outputs
            if p.suffix in {".txt", ".1", ".texi", ".tex"}
        )
        assert "masked language modeling (MLM)" in text
        assert "<dt" not in text and "<div" not in text


def test_dirhtml_links(root_app):
    app = root_app("dirhtml", "basic-md")
    app.build()
    html = (app.outdir / "guide" / "index.html").read_text()
    assert 'href="../glossary/#term-attention-mask"' in html


def test_singlehtml_links(root_app):
    app = root_app("singlehtml", "basic-md")
    app.build()
    html = (app.outdir / "index.html").read_text()
    assert 'href="#term-attention-mask"' in html
    assert 'id="term-attention-mask"' in html
