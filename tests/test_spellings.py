"""One source of spellings for both ways in: what auto-linking finds, ``{term}`` resolves
to the same entry, and the natural spellings writers use are found by both."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sphinxcontrib_mlglossary.loader import bundled_glossary
from sphinxcontrib_mlglossary.resolution import Found, TermIndex
from sphinxcontrib_mlglossary.spellings import joined_variants, spellings_of
from sphinxcontrib_mlglossary.term_pattern import build_pattern

LANGUAGES = ("en", "es", "ar")


def _index(language: str) -> TermIndex:
    glossary = bundled_glossary(language)
    terms = [(name, ("glossary", entry.id)) for entry in glossary for name in entry.names]
    return TermIndex(terms, {place for _name, place in terms}, language=language)


_INDEXES = {language: _index(language) for language in LANGUAGES}
_PATTERNS = {language: build_pattern(bundled_glossary(language)) for language in LANGUAGES}
_LINKED = {
    language: [
        (entry.id, form)
        for entry in bundled_glossary(language)
        for name in entry.linkable_names
        for form in spellings_of(name, language, abbreviation=name in entry.abbreviations)
    ]
    for language in LANGUAGES
}


def _found_in_prose(language: str, form: str) -> list[str]:
    """Entries auto-linking finds for ``form`` written whole in a sentence."""
    text = f"see {form} here"
    start = len("see ")
    return [m.entry_id for m in _PATTERNS[language].finditer(text) if (m.start, m.end) == (start, start + len(form))]


@pytest.mark.parametrize("language", LANGUAGES)
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_every_form_auto_linking_finds_resolves_to_the_same_entry(language, data):
    entry_id, form = data.draw(st.sampled_from(_LINKED[language]))
    found = _found_in_prose(language, form)
    if not found:
        return  # a form two entries share is linked by neither (and is ambiguous for {term})
    assert found == [entry_id]
    resolved = _INDEXES[language].resolve(form)
    assert isinstance(resolved, Found) and resolved.place == ("glossary", entry_id), (form, resolved)
    # a capital at a sentence start and a possessive change nothing
    for written in (form[:1].upper() + form[1:], form + "’s"):
        resolved = _INDEXES[language].resolve(written)
        assert isinstance(resolved, Found) and resolved.place == ("glossary", entry_id), (written, resolved)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_linked_form_resolves_exhaustively(language):
    wrong = []
    for entry_id, form in _LINKED[language]:
        if _found_in_prose(language, form) != [entry_id]:
            continue
        resolved = _INDEXES[language].resolve(form)
        if not (isinstance(resolved, Found) and resolved.place == ("glossary", entry_id)):
            wrong.append((form, entry_id, resolved))
    assert wrong == []


#: spellings writers use (seen on real ML documentation), each with the entry it means
NATURAL = [
    ("pre-trained models", "pretrained-model"),
    ("Pre-trained model", "pretrained-model"),
    ("pretrained models", "pretrained-model"),
    ("pre-training", "pretrained-model"),
    ("parameter-efficient finetuning", "peft"),
    ("parameter efficient fine-tuning", "peft"),
    ("half-precision", "mixed-precision"),
    ("F1-score", "precision-and-recall"),
    ("F1 scores", "precision-and-recall"),
    ("MLP layers", "feed-forward-network"),
    ("attention-mask", "attention-mask"),
    ("Attention masks", "attention-mask"),
    ("LLMs", "large-language-models"),
    ("LLM’s", "large-language-models"),
    ("ZeRO's", "zero-redundancy-optimizer"),
    ("fine-tuned models", "finetuned-models"),
    ("finetuned model", "finetuned-models"),
    ("multi head attention", "multi-head-attention"),
    ("Tensor-parallelism", "tensor-parallelism"),
    ("data-parallelism", "dataparallel"),
    ("sub-word tokenization", "subword-tokenization"),
    ("encoder-only model", "encoder-models"),
    ("Trainer APIs", "trainer"),
    ("input ID", "input-ids"),
    ("LLM models", "large-language-models"),
    ("FFN layer", "feed-forward-network"),
]


@pytest.mark.parametrize(("written", "entry_id"), NATURAL)
def test_natural_spellings_are_found_both_ways(written, entry_id):
    resolved = _INDEXES["en"].resolve(written)
    assert isinstance(resolved, Found) and resolved.place == ("glossary", entry_id)
    text = f"Then its {written} matter."
    matches = [(text[m.start : m.end], m.entry_id) for m in _PATTERNS["en"].finditer(text)]
    assert matches == [(written, entry_id)]


@pytest.mark.parametrize(
    ("name", "expected", "unexpected"),
    [
        ("half precision", {"half-precision"}, {"half pre-cision", "halfprecision"}),
        ("pretrained model", {"pre-trained model", "pre-trained-model"}, {"pre trained model"}),
        ("fine-tuning", {"fine tuning", "finetuning"}, set()),
        ("máscara de atención", set(), {"máscara-de-atención"}),
    ],
)
def test_joins_a_writer_may_choose(name, expected, unexpected):
    language = "es" if "á" in name else "en"
    spelt = set(joined_variants(name, language))
    assert expected <= spelt and not (unexpected & spelt)


def test_spanish_plurals_and_arabic_names_resolve_as_auto_linking_finds_them():
    assert _found_in_prose("es", "modelos preentrenados") == ["pretrained-model"]
    resolved = _INDEXES["es"].resolve("modelos preentrenados")
    assert isinstance(resolved, Found) and resolved.place[1] == "pretrained-model"
    assert _found_in_prose("ar", "قناع الانتباه") == ["attention-mask"]


def test_a_short_form_with_its_head_noun_resolves_and_is_found_when_the_project_links_it():
    for written in ("EOS token", "EOS tokens", "BOS token"):
        resolved = _INDEXES["en"].resolve(written)
        assert isinstance(resolved, Found) and resolved.place == ("glossary", "bos-eos-tokens"), written
    # EOS is kept for {term} by the data; a project that opts the entry in gets the same spellings
    pattern = build_pattern(bundled_glossary("en"), included=["bos-eos-tokens"])
    text = "Generation stops at the EOS token; BOS tokens start each sequence."
    assert [(text[m.start : m.end], m.entry_id) for m in pattern.finditer(text)] == [
        ("EOS token", "bos-eos-tokens"),
        ("BOS tokens", "bos-eos-tokens"),
    ]
