"""Nothing outside the project reaches the output; reading a glossary file can't hang or exhaust the build.

Entry bodies may reference files (downloads, Markdown links to files, images, figures):
only inside the source directory, whatever the path's spelling (``..``, ``//``-absolute,
a symlink leading out). ``:source:`` and ``mlglossary_sources`` read files inside the
source directory, or in folders ``mlglossary_trusted_dirs`` names. Only regular files
up to ``mlglossary_max_file_mb`` are read.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from sphinxcontrib_mlglossary.confinement import DEFAULT_MAX_MB, inside, read_data_file
from sphinxcontrib_mlglossary.loader import GlossaryDataError

from .hostile_data import ONE_ENTRY, entry, glossary_toml

SECRET = b"TOP-SECRET-4711"
FILE_BUILDERS = ("html", "dirhtml", "singlehtml", "epub")


def outputs_holding_the_secret(outdir: Path) -> list[Path]:
    return [path for path in outdir.rglob("*") if path.is_file() and SECRET in path.read_bytes()]


def markup_warnings(app) -> list[str]:
    return [line for line in app.warning.getvalue().splitlines() if "[mlglossary.markup]" in line]


@pytest.fixture
def outside_files(project):
    """A project with a secret text file and image next to (outside) its source directory."""
    srcdir = project()
    outside = srcdir.parent
    (outside / "secret.txt").write_bytes(SECRET + b"\n")
    (outside / "secret.png").write_bytes(b"\x89PNG\r\n\x1a\n" + SECRET)
    (srcdir / "inside.txt").write_text("a file of the project\n")
    (srcdir / "inside.png").write_bytes(b"\x89PNG\r\n\x1a\nproject image")
    (srcdir / "leads-out.txt").symlink_to(outside / "secret.txt")
    (srcdir / "leads-out.png").symlink_to(outside / "secret.png")
    return srcdir


def reaching_out_body(outside: Path) -> str:
    return f"""\
Downloads: {{download}}`up <../secret.txt>`, {{download}}`slashes </{outside}/secret.txt>`,
{{download}}`link <leads-out.txt>`, [path link](path:../secret.txt), [plain link](../secret.txt)
and the project's own {{download}}`inside <inside.txt>`.

![up](../secret.png) ![slashes](/{outside}/secret.png) ![link](leads-out.png) ![ours](inside.png)

```{{figure}} /{outside}/secret.png
A figure from outside.
```

```{{image}} ../secret.png
```
"""


@pytest.mark.parametrize("builder", [*FILE_BUILDERS, "latex", "texinfo"])
def test_entry_bodies_copy_no_file_from_outside_the_source_directory(builder, outside_files, use_glossary, make_app):
    srcdir = outside_files
    use_glossary(glossary_toml([entry("reacher", "reacher", body=reaching_out_body(srcdir.parent))]))
    app = make_app(builder, srcdir=srcdir, freshenv=True)
    app.build()
    outdir = Path(app.outdir)
    assert outputs_holding_the_secret(outdir) == []
    assert not [path for path in outdir.rglob("*") if path.name.startswith(("secret", "leads-out"))]
    # the project's own files still arrive (LaTeX and Texinfo put images next to the document)
    assert list(outdir.rglob("_images/inside.png" if builder in FILE_BUILDERS else "inside.png"))
    if builder in ("html", "dirhtml", "singlehtml"):
        assert list(outdir.rglob("_downloads/*/inside.txt"))
    warnings = markup_warnings(app)
    left_out = [line for line in warnings if "outside the project's source directory" in line]
    # every reference reaching out is named, with the data file and the entry
    for path in ("'../secret.txt'", f"'/{srcdir.parent}/secret.txt'", "'leads-out.txt'", "'leads-out.png'"):
        assert any(path in line for line in left_out), path
    assert all("en.toml:4" in line and "entry 'reacher'" in line for line in left_out)
    assert len(left_out) == 10  # five links, three images, a figure's, an image directive's
    assert "Traceback" not in app.warning.getvalue()


def test_link_texts_stay_when_their_download_is_left_out(outside_files, use_glossary, make_app):
    srcdir = outside_files
    use_glossary(glossary_toml([entry("reacher", "reacher", body=reaching_out_body(srcdir.parent))]))
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    text = (Path(app.outdir) / "glossary.html").read_text(encoding="utf-8")
    for kept in ("up", "slashes", "path link", "plain link", "A figure from outside."):
        assert kept in text
    assert text.count('class="reference download') == 1  # the project's own file only


def test_paths_are_normalised_before_they_are_compared(tmp_path):
    root = tmp_path / "src"
    (root / "sub").mkdir(parents=True)
    (root / "out").symlink_to(tmp_path)
    assert inside(root / "sub" / ".." / "file.txt", root)
    assert inside(f"/{root}/sub/file.txt", root)  # "//" collapsed
    assert not inside(root / ".." / "file.txt", root)
    assert not inside(root / "out" / "file.txt", root)  # the symlink leads out
    assert not inside(str(root) + "-sibling/file.txt", root)


# -- glossary files named by the project ----------------------------------------------------

OUTSIDE_TOML = glossary_toml(
    [entry("outside-term", "outside term", summary="TOP-SECRET-4711 summary.", body="TOP-SECRET-4711 body.")]
)


def source_project(project, source: str, conf: str = "") -> Path:
    """A project whose page ``theirs`` shows ``source`` (``{outside}`` stands for the folder above it);
    the root's bundled page shows one entry (the tests read ``theirs`` and the warnings)."""
    srcdir = project(page=ONE_ENTRY)
    source = source.format(outside=srcdir.parent)
    (srcdir / "theirs.md").write_text(f"# Theirs\n\n```{{mlglossary}}\n:source: {source}\n```\n", encoding="utf-8")
    (srcdir.parent / "outside.toml").write_text(OUTSIDE_TOML, encoding="utf-8")
    (srcdir / "leads-out.toml").symlink_to(srcdir.parent / "outside.toml")
    if conf:
        with (srcdir / "conf.py").open("a", encoding="utf-8") as conf_py:
            conf_py.write(conf + "\n")
    return srcdir


