"""Terms another site defines, read when intersphinx loads that site's inventory.

With ``mlglossary_external_cards = True``, a term link that intersphinx resolves to
another site gets a card like our own terms do. What the card says comes from the
other site, once per build, right after intersphinx has loaded its inventories (the
builder starts), with intersphinx's timeout, and kept in the build's cache for as long
as intersphinx keeps inventories (``intersphinx_cache_limit``, in days):

1. the site's ``glossary.json`` beside its ``objects.inv`` (sites built with this
   extension publish one): names and one-line summaries, matched by URL;
2. else the pages its inventory names for terms (``std:term``): the definition under
   each term of a Sphinx glossary (``<dl class="glossary">``), as plain text.

Whatever comes from another site is untrusted: only its text is kept, on one line and
length-limited (:mod:`.untrusted_text`), and it becomes a text node of our own card. A
site that can't be read is one warning and bare links, never a failed build. Local mappings (file paths) need no
network; sites reached over HTTP are read only when the setting is on.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .diagnostics import MlGlossaryWarning, warn
from .domain import glossary_domain
from .untrusted_text import MAX_NAME, MAX_SUMMARY, clean_text, definitions_on_page

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sphinx.application import Sphinx
    from sphinx.config import Config

    from .domain import MlGlossaryDomain

#: the largest file read from another site, in bytes
MAX_BYTES = 4 * 1024 * 1024
#: glossary pages read per site, at most (the terms of a site usually live on one)
MAX_PAGES = 5
#: bumped when the cache files' shape changes
CACHE_FORMAT = 1
CACHE_DIR = "mlglossary-external"


@dataclass(frozen=True, slots=True)
class ExternalTerm:
    """What a card shows for another site's term: plain text only."""

    name: str
    abbreviation: str
    summary: str


class ExternalTerms(dict[str, ExternalTerm]):
    """The link address of each term of the mapped sites (as intersphinx writes it) -> its card text."""

    def __init__(self) -> None:
        super().__init__()
        #: a term's name in an inventory, lower case (also ``site:name``) -> its link address
        self.names: dict[str, str] = {}

    def cited(self, domain: MlGlossaryDomain) -> dict[str, ExternalTerm]:
        """The terms some page cites (what names them is known once pages are read, before any is resolved)."""
        if not self:
            return {}
        session = domain.session
        glossary = session.glossary()
        pattern = session.pattern(glossary, ())
        found = {}
        for record in domain.citations.values():
            for target in set(record.targets):
                written = target.lower()
                entry = glossary.get(pattern.entry_of(target) or "")
                for name in (written, entry.name.lower() if entry is not None else written):
                    url = self.names.get(name)
                    if url is not None and url in self:
                        found[url] = self[url]
        return dict(sorted(found.items()))

    def digest(self) -> str:
        """What the cards are made from, for the card file's stamp and for rewriting pages."""
        text = repr(sorted((url, term.name, term.abbreviation, term.summary) for url, term in self.items()))
        return hashlib.sha1(text.encode()).hexdigest() if self else ""


def external_terms(domain: MlGlossaryDomain) -> ExternalTerms:
    """The mapped sites' terms read this build (empty when the setting is off)."""
    return domain.session.keep(ExternalTerms, ExternalTerms)


class MappedTermNames(frozenset[str]):
    """The terms of every site intersphinx loaded, in lower case (intersphinx finds terms in any case)."""


def mapped_term_names(domain: MlGlossaryDomain) -> MappedTermNames:
    """Names another site defines, once per build after reading (empty without intersphinx)."""
    return domain.session.resolved.keep(MappedTermNames, lambda: _mapped_term_names(domain))


def _mapped_term_names(domain: MlGlossaryDomain) -> MappedTermNames:
    if "sphinx.ext.intersphinx" not in domain.session.config.extensions:
        return MappedTermNames()
    from sphinx.ext.intersphinx import InventoryAdapter

    return MappedTermNames(name.lower() for name in InventoryAdapter(domain.env).main_inventory.get("std:term", {}))


