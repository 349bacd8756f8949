"""Find PII in a string: each detector is a regular expression for the shape, then a
validity check (pii_checks) so that look-alikes with the same shape survive.

``find_pii(text)`` returns non-overlapping findings, in text order. Where two detectors
claim the same characters, the more specific wins (``PRIORITY``): a secret over an
e-mail, an 18-digit resident id over a card number, and so on.

Boundaries use ASCII classes, not ``\\w``: Chinese text has no spaces, and ``\\w``
would count the characters around a number as part of a word.
"""

from __future__ import annotations

import bisect
import ipaddress
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from hindsight_common.security.pii_checks import card_valid, cn_resident_id_valid, iban_valid, ssn_valid
from hindsight_common.security.pii_secrets import find_secrets, inside, url_spans
from hindsight_common.security.pii_types import PII_TYPES, PiiType


@dataclass(frozen=True)
class Finding:
    """A value of one PII type at ``text[start:end]``."""

    type: PiiType
    start: int
    end: int


Detector = Callable[[str], Iterator[tuple[int, int]]]

# ---- e-mail
_EMAIL = re.compile(
    r"(?<![0-9A-Za-z._%+-])[0-9A-Za-z_][0-9A-Za-z._%+'-]{0,63}@"
    r"(?:[0-9A-Za-z](?:[0-9A-Za-z-]{0,61}[0-9A-Za-z])?\.){1,8}([A-Za-z]{2,24})(?![0-9A-Za-z_-])"
)
# "icon@2x.png" has an e-mail's shape; a file extension is no top-level domain.
_FILE_EXTENSIONS = frozenset({"png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "bmp", "pdf"})


# Spelled out to dodge scrapers: "ann dot lee at example dot com", "ann[at]example[dot]org".
# Only with a spelled "dot" or a bracketed "at": "visit us at example.com" is no address.
# Every repetition is bounded: unbounded ones backtrack for minutes over a crafted
# 32,000-character content ("1." or "a dot " thousands of times).
_AT = r"\s{0,3}(?:\bat\b|\(at\)|\[at\])\s{0,3}"
_DOT = r"\s{0,3}(?:\bdot\b|\(dot\)|\[dot\]|\.)\s{0,3}"
_WORD = r"[0-9A-Za-z_%+-]{1,64}"
_EMAIL_SPELLED = re.compile(
    rf"(?i)(?<![0-9A-Za-z]){_WORD}(?:{_DOT}{_WORD}){{0,4}}{_AT}{_WORD}(?:{_DOT}{_WORD}){{0,4}}{_DOT}[a-z]{{2,6}}"
    r"(?![0-9A-Za-z])"
)
_SPELLED_HINT = re.compile(r"(?i)\bdot\b|\(at\)|\[at\]")


def _emails(text: str) -> Iterator[tuple[int, int]]:
    for m in _EMAIL.finditer(text):
        if m.group(1).lower() not in _FILE_EXTENSIONS:
            yield m.span()
    if _SPELLED_HINT.search(text):
        for m in _EMAIL_SPELLED.finditer(text):
            if _SPELLED_HINT.search(m.group()):
                yield m.span()


# ---- phone numbers
_PHONE_INTL = re.compile(r"(?<![0-9A-Za-z+])(?:\+|00)[1-9](?:[ ().-]{0,2}\d){6,14}(?![0-9A-Za-z]|[.-]\d)")
_PHONE_NANP = re.compile(
    r"(?<![0-9A-Za-z+.-])(?:1[ .-]?)?(?:\([2-9]\d{2}\) ?|[2-9]\d{2}[.-])[2-9]\d{2}[.-]\d{4}(?![0-9A-Za-z]|[.-]\d)"
)
_PHONE_CN = re.compile(r"(?<![0-9A-Za-z+])1[3-9]\d([ -]?)\d{4}\1\d{4}(?![0-9A-Za-z]|[.-]\d)")
# Numbers in a national format (a trunk 0 as in 020 7946 0958 or 010-12345678, a
# space-separated North American number, a seven-digit local 555-0132) count only after a
# word that announces a phone number: alone they look like any figure.
_PHONE_NATIONAL = re.compile(
    r"(?<![0-9A-Za-z+.-])(?:(?:0\d{1,4}|\(0\d{1,4}\)|\(0\) ?\d{1,4})(?:[ -]\d{2,8}){1,3}"
    r"|\(?[2-9]\d{2}\)? [2-9]\d{2} \d{4}|[2-9]\d{2}-\d{4}|[1-9]\d{1,3}(?:[ -]\d{2,4}){2,3})"
    r"(?![0-9A-Za-z]|[.-]\d)"
)
# The words, in the languages of our users, that announce a phone number.
_PHONE_WORDS = re.compile(
    r"(?i)(?:phone|tel\b|tel\.|telephone|mobile|cell|call|ring|\btext(?:ed|ing)?\b|sms|whatsapp|fax|"
    r"number|hotline|landline|contact|reach|dial|"
    r"ll[aá]m|tel[eé]fono|m[oó]vil|celular|\bappel|t[eé]l[eé]phone|\bportable|anruf|\bruf|telefon|\bhandy|"
    r"chiam|cellulare|telefone|电话|电話|電話|手机|手機|号码|號碼)[^.!?\n]{0,25}$"
)
_LOCAL = re.compile(r"[2-9]\d{2}-\d{4}")  # seven digits: a North American local number
# ... unless what stands right before the number says it is a code or an id.
_NOT_A_PHONE = re.compile(
    r"(?i)\b(?:code|pin|id|passcode|meeting|conference|order|ref|reference|invoice|ext|extension|"
    r"account|room|ticket)\b[^0-9\n]{0,12}$"
)


def _digits(s: str) -> int:
    return sum(c.isdigit() for c in s)


def _phones(text: str) -> Iterator[tuple[int, int]]:
    for m in _PHONE_INTL.finditer(text):
        value = m.group()
        digits = _digits(value) - (2 if value.startswith("00") else 0)
        # "00" dials abroad like "+", but only a grouped number is read that way (a bare
        # 0044... run of digits is as likely an id), and not the tail of a grouped code.
        if value[0] == "0" and (value.isdigit() or _GROUP_BEFORE.search(text, max(0, m.start() - 5), m.start())):
            continue
        if 8 <= digits <= 15:
            yield m.span()
    yield from (m.span() for m in _PHONE_NANP.finditer(text))
    yield from (m.span() for m in _PHONE_CN.finditer(text))
    for m in _PHONE_NATIONAL.finditer(text):
        digits = _digits(m.group())
        if not (9 <= digits <= 12 or _LOCAL.fullmatch(m.group())):
            continue
        before = max(0, m.start() - 40)
        if _PHONE_WORDS.search(text, before, m.start()) and not _NOT_A_PHONE.search(text, before, m.start()):
            yield m.span()


# ---- payment cards
_CARD = re.compile(r"(?<![0-9A-Za-z_-])\d(?:[ -]?\d){12,22}(?![0-9A-Za-z_]|-\d)")


# Luhn-checked numbers that are not cards: a phone's IMEI, barcodes (EAN/UPC/GTIN), ISBNs.
_NOT_A_CARD = re.compile(r"(?i)\b(?:imei|isbn|ean|upc|gtin|barcode|tracking|serial)\b[^0-9\n]{0,12}$")
_GROUP_BEFORE = re.compile(r"[0-9A-Z]{3}[0-9][ -]$")


def _card_groups_ok(groups: list[str]) -> bool:
    """How cards are written: no separators, groups of four (the last may be shorter), or
    American Express's 4-6-5 (and 4-6-4 for 14-digit Diners)."""
    sizes = [len(g) for g in groups]
    if len(sizes) == 1:
        return True
    if sizes[:2] == [4, 6] and len(sizes) == 3 and sizes[2] in (4, 5):
        return True
    return all(s == 4 for s in sizes[:-1]) and 1 <= sizes[-1] <= 4


def _cards(text: str) -> Iterator[tuple[int, int]]:
    for m in _CARD.finditer(text):
        if _NOT_A_CARD.search(text, max(0, m.start() - 20), m.start()):
            continue
        raw = m.group()
        separators = set(re.findall(r"[ -]", raw))
        if len(separators) > 1:
            continue
        groups = re.split(r"[ -]", raw)
        if separators and _GROUP_BEFORE.search(text, max(0, m.start() - 5), m.start()):
            continue  # the tail of a longer grouped code (an IBAN written in fours)
        # A card followed by another figure ("4111 1111 1111 1111 2027"): try fewer groups.
        for n in range(len(groups), 0, -1):
            head = groups[:n]
            digits = "".join(head)
            if len(digits) < 13:
                break
            if _card_groups_ok(head) and card_valid(digits):
                yield m.start(), m.start() + len(" ".join(head))
                break


# ---- IBAN
_IBAN = re.compile(r"(?<![0-9A-Za-z])[A-Za-z]{2}\d{2}(?: ?[0-9A-Za-z]{4}){2,7}(?: ?[0-9A-Za-z]{1,3})?(?![0-9A-Za-z])")


def _ibans(text: str) -> Iterator[tuple[int, int]]:
    for m in _IBAN.finditer(text):
        raw = m.group()
        # A short word after it may have joined the match: try without it.
        for candidate in (raw, raw.rsplit(" ", 1)[0]):
            if iban_valid(candidate.replace(" ", "").upper()):
                yield m.start(), m.start() + len(candidate)
                break


# ---- national ids
_CN_ID = re.compile(r"(?<![0-9A-Za-z])\d{17}[0-9Xx](?![0-9A-Za-z])")
_SSN = re.compile(r"(?<![0-9A-Za-z-])(\d{3})([- ]?)(\d{2})\2(\d{4})(?![0-9A-Za-z]|-\d)")
_SSN_WORDS = re.compile(r"(?i)(?:ssn|social security(?: number| no\.?)?)[^.!?\n]{0,20}$")


def _national_ids(text: str) -> Iterator[tuple[int, int]]:
    for m in _CN_ID.finditer(text):
        if cn_resident_id_valid(m.group()):
            yield m.span()
    for m in _SSN.finditer(text):
        if not ssn_valid(m.group(1), m.group(3), m.group(4)):
            continue
        # Dashes are an SSN's own format; spaces or none only right after the word.
        if m.group(2) == "-" or _SSN_WORDS.search(text, max(0, m.start() - 40), m.start()):
            yield m.span()


# ---- IP addresses
_IPV4 = re.compile(r"(?<![0-9A-Za-z.])(?:\d{1,3}\.){3}\d{1,3}(?![0-9A-Za-z]|\.\d)")
_IPV6 = re.compile(
    r"(?<![0-9A-Za-z:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:(?:\d{1,3}\.){3}\d{1,3}|[0-9A-Fa-f]{1,4})?"
    r"(?![0-9A-Za-z:]|\.\d)"
)
# "version 10.2.3.4", "section 1.2.3.4", "kernel 5.15.0.91": numbered things, not addresses.
# Right before the number: a word that numbers things or a product that has versions.
_NUMBERED = re.compile(
    r"(?i)\b(?:version|ver\.?|v|release|build|firmware|chapter|section|sec\.?|§|clause|step|"
    r"figure|fig\.?|table|rule|article|art\.?|paragraph|item|patch|rev|revision|tag|"
    r"kernel|linux|glibc|python|node|java|chrome|chromium|firefox|safari|android|ios|macos|"
    r"windows|ubuntu|debian|sdk|driver|bios|package|plugin|"
    r"(?:upgrade|update|downgrade|install|bump)(?:s|d|ed)?(?: to)?)[\s:=]*$"
)
# A little further back, a word about releases makes a dotted number a version, unless
# the words right before it say it is an address.
_RELEASE_NEARBY = re.compile(r"(?i)\b(?:version|release|patch|build|firmware|changelog)")
_ADDRESS_WORDS = re.compile(
    r"(?i)\b(?:ip|ipv4|address|addr|host|server|gateway|dns|nameserver|from|via|to|at|peer)[\s:=]*$"
)


def _is_version(text: str, start: int) -> bool:
    if _NUMBERED.search(text, max(0, start - 20), start):
        return True
    return bool(_RELEASE_NEARBY.search(text, max(0, start - 30), start)) and not _ADDRESS_WORDS.search(
        text, max(0, start - 12), start
    )


def _ip_addresses(text: str) -> Iterator[tuple[int, int]]:
    # IPv6 first: one with an IPv4 tail (::ffff:192.0.2.1) is one address, not two.
    for m in _IPV6.finditer(text):
        value = m.group()
        groups = sum(1 for g in value.split(":") if g) + value.count(".")  # an IPv4 tail: 2
        if groups >= 3 and _public_or_private(value) and not _network(text, value, m.end()):
            yield m.span()
    for m in _IPV4.finditer(text):
        if _is_version(text, m.start()) or m.group().startswith("255."):
            continue  # a version, or a netmask (255.255.255.0), which points at nobody
        if _public_or_private(m.group()) and not _network(text, m.group(), m.end()):
            yield m.span()


_PREFIX = re.compile(r"/(\d{1,3})(?!\d)")


def _network(text: str, value: str, end: int) -> bool:
    """Whether ``value`` is the start of a range written ``10.0.0.0/8`` (a block of
    addresses, an organisation's, not one machine); ``10.20.30.40/32`` is one address."""
    m = _PREFIX.match(text, end)
    if not m:
        return False
    try:
        network = ipaddress.ip_network(f"{value}/{m.group(1)}", strict=True)
    except ValueError:
        return False  # host bits set: an address with its subnet, like 192.168.1.15/24
    return network.num_addresses > 1


def _public_or_private(value: str) -> bool:
    """A valid address that can point at a machine; the unspecified and loopback
    addresses (0.0.0.0, 127.0.0.1, ::1) identify nobody and stay."""
    try:
        address = ipaddress.ip_address(value)
    except ValueError:
        return False
    return not (address.is_unspecified or address.is_loopback)


#: Types not looked for inside a URL: its paths are full of numeric and random ids
#: (photo 19379909243, upload 2019/03/Mr6bqa...). E-mail addresses, IP hosts, known key
#: prefixes and ``token=``-style parameters are still found there.
URL_BLIND: frozenset[PiiType] = frozenset({"phone", "card", "national_id"})


DETECTORS: dict[PiiType, Detector] = {
    "secret": find_secrets,
    "email": _emails,
    "iban": _ibans,
    "national_id": _national_ids,
    "card": _cards,
    "ip_address": _ip_addresses,
    "phone": _phones,
}
#: Which type wins where two claim the same characters: earlier in this tuple wins.
PRIORITY: tuple[PiiType, ...] = tuple(DETECTORS)
assert set(PRIORITY) == set(PII_TYPES)

# What a text must hold for a detector to be worth running (most turns hold no digit).
_DIGIT = re.compile(r"\d")
_NEEDS: dict[PiiType, re.Pattern[str]] = {
    "email": re.compile(r"@|(?i:\bdot\b|\(at\)|\[at\])"),
    "iban": _DIGIT, "national_id": _DIGIT, "card": _DIGIT, "phone": _DIGIT,
    "ip_address": re.compile(r"[\d:]"),
}


def find_pii(text: str, types: frozenset[PiiType] | None = None) -> list[Finding]:
    """Every PII value in ``text`` (of ``types``; default all), non-overlapping, in order."""
    starts: list[int] = []  # of the findings taken, sorted; they never overlap
    taken: list[Finding] = []
    urls = url_spans(text)
    for pii_type in PRIORITY:
        if types is not None and pii_type not in types:
            continue
        needs = _NEEDS.get(pii_type)
        if needs is not None and not needs.search(text):
            continue
        for start, end in DETECTORS[pii_type](text):
            if pii_type in URL_BLIND and inside(start, urls):
                continue
            i = bisect.bisect_left(starts, end)  # taken[i:] start at or after this end
            if i and taken[i - 1].end > start:
                continue  # overlaps the one before: an earlier type already has it
            starts.insert(i, start)
            taken.insert(i, Finding(pii_type, start, end))
    return taken
