"""Tooltip cards, checked in the built HTML (the browser tests check behaviour)."""

from __future__ import annotations

import pytest

from sphinxcontrib_mlglossary.loader import bundled_glossary

from .conftest import TWIN_CITED, card_asset_data, card_key, read_html, read_html_with_cards, resolved_doctree


def build(root_app, buildername="html", **kwargs):
    app = root_app(buildername, "tooltips", **kwargs)
    app.build()
    assert app.warning.getvalue() == ""
    return app


def shared_build(built_root):
    """The HTML build of the tooltips root with its own settings, shared by tests that only read it."""
    app = built_root("tooltips")
    assert app.warning.getvalue() == ""
    return app


def term_links(soup):
    return [
        a
        for a in soup.select("a.reference.internal")
        if a.select_one(".std-term") and not a.find_parent(class_="mlglossary-card")
    ]


def test_every_resolved_term_link_has_a_card(built_root):
    app = shared_build(built_root)
    soup = read_html_with_cards(app.outdir / "index.html")
    links = term_links(soup)
    assert len(links) == 4
    cards = {card["data-mlglossary-href"]: card for card in soup.select("div.mlglossary-cards > div.mlglossary-card")}
    # one card per distinct term, not per link
    assert (
        set(cards)
        == {a["href"] for a in links}
        == {
            "glossary.html#term-attention-mask",
            "glossary.html#term-input-ids",
            "glossary.html#term-masked-language-modeling",
        }
    )
    for link in links:
        assert "mlglossary-term" in link["class"]
        assert link["title"]  # the no-JavaScript fallback
    mlm = cards["glossary.html#term-masked-language-modeling"]
    # a non-modal dialog named by its term (a card holds links: no "tooltip" role)
    assert (mlm["role"], mlm["aria-label"]) == ("dialog", "masked language modeling")
    assert not mlm.has_attr("aria-modal")
    assert mlm.select_one(".mlglossary-card-title").get_text(" ", strip=True) == "masked language modeling (MLM)"
    entry = bundled_glossary("en").get("masked-language-modeling")
    summary = mlm.select_one(".mlglossary-card-summary").get_text()
    assert " ".join(summary.split()) == " ".join(
        link_title(soup, "glossary.html#term-masked-language-modeling").split()
    )
    assert summary.strip()
    assert entry is not None
    assert mlm.select_one(".mlglossary-card-more a")["href"] == "glossary.html#term-masked-language-modeling"
    # scripts and styles travel only with pages that cite terms
    assert soup.select('script[src*="mlglossary.js"]')
    assert soup.select('link[href*="mlglossary.css"]')


def link_title(soup, href):
    return next(a["title"] for a in term_links(soup) if a["href"] == href)


def test_cards_for_the_projects_own_glossary_terms(built_root):
    app = shared_build(built_root)
    soup = read_html_with_cards(app.outdir / "user.html")
    card = soup.select_one(
        'div.mlglossary-card[data-mlglossary-href$="#term-savepoint"]'
    )  # written from the root: "user.html#..."
    assert card is not None
    assert card.select_one(".mlglossary-card-summary em").get_text() == "during"
    assert "Reload it to resume." in card.get_text()


def test_unresolved_links_and_plain_pages_get_nothing(built_root, tmp_path):
    app = shared_build(built_root)
    glossary_page = read_html_with_cards(app.outdir / "glossary.html")
    # the glossary page cites terms through "See also" links; pages citing nothing get no assets
    assert (app.outdir / "_static" / "mlglossary.js").exists()
    genindex = read_html(app.outdir / "genindex.html")
    assert not genindex.select('script[src*="mlglossary.js"]')
    assert glossary_page.select("div.mlglossary-card")


def test_summary_links_to_other_terms_are_resolved(built_root):
    app = shared_build(built_root)
    soup = read_html_with_cards(app.outdir / "index.html")
    for card in soup.select("div.mlglossary-card"):
        for a in card.select(".mlglossary-card-summary a"):
            assert a["href"].startswith("glossary.html#term-")


