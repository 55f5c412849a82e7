"""Term matching: plurals, possessives and case, in English and Spanish (table-driven)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sphinxcontrib_mlglossary.inflection import candidates

from .conftest import build_html_quietly, read_html, read_html_with_cards


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("attention masks", "attention mask"),
        ("tokens", "token"),
        ("LLMs", "LLM"),
        ("ZeRO's", "ZeRO"),
        ("models' heads", "models' head"),
        ("batches", "batch"),
        ("máscaras de atención", "máscara de atención"),
        ("modelos preentrenados", "modelo preentrenado"),
    ],
)
def test_candidates_include_the_singular(written, expected):
    assert expected in candidates(written)
    assert candidates(written)[0] == written


CASES = {
    "en": {
        "attention masks": "attention-mask",
        "Attention Masks": "attention-mask",
        "tokens": "token",
        "LLMs": "large-language-models",
        "ZeRO's": "zero-redundancy-optimizer",
        "pipelines": "pipeline",
        "input IDs": "input-ids",
        # natural forms: the singular of an entry named in the plural, and back
        "decoder model": "decoder-models",
        "input ID": "input-ids",
        "label": "labels",
        "pixel value": "pixel-values",
        # spaces, hyphens and closed forms
        "fine-tuned model": "finetuned-models",
        "fine tuned models": "finetuned-models",
        "finetuned model": "finetuned-models",
        "pre-trained model": "pretrained-model",
        "self attention": "self-attention",
        "Self Attention": "self-attention",
        # common names of entries with a code-style name
        "data parallelism": "dataparallel",
        "pipeline parallelism": "pipelineparallel",
        "tensor parallel": "tensor-parallelism",
    },
    "es": {
        "máscaras de atención": "attention-mask",
        "máscara de atención": "attention-mask",
        "attention masks": "attention-mask",
        "MLM": "masked-language-modeling",
        "modelos preentrenados": "pretrained-model",
        "decoder model": "decoder-models",
    },
}


def build_citing(make_app, tmp_path: Path, body: str, language: str = "en"):
    """A project whose home page holds ``body`` (MyST) and whose glossary page shows the bundled glossary."""
    (tmp_path / "conf.py").write_text(
        f'extensions = ["myst_parser", "sphinxcontrib_mlglossary"]\nlanguage = "{language}"\n'
    )
    (tmp_path / "index.md").write_text(f"# Home\n\n```{{toctree}}\nglossary\n```\n\n{body}\n")
    (tmp_path / "glossary.md").write_text("# Glossary\n\n```{mlglossary}\n```\n")
    app = make_app("html", srcdir=tmp_path, freshenv=True)
    app.build()
    return app


@pytest.mark.parametrize("language", ["en", "es"])
def test_inflected_citations_resolve_and_keep_their_text(make_app, tmp_path: Path, language):
    cases = CASES[language]
    app = build_citing(make_app, tmp_path, " ".join(f"{{term}}`{text}`" for text in cases), language)
    assert app.warning.getvalue() == ""
    soup = read_html_with_cards(app.outdir / "index.html")
    links = {
        a.get_text(): a["href"]
        for a in soup.select("a.reference.internal")
        if "#term-" in a["href"] and not a.find_parent(class_="mlglossary-card")
    }
    assert links == {text.replace("'", "\u2019"): f"glossary.html#term-{entry}" for text, entry in cases.items()}
    # inflected citations count for backlinks and get tooltips
    glossary = read_html(app.outdir / "glossary.html")
    assert glossary.find(id="term-attention-mask").find_next_sibling("dd").select_one(".mlglossary-backlinks")
    assert len(soup.select("div.mlglossary-card")) == len(set(cases.values()))


#: written forms no variant rule may make resolve (each a test below)
NOT_TERMS = [
    "decoder",
    "input",
    "mask",
    "attention masker",
    "fine",
    "tuned models",
    "parallel",
    "self",
    # a heading's two parts must name the same entry
    "attention mask (MLM)",
    "masked language modeling (LLM)",
    "masked language modeling ()",
]


@pytest.fixture(scope="module")
def not_terms_warnings(tmp_path_factory) -> str:
    """The warnings of one build whose home page cites each of ``NOT_TERMS``, a paragraph each,
    with the full glossary page (resolution only knows the entries a page shows).

    Citations resolve one by one, so one build answers for all of them: a build per form
    cost about 2.5 s of CPU each."""
    srcdir = tmp_path_factory.mktemp("not-terms")
    body = "\n\n".join(f"{{term}}`{written}`" for written in NOT_TERMS)
    (srcdir / "conf.py").write_text('extensions = ["myst_parser", "sphinxcontrib_mlglossary"]\nlanguage = "en"\n')
    (srcdir / "index.md").write_text(f"# Home\n\n```{{toctree}}\nglossary\n```\n\n{body}\n")
    (srcdir / "glossary.md").write_text("# Glossary\n\n```{mlglossary}\n```\n")
    return build_html_quietly(srcdir)[1]


@pytest.mark.parametrize("written", NOT_TERMS)
def test_variant_rules_do_not_stretch_to_other_words(not_terms_warnings, written):
    """A variant rule must not make a word a reader would not call the term resolve."""
    assert f"term not in glossary: {written!r}" in not_terms_warnings


def test_a_loose_form_two_terms_share_is_ambiguous(make_app, tmp_path: Path):
    (tmp_path / "conf.py").write_text('extensions = ["myst_parser", "sphinxcontrib_mlglossary"]\n')
    (tmp_path / "index.md").write_text(
        "# Home\n\n```{glossary}\nwarm-up\n  One.\n\nwarm up\n  Two.\n```\n\n{term}`warmup`\n"
    )
    app = make_app("html", srcdir=tmp_path, freshenv=True)
    app.build()
    assert "term 'warmup' could mean" in app.warning.getvalue()


def test_ambiguous_form_is_a_warning_listing_both(make_app, tmp_path: Path):
    (tmp_path / "conf.py").write_text('extensions = ["myst_parser", "sphinxcontrib_mlglossary"]\n')
    (tmp_path / "index.md").write_text("# Home\n\n```{glossary}\nbox\n  One.\n\nboxe\n  Two.\n```\n\n{term}`boxes`\n")
    app = make_app("html", srcdir=tmp_path, freshenv=True)
    app.build()
    warnings = app.warning.getvalue()
    assert "term 'boxes' could mean" in warnings
    assert "'box'" in warnings and "'boxe'" in warnings
    assert "[mlglossary.ambiguous_term]" in warnings
    assert "term not in glossary" not in warnings


PATTERN_CASES = {
    "en": [
        ("the attention masks are", ["attention-mask"]),
        ("Attention mask first", ["attention-mask"]),
        ("LLMs and an LLM", ["large-language-models", "large-language-models"]),
        ("ZeRO's stages", ["zero-redundancy-optimizer"]),
        ("masked language modeling", ["masked-language-modeling"]),
        ("language modeling", []),
        ("tokenism tokenisms pretoken", []),
        ("tokenizer tokenizers (a lexer's word too: not linked by default)", []),
        ("mlm and Mlm are not MLM", ["masked-language-modeling"]),
        ("Input IDs start a sentence; input ids are not input IDs", ["input-ids", "input-ids"]),
        ("DP is an everyday abbreviation too (dynamic programming): not linked by default", []),
        ("input\nIDs across a line break", ["input-ids"]),
        ("self-attention, then attention (an everyday word)", ["self-attention"]),
        ("- **Patch versions**: Tiny bugfixes", []),
        ("GUI labels (like buttons)", []),
        ("Softmax at a sentence start, and softmax", ["softmax", "softmax"]),
        ("SOFTMAX and softMax are other spellings", []),
        ("token-level", []),
    ],
    "es": [
        ("las máscaras de atención", ["attention-mask"]),
        ("modelos preentrenados", ["pretrained-model"]),
        ("redes neuronales recurrentes", ["recurrent-neural-network"]),
        ("la attention mask en inglés", ["attention-mask"]),
        ("los tokens", []),
        ("los tokenizadores", []),
        ("la retropropagación", ["backpropagation"]),
    ],
    "ar": [
        ("قناع الانتباه", ["attention-mask"]),
        ("attention mask", ["attention-mask"]),
        ("نموذج", []),
    ],
}


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [(language, text, expected) for language, rows in PATTERN_CASES.items() for text, expected in rows],
)
def test_autolink_pattern(language, text, expected):
    from sphinxcontrib_mlglossary.loader import bundled_glossary
    from sphinxcontrib_mlglossary.term_pattern import build_pattern

    pattern = build_pattern(bundled_glossary(language))
    assert [match.entry_id for match in pattern.finditer(text)] == expected


@pytest.mark.parametrize(
    ("singular", "plural"),
    [("attention mask", "attention masks"), ("batch", "batches"), ("strategy", "strategies"), ("key", "keys")],
)
def test_english_plural(singular, plural):
    from sphinxcontrib_mlglossary.inflection import english_plural

    assert english_plural(singular) == plural


@pytest.mark.parametrize(
    ("singular", "plural"),
    [
        ("máscara de atención", "máscaras de atención"),
        ("red neuronal", "redes neuronales"),
        ("atención", "atenciones"),
        ("luz", "luces"),
        ("modelo preentrenado", "modelos preentrenados"),
    ],
)
def test_spanish_plural(singular, plural):
    from sphinxcontrib_mlglossary.inflection import spanish_plural

    assert spanish_plural(singular) == plural


#: what writers of ML documentation naturally cite (issue: "a glossary people can actually cite")
NATURAL_CITATIONS = """
tokenizer|tokenizers|vocabulary|vocab|subword tokenization|BPE|byte-pair encoding|WordPiece|SentencePiece|
special tokens|special token|padding|truncation|BOS|EOS|chat template|embedding|embeddings|hidden states|
hidden state|logits|logit|softmax|attention|multi-head attention|attention heads|cross-attention|
positional encoding|position embeddings|RoPE|layer normalization|LayerNorm|RMSNorm|residual connection|
skip connection|activation function|GELU|ReLU|encoder-decoder model|encoder-decoder models|KV cache|
context window|context length|mixture of experts|MoE|FlashAttention|parameters|weights|tensor|tensors|
loss function|loss|cross-entropy|gradient|gradients|gradient descent|SGD|backpropagation|optimizer|
AdamW|learning rate|learning rate schedule|warmup|epoch|epochs|batch size|batch|gradient accumulation|
gradient checkpointing|gradient clipping|checkpoint|checkpoints|hyperparameter|hyperparameters|
overfitting|regularization|dropout|weight decay|mixed precision|bf16|training set|validation set|
evaluation metrics|metric|early stopping|data collator|Trainer|FSDP|DDP|LoRA|QLoRA|PEFT|quantization|
knowledge distillation|distillation|pruning|instruction tuning|RLHF|DPO|prompt|prompts|system prompt|
prompt engineering|zero-shot learning|few-shot learning|in-context learning|text generation|
decoding strategy|greedy decoding|beam search|sampling|temperature|top-k sampling|top-p sampling|
nucleus sampling|perplexity|hallucination|RAG|text classification|named entity recognition|NER|
question answering|summarization|machine translation|image classification|object detection|ASR|
vision transformer|ViT|diffusion model|model hub|Hugging Face Hub|model card|safetensors|
sentence embeddings|decoder model|input ID|fine-tuning|fine-tuned model|pretrained model|self attention|
transformer|LLM|LLMs|attention mask|attention masks|token|tokens|labels|label|inference|pipeline|
neural network|auto classes|AutoTokenizer|data augmentation|device map|contrastive learning|
speculative decoding|text-to-speech|feed-forward network|image processor
"""


def test_a_project_citing_what_writers_naturally_cite_warns_about_nothing(make_app, tmp_path: Path):
    natural = [name for name in NATURAL_CITATIONS.replace("\n", "").split("|") if name]
    assert len(natural) >= 150
    app = build_citing(make_app, tmp_path, "\n\n".join(f"Cites {{term}}`{name}`." for name in natural))
    assert app.warning.getvalue() == ""
    soup = read_html(app.outdir / "index.html")
    linked = [
        a
        for a in soup.select("p > a.reference.internal")
        if "#term-" in a["href"] and not a.find_parent(class_="mlglossary-card")
    ]
    assert len(linked) == len(natural)


def _project_citing_headings(tmp_path: Path, language: str, syntax: str) -> Path:
    """A MyST or reST project whose home page cites every bundled entry by its heading as displayed."""
    from sphinxcontrib_mlglossary.loader import bundled_glossary

    headings = [entry.heading for entry in bundled_glossary(language)]
    extensions = ["myst_parser", "sphinxcontrib_mlglossary"] if syntax == "md" else ["sphinxcontrib_mlglossary"]
    (tmp_path / "conf.py").write_text(f"extensions = {extensions!r}\nlanguage = {language!r}\n", encoding="utf-8")
    if syntax == "md":
        cites = "\n\n".join(f"Cites {{term}}`{heading}`." for heading in headings)
        (tmp_path / "index.md").write_text(f"# Home\n\n```{{toctree}}\nglossary\n```\n\n{cites}\n", encoding="utf-8")
        (tmp_path / "glossary.md").write_text("# Glossary\n\n```{mlglossary}\n```\n", encoding="utf-8")
    else:
        cites = "\n\n".join(f"Cites :term:`{heading}`." for heading in headings)
        (tmp_path / "index.rst").write_text(f"Home\n====\n\n.. toctree::\n\n   glossary\n\n{cites}\n", encoding="utf-8")
        (tmp_path / "glossary.rst").write_text("Glossary\n========\n\n.. mlglossary::\n", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("syntax", ["md", "rst"])
@pytest.mark.parametrize("language", ["en", "es", "ar"])
def test_every_heading_as_displayed_cites_its_entry(make_app, tmp_path: Path, language, syntax):
    """What the glossary page, the card and the README show ("masked language modeling (MLM)") can be cited as written."""
    from sphinxcontrib_mlglossary.loader import bundled_glossary

    glossary = bundled_glossary(language)
    app = make_app("html", srcdir=_project_citing_headings(tmp_path, language, syntax), freshenv=True)
    app.build()
    assert app.warning.getvalue() == ""
    page = read_html(app.outdir / "glossary.html")
    shown = {
        dt["id"]: " ".join(dt.find(string=True, recursive=False).split())
        for dt in page.select("dl.glossary > dt[id^=term-]")
    }
    assert shown == {entry.anchor: entry.heading for entry in glossary}
    soup = read_html(app.outdir / "index.html")
    cited = [
        (a.get_text(), a["href"])
        for a in soup.select("p > a.reference.internal")
        if not a.find_parent(class_="mlglossary-card")
    ]
    assert cited == [(entry.heading, f"glossary.html#{entry.anchor}") for entry in glossary]


@pytest.mark.parametrize(
    ("language", "written", "expected"),
    [
        ("en", "masked language modeling (MLM)", "masked-language-modeling"),
        ("en", "Masked Language Modeling(mlm)", "masked-language-modeling"),
        ("en", "MLM (masked language modeling)", "masked-language-modeling"),
        ("en", "attention mask (MLM)", None),
        ("en", "masked language modeling (", None),
        ("es", "modelado de lenguaje enmascarado (MLM)", "masked-language-modeling"),
        ("ar", "التصنيف الزمني الترابطي (CTC)", "connectionist-temporal-classification"),
    ],
)
def test_a_heading_names_its_entry_for_the_role_and_the_data(language, written, expected):
    """The role's matcher (``entry_of``) and ``Glossary.find`` read headings as resolution does."""
    from sphinxcontrib_mlglossary.loader import bundled_glossary
    from sphinxcontrib_mlglossary.term_pattern import build_pattern

    glossary = bundled_glossary(language)
    assert build_pattern(glossary).entry_of(written) == expected
    found = glossary.find(written)
    assert (found.id if found is not None else None) == expected