class SiteUnreadable(Exception):
    """Another site's glossary could not be read (the message says why)."""


def terms_from_glossary_json(data: Any, base: str) -> dict[str, ExternalTerm]:
    """Link address -> card text from another site's ``glossary.json`` (untrusted: shape checked)."""
    if not isinstance(data, dict) or not isinstance(data.get("terms"), list):
        raise SiteUnreadable("its glossary.json has no list of terms")
    found = {}
    for term in data["terms"]:
        if not isinstance(term, dict) or not isinstance(term.get("url"), str) or not isinstance(term.get("name"), str):
            continue
        summary = term.get("summary")
        text = summary.get("text") if isinstance(summary, dict) else None
        abbreviations = term.get("abbreviations")
        first = abbreviations[0] if isinstance(abbreviations, list) and abbreviations else ""
        url = term["url"]
        if "://" in url or url.startswith(("/", "\\")) or ".." in url.split("/"):
            continue  # a site's own terms only, named relative to it
        found[_join(base, url)] = ExternalTerm(
            clean_text(term["name"], MAX_NAME),
            clean_text(first if isinstance(first, str) else "", MAX_NAME),
            clean_text(text if isinstance(text, str) else "", MAX_SUMMARY),
        )
    return found


def _join(base: str, relative: str) -> str:
    return base.rstrip("/") + "/" + relative


@dataclass(frozen=True, slots=True)
class MappedSite:
    """One ``intersphinx_mapping`` entry: where its links go and where its files are read."""

    name: str
    #: the base of the links intersphinx writes (a URL or a local path)
    target: str
    #: the folder its files are read from: where its inventory was found
    files: str
    #: link address -> where that page is read
    term_pages: dict[str, str]
    #: a term's name in the inventory, lower case -> its link address
    names: dict[str, str]

    @property
    def remote(self) -> bool:
        return "://" in self.files


def _mapped_sites(app: Sphinx) -> Iterable[MappedSite]:
    from sphinx.ext.intersphinx import InventoryAdapter

    named = InventoryAdapter(app.env).named_inventory
    for name, (target, locations) in app.config.intersphinx_mapping.values():
        inventory = named.get(name)
        if not inventory or not inventory.get("std:term"):
            continue
        location = next((loc for loc in locations if loc), None)
        if location is None:
            files = target
        elif "://" in location:
            files = posixpath.dirname(location)
        else:
            files = str((Path(app.srcdir) / location).parent)
        pages: dict[str, str] = {}
        names: dict[str, str] = {}
        for term, item in inventory["std:term"].items():
            uri = str(getattr(item, "uri", None) or item[2])  # Sphinx 7.3 gives tuples
            names.setdefault(term.lower(), uri)
            page = uri.partition("#")[0]
            if page.startswith(target) and page not in pages:
                pages[page] = _join(files, page[len(target) :].lstrip("/"))
        yield MappedSite(name, target.rstrip("/"), files, pages, names)


def _read(location: str, config: Config) -> bytes:
    """A file of another site, from disk or over HTTP(S) with intersphinx's timeout and TLS settings."""
    if "://" not in location:
        path = Path(location)
        if path.stat().st_size > MAX_BYTES:
            raise SiteUnreadable(f"{location} is larger than {MAX_BYTES} bytes")
        return path.read_bytes()
    if not location.startswith(("http://", "https://")):
        raise SiteUnreadable(f"{location} is neither a file nor an HTTP address")
    from .site_requests import TooLarge, get_bytes  # requests is imported only when a site is fetched

    try:
        return get_bytes(location, config, MAX_BYTES)
    except TooLarge as error:
        raise SiteUnreadable(str(error)) from error


def _missing(error: Exception) -> bool:
    """No such file (a site without ``glossary.json``), as opposed to a site out of reach."""
    if isinstance(error, FileNotFoundError):
        return True
    response = getattr(error, "response", None)
    return getattr(response, "status_code", None) == 404