@pytest.mark.parametrize("builder", FILE_BUILDERS)
@pytest.mark.parametrize("source", ["../outside.toml", "leads-out.toml", "/{outside}/outside.toml"])
def test_a_source_outside_the_project_needs_an_opt_in(builder, source, project, make_app):
    srcdir = source_project(project, source)
    app = make_app(builder, srcdir=srcdir, freshenv=True)
    app.build()
    assert outputs_holding_the_secret(Path(app.outdir)) == []
    warnings = [line for line in app.warning.getvalue().splitlines() if "[mlglossary.data]" in line]
    assert len(warnings) == 1
    assert "theirs.md" in warnings[0] and f":source: {source.format(outside=srcdir.parent)}" in warnings[0]
    assert "outside the project's source directory" in warnings[0]
    assert f"mlglossary_trusted_dirs = [{str(srcdir.parent)!r}]" in warnings[0]


def test_a_trusted_folder_is_read(project, make_app):
    srcdir = source_project(project, "../outside.toml", conf="mlglossary_trusted_dirs = ['..']")
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    assert "[mlglossary" not in app.warning.getvalue()
    assert "TOP-SECRET-4711 body." in (Path(app.outdir) / "theirs.html").read_text(encoding="utf-8")


def test_a_configured_source_outside_the_project_needs_an_opt_in(project, make_app):
    srcdir = source_project(project, "shared", conf="mlglossary_sources = {'shared': '../outside.toml'}")
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    assert outputs_holding_the_secret(Path(app.outdir)) == []
    assert "mlglossary_trusted_dirs" in app.warning.getvalue()


# -- what is read ------------------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_fifo_as_source_is_a_warning_within_a_second(project, make_app):
    srcdir = source_project(project, "pipe.toml")
    os.mkfifo(srcdir / "pipe.toml")
    started = time.perf_counter()
    with pytest.raises(GlossaryDataError, match=r"named pipe \(FIFO\); only regular files"):
        read_data_file(srcdir / "pipe.toml")
    assert time.perf_counter() - started < 1
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()  # before the fix, this never returned
    warnings = app.warning.getvalue()
    assert "theirs.md" in warnings and "named pipe (FIFO)" in warnings and "[mlglossary.data]" in warnings


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_a_device_as_source_is_a_warning_within_a_second(project, make_app):
    srcdir = source_project(project, "//dev/zero", conf="mlglossary_trusted_dirs = ['/dev']")
    started = time.perf_counter()
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    assert time.perf_counter() - started < 30
    warnings = app.warning.getvalue()
    assert "/dev/zero" in warnings and "a device; only regular files are read" in warnings


def test_a_directory_as_source_is_a_warning(project, make_app):
    srcdir = source_project(project, "folder.toml")
    (srcdir / "folder.toml").mkdir()
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    assert "a directory; only regular files are read" in app.warning.getvalue()


def test_a_file_above_the_size_limit_is_refused_clearly(project, make_app):
    srcdir = source_project(project, "big.toml", conf="mlglossary_max_file_mb = 0.01")
    (srcdir / "big.toml").write_text(
        glossary_toml([entry(f"t{i}", f"term {i}", body="Body text. " * 20) for i in range(100)]), encoding="utf-8"
    )
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    warnings = app.warning.getvalue()
    assert re.search(r"big\.toml: the file is 0\.0\d MB, more than the 0\.01 MB a glossary file may have", warnings)
    assert "raise mlglossary_max_file_mb in conf.py" in warnings


