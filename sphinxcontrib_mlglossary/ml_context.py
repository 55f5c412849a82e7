"""When the surrounding text is about machine learning, the everyday words are terms too.

The glossary data keeps names such as "embeddings", "fine-tuning", "tokenizer", "DPO" or
"EOS" for ``{term}`` because each has an everyday sense somewhere (a lexer's tokenizer,
an end-of-support date). In a section about training a model, the ML sense is the only
one. A section is **about ML** when its text (its subsections included) already names
at least ``mlglossary_autolink_context`` different glossary entries by the names
auto-linking links anyway, or cites them with ``{term}``, or when a code block of the
page imports a machine-learning library. There, the names of the entries listed in
``mlglossary_autolink_context_names`` are auto-linked like the others; everywhere
else they stay for ``{term}``.

The innermost section decides: a page of mixed subjects links the words only in its ML
sections. Outside them, a sentence can still be about ML on its own: one that also names
another glossary entry, or speaks of a model ("run inference on the served model", "the
input tensors of the model"), links the everyday word it holds. Serving and API pages
talk about models and their tensors without naming three entries in one section. Names of several words, abbreviations and words in their own case match as
the entry's other names do; an opted-in single everyday word only as written (a
capitalised "Padding" starting a bullet is left alone).

A few words are used in both senses on the same ML pages ("parameters" of a model and
of a function, a "loss" of accuracy): those of ``mlglossary_autolink_context_cued_names``
are linked only in an ML section, and there only in a sentence that also names another
entry (by any name) or a model. A word in quotes or next to a name it says the kind of
(the ``truncate_dim`` parameter) names that thing, not the concept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from docutils import nodes

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from .term_pattern import TermPattern

#: entries whose names kept for ``{term}`` mean the ML sense in ML text (measured on three
#: real sites: benchmarks/autolink_score.py). Left out on purpose: words as often used in
#: another sense on ML pages too ("parameters" of a request, Prometheus "metrics", a
#: "repository agent", "batch normalization", a "label file", "pipeline", "loss" of
#: accuracy, "head", "channel", "temperature" of a GPU, "warmup" requests, "pooling" of
#: connections) and abbreviations of two letters (DP, TP, MT, QA, NN, DL)
DEFAULT_CONTEXT_ENTRIES = (
    "awq",
    "backbone",
    "bos-eos-tokens",
    "checkpoint",
    "connectionist-temporal-classification",
    "convolution",
    "data-collator",
    "dataset-splits",
    "decoder-models",
    "decoding-strategy",
    "direct-preference-optimization",
    "dropout",
    "embedding",
    "epoch",
    "finetuned-models",
    "gguf",
    "gptq",
    "gradient",
    "hallucination",
    "hidden-states",
    "image-processor",
    "inference",
    "knowledge-distillation",
    "kv-cache",
    "labels",
    "mixture-of-experts",
    "multimodal",
    "object-detection",
    "optimizer",
    "padding",
    "peft",
    "perplexity",
    "prefill-and-decode",
    "prefix-caching",
    "preprocessing",
    "pruning",
    "quantization",
    "regularization",
    "self-attention",
    "sharded-ddp",
    "sliding-window-attention",
    "summarization",
    "swiglu",
    "tensor",
    "token",
    "tokenizer",
    "torch-compile",
    "truncation",
    "vocabulary",
)

#: entries whose everyday names ML pages use in another sense too ("parameters" of a
#: request, server "metrics", "loss" of data, a "batch" job, "int8 precision"): linked only in a section
#: about ML, and there only in a sentence that names another entry (by any name, the
#: everyday ones included) or a model in the same clause
DEFAULT_CUED_ENTRIES = (
    "batch-size",
    "evaluation-metrics",
    "loss-function",
    "parameters",
    "precision-and-recall",
)

#: a code line importing a machine-learning library (Python)
_ML_IMPORT = re.compile(
    r"^\s*(?:from|import)\s+(?:torch|torchvision|torchaudio|tensorflow|keras|jax|flax|transformers|"
    r"sentence_transformers|datasets|tokenizers|peft|trl|accelerate|diffusers|timm|sklearn|"
    r"lightning|pytorch_lightning|mmengine|mmcv|onnxruntime|vllm|tensorrt_llm|tritonclient|"
    r"xgboost|lightgbm|optimum|safetensors|deepspeed)\b",
    re.MULTILINE,
)


#: quotation marks around a word that is named, not used: a column named "label", the "tensor" mode
_QUOTES = {'"': '"', "'": "'", "\u201c": "\u201d", "\u2018": "\u2019", "`": "`"}


def quoted(source: str, start: int, end: int) -> bool:
    """Whether ``source[start:end]`` stands alone between quotation marks: a name being
    mentioned (a column, a mode, a value), not the concept used. A comma or full stop
    may stand inside the closing mark, as in American usage (the mode is “loss,”)."""
    if start == 0 or end >= len(source):
        return False
    closing = _QUOTES.get(source[start - 1])
    return closing is not None and (source[end] == closing or source[end : end + 2] in (f",{closing}", f".{closing}"))


#: a name in quotation marks, then spaces, ending where a mention starts: the “reason” label
_QUOTED_NAME_BEFORE = re.compile(r"[\"'“‘`][^\"'“”‘’`\s]+[\"'”’`]\s+$")
#: spaces, then a name in quotation marks, right after a mention: the parameter “by_epoch”
_QUOTED_NAME_AFTER = re.compile(r"\s+[\"'“‘`][^\"'“”‘’`\s]+[\"'”’`]")


#: an article right before a mention (English, Spanish)
_ARTICLE_BEFORE = re.compile(r"(?:^|\s)(?:the|a|an|el|la|los|las|un|una)\s+$", re.IGNORECASE)
#: a possessive ending
_POSSESSIVE_END = re.compile(r"['’]s?$")


def next_to_a_name(text: nodes.Text, source: str, start: int, end: int) -> bool:
    """Whether a mention stands right next to a name it says the kind of: code (the
    ``truncate_dim`` parameter, the parameter ``by_epoch``) or a quoted word (the
    “reason” label). The everyday word then tells what the name is, a field or an
    argument, not the concept."""
    parent = text.parent
    index = parent.index(text) if parent is not None else -1
    if _QUOTED_NAME_BEFORE.search(source, 0, start) or (
        index > 0 and not source[:start].strip() and isinstance(parent[index - 1], nodes.literal)
    ):
        return True
    # after a mention, a name is only its label when the mention is a noun led by an
    # article, not a possessive: "the parameter `by_epoch`", but "to fine-tune `X` models"
    # and "the checkpoint's `config.json`" speak of the concept
    if not _ARTICLE_BEFORE.search(source, 0, start) or _POSSESSIVE_END.search(source, start, end):
        return False
    return _QUOTED_NAME_AFTER.match(source, end) is not None or (
        0 <= index < len(parent) - 1 and not source[end:].strip() and isinstance(parent[index + 1], nodes.literal)
    )


#: a word naming a trained model or its training, per language: a sentence about one uses the ML senses
_MODEL_WORDS = {
    "en": re.compile(r"\b(?:model(?:s|'s|s')?|train(?:s|ed|ing)?)\b", re.IGNORECASE),
    "es": re.compile(r"\b(?:modelos?|entrenamientos?|entrenad[oa]s?|entrenar)\b", re.IGNORECASE),
    "ar": re.compile(r"(?:نموذج|نماذج|تدريب)"),
}
#: where a sentence ends: a full stop, question or exclamation mark before a space, or a line break between items
_SENTENCE_END = re.compile(r"[.!?؟]\s|\n\s*\n")


def sentence_around(source: str, start: int, end: int) -> tuple[int, int]:
    """The span of the sentence of ``source`` holding ``source[start:end]``."""
    begin = 0
    for found in _SENTENCE_END.finditer(source, 0, start):
        begin = found.end()
    after = _SENTENCE_END.search(source, end)
    return begin, after.start() + 1 if after is not None else len(source)


def names_another_entry(source: str, start: int, end: int, named: Mapping[tuple[int, int], str], entry_id: str) -> bool:
    """Whether the sentence holding a mention names another entry: one of ``named`` (spans
    of ``source`` with their entries, found once per text)."""
    begin, finish = sentence_around(source, start, end)
    return any(
        begin <= other_start and other_end <= finish and other != entry_id
        for (other_start, other_end), other in named.items()
    )


def names_a_model(source: str, start: int, end: int, language: str) -> bool:
    """Whether the sentence holding a mention speaks of a model (the mention itself aside:
    "training set" is no cue for its own "training")."""
    model = _MODEL_WORDS.get(language.split("_")[0].split("-")[0])
    begin, finish = sentence_around(source, start, end)
    rest = source[begin:start] + " " * (end - start) + source[end:finish]
    return model is not None and model.search(rest) is not None


def sentence_about_ml(
    source: str, start: int, end: int, linked_anyway: Mapping[tuple[int, int], str], entry_id: str, language: str
) -> bool:
    """Whether the sentence holding a mention also names another glossary entry (one of
    ``linked_anyway``: the spans of ``source`` the names linked anyway cover) or a model."""
    return names_another_entry(source, start, end, linked_anyway, entry_id) or names_a_model(
        source, start, end, language
    )


def imports_ml(code: str) -> bool:
    """Whether a code block imports a machine-learning library."""
    return _ML_IMPORT.search(code) is not None


@dataclass(frozen=True)
class MlSections:
    """Which sections of one page are about ML (by ``id`` of the section node; 0: outside any)."""

    about_ml: frozenset[int]

    def holds(self, node: nodes.Node) -> bool:
        """Whether the innermost section around ``node`` is about ML."""
        return _innermost_section(node) in self.about_ml


def _innermost_section(node: nodes.Node) -> int:
    parent = node.parent
    while parent is not None and not isinstance(parent, nodes.section):
        parent = parent.parent
    return id(parent) if parent is not None else 0


def _enclosing_sections(node: nodes.Node) -> Iterable[int]:
    yield 0  # the page as a whole
    parent = node.parent
    while parent is not None:
        if isinstance(parent, nodes.section):
            yield id(parent)
        parent = parent.parent


def ml_sections(
    document: nodes.document,
    texts: Iterable[nodes.Text],
    pattern: TermPattern,
    cited: Iterable[tuple[nodes.Node, str]],
    threshold: int,
) -> MlSections:
    """Find the sections about ML: ``threshold`` entries named in their prose (``texts``,
    matched with the names auto-linking links anyway) or cited (``cited``: the citing
    node and its entry), or any ML import in a code block of the page."""
    if any(imports_ml(block.astext()) for block in document.findall(nodes.literal_block)):
        return MlSections(frozenset([0, *(id(section) for section in document.findall(nodes.section))]))
    named: dict[int, set[str]] = {}
    found = [(text, match.entry_id) for text in texts for match in pattern.finditer(str(text))]
    for node, entry_id in [*found, *cited]:
        for section in _enclosing_sections(node):
            named.setdefault(section, set()).add(entry_id)
    return MlSections(frozenset(section for section, entries in named.items() if len(entries) >= threshold))
