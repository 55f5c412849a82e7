""" "Did you mean" names only what the writer plausibly meant (issue 29).

The misses below are real-looking citations: misspellings of names the glossary has,
which must be answered with the right name first, and names the glossary lacks, which
character similarity alone answered with an unrelated short name (``chunk size`` ->
*batch size*, ``reward hacking`` -> *feed forward chunking*, ``GNN`` -> *RNN*).
"""

from __future__ import annotations

import difflib

import pytest

from sphinxcontrib_mlglossary.loader import bundled_glossary
from sphinxcontrib_mlglossary.plausible import plausible

#: written -> the name that must be suggested first (English glossary)
MISSPELT = {
    "atention mask": "attention mask",
    "MLN": "MLM",
    "tokn indices": "token indices",
    "tokeniser": "tokenizer",
    "toknizer": "tokenizer",
    "fine tunning": "fine-tuning",
    "droput": "dropout",
    "lerning rate": "learning rate",
    "embeding": "embedding",
    "distilation": "distillation",
    "mixed precison": "mixed precision",
    "quantisation": "quantization",
    "beam serch": "beam search",
    "KL-divergence": "KL divergence",
    "layernorm": "LayerNorm",
    "ROPE": "RoPE",
    "scaling law": "scaling laws",
    # a shared stem: another form of the word, or the name inside a longer one
    "overfit": "overfitting",
    "chunks": "chunking",
    "vision transformers": "vision transformer",
    "learning rate warmup": "learning rate",
}

#: written -> names that must not be suggested (what difflib's 0.6 cutoff proposed, unrelated)
UNRELATED = {
    "reward hacking": ["feed forward chunking", "example packing"],
    "data loader": ["data collator", "dual encoder"],
    "mixture of depths": ["mixture of experts"],
    "curriculum learning": ["supervised learning", "contrastive learning", "transfer learning"],
    "GNN": ["RNN", "NN"],
    "GPT4": ["GPTQ"],
    "teacher forcing": [],
    "gradient boosting": [],
    "data drift": [],
    "contrastive loss": ["contrastive learning"],
    "sampling temperature": ["sampling rate", "sample rate"],
    "state space duality": ["state space model"],
}

#: the same in Spanish, where the names have particles and accents
SPANISH = {"máscara de atencion": "máscara de atención", "cuantizacion": "cuantización"}
SPANISH_UNRELATED = {"aprendizaje curricular": [], "sesgo de exposición": []}


@pytest.fixture(scope="module")
def english() -> list[str]:
    return bundled_glossary("en").all_names()


@pytest.mark.parametrize(("written", "meant"), MISSPELT.items())
def test_a_misspelling_gets_the_name_it_misspells_first(english: list[str], written: str, meant: str):
    assert written not in english  # a real miss
    assert plausible(written, english, limit=3)[:1] == [meant]


@pytest.mark.parametrize(("written", "unrelated"), UNRELATED.items())
def test_a_name_the_glossary_lacks_gets_no_unrelated_suggestion(english: list[str], written: str, unrelated: list[str]):
    assert written not in english
    close = difflib.get_close_matches(written, english, n=3, cutoff=0.6)
    assert set(unrelated) <= set(close) or not unrelated  # what the old rule suggested
    suggested = plausible(written, english, limit=3)
    assert not set(suggested) & set(unrelated), suggested
    # what is left shares a meaningful word with what was written
    for name in suggested:
        assert {word.rstrip("s") for word in name.lower().split()} & {w.rstrip("s") for w in written.lower().split()}


@pytest.mark.parametrize("written", ["reward hacking", "data loader", "mixture of depths", "GNN", "data drift"])
def test_nothing_is_suggested_when_nothing_is_plausible(english: list[str], written: str):
    assert plausible(written, english) == []


def test_spanish_misses():
    spanish = bundled_glossary("es").all_names()
    for written, meant in SPANISH.items():
        assert plausible(written, spanish, limit=3)[:1] == [meant], written
    for written in SPANISH_UNRELATED:
        assert plausible(written, spanish) == [], written


def test_short_names_accept_only_a_slip_of_the_hand():
    """Abbreviations: one other letter is usually another term, unless the keys touch."""
    assert plausible("MLN", ["MLM", "MLP"]) == ["MLM"]  # n and m touch; n and p do not
    assert plausible("BRET", ["BERT"]) == ["BERT"]  # two letters swapped
    assert plausible("MLLM", ["MLM"]) == ["MLM"]  # a letter typed twice
    assert plausible("GNN", ["RNN", "CNN"]) == []
    assert plausible("SFT", ["SGD"]) == []
