"""Glossary data is inert outside HTML text: no fetch, no raw LaTeX or MathJax, no borrowed styles.

Each test builds a glossary whose entries try to reach further than their text: remote
images (which the epub, LaTeX and Texinfo builders download), math commands that read
files, end the PDF or make MathJax links, summaries that load images or add links to
cards, the extension's own classes, and directive options too large to run.
"""

from __future__ import annotations

import http.server
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from sphinxcontrib_mlglossary.math_guard import math_problem
from sphinxcontrib_mlglossary.option_bounds import option_problem

from .hostile_data import entry, glossary_toml


def markup_warnings(app) -> list[str]:
    return [line for line in app.warning.getvalue().splitlines() if "[mlglossary.markup]" in line]


def glossary_page(app) -> BeautifulSoup:
    return BeautifulSoup((Path(app.outdir) / "glossary.html").read_text(encoding="utf-8"), "html.parser")


def definition(soup: BeautifulSoup, entry_id: str):
    return soup.find(id=f"term-{entry_id}").find_next_sibling("dd")


# -- no builder fetches a URL from glossary data ------------------------------------------------


class _Recorder(http.server.BaseHTTPRequestHandler):
    requests: list[str]

    def do_GET(self) -> None:  # the name http.server calls
        self.requests.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.end_headers()
        self.wfile.write(b"\x89PNG\r\n\x1a\nFETCHED-FROM-THE-NETWORK")

    def log_message(self, format: str, *args: object) -> None:  # (http.server names the parameter)
        pass


@pytest.fixture
def recording_server() -> Iterator[tuple[str, list[str]]]:
    """``(base URL, requests)``: an HTTP server on 127.0.0.1 that notes every path asked of it."""
    requests: list[str] = []
    handler = type("Handler", (_Recorder,), {"requests": requests})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", requests
    finally:
        server.shutdown()
        server.server_close()


def remote_body(base: str) -> str:
    return f"""\
Inline ![inline pixel]({base}/inline.png) image and a linked one
[![linked pixel]({base}/linked.png)](https://example.org/page).

```{{image}} {base}/block.png
:alt: block pixel
```

```{{figure}} {base.upper()}/figure.png
A figure caption.
```

```{{csv-table}} A table from the network
:url: {base}/table.csv
```

A download of {{download}}`a remote file <{base}/file.zip>`.
"""


@pytest.mark.parametrize("builder", ["epub", "latex", "texinfo", "html", "singlehtml"])
def test_no_builder_fetches_an_image_named_in_glossary_data(builder, recording_server, use_glossary, project, make_app):
    base, requests = recording_server
    summary = f"A summary with ![tracker]({base}/summary.png) in it."
    use_glossary(glossary_toml([entry("remote", "remote", summary=summary, body=remote_body(base))]))
    srcdir = project({"page.md": "# Page\n\nCiting {term}`remote`.\n"})
    app = make_app(builder, srcdir=srcdir, freshenv=True)
    app.build()
    assert requests == []
    outdir = Path(app.outdir)
    assert not [path for path in outdir.rglob("*") if path.is_file() and b"FETCHED-FROM" in path.read_bytes()]
    warnings = markup_warnings(app)
    for name in ("inline", "linked", "block", "figure"):
        assert any(f"/{name}.png' is on another site; it is shown as a link" in line for line in warnings), name
    if builder in ("html", "singlehtml"):  # the builders that show cards render summaries
        assert any("summary.png" in line and "entry 'remote'" in line for line in warnings)
    if builder == "html":
        body = definition(glossary_page(app), "remote")
        assert body.find("img") is None
        assert body.select_one(f'a[href="{base}/inline.png"]').get_text() == "inline pixel"
        assert body.select_one(f'a[href="{base}/block.png"]').get_text() == "block pixel"
        assert body.select_one('a[href="https://example.org/page"]').get_text() == "linked pixel"
        assert "A figure caption." in body.get_text()


# -- math ------------------------------------------------------------------------------------------

