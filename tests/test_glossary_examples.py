"""Every Python example in the bundled glossaries compiles, names only what it defines or
imports, and, where it needs nothing beyond the standard library, runs as shown.

The blocks of one entry form one session, in order. A block that needs more says so in its
fence, out of the reader's view: ```` ```python requires=transformers,hub ```` (``hub``:
downloads a model or data set; MyST reads only the first word of a fence as its language);
such blocks are checked for syntax and names only here, and so are scripts for several
processes (``requires=torch,torchrun``). Marked ``examples``
(``pytest -m examples``, which ``tox -e examples`` runs with CPU PyTorch and Transformers
installed), the blocks that need libraries run too, wherever those libraries are importable
and no Hub download is needed; otherwise each such entry is skipped, saying what is missing.
"""

from __future__ import annotations

import ast
import builtins
import doctest
import importlib.util
import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

GLOSSARIES = Path(__file__).resolve().parents[1] / "sphinxcontrib_mlglossary" / "glossaries"
FENCE = re.compile(r"^```(?P<info>[^\n]*)\n(?P<code>.*?)^```", re.MULTILINE | re.DOTALL)
REQUIRES = re.compile(r"(?:^|\s)requires=(?P<what>[\w,.-]+)(?:\s|$)")
#: test metadata written as a comment, where the reader would see it
COMMENTED = re.compile(r"^(?:>>> )?#\s*requires\b", re.MULTILINE)
KNOWN_REQUIREMENTS = {"torch", "transformers", "datasets", "peft", "accelerate", "hub", "torchrun"}
#: requirements that no single test process can meet: a download, or a script for several processes
NOT_IN_PROCESS = {"hub", "torchrun"}
#: requirements that name an importable package
PACKAGES = KNOWN_REQUIREMENTS - NOT_IN_PROCESS


@dataclass
class Block:
    entry: str
    code: str
    requires: set[str]

    @property
    def doctest_style(self) -> bool:
        return any(line.startswith(">>>") for line in self.code.splitlines())

    def source(self) -> str:
        if not self.doctest_style:
            return self.code
        examples = doctest.DocTestParser().get_examples(self.code)
        return "".join(example.source for example in examples)


@cache  # a thousand parametrized tests ask for it; parsing the file is 0.1 s each time
def sessions(language: str) -> dict[str, list[Block]]:
    data = tomllib.loads((GLOSSARIES / f"{language}.toml").read_text(encoding="utf-8"))
    found: dict[str, list[Block]] = {}
    for term in data["term"]:
        for match in FENCE.finditer(term["body"]):
            info = match["info"].strip()
            if info.split(" ", 1)[0] not in {"python", "py", "pycon", "python3"}:
                continue
            code = match["code"]
            needs = REQUIRES.search(info)
            requires = {part.strip() for part in needs["what"].split(",")} if needs else set()
            found.setdefault(term["id"], []).append(Block(term["id"], code, requires))
    return found


ALL = [(language, entry) for language in ("en", "es", "ar") for entry in sessions(language)]


