"""Auto-linking measured on a labelled corpus: precision first, and the recall it promises.

``tests/fixtures/autolink_corpus/<language>.txt`` holds documentation sentences written
for this project (see its README): everyday uses of every single-word name of the
glossary, and genuine machine-learning uses marked ``[[words|entry-id]]``. Each language
is built as a real MyST project with ``mlglossary_autolink = "all"`` (every mention, the
strictest mode), one section per sentence, and the links in the HTML are compared with
the labels:

- precision: links that land on a marked mention of the entry they link / all links;
- recall: marked mentions linked / marked mentions written with a name the glossary data
  lets auto-linking use (``Entry.linkable_names``); mentions by everyday words the data
  keeps for ``{term}`` are counted apart ("all genuine") and only reported.

A second build opts every entry in (``mlglossary_autolink_include`` with every id), the
rule before precision came first; its numbers are reported to show what the data's
choice buys. BENCHMARKS.md quotes the numbers this test prints.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from sphinxcontrib_mlglossary.inflection import POSSESSIVE
from sphinxcontrib_mlglossary.loader import bundled_glossary
from sphinxcontrib_mlglossary.model import fold
from sphinxcontrib_mlglossary.term_pattern import forms_of

from .conftest import build_html_quietly, ids_of, read_html

CORPUS = Path(__file__).parent / "fixtures" / "autolink_corpus"
LANGUAGES = ("en", "es", "ar")
_MARK = re.compile(r"\[\[([^|\]]+)\|([a-z0-9-]+)\]\]")

#: the two wrong links seen on a real project before precision came first
REAL_PROJECT_MISTAKES = ("- **Patch versions**: Tiny bugfixes", "GUI labels (like")


@dataclass(frozen=True)
class Sentence:
    text: str
    #: (words as written, entry id) of each genuine mention, in order
    mentions: tuple[tuple[str, str], ...]


def read_corpus(language: str) -> list[Sentence]:
    sentences = []
    for line in (CORPUS / f"{language}.txt").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        mentions = tuple((m.group(1), m.group(2)) for m in _MARK.finditer(line))
        sentences.append(Sentence(_MARK.sub(r"\1", line), mentions))
    return sentences


def promised_forms(language: str) -> dict[str, set[str]]:
    """entry id -> folded forms of the names its data lets auto-linking use."""
    glossary = bundled_glossary(language)
    return {
        entry.id: {
            fold(form)
            for name in entry.linkable_names
            for form in forms_of(name, language, abbreviation=name in entry.abbreviations)
        }
        for entry in glossary
    }


def build(tmp_path: Path, language: str, sentences: list[Sentence], **conf: object) -> dict[int, list[tuple[str, str]]]:
    """Build the corpus as a MyST project; section number -> [(link text, entry id)]."""

    src = tmp_path / "src"
    shutil.rmtree(src, ignore_errors=True)
    src.mkdir(parents=True)
    settings = {"language": language, "mlglossary_autolink": "all", **conf}
    (src / "conf.py").write_text(
        'extensions = ["myst_parser", "sphinxcontrib_mlglossary"]\n'
        + "".join(f"{key} = {value!r}\n" for key, value in settings.items()),
        encoding="utf-8",
    )
    (src / "index.md").write_text("# Corpus\n\n```{toctree}\nsentences\nglossary\n```\n", encoding="utf-8")
    (src / "glossary.md").write_text("# Glossary\n\n```{mlglossary}\n```\n", encoding="utf-8")
    body = "".join(f"## s{number}\n\n{sentence.text}\n\n" for number, sentence in enumerate(sentences))
    (src / "sentences.md").write_text(f"# Sentences\n\n{body}", encoding="utf-8")
    app, warning_text = build_html_quietly(src)
    assert warning_text == ""
    soup = read_html(app.outdir / "sentences.html")
    found: dict[int, list[tuple[str, str]]] = {}
    ids = ids_of(soup)
    for number in range(len(sentences)):
        section = ids.get(f"s{number}")
        assert section is not None, number
        found[number] = [
            (" ".join(a.get_text().split()), a["href"].rsplit("#term-", 1)[1])
            for a in section.select("a")
            if a.select_one(".mlglossary-autolink")
        ]
    return found


@dataclass
class Score:
    links: int = 0
    right: int = 0
    promised: int = 0
    promised_found: int = 0
    genuine: int = 0
    genuine_found: int = 0

    @property
    def precision(self) -> float:
        return self.right / self.links if self.links else 1.0

    @property
    def recall(self) -> float:
        return self.promised_found / self.promised if self.promised else 1.0

    @property
    def recall_all(self) -> float:
        return self.genuine_found / self.genuine if self.genuine else 1.0


def _key(text: str) -> str:
    """Text compared with a label: folded, with typographic apostrophes made plain (smart quotes)."""
    return fold(text.replace("’", "'"))


def score(
    sentences: list[Sentence], found: dict[int, list[tuple[str, str]]], promised: dict[str, set[str]]
) -> tuple[Score, list[str]]:
    total = Score()
    wrong: list[str] = []
    for number, sentence in enumerate(sentences):
        expected = Counter((_key(written), entry) for written, entry in sentence.mentions)
        linked = Counter((_key(text), entry) for text, entry in found[number])
        hits = expected & linked
        total.links += sum(linked.values())
        total.right += sum(hits.values())
        wrong += [f"{text!r} -> {entry} in {sentence.text!r}" for (text, entry) in (linked - hits).elements()]
        for (written, entry), count in expected.items():
            total.genuine += count
            total.genuine_found += hits[(written, entry)]
            if fold(POSSESSIVE.sub("", written)) in promised.get(entry, set()) or written in promised.get(entry, set()):
                total.promised += count
                total.promised_found += hits[(written, entry)]
    return total, wrong


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[tuple[str, str], tuple[Score, list[str], list[Sentence], dict]]:
    out = {}
    for language in LANGUAGES:
        sentences = read_corpus(language)
        promised = promised_forms(language)
        every = [entry.id for entry in bundled_glossary(language)]
        for label, conf in (("default", {}), ("every name", {"mlglossary_autolink_include": every})):
            found = build(tmp_path_factory.mktemp(f"{language}-{label.replace(' ', '-')}"), language, sentences, **conf)
            result, wrong = score(sentences, found, promised)
            out[(language, label)] = (result, wrong, sentences, found)
    return out


def single_words_kept_for_term(language: str) -> list[str]:
    """The language's own single-word names (and abbreviations) the data doesn't auto-link."""
    inherited = set()
    if language != "en":
        inherited = {name for entry in bundled_glossary("en") for name in (entry.name, *entry.abbreviations)}
    return [
        name
        for entry in bundled_glossary(language)
        for name in entry.names
        if " " not in name and name not in entry.linkable_names and name not in inherited
    ]


def test_corpus_covers_every_single_word_name_and_real_sentences():
    for language in LANGUAGES:
        sentences = read_corpus(language)
        everyday = [s for s in sentences if not s.mentions]
        genuine = [s for s in sentences if s.mentions]
        assert len(everyday) >= 60 and len(genuine) >= 50, language
        text = fold(" ".join(s.text for s in sentences))
        missing = [
            name
            for name in single_words_kept_for_term(language)
            if not re.search(rf"(?<!\w){re.escape(fold(name))}", text)
        ]
        # every single word the data keeps for {term} is used in the corpus, in its everyday sense
        assert missing == [], (language, missing)
    english = [s.text for s in read_corpus("en")]
    for mistake in REAL_PROJECT_MISTAKES:
        assert any(text.startswith(mistake) or mistake in text for text in english), mistake


def test_precision_and_recall_of_auto_linking(results):
    lines = [f"{'language':8} {'rule':10} {'links':>5} {'wrong':>5} {'precision':>9} {'recall':>7} {'all genuine':>11}"]
    overall = Score()
    for (language, label), (result, _wrong, _sentences, _found) in sorted(results.items()):
        lines.append(
            f"{language:8} {label:10} {result.links:5d} {result.links - result.right:5d} "
            f"{result.precision:9.3f} {result.recall:7.3f} {result.recall_all:11.3f}"
        )
        if label == "default":
            for name in ("links", "right", "promised", "promised_found", "genuine", "genuine_found"):
                setattr(overall, name, getattr(overall, name) + getattr(result, name))
    lines.append(
        f"{'all':8} {'default':10} {overall.links:5d} {overall.links - overall.right:5d} "
        f"{overall.precision:9.3f} {overall.recall:7.3f} {overall.recall_all:11.3f}"
    )
    print("\n" + "\n".join(lines))
    for (language, label), (_result, wrong, _s, _f) in sorted(results.items()):
        if label == "default":
            print(f"{language}: wrong links: {wrong}")
    assert overall.precision >= 0.98
    assert overall.recall >= 0.9
    for language in LANGUAGES:
        result = results[(language, "default")][0]
        assert result.precision >= 0.98, (language, results[(language, "default")][1])
        assert result.recall >= 0.9, language
        # what the data's choice buys: linking every name is far less precise
        assert results[(language, "every name")][0].precision < result.precision


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_context_rule_adds_no_wrong_links_to_everyday_lines(tmp_path, language):
    """The context rule (``mlglossary_autolink_context``) links the everyday words of ML
    sections; a section of everyday prose is not one, so over the everyday sentences it
    adds at most one wrong link in 100 to those of the names linked anyway. All rules
    together stay within one wrong link in 100 everyday sentences too (names linked
    anyway are held back where the sentence speaks of their other sense)."""
    everyday = [sentence for sentence in read_corpus(language) if not sentence.mentions]
    with_context = build(tmp_path / "on", language, everyday, mlglossary_autolink_context=3)
    without = build(tmp_path / "off", language, everyday, mlglossary_autolink_context=0)
    added = [
        f"{text!r} -> {entry} in {everyday[n].text!r}"
        for n, links in with_context.items()
        for text, entry in (Counter(links) - Counter(without[n])).elements()
    ]
    total = sum(len(links) for links in with_context.values())
    print(f"\n{language}: {total} wrong links in {len(everyday)} everyday sentences, {len(added)} by context: {added}")
    assert len(added) <= len(everyday) / 100, added
    wrong = [
        f"{text!r} -> {entry} in {everyday[n].text!r}" for n, links in with_context.items() for text, entry in links
    ]
    assert total <= len(everyday) / 100, wrong


def test_the_real_project_mistakes_are_not_repeated(results):
    _result, _wrong, sentences, found = results[("en", "default")]
    for mistake in REAL_PROJECT_MISTAKES:
        numbers = [n for n, s in enumerate(sentences) if mistake in s.text]
        assert numbers and all(found[n] == [] for n in numbers), mistake
