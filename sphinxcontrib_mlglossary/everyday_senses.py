"""Words of a sentence that speak of an everyday word's other sense.

A word of the context lists ("epoch", "token", "metrics", "parameters") is linked where the
text is about machine learning. Serving and infrastructure pages are, and still use the
same words in their other sense: milliseconds since the Unix epoch, an access token,
a server's latency metrics, the parameters of a request or a command line. The other
sense brings its own vocabulary into the sentence; where it does, the everyday word
is left alone, however much the rest of the sentence speaks of models. A few names
the glossary data links anyway have another sense too ("the learning rate of new
hires", "the encoder models of x264", "the batch size of the bulk import", the neural
network of a brain): the same rule holds them back. Spanish and Arabic pages use the
same other senses with their own words, listed in the same way.
"""

from __future__ import annotations

import re


def _words(alternatives: str) -> re.Pattern[str]:
    """Whole words or phrases, ``|`` between them, in any case."""
    return re.compile(rf"\b(?:{alternatives})\b", re.IGNORECASE)


#: what Arabic writes joined to the front of a word: "and", "with", "for", "as", "the"
_ARABIC_CLITICS = r"(?:[وف]?(?:[بلك]?ال|لل|[بلك])?)"


def _arabic_words(alternatives: str) -> re.Pattern[str]:
    """Whole Arabic words or phrases, ``|`` between them, with or without the article and
    the one-letter prepositions and conjunctions joined to their front ("بالدماغ")."""
    return _words(rf"{_ARABIC_CLITICS}(?:{alternatives})")


#: per language, per entry: words that make the sentence speak of the word's other sense
#: (found on three real sites, benchmarks/autolink_score.py, and in the labelled corpus)
OTHER_SENSES: dict[str, dict[str, re.Pattern[str]]] = {
    "en": {
        "epoch": _words(r"unix|timestamps?|(?:milli|micro|nano)?seconds|clock"),
        "token": _words(
            r"access|auth\w*|credentials?|passwords?|secrets?|log ?in|bearer|api keys?|\w+_TOKEN|your tokens?"
            r"|JWT|OAuth|SAS|AAD"
        ),
        "labels": _words(r"prometheus|kubernetes|pods?|selectors?|docker"),
        "evaluation-metrics": _words(
            r"latency|throughput|utili[sz]ation|prometheus|grafana|servers?|endpoints?|health"
        ),
        "parameters": _words(
            r"requests?|headers?|arguments?|command[- ]line|config\w*|flags?|options?|settings?|constructor"
            r"|endpoints?|query|provided as an?|pass(?:es|ed|ing)?|specif\w+|modify|override"
            r"|(?:input|other|internal) parameters?|parameter schedulers?|with (?:a|some) weights?"
        ),
        "loss-function": _words(
            r"loss(?:es)? of (?:\w+ )?(?:accuracy|quality|precision|performance|information|data|generality)"
            r"|(?:performance|quality|accuracy|data|packet|information|precision) loss(?:es)?"
        ),
        "batch-size": _words(r"batch (?:jobs?|files?|scripts?|imports?|processing|mode)|bulk|telemetry|spans"),
        "learning-rate": _words(r"hires|employees|staff|pupils|onboarding|children"),
        "encoder-models": _words(r"codecs?|bitrates?|x26[45]|ffmpeg|H\.26[45]|HEVC"),
        "precision-and-recall": _words(
            r"float\w*|fp(?:8|16|32|64)|bf16|u?int(?:4|8|16|32)|quantiz\w*|half|mixed|single|double|bits?|numerical"
            r"|decimals?|recall that|to recall"
            r"|you recall|F1 key"
        ),
        "optimizer": _words(r"compilers?|query|runtime"),
        "inference": _words(r"headers?|type inference"),
        "neural-network": _words(
            r"brains?|neuroscien\w*|biolog\w*|cortex|cortical|synap\w*|nervous system|fo?etus|fo?etal|embryos?"
        ),
    },
    "es": {
        "epoch": _words(r"unix|marcas? de tiempo|(?:mili|micro|nano)?segundos?|reloj"),
        "token": _words(
            r"acceso|autentica\w*|credencial(?:es)?|contraseñas?|secretos?|inici\w+ (?:de )?sesión|bearer"
            r"|claves? de (?:la )?API|\w+_TOKEN|JWT|OAuth"
        ),
        "evaluation-metrics": _words(r"latencia|utilización|prometheus|grafana|servidor(?:es)?|endpoints?|monitori\w+"),
        "parameters": _words(
            r"peticion(?:es)?|petición|solicitud(?:es)?|cabeceras?|encabezados?|argumentos?|línea de (?:órdenes|comandos)"
            r"|configura\w*|opcion(?:es)?|opción|constructor|consultas?|endpoints?|pas(?:e|ar|a|an|ando|ados?)"
            r"|especifi\w+|modifi\w+"
        ),
        "neural-network": _words(
            r"cerebros?|cerebral(?:es)?|neurocienci\w*|biolog\w*|corteza|sinapsis|sináptic\w*|sistema nervioso"
            r"|fetos?|fetal(?:es)?|embri\w+"
        ),
    },
    "ar": {
        "epoch": _arabic_words(
            r"يونكس|Unix|طوابع? زمنية|الطابع الزمني|طابع زمني|(?:ميلي ?|ميكرو ?|نانو ?)?(?:ثانية|ثوان|ثوانٍ)|ساعة النظام"
        ),
        "token": _arabic_words(
            r"رموز? (?:ال)?وصول|مصادقة|بيانات (?:ال)?اعتماد|كلمة (?:ال)?مرور|كلمات (?:ال)?مرور|سرّ?ي?|تسجيل (?:ال)?دخول|مفاتيح API|مفتاح API"
            r"|\w+_TOKEN|JWT|OAuth"
        ),
        "evaluation-metrics": _arabic_words(
            r"زمن (?:ال)?استجابة|كمون|Prometheus|بروميثيوس|Grafana|غرافانا|خادم|خوادم|مراقبة"
        ),
        "parameters": _arabic_words(
            r"طلب|طلبات|ترويسة|ترويسات|وسيطات?|سطر (?:ال)?أوامر|إعدادات|خيارات|مُنشئ|منشئ|استعلام|مرّر|مرر|تمرير"
        ),
        "neural-network": _arabic_words(r"دماغ|أدمغة|مخ|أحياء|أعصاب|الجهاز العصبي|قشرة|مشابك|تشابك\w*|جنين|أجنة"),
    },
}


def _senses(language: str) -> dict[str, re.Pattern[str]]:
    return OTHER_SENSES.get(language.split("_")[0].split("-")[0], {})


def has_other_sense(entry_id: str, language: str) -> bool:
    """Whether the other sense of ``entry_id``'s names is known in ``language``."""
    return entry_id in _senses(language)


def other_sense(sentence: str, entry_id: str, language: str) -> bool:
    """Whether ``sentence`` speaks of the other sense of ``entry_id``'s names."""
    words = _senses(language).get(entry_id)
    return words is not None and words.search(sentence) is not None
