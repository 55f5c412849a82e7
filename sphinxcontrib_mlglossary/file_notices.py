"""A project's glossary file reports its notices once per build, whatever ``-j`` is.

A file's notices (a character removed from a name, a link base missing, a look-alike of
a bundled name) belong to the file, not to the pages showing it. Reported while pages
are read, they came once per process that read such a page: once in a serial build,
once per worker under ``-j``. So directives load files quietly and record which files
they show (:attr:`.domain.MlGlossaryDomain.data_files`); after reading, in the main
process, each file shown by a page read in this build reports its notices once, at the
first such page in name order, as a serial build reading pages in that order did.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .domain import glossary_domain
from .loader import GlossaryDataError
from .sources import load

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from .sources import SourceSpec


def report_file_notices(app: Sphinx, env: BuildEnvironment) -> None:
    """``env-updated``: the notices of every file a page read in this build shows, once."""
    domain = glossary_domain(env)
    read_now: set[str] = domain.data["purged"]
    first_shown: dict[SourceSpec, tuple[str, int]] = {}
    for docname in sorted(domain.data_files.keys() & read_now):
        for spec, line in domain.data_files[docname]:
            first_shown.setdefault(spec, (docname, line))
    session = domain.session
    for spec, (docname, line) in first_shown.items():
        try:
            load(session, spec, session.settings.language, location=(docname, line or None), report=True)
        except GlossaryDataError:
            continue  # refused: the page said so, with every problem, when it was read
