"""One GET to another site, with the settings Sphinx documents for intersphinx's own requests.

Intersphinx fetches inventories through ``sphinx.util.requests``, whose ``get`` takes the
user agent and TLS settings only through arguments Sphinx marks private (``_user_agent``,
``_tls_info``), the same in every Sphinx from 7.3 to 9.2. Nothing public fetches a file
other than an inventory. So the request is made here with ``requests`` (a dependency of
Sphinx) from the public configuration values intersphinx reads: ``intersphinx_timeout``,
``user_agent``, ``tls_verify`` and ``tls_cacerts`` (one CA bundle, or one per host).
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import requests
import sphinx
from urllib3.exceptions import InsecureRequestWarning

from . import __version__

if TYPE_CHECKING:
    from sphinx.config import Config


class TooLarge(Exception):
    """The reply is longer than the caller accepts."""


def user_agent(config: Config) -> str:
    """The project's ``user_agent``, else one naming Sphinx and this extension."""
    return str(config.user_agent or f"Sphinx/{sphinx.__version__} sphinxcontrib-mlglossary/{__version__}")


def tls_verification(url: str, config: Config) -> bool | str:
    """``verify`` for requests: off with ``tls_verify = False``, else the CA bundle ``tls_cacerts`` names for the host."""
    if not config.tls_verify:
        return False
    certs = config.tls_cacerts
    if not certs:
        return True
    if isinstance(certs, str):
        return certs
    host = urlsplit(url).netloc.rpartition("@")[2]
    return str(certs[host]) if isinstance(certs, dict) and host in certs else True


def get_bytes(url: str, config: Config, limit: int) -> bytes:
    """The body at ``url``, at most ``limit`` bytes (:class:`TooLarge` beyond), raising for HTTP errors."""
    verify = tls_verification(url, config)
    with warnings.catch_warnings():
        if verify is False:  # asked for in conf.py, as intersphinx keeps quiet about it too
            warnings.simplefilter("ignore", InsecureRequestWarning)
        with requests.get(
            url,
            timeout=config.intersphinx_timeout,
            headers={"User-Agent": user_agent(config)},
            verify=verify,
            stream=True,
        ) as response:
            response.raise_for_status()
            body = response.raw.read(limit + 1, decode_content=True)
    if len(body) > limit:
        raise TooLarge(f"{url} is larger than {limit} bytes")
    return bytes(body)
