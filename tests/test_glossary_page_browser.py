"""example_docs in headless Chromium: the glossary page's letter bar, entries' code, accessibility,
and the cards of terms another site defines.

example_docs is built once per language (English in Furo where it is installed, Arabic in
the default theme, right to left). Skipped without chromium or Playwright, except under
``CI=true``; so does the accessibility check without ``axe-playwright-python``.
"""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

import pytest

from .shared_builds import shared_build
from .sphinx_process import quiet_build

# browser, open_page and axe are fixtures, used by name; importing test_browser also skips
# this module without chromium or Playwright (an error under CI=true)
from .test_browser import PlaywrightTimeoutError, browser, card_of, open_page, shown  # noqa: F401
from .test_card_accessibility import SAMPLE, axe, axe_results, mark_glossary_sample, serious_in  # noqa: F401

pytestmark = pytest.mark.browser

EXAMPLE = Path(__file__).parent.parent / "example_docs"
#: the extension's own elements on a glossary page
OURS = ".mlglossary-letters, .mlglossary-letter, .mlglossary-backlinks, .mlglossary-example"


def build_example(folder: Path, language: str) -> None:
    srcdir, out = folder / "src", folder / "html"
    shutil.copytree(EXAMPLE, srcdir, ignore=shutil.ignore_patterns("_build", "*.mo"))
    quiet_build(srcdir, out, "-W", "-D", f"language={language}")


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """language -> the glossary page of example_docs built in it, once per session for every
    xdist worker (``shared_builds``)."""
    built = {}
    for language in ("en", "ar"):
        key = (str(EXAMPLE), "html", "-W", f"language={language}")
        folder = shared_build(tmp_path_factory, key, lambda out, language=language: build_example(out, language))
        built[language] = folder / "html" / "glossary.html"
    return built


@pytest.mark.parametrize("language", ["en", "ar"])
def test_letter_bar_lands_on_each_letter(sites, open_page, language):  # noqa: F811 (fixtures imported above)
    page = open_page(sites[language], reduced_motion="reduce")
    links = page.locator("nav.mlglossary-letters a")
    assert links.count() >= 20
    for index in (0, links.count() // 2, links.count() - 1):
        link = links.nth(index)
        target = link.get_attribute("href")
        link.click()
        page.wait_for_function("h => location.hash === h", arg=target)
        # settled where it belongs: themes may scroll smoothly, and on a busy machine the
        # scroll can start after two polls that read the heading still where it was (a run
        # failed so, the heading 7,133 px down); past the time limit the assertions below
        # say where it stopped
        with contextlib.suppress(PlaywrightTimeoutError):
            page.wait_for_function(
                "([id, limit]) => { const t = document.getElementById(id).getBoundingClientRect().top;"
                " const end = Math.ceil(scrollY + innerHeight) >= document.scrollingElement.scrollHeight;"
                " const s = window.__last === t; window.__last = t;"
                " return s && t >= 0 && t < (end ? innerHeight : limit); }",
                arg=[target[1:], 150],
                polling=100,
                timeout=10_000,
            )
        heading = page.locator(target)
        assert heading.evaluate("e => e.tagName") == "H2"
        assert heading.inner_text().startswith(link.inner_text())
        top = heading.evaluate("e => e.getBoundingClientRect().top")
        # at the top of the window, not under a header; a last letter whose entries are
        # shorter than the window can only come as high as the page's end lets it
        at_end = page.evaluate(
            "() => Math.ceil(window.scrollY + window.innerHeight) >= document.scrollingElement.scrollHeight"
        )
        assert 0 <= top < (page.viewport_size["height"] if at_end else 150), (target, top, at_end)


@pytest.mark.parametrize("width", [400, 1100])
@pytest.mark.parametrize("language", ["en", "ar"])
def test_entries_code_stays_inside_its_entry(sites, open_page, language, width):  # noqa: F811 (fixtures imported above)
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
def test_glossary_page_elements_pass_axe(sites, open_page, axe, language, mode):  # noqa: F811 (fixtures imported above)
    page = open_page(sites[language], color_scheme=mode)
    mark_glossary_sample(page)
    ours_in_sample = ", ".join(f"{SAMPLE} {part}, {part}{SAMPLE}" for part in OURS.split(", "))
    results = axe_results(axe, page, ours_in_sample)
    assert serious_in(results) == []
    assert results["passes"], "axe checked nothing"


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_folded_example_opens_and_closes_from_the_keyboard(sites, open_page, language):  # noqa: F811 (fixtures imported above)
    """The summary takes focus in tab order, says what it holds, and Enter or Space open and close it."""
    page = open_page(sites[language])
    folds = page.locator("div.mlglossary details.mlglossary-example")
    assert folds.count() > 20
    fold = folds.nth(3)
    summary = fold.locator("summary")
    assert fold.locator("pre").is_hidden()
    # Tab from the last link before the fold reaches its summary (scrollable code may take a stop first)
    fold.evaluate(
        "d => { const links = [...document.querySelectorAll('a[href]')].filter("
        "a => a.compareDocumentPosition(d) & Node.DOCUMENT_POSITION_FOLLOWING); links.at(-1).focus(); }"
    )
    for _press in range(5):
        page.keyboard.press("Tab")
        if summary.evaluate("s => s === document.activeElement"):
            break
    assert summary.evaluate("s => s === document.activeElement")
    expected = "(" if language == "en" else "مثال"
    assert expected in summary.inner_text()
    page.keyboard.press("Enter")
    assert fold.evaluate("d => d.open") and fold.locator("pre").is_visible()
    page.keyboard.press("Space")
    assert not fold.evaluate("d => d.open")
    # the browser's find-in-page reaches text inside a closed fold: nothing is hidden from search
    assert fold.locator("pre").is_hidden()


def test_page_height_with_folded_examples(sites, open_page):  # noqa: F811 (fixtures imported above)
    """Folding makes the page shorter by at least the height of the folded code (measured, see the report)."""
    page = open_page(sites["en"], width=1280)
    closed = page.evaluate("() => document.documentElement.scrollHeight")
    page.evaluate("() => document.querySelectorAll('details.mlglossary-example').forEach(d => d.open = true)")
    opened = page.evaluate("() => document.documentElement.scrollHeight")
    assert opened - closed > 0.12 * opened, (closed, opened)


#: the first words of the other site's definition of UTF-8, in each language
UTF8_DEFINITION = {"en": "The encoding that writes each code point", "ar": "الترميز الذي يكتب كل نقطة ترميز"}


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_term_another_site_defines_shows_its_card_on_hover(sites, open_page, language):  # noqa: F811 (fixtures imported above)
    """tokenization.html cites UTF-8 from Text Encoding Notes (mapped with intersphinx): hovering
    shows the card made from that site's definition, and "read more" lands on its term there."""
    page = open_page(sites[language].parent / "tokenization.html", reduced_motion="reduce")
    link = page.locator('a.mlglossary-term[href="encoding-notes/index.html#term-UTF-8"]')
    link.scroll_into_view_if_needed()
    link.hover()
    card = card_of(page, link)
    shown(card)
    assert card.locator(".mlglossary-card-title").inner_text() == "UTF-8"
    assert card.locator(".mlglossary-card-summary").inner_text().startswith(UTF8_DEFINITION[language])
    card.locator(".mlglossary-card-more a").click()
    page.wait_for_url("**/encoding-notes/index.html#term-UTF-8")
    assert page.locator("dt#term-UTF-8").is_visible()