REFUSED_MATH = [
    r"\input{/etc/hostname}",
    r"\include{secret}",
    r"\immediate\write18{id}",
    r"x \end{document}",
    r"\href{javascript:alert(1)}{click}",
    r"\style{position:fixed;top:0;left:0;width:100%}{x}",
    r"\cssId{term-remote}{x}",
    r"\class{mlglossary-card}{x}",
    r"\require{action}",
    r"\url{https://example.org}",
    r"\catcode`\@=0",
    r"\def\x{y}",
    r"^^5cinput{secret}",
    r"x % the rest of the line",
    r"\begin{document}",
    r"\unicode{x202E}",
    r"\toggle{a}{b}\endtoggle",
    r"a } b",
    r"\begin{pmatrix} a \end{bmatrix}",
    "\\",
]
ALLOWED_MATH = [
    r"\frac{a}{b} + \sum_{i=1}^{n} x_i^2",
    r"\mathrm{softmax}(z)_i = \frac{e^{z_i}}{\sum_j e^{z_j}}",
    r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}",
    r"\operatorname{Attention}(Q, K, V) = \mathrm{softmax}\left(\frac{QK^\top}{\sqrt{d_k}}\right) V",
    r"50\% \le p \leq 1, \quad \{x \mid x > 0\}",
    r"\hat{y} = \arg\max_{y} P(y \mid x)",
]


@pytest.mark.parametrize("latex", REFUSED_MATH)
def test_math_outside_the_allowlist_is_refused(latex):
    assert math_problem(latex)


@pytest.mark.parametrize("latex", ALLOWED_MATH)
def test_plain_formulas_pass(latex):
    assert math_problem(latex) == ""


MATH_BODY = r"""Safe {math}`\frac{a}{b}`, then {math}`\input{/etc/hostname}` and {math}`\href{javascript:alert(1)}{click}`
and {math}`\cssId{term-remote}{x}`.

```{math}
:nowrap:
\begin{aligned} y &= 2 \end{aligned}
```

```{math}
x \end{document}
```

```{math}
\style{position:fixed;top:0}{\text{cover}}
```
"""


@pytest.mark.parametrize("builder", ["html", "latex"])
def test_math_from_glossary_data_is_restricted(builder, use_glossary, project, make_app):
    use_glossary(glossary_toml([entry("formulas", "formulas", body=MATH_BODY), entry("remote", "remote")]))
    app = make_app(builder, srcdir=project(), freshenv=True)
    app.build()
    warnings = markup_warnings(app)
    for shown in (r"\input{/etc/hostname}", r"\href{", r"\cssId{", r"x \end{document}", r"\style{"):
        assert any(shown in line and "is shown as text" in line and "entry 'formulas'" in line for line in warnings), (
            shown,
            warnings,
        )
    assert any("option :nowrap: of directive 'math' was left out" in line for line in warnings)
    assert all("en.toml:" in line for line in warnings)
    if builder == "html":
        body = definition(glossary_page(app), "formulas")
        formulas = " ".join(element.get_text() for element in body.select(".math"))
        assert r"\frac{a}{b}" in formulas and r"\begin{aligned}" in formulas
        for refused in ("input", "href", "cssId", "document", "style"):
            assert "\\" + refused not in formulas
        assert r"\input{/etc/hostname}" in body.get_text()  # shown, as code
    else:
        tex = next(Path(app.outdir).glob("*.tex")).read_text(encoding="utf-8")
        assert r"\input{/etc/hostname}" not in tex and r"\href{javascript" not in tex
        assert tex.count(r"\end{document}") == 1
        assert r"\frac{a}{b}" in tex


# -- summaries ---------------------------------------------------------------------------------------


def test_summaries_hold_no_image_and_no_link_of_their_own(use_glossary, project, make_app):
    summary = (
        "Tracked ![pixel](https://tracker.example/p.gif) summary, "
        "[Read more](https://evil.example/phish) and <https://evil.example/bare> and {term}`plain`."
    )
    use_glossary(glossary_toml([entry("tracked", "tracked", summary=summary), entry("plain", "plain")]))
    app = make_app("html", srcdir=project({"page.md": "# Page\n\nCiting {term}`tracked`.\n"}), freshenv=True)
    app.build()
    warnings = markup_warnings(app)
    assert any("image 'https://tracker.example/p.gif' was left out of the summary" in line for line in warnings)
    assert any("link to 'https://evil.example/phish' was left out of the summary" in line for line in warnings)
    outdir = Path(app.outdir)
    for page in outdir.glob("*.html"):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        assert not soup.select('img[src*="tracker.example"]'), page.name
        assert not soup.select('a[href*="evil.example"]'), page.name
    data = json.loads((outdir / "glossary.json").read_text(encoding="utf-8"))
    tracked = next(term for term in data["terms"] if term["id"] == "tracked")
    html = BeautifulSoup(tracked["summary"]["html"], "html.parser")
    assert html.find("img") is None and not html.select('a[href*="evil"]')
    assert "Read more" in html.get_text()
    assert html.select_one('a[href$="#term-plain"]') is not None  # a term reference is the site's own


# -- classes ---------------------------------------------------------------------------------------