def test_a_two_hundred_megabyte_file_is_refused_at_once(tmp_path):
    huge = tmp_path / "huge.md"
    with huge.open("wb") as sparse:
        sparse.truncate(200 * 1024 * 1024)
    started = time.perf_counter()
    with pytest.raises(GlossaryDataError, match=f"200.0 MB, more than the {DEFAULT_MAX_MB} MB"):
        read_data_file(huge)
    assert time.perf_counter() - started < 1


@pytest.mark.parametrize(
    ("conf", "expected"),
    [
        ("mlglossary_trusted_dirs = ['..', 3]", "should hold folder paths only"),
        ("mlglossary_max_file_mb = 0", "is not a number of megabytes above 0 and at most 1000; using 20"),
        ("mlglossary_max_file_mb = -3.5", "is not a number of megabytes above 0 and at most 1000; using 20"),
        ("mlglossary_max_file_mb = float('inf')", "= inf is not a number of megabytes above 0"),
        ("mlglossary_max_file_mb = float('nan')", "= nan is not a number of megabytes above 0"),
        ("mlglossary_max_file_mb = 1e12", "is not a number of megabytes above 0 and at most 1000"),
        ("mlglossary_max_file_mb = '5'", "is not a int or float; using 20"),
        ("mlglossary_backlinks_max = 0", "is not a whole number from 1 to 10000; using 10"),
        ("mlglossary_backlinks_max = 10**12", "is not a whole number from 1 to 10000; using 10"),
    ],
)
def test_file_options_are_validated(conf, expected, project, make_app):
    srcdir = project(page=ONE_ENTRY)  # the warnings are read, not the bundled page
    with (srcdir / "conf.py").open("a", encoding="utf-8") as conf_py:
        conf_py.write(conf + "\n")
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()  # inf once crashed the build; nan was replaced without a word
    warnings = app.warning.getvalue()
    assert expected in warnings
    assert "[mlglossary.config]" in warnings and "Traceback" not in warnings


@pytest.mark.parametrize("builder", ["html", "singlehtml"])
def test_a_summary_naming_local_files_shows_none_of_them(builder, outside_files, use_glossary, make_app):
    """Summaries are rendered away from any page (cards, glossary.json): no local file can be shown there."""
    srcdir = outside_files
    summary = "A summary ![ours](inside.png) ![theirs](../secret.png) and {download}`a file <../secret.txt>`."
    use_glossary(glossary_toml([entry("summed", "summed", summary=summary)]))
    (srcdir / "citing.md").write_text("# Citing\n\nThe {term}`summed` term.\n", encoding="utf-8")
    app = make_app(builder, srcdir=srcdir, freshenv=True)
    app.build()
    assert "Traceback" not in app.warning.getvalue()
    assert outputs_holding_the_secret(Path(app.outdir)) == []
    left_out = [line for line in markup_warnings(app) if "a local file, which a summary can't show" in line]
    assert {"'inside.png'", "'../secret.png'", "'../secret.txt'"} <= {
        part for line in left_out for part in ("'inside.png'", "'../secret.png'", "'../secret.txt'") if part in line
    }
    data = (Path(app.outdir) / "glossary.json").read_text(encoding="utf-8")
    assert "inside.png" not in data and "a file" in data


@pytest.mark.parametrize("excluded", [False, True])
def test_a_source_file_also_built_as_a_page_is_a_warning(excluded, project, make_app):
    markdown = "# Their glossary\n\n## A\n\n### attention sink\n\nA token <b>bold</b> that draws attention.\n"
    pages = {"theirs.md": "# Theirs\n\n```{mlglossary}\n:source: words/hf.md\n```\n", "words/hf.md": markdown}
    srcdir = project(pages, page=ONE_ENTRY)  # the warnings are read, not the bundled page
    if excluded:
        with (srcdir / "conf.py").open("a", encoding="utf-8") as conf_py:
            conf_py.write("exclude_patterns += ['words/hf.md']\n")
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    warnings = [line for line in app.warning.getvalue().splitlines() if "is also built as the page" in line]
    if excluded:
        assert warnings == []
        return
    assert len(warnings) == 1
    assert "theirs.md" in warnings[0] and "'words/hf'" in warnings[0] and "[mlglossary.data]" in warnings[0]
    assert "add words/hf.md to exclude_patterns" in warnings[0]


@pytest.mark.parametrize("value", ["inf", "nan", "0", "-1", "1e9", "many"])
def test_the_command_line_size_limit_is_validated_without_traceback(value, tmp_path):
    import subprocess
    import sys

    path = tmp_path / "g.md"
    path.write_text("# Glossary\n\n## A\n\n### term\n\nA definition.\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "sphinxcontrib_mlglossary", "check", str(path), "--max-mb", value],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "is not a number of megabytes above 0 and at most 1000" in done.stderr