def test_auto_linking_still_links_the_parts_of_a_heading_not_the_heading():
    """Headings resolve as citations; what auto-linking finds in running text is unchanged."""
    from sphinxcontrib_mlglossary.loader import bundled_glossary
    from sphinxcontrib_mlglossary.term_pattern import build_pattern

    pattern = build_pattern(bundled_glossary("en"))
    text = "masked language modeling (MLM) trains"
    assert [(text[m.start : m.end], m.entry_id) for m in pattern.finditer(text)] == [
        ("masked language modeling", "masked-language-modeling"),
        ("MLM", "masked-language-modeling"),
    ]


@pytest.mark.parametrize("language", ["en", "es", "ar"])
def test_the_shipped_patterns_are_made_once_and_equal_a_fresh_one(language):
    """A process running several builds makes the shipped glossary's two unnarrowed patterns
    once (``shipped_pattern``); a project's exclusions, inclusions or its own glossary get
    theirs made for the build."""
    from dataclasses import replace

    from sphinxcontrib_mlglossary.loader import bundled_glossary
    from sphinxcontrib_mlglossary.term_pattern import build_pattern, shipped_pattern

    glossary = bundled_glossary(language)
    every = tuple(entry.id for entry in glossary.entries)
    for included in ((), every):
        kept = shipped_pattern(glossary, (), included)
        assert kept is not None and kept is shipped_pattern(glossary, (), included)
        fresh = build_pattern(glossary, (), included)
        assert (kept.forms, kept.every, kept.loose, kept.source) == (
            fresh.forms,
            fresh.every,
            fresh.loose,
            fresh.source,
        )
    assert shipped_pattern(glossary, (), ()) is not shipped_pattern(glossary, (), every)
    first = glossary.entries[0].id
    assert shipped_pattern(glossary, (first,), ()) is None
    assert shipped_pattern(glossary, (), (first,)) is None
    # an equal glossary that is not the shipped one (a project's file with the same entries)
    assert shipped_pattern(replace(glossary), (), ()) is None