def read_site(site: MappedSite, config: Config) -> dict[str, ExternalTerm]:
    """A site's terms: from its ``glossary.json``, else from its glossary pages."""
    try:
        raw = _read(_join(site.files, "glossary.json"), config)
    except Exception as error:
        if not _missing(error):
            raise SiteUnreadable(f"glossary.json could not be read ({error.__class__.__name__}: {error})") from error
    else:
        try:
            data = json.loads(raw.decode("utf-8"))
        except ValueError as error:
            raise SiteUnreadable("its glossary.json is not JSON") from error
        return terms_from_glossary_json(data, site.target)
    found: dict[str, ExternalTerm] = {}
    for page, location in sorted(site.term_pages.items())[:MAX_PAGES]:
        try:
            html = _read(location, config).decode("utf-8", errors="replace")
        except Exception as error:
            raise SiteUnreadable(f"{location} could not be read ({error.__class__.__name__}: {error})") from error
        for anchor, (name, summary) in definitions_on_page(html).items():
            found[f"{page}#{anchor}"] = ExternalTerm(name, "", summary)
    return found


def _cached(app: Sphinx, site: MappedSite) -> dict[str, ExternalTerm] | None:
    """What an earlier build read from a site over HTTP, while intersphinx's cache limit keeps it."""
    path = _cache_path(app, site)
    limit = app.config.intersphinx_cache_limit
    try:
        if limit >= 0 and path.stat().st_mtime < time.time() - limit * 86400:
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if data.get("format") != CACHE_FORMAT or data.get("files") != site.files or data.get("target") != site.target:
        return None
    return {url: ExternalTerm(*fields) for url, fields in data["terms"].items()}


def _cache_path(app: Sphinx, site: MappedSite) -> Path:
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", site.name or "site")
    return Path(app.doctreedir) / CACHE_DIR / f"{safe}.json"


def _store(app: Sphinx, site: MappedSite, terms: dict[str, ExternalTerm]) -> None:
    path = _cache_path(app, site)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "format": CACHE_FORMAT,
        "files": site.files,
        "target": site.target,
        "terms": {url: [t.name, t.abbreviation, t.summary] for url, t in sorted(terms.items())},
    }
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def load_external_terms(app: Sphinx) -> None:
    """``builder-inited``, after intersphinx: read the mapped sites' terms (main process, once per build)."""
    domain = glossary_domain(app.env)
    if not app.config.mlglossary_external_cards or not domain.session.settings.tooltips or app.builder.format != "html":
        return
    if "sphinx.ext.intersphinx" not in app.extensions:
        return
    terms = external_terms(domain)
    for site in _mapped_sites(app):
        found = _cached(app, site) if site.remote else None
        if found is None:
            try:
                found = read_site(site, app.config)
            except SiteUnreadable as error:
                warn(
                    MlGlossaryWarning.EXTERNAL_CARDS,
                    f"no cards for the terms of intersphinx site {site.name!r} ({site.files}): {error}; "
                    "its terms stay plain links (check the mapping, or set mlglossary_external_cards = False)",
                )
                continue
            if site.remote:
                _store(app, site, found)
        terms.update(found)
        for name, url in site.names.items():
            terms.names.setdefault(name, url)
            terms.names[f"{site.name}:{name}"] = url


def pages_citing_other_sites(app: Sphinx, env: Any) -> list[str]:
    """``env-get-updated``: when another site's cards changed, the pages citing terms are written again."""
    domain = glossary_domain(env)
    digest = external_terms(domain).digest()
    if domain.data.get("external_digest", "") == digest:
        return []
    domain.data["external_digest"] = digest
    return sorted(domain.citations)


def register(app: Sphinx) -> None:
    app.connect("builder-inited", load_external_terms, priority=600)  # intersphinx loads at 500
    app.connect("env-get-updated", pages_citing_other_sites)
