"""What glossary data may reach on disk: the one place that decides.

Glossary files may come from people the project does not control (a pull request adding
entries, a third-party Markdown glossary), so everything they point at is checked here:

* a path an entry body references (``{download}``, a Markdown link to a local file or
  with ``path:``, an image or figure) must lie inside the project's source directory,
  or Sphinx's collectors would copy the file into ``_downloads/`` or ``_images/``;
* a glossary file (``:source:``, ``mlglossary_sources``) must lie inside the source
  directory or a folder the project trusts in ``conf.py`` (``mlglossary_trusted_dirs``);
* only regular files are read (a FIFO would block the build forever, a device never
  end), and only up to a size limit.

Paths are compared after normalising: ``//``-absolute forms collapsed, ``..`` and
symlinks resolved. Reading file contents through ``include``-like directives is refused
earlier, before they run (:data:`~sphinxcontrib_mlglossary.markup.SAFE_DIRECTIVES`).
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .loader import GlossaryDataError

if TYPE_CHECKING:
    from docutils import nodes

#: the largest glossary file read unless ``mlglossary_max_file_mb`` says otherwise (the
#: bundled glossaries are about 0.4 MB; the Transformers glossary about 0.05 MB)
DEFAULT_MAX_MB = 20
#: the largest limit accepted (reading takes about 42 MiB of memory per MB of Markdown)
MAX_FILE_MB = 1000
_MB = 1024 * 1024
DEFAULT_MAX_BYTES = DEFAULT_MAX_MB * _MB
_READ_CHUNK = 1 << 20
_LEADING_SLASHES = re.compile(r"^[/\\]{2,}")


def normalised(path: str | os.PathLike[str]) -> Path:
    """An absolute path with ``//`` collapsed, ``..`` and every symlink resolved."""
    text = _LEADING_SLASHES.sub("/", os.fspath(path))
    return Path(text).resolve()


def inside(path: str | os.PathLike[str], folder: str | os.PathLike[str]) -> bool:
    """Whether ``path``, once normalised, is ``folder`` or lies below it."""
    resolved, base = normalised(path), normalised(folder)
    return resolved == base or resolved.is_relative_to(base)


def inside_any(path: str | os.PathLike[str], folders: Iterable[str | os.PathLike[str]]) -> bool:
    return any(inside(path, folder) for folder in folders)


# -- files the extension reads -----------------------------------------------------------


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_data_file(path: Path, *, max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """The bytes of a regular file no larger than ``max_bytes``; anything else raises GlossaryDataError.

    The file is opened without blocking and checked on the open descriptor, so a FIFO
    swapped in after a check can't hang the build either.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as exc:
        raise GlossaryDataError(path, f"cannot read the file: {exc.strerror}", hint="check the path") from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise GlossaryDataError(
                path,
                f"this is {_kind(info.st_mode)}; only regular files are read as glossaries",
                hint="name a glossary file (.toml or .md)",
            )
        if info.st_size > max_bytes:
            raise GlossaryDataError(path, _too_large(info.st_size, max_bytes), hint=_LIMIT_HINT)
        chunks: list[bytes] = []
        size = 0
        while chunk := os.read(descriptor, _READ_CHUNK):
            size += len(chunk)
            if size > max_bytes:  # the file grew while it was read
                raise GlossaryDataError(path, _too_large(size, max_bytes), hint=_LIMIT_HINT)
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(descriptor)


_LIMIT_HINT = "if it really is a glossary, raise mlglossary_max_file_mb in conf.py (or --max-mb on the command line)"


def _too_large(size: int, max_bytes: int) -> str:
    megabytes = size / _MB
    shown = f"{megabytes:.1f}" if megabytes >= 1 else f"{megabytes:.2f}"
    return f"the file is {shown} MB, more than the {max_bytes / _MB:.3g} MB a glossary file may have"


# -- glossary files named by the project ---------------------------------------------------


def outside_message(path: str | os.PathLike[str], srcdir: str | os.PathLike[str]) -> str:
    """Why a glossary file outside the source directory and the trusted folders was not read."""
    resolved = normalised(path)
    via = f" (it leads to {resolved})" if Path(os.path.abspath(path)) != resolved else ""
    return (
        f"the file is outside the project's source directory {normalised(srcdir)}{via}, so it was not read; "
        "to read glossary files from its folder, add that folder to mlglossary_trusted_dirs in conf.py, "
        f"e.g. mlglossary_trusted_dirs = [{str(resolved.parent)!r}]"
    )


# -- references inside rendered entry text -------------------------------------------------


def confine_references(
    holder: nodes.Element, env: Any, report: Callable[[str], None], *, local_files: bool = True
) -> None:
    """Leave out downloads and images of rendered entry text that point outside the source directory.

    Run on the nodes of one entry right after they are rendered, before Sphinx's image
    and download collectors (``doctree-read``) see the page. Each path is resolved with
    ``env.relfn2path``, the function those collectors use, so the check holds for
    whatever form the path takes. A link keeps its text; an image goes.

    Text rendered away from a page being read (``local_files=False``: a summary, shown
    in cards and ``glossary.json``) is never seen by the collectors, so any local file it
    names would be a broken link: those are left out too.
    """
    from docutils import nodes
    from sphinx import addnodes

    if env is None or not getattr(env, "srcdir", None):
        return
    srcdir = env.srcdir
    docname = (getattr(env, "docname", "") or "") if local_files else ""
    where = "outside the project's source directory" if docname else "a local file, which a summary can't show"
    for download in list(holder.findall(addnodes.download_reference)):
        target = download.get("reftarget", "")
        if "://" in target or (docname and _within(env, target, docname, srcdir)):
            continue
        report(f"file {target!r} is {where}; the link was left out, its text kept")
        download.replace_self(download.children or nodes.Text(download.astext()))
    for image in list(holder.findall(nodes.image)):
        uri = image.get("uri", "")
        if is_remote(uri):
            if local_files:  # (a summary shows no image at all: markup.summary_text_only)
                report(f"image {uri!r} is on another site; it is shown as a link (builders would download it)")
                image.replace_self(_link_instead_of(image))
            continue
        if uri.startswith("data:") or (docname and _within(env, uri, docname, srcdir)):
            continue
        report(f"image {uri!r} is {where}; it was left out")
        parent = image.parent
        parent.remove(image)
        if isinstance(parent, nodes.reference) and not parent.children:
            parent.parent.remove(parent)


def is_remote(uri: str) -> bool:
    """Whether a builder would fetch an image URI: Sphinx's test, ``://`` anywhere in it.

    Anything else (``//host/x.png`` included) is a path of the project to Sphinx, checked
    as one below.
    """
    return "://" in uri


def _link_instead_of(image: nodes.image) -> nodes.Node:
    """A link to a remote image, holding its alt text: inline where the image was, else a paragraph."""
    from docutils import nodes

    uri = image["uri"]
    text = nodes.Text(image.get("alt") or uri)
    if isinstance(image.parent, nodes.reference):  # a linked image: its link stays, with the text
        return text
    link = nodes.reference("", "", text, refuri=uri)
    if isinstance(image.parent, nodes.TextElement):
        return link
    return nodes.paragraph("", "", link)


def _within(env: Any, target: str, docname: str, srcdir: str | os.PathLike[str]) -> bool:
    if not target:
        return True
    try:
        _relative, absolute = env.relfn2path(target, docname)
    except (OSError, ValueError, KeyError):
        return False
    return inside(absolute, srcdir)
