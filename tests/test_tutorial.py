"""The tutorial, followed block by block, builds what it promises, in both syntaxes and from both starts.

``docs/tutorial/getting-started.md`` gives every block a reader copies a ``:name:`` (the
HTML shows it only as an id): ``tutorial-<syntax>-<file>`` for a file's text,
``tutorial-<syntax>-quickstart-conf.py`` for the lines that replace ``sphinx-quickstart``'s,
and ``tutorial-<step>`` for commands and the output the page shows. This module reads the
page's blocks by those names and does what the page says, with the page's own commands
run in a shell: a Markdown (MyST) and a reStructuredText project, each started from an
empty folder and from a real ``sphinx-quickstart -q`` run, built with ``sphinx-build -W``.
Then it makes the page's mistake on purpose and checks the failure is the one the page
describes, on the Sphinx version installed. So the page cannot drift from what works.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import venv
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import sphinx
from markdown_it import MarkdownIt

import sphinxcontrib_mlglossary
from sphinxcontrib_mlglossary.loader import bundled_glossary

from .conftest import read_html

PAGE = Path(__file__).parents[1] / "docs" / "tutorial" / "getting-started.md"
#: the page's two syntaxes, by the suffix of their pages
SUFFIXES = {"myst": ".md", "rest": ".rst"}
STARTS = ["empty-folder", "quickstart"]
PAGES = ["index", "glossary", "training"]
#: where the page's example output says the project is
EXAMPLE_PROJECT = "/home/you/handbook"
#: a directive option line at the top of a MyST directive's body
OPTION = re.compile(r":(?P<key>[\w-]+):\s*(?P<value>.*)")
#: a citation in either syntax: {term}`...` or :term:`...`
CITATION = re.compile(r"(?:\{term\}|:term:)`[^`]+`")
#: -W lets the build finish, and --keep-going is a no-op, from Sphinx 8.1 on
FINISHES_ON_WARNING = sphinx.version_info >= (8, 1)
#: the tests that build: four projects, then step 8 in two of them (about 40 s of CPU in all)
builds = pytest.mark.slow


@dataclass(frozen=True)
class Block:
    language: str
    text: str


def page_blocks() -> dict[str, Block]:
    """The page's named ``code-block`` directives, by name, as MyST reads them (options, then the code)."""
    blocks: dict[str, Block] = {}
    for token in MarkdownIt("commonmark").parse(PAGE.read_text(encoding="utf-8")):
        directive, _, language = token.info.partition(" ")
        if token.type != "fence" or directive != "{code-block}":
            continue
        lines = token.content.splitlines(keepends=True)
        options = {}
        while lines and (option := OPTION.fullmatch(lines[0].rstrip("\n"))):
            options[option["key"]] = option["value"]
            lines.pop(0)
        if lines and not lines[0].strip():
            lines.pop(0)
        if "name" in options:
            assert options["name"] not in blocks, f"two blocks named {options['name']!r}"
            blocks[options["name"]] = Block(language.strip(), "".join(lines))
    return blocks


BLOCKS = page_blocks()


def block(name: str) -> str:
    assert name in BLOCKS, f"the tutorial has no block named {name!r}"
    return BLOCKS[name].text


