"""A second project cites the first one's glossary through intersphinx, offline."""

from __future__ import annotations

from pathlib import Path


def test_other_project_cites_terms(root_app, make_app, tmp_path: Path):
    glossary_app = root_app("html", "basic-md")
    glossary_app.build()
    outdir = Path(glossary_app.outdir)

    other = tmp_path / "other"
    other.mkdir()
    (other / "conf.py").write_text(
        'extensions = ["myst_parser", "sphinx.ext.intersphinx"]\n'
        f"intersphinx_mapping = {{'ml': ({str(outdir)!r}, {str(outdir / 'objects.inv')!r})}}\n"
    )
    (other / "index.md").write_text("# Other\n\n{term}`attention mask`, {term}`MLM` and {term}`ml:ZeRO`\n")
    app = make_app("html", srcdir=other, freshenv=True)
    app.build()
    # a second app in one process re-registers Sphinx's own nodes: that notice is not ours
    problems = [line for line in app.warning.getvalue().splitlines() if "already registered" not in line]
    assert problems == []
    html = (app.outdir / "index.html").read_text()
    assert f'href="{outdir}/glossary.html#term-attention-mask"' in html
    assert f'href="{outdir}/glossary.html#term-masked-language-modeling"' in html
    assert f'href="{outdir}/glossary.html#term-zero-redundancy-optimizer"' in html
