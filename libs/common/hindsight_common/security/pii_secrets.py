"""Secrets and API keys in a string: known key prefixes, private-key blocks, password
hashes, values assigned to a key word (``password=``, ``token:``), and random-looking
tokens; and where URLs are, since ids in a URL's path look random without being secret.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Iterator

from hindsight_common.security.pii_checks import character_classes, class_switches, shannon_entropy

_KNOWN_SECRETS = re.compile(
    r"(?<![0-9A-Za-z_])(?:"
    r"(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}"
    r"|gh[pousr]_[0-9A-Za-z]{36,251}"
    r"|github_pat_[0-9A-Za-z_]{50,255}"
    r"|xox[abposr]-[0-9A-Za-z-]{10,250}"
    r"|[sr]k_(?:live|test)_[0-9A-Za-z]{16,247}"
    r"|sk-(?:proj-|svcacct-|admin-)?[0-9A-Za-z_-]{20,200}"
    r"|AIza[0-9A-Za-z_-]{35}"
    r"|glpat-[0-9A-Za-z_-]{20,}"
    r"|hf_[0-9A-Za-z]{30,}"
    r"|npm_[0-9A-Za-z]{36}"
    r"|shp(?:at|ss|ca|pa)_[0-9a-fA-F]{32}"
    r"|SG\.[0-9A-Za-z_-]{16,}\.[0-9A-Za-z_-]{16,}"
    r"|eyJ[0-9A-Za-z_-]{8,}\.eyJ[0-9A-Za-z_-]{8,}\.[0-9A-Za-z_-]{16,}"
    r")(?![0-9A-Za-z_-])"
)
# A bcrypt password hash: credential material even though it is not the password.
_BCRYPT = re.compile(r"\$2[aby]?\$\d{2}\$[./0-9A-Za-z]{22,53}")
_PEM = re.compile(r"-----BEGIN [A-Z ]{0,20}PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]{0,20}PRIVATE KEY-----|\Z)")
_ASSIGNED = re.compile(
    r"(?i)(?<![0-9A-Za-z])[0-9A-Za-z_.-]{0,30}?(?:password|passwd|pwd|passphrase|pass|secret|token|api[ _-]?key|"
    r"apikey|access[_-]?key(?:[_-]?id)?|private[_-]?key)[\"']?\s*(?:[:=]|=>|\bis\b)\s*[\"']?"
    r"([^\s\"'`,;<>{}()$*]{6,})"
)
_TOKEN = re.compile(r"(?<![0-9A-Za-z+/_=-])[0-9A-Za-z+/_-]{20,}={0,2}(?![0-9A-Za-z+/_=-])")
_LOWER_RUNS = re.compile(r"[a-z]+")
_SEPARATORS = re.compile(r"[-_./+]")


# Cheap tests first (substring searches in C), since most turns hold no secret: every
# known key and random token is a run of 16 or more such characters.
_LONG_RUN = re.compile(r"[0-9A-Za-z_+/-]{16}")
_KEY_WORDS = ("pass", "pwd", "secret", "token", "key")


def find_secrets(text: str) -> Iterator[tuple[int, int]]:
    long_run = _LONG_RUN.search(text) is not None
    if long_run:
        for m in _KNOWN_SECRETS.finditer(text):
            value = m.group()
            if not value.startswith("sk-") or any(c.isdigit() for c in value):
                yield m.span()
    if "-----BEGIN " in text:
        yield from (m.span() for m in _PEM.finditer(text))
    if "$2" in text:
        yield from (m.span() for m in _BCRYPT.finditer(text))
    lowered = text.lower()
    if any(word in lowered for word in _KEY_WORDS):
        for m in _ASSIGNED.finditer(text):
            value = m.group(1)
            # Two of lower case, upper case and digits: "hunter2", not "required" or "ADMIN_TOKEN".
            if character_classes(value) - any(not c.isalnum() for c in value) >= 2:
                yield m.span(1)
    if not long_run:
        return
    urls = url_spans(text)
    for m in _TOKEN.finditer(text):
        if text.endswith("base64,", 0, m.start()) or inside(m.start(), urls):
            continue  # inline data (a data: URI) or a URL's path: ids, not credentials
        if _high_entropy(m.group()):
            yield m.span()


def _high_entropy(token: str) -> bool:
    """A random-looking token: upper and lower case and digits mixed (hex alone is not
    enough: hashes, git SHAs and UUIDs are identifiers, not secrets), characters that
    switch class often, and high entropy for its length."""
    core = max(_SEPARATORS.split(token.rstrip("=")), key=len)
    if len(core) < 16:
        return False
    # Words: runs of lower case average 1.7 letters in a random mix of 62 characters,
    # four or more in names like "ThisIsAClassName2".
    runs = _LOWER_RUNS.findall(core)
    if runs and sum(map(len, runs)) / len(runs) >= 3:
        return False
    if not (any(c.isupper() for c in core) and any(c.islower() for c in core) and any(c.isdigit() for c in core)):
        return False
    return class_switches(core) >= 0.3 and shannon_entropy(core) >= 3.5


_URL = re.compile(
    r"\b(?:[a-z][a-z0-9+.-]{0,20}://|www\.|[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,8}\.[a-z]{2,24}/)[^\s<>\"'`]*",
    re.IGNORECASE,
)
def url_spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _URL.finditer(text)] if "/" in text else []


def inside(position: int, spans: list[tuple[int, int]]) -> bool:
    """Whether ``position`` lies in one of ``spans`` (sorted, not overlapping)."""
    i = bisect.bisect_right(spans, (position, math.inf))  # spans[:i] start at or before it
    return bool(i) and spans[i - 1][0] <= position < spans[i - 1][1]