def shell(commands: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run a console block's lines as a reader types them, with this environment's scripts first on PATH.

    The package under test is put first on PYTHONPATH so ``sphinx-build`` loads the same code as
    this test, and the console speaks English, the language of the output the page quotes.
    """
    scripts = str(Path(sys.executable).parent)
    package_root = str(Path(sphinxcontrib_mlglossary.__file__).parents[1])
    env = {
        **os.environ,
        "PATH": os.pathsep.join([scripts, os.environ.get("PATH", "")]),
        "PYTHONPATH": os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")])),
        "LC_ALL": "C.UTF-8",
        "LANGUAGE": "en",
    }
    return subprocess.run(["bash", "-e", "-c", commands], cwd=cwd, env=env, capture_output=True, text=True)


def plant_virtual_environment(path: Path) -> None:
    """The reader's ``.venv`` inside the project: a real one, holding files that installing Sphinx puts there.

    Installed packages carry ``.rst`` and ``.md`` files (Sphinx's autosummary templates, the
    READMEs of markdown-it's plugins); a project that does not exclude ``.venv`` reads them
    as pages. Creating the environment with pip would take seconds and add nothing here.
    """
    venv.create(path, with_pip=False)
    (site_packages,) = path.glob("lib/python*/site-packages")
    templates = Path(sphinx.__file__).parent / "ext" / "autosummary" / "templates"
    shutil.copytree(templates, site_packages / "sphinx" / "ext" / "autosummary" / "templates")
    readme = site_packages / "mdit_py_plugins" / "README.md"
    readme.parent.mkdir()
    readme.write_text("# A package's README\n\nNot a page of the handbook.\n", encoding="utf-8")


def replace_lines(conf: Path, replacements: str) -> None:
    """Replace each ``name = ...`` line of ``conf.py`` with the page's line for that name, as the page says."""
    text = conf.read_text(encoding="utf-8")
    for line in replacements.splitlines():
        name = line.split("=")[0].strip()
        text, count = re.subn(rf"^{re.escape(name)} = .*$", lambda _, line=line: line, text, flags=re.MULTILINE)
        assert count == 1, f"sphinx-quickstart's conf.py has no single {name!r} line to replace"
    conf.write_text(text, encoding="utf-8")


def write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


@dataclass
class Walkthrough:
    """One reader's way through steps 1 to 6: the project, its build and the pages it wrote.

    The pages are read at once: step 8 (the ``mistake`` fixture) goes on in the same folder.
    """

    syntax: str
    start: str
    project: Path
    build: subprocess.CompletedProcess[str]
    pages: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        outdir = self.project / "_build" / "html"
        self.pages = {name: read_html(outdir / f"{name}.html") for name in PAGES if (outdir / f"{name}.html").exists()}

    def page(self, name: str) -> Any:
        return self.pages[name]


def follow_steps(root: Path, syntax: str, start: str) -> Path:
    """Steps 1 to 5: the project folder, its configuration, and its three pages."""
    suffix = SUFFIXES[syntax]
    project = root / "handbook"
    project.mkdir()
    plant_virtual_environment(project / ".venv")
    if start == "quickstart":
        made = shell(block("tutorial-quickstart"), project)
        assert made.returncode == 0, made.stderr
        assert (project / "index.rst").is_file()
        replace_lines(project / "conf.py", block(f"tutorial-{syntax}-quickstart-conf.py"))
        if f"tutorial-{syntax}-quickstart-cleanup" in BLOCKS:
            cleaned = shell(block(f"tutorial-{syntax}-quickstart-cleanup"), project)
            assert cleaned.returncode == 0, cleaned.stderr
    else:
        write(project / "conf.py", block(f"tutorial-{syntax}-conf.py"))
    for page in PAGES:
        write(project / f"{page}{suffix}", block(f"tutorial-{syntax}-{page}{suffix}"))
    return project


@pytest.fixture(scope="module")
def walkthroughs(tmp_path_factory) -> Callable[[str, str], Walkthrough]:
    """Each way through the page is walked once per module, whichever fixture asks first."""
    walked: dict[tuple[str, str], Walkthrough] = {}

    def walk(syntax: str, start: str) -> Walkthrough:
        if (syntax, start) not in walked:
            project = follow_steps(tmp_path_factory.mktemp(f"{syntax}-{start}"), syntax, start)
            walked[syntax, start] = Walkthrough(syntax, start, project, shell(block("tutorial-build"), project))
        return walked[syntax, start]

    return walk


@pytest.fixture(scope="module", params=[(syntax, start) for syntax in SUFFIXES for start in STARTS], ids="-".join)
def walkthrough(request, walkthroughs) -> Walkthrough:
    return walkthroughs(*request.param)


def test_the_page_names_every_block_the_walkthrough_uses():
    """Both syntaxes have every file, with and without sphinx-quickstart, in the language of their pages."""
    for syntax, suffix in SUFFIXES.items():
        assert BLOCKS[f"tutorial-{syntax}-conf.py"].language == "python"
        assert BLOCKS[f"tutorial-{syntax}-quickstart-conf.py"].language == "python"
        for page in PAGES:
            assert BLOCKS[f"tutorial-{syntax}-{page}{suffix}"].language == ("markdown" if syntax == "myst" else "rst")
    for name in (
        "tutorial-folder",
        "tutorial-install",
        "tutorial-install-wheel",
        "tutorial-quickstart",
        "tutorial-build",
    ):
        assert BLOCKS[name].language == "console"


def test_a_rest_project_leaves_myst_parser_out():
    """The page says a reST-only project needs no ``myst_parser``; its reST builds run without it."""
    assert "myst_parser" in block("tutorial-myst-conf.py")
    assert "myst_parser" in block("tutorial-myst-quickstart-conf.py")
    assert "myst_parser" not in block("tutorial-rest-conf.py")
    assert "myst_parser" not in block("tutorial-rest-quickstart-conf.py")


def test_install_comes_from_a_checkout_until_a_release():
    """Not on PyPI yet: the commands install the clone (``pip install .``) or a wheel built from it."""
    commands = [line for name in ("tutorial-install", "tutorial-install-wheel") for line in block(name).splitlines()]
    assert "pip install ." in commands
    assert "python -m build" in commands
    assert "pip install dist/*.whl" in commands
    assert not any(line.startswith("pip install sphinxcontrib-mlglossary") for line in commands)


@builds
def test_the_build_command_passes_with_warnings_as_errors(walkthrough: Walkthrough):
    assert walkthrough.build.returncode == 0, walkthrough.build.stderr
    assert "WARNING" not in walkthrough.build.stderr
    assert "-W" in block("tutorial-build").split()


@builds
def test_the_home_page_lists_both_pages(walkthrough: Walkthrough):
    toctree = walkthrough.page("index").select("[role=main] .toctree-wrapper a[href]")
    assert [link["href"] for link in toctree] == ["training.html", "glossary.html"]


@builds
def test_every_citation_links_to_its_glossary_entry(walkthrough: Walkthrough):
    training = walkthrough.page("training")
    entries = {dt["id"]: dt for dt in walkthrough.page("glossary").select("dl.glossary dt[id]")}
    links = training.select("[role=main] a.mlglossary-term")
    citations = CITATION.findall(block(f"tutorial-{walkthrough.syntax}-training{SUFFIXES[walkthrough.syntax]}"))
    assert len(links) == len(citations) == 4
    for link in links:
        target = urlsplit(link["href"])
        assert target.path == "glossary.html"
        assert target.fragment in entries, link["href"]
    # step 7 names this anchor, and MLM reaches its entry through the abbreviation
    hrefs = [link["href"] for link in links]
    assert "glossary.html#term-attention-mask" in hrefs
    assert "glossary.html#term-masked-language-modeling" in hrefs


@builds
def test_the_glossary_page_holds_every_entry_and_cites_back(walkthrough: Walkthrough):
    glossary = walkthrough.page("glossary")
    assert len(glossary.select("dl.glossary > dt[id]")) == len(bundled_glossary("en"))
    entry = glossary.select_one("dt#term-attention-mask").find_next_sibling("dd")
    (cited_in,) = entry.select("div.mlglossary-backlinks a[href]")
    assert cited_in.get_text() == "Training"
    page, _, citation = cited_in["href"].partition("#")
    assert page == "training.html"
    assert walkthrough.page("training").find(id=citation).get_text() == "attention mask"


@dataclass
class Mistake:
    """Step 8: the page's misspelt citation, built with the page's command, then with what the page suggests."""

    syntax: str
    project: Path
    failed: subprocess.CompletedProcess[str]
    #: the citing page as the failed build wrote it
    written: Any
    #: whether the failed build went on to its last stage, the inventory
    inventory_written: bool
    again: subprocess.CompletedProcess[str]
    everything: subprocess.CompletedProcess[str]
    keep_going: subprocess.CompletedProcess[str]
    fixed: subprocess.CompletedProcess[str]


@pytest.fixture(scope="module", params=list(SUFFIXES))
def mistake(request, walkthroughs) -> Mistake:
    """Step 8 in the project made from sphinx-quickstart: the mistake and its fix, each built in turn."""
    syntax = request.param
    walked = walkthroughs(syntax, "quickstart")
    assert walked.build.returncode == 0, walked.build.stderr
    project = walked.project
    command = block("tutorial-build")
    training = project / f"training{SUFFIXES[syntax]}"
    clean = training.read_text(encoding="utf-8")
    misspelt = clean + "\n" + block(f"tutorial-{syntax}-mistake")
    write(training, misspelt)
    failed = shell(command, project)
    outdir = project / "_build" / "html"
    written = read_html(outdir / "training.html")
    inventory_written = (outdir / "objects.inv").stat().st_mtime >= training.stat().st_mtime
    again = shell(command, project)
    everything = shell(command.replace("sphinx-build", "sphinx-build -E", 1), project)
    os.utime(training)  # changed again, so the next build reads it
    keep_going = shell(command.replace("sphinx-build", "sphinx-build --keep-going", 1), project)
    write(training, misspelt.replace("atention", "attention"))
    fixed = shell(command, project)
    return Mistake(syntax, project, failed, written, inventory_written, again, everything, keep_going, fixed)


def expected_warning(mistake: Mistake) -> str:
    """The warning line the page shows, with the reader's project folder where the test's is."""
    (line,) = block(f"tutorial-{mistake.syntax}-warning").splitlines()
    assert line.startswith(f"{EXAMPLE_PROJECT}/training{SUFFIXES[mistake.syntax]}:")
    return line.replace(EXAMPLE_PROJECT, str(mistake.project), 1)


def message(warning: str) -> str:
    """The part of a warning every Sphinx prints: ``path:line`` and the text, without the level or the type."""
    location, _, rest = warning.partition(" WARNING: ")
    return location + rest.rsplit(" [", 1)[0]


@builds
def test_a_mistake_fails_the_build_as_the_page_says(mistake: Mistake):
    """Step 8, on the Sphinx installed: the page's warning line, summary, exit status and second run."""
    warning = expected_warning(mistake)
    if not FINISHES_ON_WARNING:  # Sphinx 7.3 to 8.0, as the page says: they stop, unless --keep-going
        for run in (mistake.failed, mistake.again, mistake.everything):
            assert run.returncode == 2
            assert "Warning, treated as error:" in run.stderr
            assert message(warning) in run.stderr.splitlines()
        assert mistake.keep_going.returncode == 1
        assert [message(line) for line in mistake.keep_going.stderr.splitlines() if "WARNING" in line] == [
            message(warning)
        ]
        assert mistake.keep_going.stdout.splitlines()[-1].startswith("build finished with problems, 1 warning")
        return
    summary = block("tutorial-failed-build").strip()
    for run in (mistake.failed, mistake.everything, mistake.keep_going):
        assert run.returncode == 1
        assert [line for line in run.stderr.splitlines() if "WARNING" in line] == [warning]
        assert run.stdout.splitlines()[-1] == summary
    # the build went on: the page is written, the misspelt citation as plain text, and so is the inventory
    assert "atention mask" in mistake.written.select_one("[role=main]").get_text()
    assert len(mistake.written.select("[role=main] a.mlglossary-term")) == 4
    assert mistake.inventory_written
    # nothing changed, nothing read: the second run passes (-E, above, reads every page again)
    assert mistake.again.returncode == 0
    assert "WARNING" not in mistake.again.stderr


@builds
def test_fixing_the_spelling_makes_the_build_clean_again(mistake: Mistake):
    assert mistake.fixed.returncode == 0, mistake.fixed.stderr
    assert "WARNING" not in mistake.fixed.stderr
