"""The documented translation workflow, run for real: sphinx-build -b gettext, sphinx-intl update, build.

A translator's whole round trip on ``roots/test-translation-md``, each step a subprocess
with this interpreter's own ``sphinx`` and ``sphinx_intl``, as the how-to "Translate your documentation"
section lists them. The catalogs sphinx-intl creates are filled in the way a translator
fills them: the text in Spanish or Arabic, each ``{term}`` either keeping its English
target under a translated title or citing the entry by its localized glossary name.
Then each language is built and its HTML checked: links land on the localized glossary
entries, cards speak the page's language, backlinks name the translated pages, and no
build prints a warning (Sphinx 9's "inconsistent term references" included).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po, write_po

import sphinxcontrib_mlglossary
from sphinxcontrib_mlglossary.loader import bundled_glossary

from .conftest import ROOTS, read_html_head, read_html_with_cards

LANGUAGES = ["es", "ar"]
PAGES = ["index", "training", "glossary"]
UI_CATALOGS = Path(sphinxcontrib_mlglossary.__file__).parent / "locales"  # the extension's own strings

#: what a translator writes for each message sphinx-intl puts in the catalogs. Some
#: citations keep the English target (``{term}`título <target>```), others cite the
#: entry by its name in the glossary of that language, as CITED_BY_LOCAL_NAME lists.
TRANSLATIONS: dict[str, dict[str, str]] = {
    "es": {
        "Fine-tuning notes": "Notas de ajuste fino",
        "These notes start from a {term}`pretrained model` and change it as little as they can.": (
            "Estas notas parten de un {term}`modelo preentrenado <pretrained model>` y lo cambian lo menos posible."
        ),
        "Training loop": "Bucle de entrenamiento",
        "Batches": "Lotes",
        "Each batch pairs the {term}`input IDs` with an {term}`attention mask`, so that {term}`padding` changes nothing.": (
            "Cada lote acompaña los {term}`IDs de entrada <input IDs>` de una {term}`máscara de atención`, "
            "para que el {term}`relleno` no cambie nada."
        ),
        "Objectives": "Objetivos",
        "{term}`MLM` hides some {term}`tokens <token>` and keeps the hidden ones as {term}`labels`.": (
            "El {term}`MLM` oculta algunos {term}`tokens <token>` y guarda los ocultos como {term}`etiquetas`."
        ),
        "Schedule": "Calendario",
        "Keep the {term}`learning rate` small and stop after a few {term}`epochs <epoch>`.": (
            "Mantén pequeña la {term}`tasa de aprendizaje` y detente tras unas pocas {term}`épocas <epoch>`."
        ),
        "Glossary": "Glosario",
    },
    "ar": {
        "Fine-tuning notes": "ملاحظات الضبط الدقيق",
        "These notes start from a {term}`pretrained model` and change it as little as they can.": (
            "تنطلق هذه الملاحظات من {term}`النموذج المدرّب مسبقًا` وتغيّره بأقل قدر ممكن."
        ),
        "Training loop": "حلقة التدريب",
        "Batches": "الدفعات",
        "Each batch pairs the {term}`input IDs` with an {term}`attention mask`, so that {term}`padding` changes nothing.": (
            "تقرن كل دفعة {term}`معرّفات الإدخال <input IDs>` مع {term}`قناع الانتباه`، كي لا يغيّر {term}`الحشو` شيئًا."
        ),
        "Objectives": "الأهداف",
        "{term}`MLM` hides some {term}`tokens <token>` and keeps the hidden ones as {term}`labels`.": (
            "يخفي {term}`MLM` بعض {term}`الرموز <token>` ويحتفظ بالمخفيّ منها بوصفه {term}`التسميات`."
        ),
        "Schedule": "الجدول الزمني",
        "Keep the {term}`learning rate` small and stop after a few {term}`epochs <epoch>`.": (
            "أبقِ {term}`معدل التعلّم <learning rate>` صغيرًا وتوقّف بعد بضع {term}`حقب <epoch>`."
        ),
        "Glossary": "مسرد المصطلحات",
    },
}

#: the entries each page cites in its English source, in order
CITED = {
    "index": ["pretrained-model"],
    "training": [
        "input-ids",
        "attention-mask",
        "padding",
        "masked-language-modeling",
        "token",
        "labels",
        "learning-rate",
        "epoch",
    ],
}

#: (page, entry) the translations above cite by the entry's localized name, with no target
CITED_BY_LOCAL_NAME = {
    "es": [
        ("training", "attention-mask"),
        ("training", "padding"),
        ("training", "labels"),
        ("training", "learning-rate"),
    ],
    "ar": [
        ("index", "pretrained-model"),
        ("training", "attention-mask"),
        ("training", "padding"),
        ("training", "labels"),
    ],
}

TERM_ROLE = re.compile(r"\{term\}`(?:([^`<]*?)\s*<([^`>]+)>|([^`]+))`")


def run(*command: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run one step of the workflow with this interpreter's modules; it must succeed."""
    done = subprocess.run([sys.executable, *map(str, command)], cwd=cwd, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"{command}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


def translate_catalogs(srcdir: Path, language: str) -> int:
    """Fill every message of the language's catalogs as a translator would; returns how many."""
    filled = 0
    for po in sorted((srcdir / "locales" / language / "LC_MESSAGES").glob("*.po")):
        with po.open("rb") as stream:
            catalog = read_po(stream, locale=language)
        for message in catalog:
            if message.id:
                assert not message.string, f"{po.name}: sphinx-intl made {message.id!r} already translated"
                message.string = TRANSLATIONS[language][message.id]
                filled += 1
        catalog.fuzzy = False  # the header's "fuzzy" mark, cleared once the catalog is reviewed
        catalog.last_translator = "sphinxcontrib-mlglossary tests"
        with po.open("wb") as stream:
            write_po(stream, catalog)
    return filled


@dataclass
class Workflow:
    """What each step left behind: the message templates, the catalogs and the built sites."""

    srcdir: Path
    gettext: Path
    sites: dict[str, Path]
    warnings: dict[str, str]
    intl_output: str
    filled: dict[str, int]
    _read: dict[tuple[str, str], Any] = field(default_factory=dict, init=False, repr=False)

    def page(self, language: str, name: str):
        """A fresh copy of the page, with its cards, for a caller that changes it (``visible_text``)."""
        return read_html_with_cards(self.sites[language] / f"{name}.html")

    def read_page(self, language: str, name: str):
        """The page with its cards, parsed once for the module: for callers that only read it."""
        if (language, name) not in self._read:
            self._read[language, name] = self.page(language, name)
        return self._read[language, name]


@pytest.fixture(scope="module")
def workflow(tmp_path_factory) -> Workflow:
    work = tmp_path_factory.mktemp("translation")
    srcdir = work / "docs"
    shutil.copytree(ROOTS / "test-translation-md", srcdir)
    gettext = srcdir / "_build" / "gettext"
    # sphinx-build -q prints nothing but warnings, on stderr
    warnings = {"gettext": run("-m", "sphinx", "-q", "-b", "gettext", ".", gettext, cwd=srcdir).stderr}
    intl = run("-m", "sphinx_intl", "update", "-p", gettext, "-l", "es", "-l", "ar", cwd=srcdir)
    filled = {language: translate_catalogs(srcdir, language) for language in LANGUAGES}
    sites = {}
    for language in LANGUAGES:
        sites[language] = srcdir / "_build" / "html" / language
        command = ["-m", "sphinx", "-q", "-b", "html", "-D", f"language={language}", ".", sites[language]]
        warnings[language] = run(*command, cwd=srcdir).stderr
    return Workflow(srcdir, gettext, sites, warnings, intl.stdout + intl.stderr, filled)


def ui_string(language: str, english: str) -> str:
    """The extension's own translation of one of its UI strings."""
    path = UI_CATALOGS / language / "LC_MESSAGES" / "sphinxcontrib_mlglossary.po"
    with path.open("rb") as stream:
        translated = read_po(stream, locale=language)[english].string
    assert translated and translated != english
    return translated


def rendered(markup: str) -> str:
    """The text a reader sees for one message: role titles (or targets), no backticks."""
    return " ".join(TERM_ROLE.sub(lambda m: m.group(1) or m.group(3), markup).replace("`", "").split())


def visible_text(soup) -> str:
    body = soup.select_one("[role=main]")
    for hidden in body.select("div.mlglossary-cards"):
        hidden.decompose()
    return " ".join(body.get_text().replace("¶", "").split())


def term_links(soup) -> list:
    """The term references in the page's text (the cards' own links left out)."""
    return [
        a
        for a in soup.select("[role=main] a.reference.internal")
        if a.select_one(".std-term") and not a.find_parent(class_="mlglossary-card")
    ]


def test_each_step_runs_without_a_warning(workflow):
    assert workflow.warnings == {"gettext": "", "es": "", "ar": ""}
    for language in LANGUAGES:
        for page in PAGES:
            assert f"Create: locales/{language}/LC_MESSAGES/{page}.po" in workflow.intl_output
        assert workflow.filled[language] == len(TRANSLATIONS[language])
        # Sphinx compiled the catalogs itself: the .po files are all a project keeps
        assert {mo.stem for mo in (workflow.srcdir / "locales" / language / "LC_MESSAGES").glob("*.mo")} == set(PAGES)


def test_the_glossary_text_stays_out_of_the_catalogs(workflow):
    """Only the writers' own text is extracted: the glossary page's template holds its title alone."""
    with (workflow.gettext / "glossary.pot").open("rb") as stream:
        assert [message.id for message in read_po(stream) if message.id] == ["Glossary"]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("page", PAGES)
def test_pages_show_the_translation(workflow, language, page):
    text = visible_text(workflow.page(language, page))
    with (workflow.gettext / f"{page}.pot").open("rb") as stream:
        english = [message.id for message in read_po(stream) if message.id]
    assert english
    for message in english:
        assert rendered(TRANSLATIONS[language][message]) in text, message
        assert rendered(message) not in text, f"English left on the page: {message!r}"
    html = read_html_head(workflow.sites[language] / f"{page}.html").find("html")
    assert html["lang"] == language
    assert html.get("dir") == ("rtl" if language == "ar" else None)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("page", ["index", "training"])
def test_citations_land_on_the_localized_entries(workflow, language, page):
    """Whatever name a translator cites, each link lands on the entry the English page cites."""
    links = term_links(workflow.read_page(language, page))
    assert sorted(a["href"] for a in links) == sorted(f"glossary.html#term-{entry}" for entry in CITED[page])
    terms = {dt["id"]: dt for dt in workflow.read_page(language, "glossary").select("dt[id]")}
    entries = bundled_glossary(language)
    for a in links:
        entry = entries.get(a["href"].split("#term-")[1])
        assert entry is not None
        term = terms.get(entry.anchor)
        assert term is not None and term.get_text().startswith(entry.name), entry.id
    by_target = {a["href"]: a.get_text() for a in links}
    for cited_page, entry_id in CITED_BY_LOCAL_NAME[language]:
        if cited_page == page:
            name = entries.get(entry_id).name
            assert by_target[f"glossary.html#term-{entry_id}"] == name
            assert f"{{term}}`{name}`" in "".join(TRANSLATIONS[language].values())


@pytest.mark.parametrize("language", LANGUAGES)
def test_cards_speak_the_pages_language(workflow, language):
    soup = workflow.read_page(language, "training")
    cards = {card["data-mlglossary-href"]: card for card in soup.select("div.mlglossary-cards > div.mlglossary-card")}
    links = term_links(soup)
    assert set(cards) == {a["href"] for a in links}
    english = bundled_glossary("en")
    for a in links:
        assert "mlglossary-term" in a["class"]
        assert a["title"]  # the fallback without JavaScript
        entry = bundled_glossary(language).get(a["href"].split("#term-")[1])
        card = cards[a["href"]]
        assert card["aria-label"] == entry.name
        summary = " ".join(card.select_one(".mlglossary-card-summary").get_text().split())
        assert summary.split()[:3] == rendered(entry.summary).split()[:3], entry.id
        assert summary.split()[:3] != rendered(english.get(entry.id).summary).split()[:3], entry.id
        more = card.select_one(".mlglossary-card-more a")
        assert (more["href"], more.get_text(strip=True)) == (a["href"], ui_string(language, "Read more"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_backlinks_name_the_translated_pages(workflow, language):
    glossary = workflow.read_page(language, "glossary")
    training = workflow.read_page(language, "training")
    page_title = TRANSLATIONS[language]["Training loop"]
    sections = {
        "attention-mask": TRANSLATIONS[language]["Batches"],
        "labels": TRANSLATIONS[language]["Objectives"],
        "epoch": TRANSLATIONS[language]["Schedule"],
    }
    for entry_id, section in sections.items():
        box = glossary.find(id=f"term-{entry_id}").find_next_sibling("dd").select_one("div.mlglossary-backlinks")
        assert box.select_one(".mlglossary-backlinks-label").get_text() == ui_string(language, "Cited in:")
        [item] = box.select("li")
        link = item.select_one("a")
        assert link.get_text() == f"{page_title} › {section}"
        page, anchor = link["href"].split("#")
        assert page == "training.html"
        citation = training.find(id=anchor)
        assert citation is not None and citation["href"] == f"glossary.html#term-{entry_id}"
    front = glossary.find(id="term-pretrained-model").find_next_sibling("dd").select_one("div.mlglossary-backlinks")
    assert [a.get_text() for a in front.select("li a")] == [TRANSLATIONS[language]["Fine-tuning notes"]]


def test_running_the_workflow_again_leaves_translated_catalogs_alone(workflow):
    """Extracting and updating again with unchanged pages rewrites nothing, so `make translations` makes no churn."""
    catalogs = sorted((workflow.srcdir / "locales").glob("*/LC_MESSAGES/*.po"))
    before = {po: po.read_bytes() for po in catalogs}
    again = workflow.srcdir / "_build" / "gettext-again"
    assert run("-m", "sphinx", "-q", "-b", "gettext", ".", again, cwd=workflow.srcdir).stderr == ""
    intl = run("-m", "sphinx_intl", "update", "-p", again, "-l", "es", "-l", "ar", cwd=workflow.srcdir)
    assert intl.stdout.count("Not Changed:") == len(catalogs) == len(LANGUAGES) * len(PAGES)
    assert {po: po.read_bytes() for po in catalogs} == before
    stat = run("-m", "sphinx_intl", "stat", "-l", "es", "-l", "ar", cwd=workflow.srcdir).stdout
    assert stat.count(" 0 fuzzy, 0 untranslated.") == len(catalogs), stat