def test_tooltips_can_be_switched_off(root_app):
    app = build(root_app, confoverrides={"mlglossary_tooltips": False})
    soup = read_html_with_cards(app.outdir / "index.html")
    assert not soup.select("div.mlglossary-card")
    assert not soup.select('script[src*="mlglossary.js"]')
    assert not any(a.get("title") for a in term_links(soup))


def test_click_mode_is_passed_to_the_script(root_app):
    app = build(root_app, confoverrides={"mlglossary_tooltip_trigger": "click"})
    soup = read_html_with_cards(app.outdir / "index.html")
    assert soup.select_one("div.mlglossary-cards")["data-mlglossary-trigger"] == "click"


@pytest.mark.parametrize("buildername", ["epub", "latex", "text", "man", "texinfo"])
def test_other_builders_get_no_cards_and_no_assets(root_app, buildername):
    # a page of the twins' entries, every bundled one the root cites (one it left out would
    # warn): a card of any cited entry would show in the output
    app = build(root_app, buildername, page=TWIN_CITED)
    files = [p for p in app.outdir.rglob("*") if p.is_file()]
    assert not any(p.name in {"mlglossary.js", "mlglossary.css"} for p in files)
    text = "".join(
        p.read_text(errors="replace") for p in files if p.suffix in {".xhtml", ".tex", ".txt", ".1", ".texi"}
    )
    assert "mlglossary-card" not in text
    if buildername == "epub":
        assert 'class="mlglossary-term reference internal"' in text or "mlglossary-term" in text


def test_card_text_stays_out_of_the_search_index(built_root):
    import json

    app = shared_build(built_root)
    raw = (app.outdir / "searchindex.js").read_text()
    data = json.loads(raw[raw.index("(") + 1 : raw.rindex(")")])
    found = data["terms"].get("read", [])
    found = found if isinstance(found, list) else [found]
    # "Read more" exists on citing pages only inside cards: they must not match it
    assert data["docnames"].index("index") not in found


def test_static_assets_stay_under_8_kb():
    from sphinxcontrib_mlglossary.assets import CSS_FILE, JS_FILE, STATIC_DIR

    sizes = {name: (STATIC_DIR / name).stat().st_size for name in (CSS_FILE, JS_FILE)}
    assert sum(sizes.values()) < 8 * 1024, sizes


@pytest.mark.filterwarnings("ignore:'tags' will become")  # Sphinx 9 asks for tags; 7.3 takes none
def test_pages_carry_no_card_and_cards_are_prepared_once(root_app):
    """A card is site data: prepared once per build, written once into the site's card
    script; a page's doctree and HTML hold only the marks on its term links."""
    from sphinxcontrib_mlglossary.card_asset import site_cards
    from sphinxcontrib_mlglossary.card_marks import mark_links
    from sphinxcontrib_mlglossary.domain import glossary_domain

    app = build(root_app)
    domain = glossary_domain(app.env)
    prepared = site_cards(domain, app.builder)

    def marked_index():
        # what the slot's visitor does when the page is written
        doctree = resolved_doctree(app, "index")
        assert mark_links(domain, app.builder, "index", doctree)
        return doctree

    first, second = marked_index(), marked_index()
    assert site_cards(domain, app.builder) is prepared  # nothing prepared again per page
    for doctree in (first, second):
        assert not [
            node
            for node in doctree.findall()
            if "mlglossary-card" in str(node.get("classes", "") if hasattr(node, "get") else "")
        ]
    html = (app.outdir / "index.html").read_text(encoding="utf-8")
    assert "mlglossary-card" not in html.replace("mlglossary-card--", "")
    data = card_asset_data(app.outdir / "_static" / "mlglossary-cards.js")
    keys = {card_key(a) for a in read_html(app.outdir / "index.html").select("a.mlglossary-term")}
    assert len(keys) == 3 and keys <= set(data["cards"])
    assert len(data["cards"]) == len(prepared)
    assert {card.key for card in prepared.values()} == set(data["cards"])
    assert any('data-mlglossary-href="glossary.html#term-attention-mask"' in card for card in data["cards"].values())
