"""Checksums and validity rules behind the PII detectors: pure functions over strings.

Each answers whether a candidate that already has the right shape is a real value: a
payment card passes Luhn, an IBAN has its country's length and mod 97 == 1, a mainland
China resident id has a real birth date and its ISO 7064 MOD 11-2 check character, a US
SSN avoids the ranges the Social Security Administration never issues. The detectors
call them after a regular expression found the shape, so that look-alikes with the same
shape (an order number, an invalid id) survive.
"""

from __future__ import annotations

import math
from collections import Counter
from datetime import date

# IBAN lengths by country (ISO 13616 registry), for the countries that issue them.
IBAN_LENGTHS: dict[str, int] = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22,
    "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28,
    "EE": 20, "EG": 29, "ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23,
    "GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26,
    "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20,
    "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MR": 27, "MT": 31, "MU": 30, "NL": 18,
    "NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24,
    "SC": 31, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "ST": 25, "SV": 28, "TL": 23, "TN": 24,
    "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
}

# First digits of the card networks' number ranges (Visa 4, Mastercard 51-55 and 2221-2720,
# Amex 34/37, Discover 6011/644-649/65, JCB 3528-3589, Diners 300-305/36/38-39, UnionPay 62,
# Maestro 50/56-58/63/67). A Luhn-valid number outside them is not treated as a card.
_CARD_PREFIXES = ("4", "22", "23", "24", "25", "26", "27", "34", "37", "36", "38", "39", "30", "35", "50", "51", "52", "53", "54",
                  "55", "56", "57", "58", "60", "62", "63", "64", "65", "67")

# ISO 7064 MOD 11-2 weights of the first 17 characters of a mainland China resident id.
_CN_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_CN_CHECK = "10X98765432"  # the check character for each remainder of the weighted sum
# First two digits: the province-level region codes of GB/T 2260 (11-15, 21-23, 31-37,
# 41-46, 50-54, 61-65) and Taiwan, Hong Kong, Macao (71, 81, 82).
_CN_REGIONS = frozenset(
    [11, 12, 13, 14, 15, 21, 22, 23, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46,
     50, 51, 52, 53, 54, 61, 62, 63, 64, 65, 71, 81, 82]
)


def luhn_valid(digits: str) -> bool:
    """Whether a string of digits passes the Luhn check (payment cards)."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def card_valid(digits: str) -> bool:
    """A payment card number: 13-19 digits, a network's prefix, Luhn."""
    return 13 <= len(digits) <= 19 and digits.startswith(_CARD_PREFIXES) and luhn_valid(digits)


def iban_valid(compact: str) -> bool:
    """An IBAN without spaces, upper case: its country's length and mod 97 == 1."""
    if IBAN_LENGTHS.get(compact[:2]) != len(compact) or not compact[2:4].isdigit():
        return False
    rearranged = compact[4:] + compact[:4]
    try:
        number = int("".join(str(int(c, 36)) for c in rearranged))
    except ValueError:
        return False
    return number % 97 == 1


def cn_resident_id_valid(value: str, today: date | None = None) -> bool:
    """A mainland China 18-character resident id: a province code, a birth date that
    exists and is not in the future (nor before 1900), and the MOD 11-2 check character."""
    if len(value) != 18 or not value[:17].isdigit():
        return False
    if int(value[:2]) not in _CN_REGIONS:
        return False
    try:
        born = date(int(value[6:10]), int(value[10:12]), int(value[12:14]))
    except ValueError:
        return False
    if born.year < 1900 or born > (today or date.today()):
        return False
    remainder = sum(int(c) * w for c, w in zip(value[:17], _CN_WEIGHTS, strict=True)) % 11
    return value[17].upper() == _CN_CHECK[remainder]


def ssn_valid(area: str, group: str, serial: str) -> bool:
    """A US Social Security number the SSA could have issued: area not 000, 666 or
    900-999; group not 00; serial not 0000."""
    a = int(area)
    return a != 0 and a != 666 and a < 900 and group != "00" and serial != "0000"


def shannon_entropy(text: str) -> float:
    """Bits per character of the string's own character distribution."""
    if not text:
        return 0.0
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in Counter(text).values())


def character_classes(text: str) -> int:
    """How many of lower case, upper case, digits and other characters the string mixes."""
    return (
        any(c.islower() for c in text)
        + any(c.isupper() for c in text)
        + any(c.isdigit() for c in text)
        + any(not c.isalnum() for c in text)
    )


def class_switches(text: str) -> float:
    """The share of neighbouring characters that change class (lower, upper, digit,
    other): random tokens switch often, words and CamelCase identifiers seldom."""
    if len(text) < 2:
        return 0.0

    def cls(c: str) -> int:
        return 0 if c.islower() else 1 if c.isupper() else 2 if c.isdigit() else 3

    kinds = [cls(c) for c in text]
    return sum(a != b for a, b in zip(kinds, kinds[1:], strict=False)) / (len(text) - 1)