CLASS_BODY = """\
```{container} mlglossary-card mlglossary-open other-class
Fixed on screen over the page.
```

```{note}
:class: mlglossary-backlinks kept-class
A note.
```
"""


def test_entry_content_cannot_use_the_extension_s_classes(use_glossary, project, make_app):
    use_glossary(glossary_toml([entry("styled", "styled", body=CLASS_BODY)]))
    app = make_app("html", srcdir=project(), freshenv=True)
    app.build()
    body = definition(glossary_page(app), "styled")
    classes = {name for element in body.find_all(True) for name in element.get("class", [])}
    assert not {name for name in classes if name.startswith("mlglossary")} - {"mlglossary-backlinks-list"}
    assert {"other-class", "kept-class"} <= classes
    assert "Fixed on screen over the page." in body.get_text()
    warnings = markup_warnings(app)
    for name in ("mlglossary-card", "mlglossary-open", "mlglossary-backlinks"):
        assert any(f"class {name!r} was left out" in line and "entry 'styled'" in line for line in warnings), name


# -- numeric options -------------------------------------------------------------------------------

HUGE_OPTIONS_BODY = """\
```{hlist}
:columns: 1000000

- a
- b
```

```{hlist}
---
columns: 1_000_000
---
- c
```

```{code-block} python
:emphasize-lines: 1-1000000000

x = 1
```

```{code-block} python
:lineno-start: 100000000000000000000

y = 2
```

```{image} inside.png
:width: 100000px
```

```{list-table}
:widths: 1 100000

* - a
  - b
```

```{hlist}
:columns: 2

- kept one
- kept two
```
"""


def test_every_numeric_option_has_a_bound(use_glossary, project, make_app):
    srcdir = project()
    (srcdir / "inside.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    use_glossary(glossary_toml([entry("huge", "huge", body=HUGE_OPTIONS_BODY)]))
    app = make_app("html", srcdir=srcdir, freshenv=True)
    started = time.perf_counter()
    app.build()
    assert time.perf_counter() - started < 60
    assert "Traceback" not in app.warning.getvalue()
    warnings = markup_warnings(app)
    for directive, option in (
        ("hlist", "columns"),
        ("code-block", "emphasize-lines"),
        ("code-block", "lineno-start"),
        ("image", "width"),
        ("list-table", "widths"),
    ):
        assert any(f"directive {directive!r} was left out: option :{option}:" in line for line in warnings), option
    assert sum("option :columns:" in line for line in warnings) == 2  # the YAML spelling too
    body = definition(glossary_page(app), "huge")
    assert "kept one" in body.get_text() and "x = 1" not in body.get_text()


@pytest.mark.parametrize(
    ("name", "value", "refused"),
    [
        ("columns", 12, False),
        ("columns", 13, True),
        ("emphasize-lines", "1-3,5", False),
        ("emphasize-lines", "1-1000000000", True),
        ("emphasize-lines", ",".join(["1"] * 500), True),
        ("widths", [10, 20, 70], False),
        ("widths", "auto", False),
        ("width", "600px", False),
        ("width", "80%", False),
        ("width", "250%", True),
        ("width", "9999in", True),
        ("height", "3cm", False),
        ("scale", 50, False),
        ("scale", 100000, True),
        ("caption", "A caption about 1000000 tokens", False),
    ],
)
def test_option_bounds(name, value, refused):
    assert bool(option_problem(name, value)) is refused


# -- the same under -j ----------------------------------------------------------------------------


def test_inert_output_and_warnings_are_the_same_under_j2(use_glossary, project, make_app):
    body = remote_body("http://127.0.0.1:9") + MATH_BODY + CLASS_BODY
    summary = "Summary ![pixel](https://tracker.example/p.gif) and [Read more](https://evil.example/)."
    use_glossary(glossary_toml([entry("mixed", "mixed", summary=summary, body=body), entry("remote", "remote")]))
    pages = {f"page{number}.md": f"# Page {number}\n\nCiting {{term}}`mixed`.\n" for number in range(8)}
    outputs = []
    for parallel in (1, 2):
        app = make_app("html", srcdir=project(pages), freshenv=True, parallel=parallel)
        app.build()
        glossary = (Path(app.outdir) / "glossary.html").read_text(encoding="utf-8")
        warnings = sorted(line.split("WARNING: ", 1)[-1] for line in markup_warnings(app))
        outputs.append((glossary, warnings))
    assert outputs[0][1] and outputs[0][1] == outputs[1][1]
    assert outputs[0][0] == outputs[1][0]
