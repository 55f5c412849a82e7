"""How the extension works with Sphinx: public APIs, state in the domain, work where ``-j`` runs it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from docutils import nodes

from sphinxcontrib_mlglossary.nodes import tooltip_slot

from .conftest import card_asset_data, card_key, read_html, resolved_doctree

PACKAGE = Path(__file__).resolve().parents[1] / "sphinxcontrib_mlglossary"

#: internals Sphinx or MyST marks private or slated for removal, and the state we moved off env/app/config
FORBIDDEN = [
    r"_note_term",
    r"\._terms\b",
    r"_raw_config",
    r"env\._app",
    r"make_document\s*=",
    r"locale\.translators",
    r"_render_finalise",
    r"setattr\(\s*(env|app|self\.env)\b",
    r"\benv\.app\b",
    r"_user_agent\s*=",
    r"_tls_info\s*=",
]


def test_no_private_sphinx_or_myst_api_and_no_state_on_env():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for pattern in FORBIDDEN:
                if re.search(pattern, line):
                    found.append(f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}")
    assert found == []


def test_no_module_level_mutable_caches():
    """Per-build caches live on the build's session; a module-level dict, list or set
    (or an lru_cache) would outlive the build."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if re.match(r"^_?[A-Za-z_]+\s*(:[^=]+)?=\s*(\{\}|\[\]|set\(\)|dict\(\)|list\(\))", line) or re.match(
                r"^@(functools\.)?lru_cache", line
            ):
                found.append(f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}")
    assert found == []


def test_state_lives_in_the_domain(built_root):
    app = built_root("basic-md")
    domain = app.env.get_domain("mlglossary")
    assert set(domain.data) >= {"definitions", "citations", "user_terms", "rules", "version"}
    assert domain.data["definitions"]["glossary"]["attention-mask"] == "term-attention-mask"
    assert domain.data["citations"]  # pages that cite terms
    assert not [name for name in vars(app.env) if "mlglossary" in name]
    assert not [name for name in vars(app.config) if name.startswith("_mlglossary")]
    assert not [name for name in vars(app) if "mlglossary" in name]


def test_clear_and_merge_touch_only_the_given_pages(root_app):
    app = root_app("html", "basic-md")
    app.build()
    domain = app.env.get_domain("mlglossary")
    cited = sorted(domain.citations)
    assert len(cited) >= 2
    first, second = cited[:2]
    theirs = {key: dict(value) if isinstance(value, dict) else value for key, value in domain.data.items()}
    domain.clear_doc(first)
    assert first not in domain.citations and second in domain.citations
    assert first in domain.data["purged"]
    domain.clear_doc(second)
    domain.merge_domaindata({first}, theirs)
    assert first in domain.citations and second not in domain.citations


@pytest.mark.parametrize("root", ["basic-md", "basic-rst"])
def test_cards_are_made_where_pages_are_written(root_app, root):
    """Post-transforms run in the main process even under ``-j``: they only place an empty
    slot; the links are marked when the page is written (in a worker under ``-j``), and the
    cards themselves are the site's card file, written once."""
    app = root_app("html", root)
    app.build()
    cited = next(docname for docname in sorted(app.env.get_domain("mlglossary").citations) if docname != "glossary")
    resolved = resolved_doctree(app, cited)
    assert isinstance(resolved.children[0], tooltip_slot)
    assert not resolved.children[0].children
    links = [ref for ref in resolved.findall(nodes.reference) if "mlglossary-term" in ref["classes"]]
    assert links == []  # marked while writing, not here
    page = Path(app.outdir) / f"{cited}.html"
    html = page.read_text(encoding="utf-8")
    assert 'class="mlglossary-card"' not in html and "mlglossary-term" in html
    cards = card_asset_data(Path(app.outdir) / "_static" / "mlglossary-cards.js")["cards"]
    keys = [card_key(a) for a in read_html(page).select("a.mlglossary-term")]
    assert keys and all(key in cards and 'class="mlglossary-card"' in cards[key] for key in keys)


def imports_of(path: Path) -> set[str]:
    """Modules of the package a module imports, wherever the import sits (type checking and functions included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = path.parent.relative_to(PACKAGE.parent).as_posix().replace("/", ".")
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            module = f"{base}.{node.module}" if node.module else base
            names = [module] if node.module else [f"{base}.{alias.name}" for alias in node.names]
            found.update(names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(PACKAGE.name):
            found.add(node.module or "")
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith(PACKAGE.name))
    return found


def test_no_import_cycle_between_the_packages_modules():
    """Imports run one way (CONTRIBUTING.md): no module reaches itself again through its imports,
    counting the imports made for type checking and inside functions."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        name = path.relative_to(PACKAGE.parent).with_suffix("").as_posix().replace("/", ".")
        modules[name.removesuffix(".__init__")] = path
    graph = {
        name: {target for target in imports_of(path) if target in modules and target != name}
        for name, path in modules.items()
    }
    # setup() imports every module to register it; the package's __init__ is the root, not a cycle
    graph[PACKAGE.name] = set()
    cycles = []
    state: dict[str, int] = {}

    def visit(name: str, trail: list[str]) -> None:
        state[name] = 1
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                cycles.append(" -> ".join([*trail[trail.index(target) :], target]))
            elif target not in state:
                visit(target, [*trail, target])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert cycles == []


def _launches_chromium(node: ast.AST) -> bool:
    """A call of ``<...>.chromium.launch(...)`` (Playwright's way to start the browser)."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "launch"
        and isinstance(node.func.value, ast.Attribute)
        and node.func.value.attr == "chromium"
    )


def _marked_browser(decorators: list[ast.expr]) -> bool:
    return any(ast.unparse(decorator).endswith("mark.browser") for decorator in decorators)


def test_every_test_that_starts_chromium_is_marked_browser():
    """CI's first run leaves the ``browser`` tests out (``-m "not browser"``, see .ci/run) and
    the second runs them: a test that starts Chromium without the marker would run twice."""
    unmarked = []
    for path in sorted(Path(__file__).parent.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        whole_module = any(
            isinstance(node, ast.Assign)
            and any(isinstance(target, ast.Name) and target.id == "pytestmark" for target in node.targets)
            and "mark.browser" in ast.unparse(node.value)
            for node in tree.body
        )
        if whole_module:
            continue
        unmarked += [
            f"{path.name}::{node.name}"
            for node in tree.body
            if isinstance(node, ast.FunctionDef)
            and any(_launches_chromium(call) for call in ast.walk(node))
            and not (node.name.startswith("test_") and _marked_browser(node.decorator_list))
        ]
    assert unmarked == []