def _bound_and_loaded(tree: ast.AST) -> tuple[set[str], set[tuple[str, int]]]:
    bound: set[str] = set()
    loaded: set[tuple[str, int]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                loaded.add((node.id, node.lineno))
            else:
                bound.add(node.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            bound.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return bound, loaded


@pytest.mark.parametrize(("language", "entry"), ALL, ids=[f"{lang}-{entry}" for lang, entry in ALL])
def test_examples_compile_and_name_only_what_they_define(language, entry):
    blocks = sessions(language)[entry]
    bound: set[str] = set(dir(builtins))
    for number, block in enumerate(blocks, start=1):
        assert block.requires <= KNOWN_REQUIREMENTS, f"{entry} block {number}: unknown requirement"
        where = f"{language}.toml {entry} block {number}"
        tree = ast.parse(block.source(), filename=where)  # a SyntaxError names the block
        names, loaded = _bound_and_loaded(tree)
        bound |= names
        undefined = sorted({name for name, _line in loaded if name not in bound})
        assert undefined == [], f"{where} uses names it never defines or imports: {undefined}"


RUNNABLE = [
    (language, entry) for language, entry in ALL if not any(block.requires for block in sessions(language)[entry])
]


def _run_session(language: str, entry: str, blocks: list[Block]) -> None:
    """Run blocks as one session, in order, and fail when an example prints something else."""
    globs: dict[str, object] = {"__name__": f"glossary_{entry}"}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for number, block in enumerate(blocks, start=1):
        name = f"{language}.toml {entry} block {number}"
        if block.doctest_style:
            test = doctest.DocTestParser().get_doctest(block.code, globs, name, None, 0)
            runner.run(test, clear_globs=False)
            globs = test.globs  # a DocTest works on a copy: the next block sees what this one defined
        else:
            exec(compile(block.code, name, "exec"), globs)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{language}.toml {entry}: {result.failed} example(s) print something else"


@pytest.mark.parametrize(("language", "entry"), RUNNABLE, ids=[f"{lang}-{entry}" for lang, entry in RUNNABLE])
def test_examples_that_need_nothing_more_run_as_shown(language, entry):
    _run_session(language, entry, sessions(language)[entry])


NEEDING_LIBRARIES = [(language, entry) for language, entry in ALL if (language, entry) not in RUNNABLE]


def offline_blocks(blocks: list[Block]) -> list[Block]:
    """The blocks before an entry's first Hub download or torchrun script: later ones may use what it made."""
    ahead: list[Block] = []
    for block in blocks:
        if block.requires & NOT_IN_PROCESS:
            break
        ahead.append(block)
    return ahead


def missing_packages(blocks: list[Block]) -> list[str]:
    needed = set().union(*(block.requires for block in blocks)) & PACKAGES
    return sorted(name for name in needed if importlib.util.find_spec(name) is None)


@pytest.mark.examples
@pytest.mark.parametrize(
    ("language", "entry"), NEEDING_LIBRARIES, ids=[f"{lang}-{entry}" for lang, entry in NEEDING_LIBRARIES]
)
def test_examples_that_need_libraries_run_as_shown(language, entry, tmp_path, monkeypatch):
    """Where torch, transformers... are installed, their examples print what the glossary shows.

    Only the blocks before the entry's first ``hub`` block run, offline (``HF_HUB_OFFLINE``), from
    an empty directory, so an untagged download fails and a stray file is never left behind.
    """
    blocks = offline_blocks(sessions(language)[entry])
    if not blocks:
        pytest.skip("every example needs a Hub download or a torchrun launch")
    missing = missing_packages(blocks)
    if missing:
        pytest.skip(
            f"needs {', '.join(missing)} (not importable here; `tox -e examples` installs torch, transformers, accelerate, peft and datasets)"
        )
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.chdir(tmp_path)
    _run_session(language, entry, blocks)
    assert list(tmp_path.iterdir()) == [], f"{language}.toml {entry} wrote into the working directory"


def test_offline_blocks_stop_at_the_first_download_and_missing_packages_name_what_to_install():
    """The selection the library mode runs by: a broken rule would skip or run the wrong blocks silently."""
    torch_block = Block("x", "import torch\n", {"torch"})
    download = Block("x", "x = 1\n", {"transformers", "hub"})
    after = Block("x", "y = x\n", set())
    assert offline_blocks([torch_block, download, after]) == [torch_block]
    assert offline_blocks([download, after]) == []
    assert offline_blocks([Block("x", "", {"torch", "torchrun"}), after]) == []
    absent = Block("x", "", {"peft", "hub"})
    assert missing_packages([absent]) == ([] if importlib.util.find_spec("peft") else ["peft"])


def test_no_example_shows_its_test_metadata_to_the_reader():
    """``requires`` lives in the fence; a comment in the code would be shown on the page."""
    shown = [
        (language, entry)
        for language, entry in ALL
        for block in sessions(language)[entry]
        if COMMENTED.search(block.code)
    ]
    assert shown == []
    assert sum(1 for language, entry in ALL for block in sessions(language)[entry] if block.requires) > 200


def test_the_built_page_shows_the_examples_without_their_metadata(make_app, tmp_path):
    """MyST renders ``python requires=...`` as Python code, highlighted, and shows nothing of the metadata."""
    from bs4 import BeautifulSoup

    (tmp_path / "conf.py").write_text('extensions = ["myst_parser", "sphinxcontrib_mlglossary"]\n', encoding="utf-8")
    (tmp_path / "index.md").write_text("# Glossary\n\n```{mlglossary}\n```\n", encoding="utf-8")
    app = make_app("html", srcdir=tmp_path, freshenv=True)
    app.build()
    assert app.warning.getvalue() == ""
    page = BeautifulSoup((app.outdir / "index.html").read_text(encoding="utf-8"), "html.parser")
    python = page.select("div.highlight-python")
    assert len(python) == sum(len(blocks) for blocks in sessions("en").values())
    assert not [block for block in python if re.search(r"requires\s*[:=]", block.get_text())]
    assert all(block.select("span.kn, span.n, span.gp") for block in python)  # highlighted as Python


def test_every_language_has_examples_to_check():
    """The tests above must not pass by finding nothing."""
    assert {language for language, _entry in ALL} == {"en", "es", "ar"}


def _long_blocks(body: str) -> list[str]:
    """Code blocks of an entry's text that fold on the glossary page (more than 8 lines), in order."""
    from sphinxcontrib_mlglossary.folding import FOLD_AFTER_LINES

    return [m["code"] for m in FENCE.finditer(body) if len(m["code"].rstrip("\n").splitlines()) > FOLD_AFTER_LINES]


@pytest.mark.parametrize("language", ["en", "es"])
def test_long_examples_fold_in_html_and_stay_whole_elsewhere(make_app, tmp_path, language):
    """HTML: each long block in a closed <details> naming its length, short ones open; epub and text show all."""
    from bs4 import BeautifulSoup

    from sphinxcontrib_mlglossary.loader import bundled_glossary

    glossary = bundled_glossary(language)
    entries = [glossary.get("beam-search"), glossary.get("attention-mask")]
    (tmp_path / "conf.py").write_text(
        f'extensions = ["myst_parser", "sphinxcontrib_mlglossary"]\nlanguage = "{language}"\n', encoding="utf-8"
    )
    (tmp_path / "index.md").write_text(
        "# Glossary\n\n```{mlglossary}\n:terms: beam-search, attention-mask\n```\n", encoding="utf-8"
    )
    html = make_app("html", srcdir=tmp_path, freshenv=True)
    html.build()
    assert html.warning.getvalue() == ""
    page = BeautifulSoup((html.outdir / "index.html").read_text(encoding="utf-8"), "html.parser")
    label = "Example ({} lines)" if language == "en" else "Ejemplo ({} líneas)"
    for entry in entries:
        dd = page.find(id=entry.anchor).find_next_sibling("dd")
        folds = dd.select("details.mlglossary-example")
        long = _long_blocks(entry.body)
        assert [fold.summary.get_text() for fold in folds] == [
            label.format(len(code.rstrip("\n").splitlines())) for code in long
        ]
        assert [fold.select_one("pre").get_text().rstrip("\n") for fold in folds] == [c.rstrip("\n") for c in long]
        assert len(dd.select("div.highlight")) == len(list(FENCE.finditer(entry.body)))
        assert not any(fold.has_attr("open") for fold in folds)
        assert dd.find(recursive=False).name == "p"  # an entry opens on its first paragraph, never on a fold
    assert _long_blocks(entries[0].body) and len(_long_blocks(entries[1].body)) < len(
        list(FENCE.finditer(entries[1].body))
    )

    epub = make_app("epub", srcdir=tmp_path, freshenv=True)
    epub.build()
    book = (epub.outdir / "index.xhtml").read_text(encoding="utf-8")
    assert "<details" not in book and "<summary" not in book
    assert book.count('class="mlglossary-example"') == sum(len(_long_blocks(e.body)) for e in entries)

    text = make_app("text", srcdir=tmp_path, freshenv=True)
    text.build()
    written = (text.outdir / "index.txt").read_text(encoding="utf-8")
    assert "Example (" not in written and "Ejemplo (" not in written
    first_line = _long_blocks(entries[0].body)[0].splitlines()[1].strip()
    assert first_line in written
