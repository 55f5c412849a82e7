"""The glossary page of example_docs in headless Chromium: letter bar, entries' code, accessibility.

example_docs is built once per language (English in Furo where it is installed, Arabic in
the default theme, right to left). Skipped without chromium or Playwright, except under
``CI=true``; the accessibility check needs ``axe-playwright-python``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - the test extra installs it
    sync_playwright = None

CHROMIUM = shutil.which("chromium")
if CHROMIUM is None or sync_playwright is None:
    missing = "chromium" if CHROMIUM is None else "playwright"
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but {missing} is not installed: the browser tests cannot run", pytrace=False)
    pytest.skip(f"{missing} is not installed", allow_module_level=True)

pytestmark = pytest.mark.browser

EXAMPLE = Path(__file__).parent.parent / "example_docs"
#: the extension's own elements on a glossary page
OURS = [[".mlglossary-letters"], [".mlglossary-letter"], [".mlglossary-backlinks"]]


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("example")
    srcdir = base / "src"
    shutil.copytree(EXAMPLE, srcdir, ignore=shutil.ignore_patterns("_build", "*.mo"))
    built = {}
    for language in ("en", "ar"):
        out = base / language
        command = [sys.executable, "-m", "sphinx", "-q", "-W", "-b", "html", "-D", f"language={language}"]
        result = subprocess.run([*command, str(srcdir), str(out)], capture_output=True, text=True, check=False)
        assert result.returncode == 0, result.stderr
        built[language] = out / "glossary.html"
    return built


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield browser
        browser.close()


@pytest.fixture
def open_page(browser):
    contexts = []

    def _open(path: Path, width: int = 1100, height: int = 700, **options):
        context = browser.new_context(viewport={"width": width, "height": height}, **options)
        contexts.append(context)
        page = context.new_page()
        page.goto(path.as_uri())
        return page

    yield _open
    for context in contexts:
        context.close()


@pytest.mark.parametrize("language", ["en", "ar"])
def test_letter_bar_lands_on_each_letter(sites, open_page, language):
    page = open_page(sites[language], reduced_motion="reduce")
    links = page.locator("nav.mlglossary-letters a")
    assert links.count() >= 20
    for index in (0, links.count() // 2, links.count() - 1):
        link = links.nth(index)
        target = link.get_attribute("href")
        link.click()
        page.wait_for_function("h => location.hash === h", arg=target)
        page.wait_for_function(  # settled: themes may scroll smoothly
            "id => { const t = document.getElementById(id).getBoundingClientRect().top;"
            " const s = window.__last === t; window.__last = t; return s; }",
            arg=target[1:],
            polling=100,
        )
        heading = page.locator(target)
        assert heading.evaluate("e => e.tagName") == "H2"
        assert heading.inner_text().startswith(link.inner_text())
        top = heading.evaluate("e => e.getBoundingClientRect().top")
        assert 0 <= top < 150, (target, top)  # at the top of the window, not under a header


@pytest.mark.parametrize("width", [400, 1100])
@pytest.mark.parametrize("language", ["en", "ar"])
def test_entries_code_stays_inside_its_entry(sites, open_page, language, width):
    """Long identifiers in entries wrap, code blocks scroll: nothing runs past its entry."""
    page = open_page(sites[language], width=width)
    outside = page.evaluate("""() => {
        const out = [];
        for (const dd of document.querySelectorAll("div.mlglossary dd")) {
            const box = dd.getBoundingClientRect();
            for (const el of dd.querySelectorAll("code, pre, div.highlight")) {
                const r = el.getBoundingClientRect();
                if (r.width && (r.right > box.right + 1 || r.left < box.left - 1)) out.push(el.textContent.slice(0, 40));
                const s = getComputedStyle(el);
                if (el.tagName === "PRE" && el.scrollWidth > el.clientWidth + 1 && !["auto", "scroll"].includes(s.overflowX))
                    out.push("clipped: " + el.textContent.slice(0, 40));
            }
        }
        return out;
    }""")
    assert outside == []


@pytest.mark.parametrize("mode", ["light", "dark"])
@pytest.mark.parametrize("language", ["en", "ar"])
def test_glossary_page_elements_pass_axe(sites, open_page, language, mode):
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    page = open_page(sites[language], color_scheme=mode)
    results = axe_module.Axe().run(page, context={"include": OURS})
    serious = [
        (violation["id"], [node["target"] for node in violation["nodes"]][:3])
        for violation in results.response["violations"]
        if violation["impact"] in {"serious", "critical"}
    ]
    assert serious == []
    assert results.response["passes"], "axe checked nothing"
