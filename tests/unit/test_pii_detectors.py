"""The PII detectors one by one, with the checksum edge cases that decide them."""

from __future__ import annotations

from datetime import date

import pytest

from hindsight_common.security.pii_checks import (
    card_valid,
    class_switches,
    cn_resident_id_valid,
    iban_valid,
    luhn_valid,
    shannon_entropy,
    ssn_valid,
)
from hindsight_common.security.pii_detect import find_pii


def found(text: str) -> list[tuple[str, str]]:
    return [(f.type, text[f.start : f.end]) for f in find_pii(text)]


# ---- checksums


@pytest.mark.parametrize(("digits", "ok"), [
    ("4111111111111111", True), ("4111111111111112", False), ("79927398713", True),
    ("79927398710", False), ("0", True), ("378282246310005", True),
])
def test_luhn(digits: str, ok: bool) -> None:
    assert luhn_valid(digits) is ok


def test_card_needs_length_network_prefix_and_luhn() -> None:
    assert card_valid("4111111111111111")
    assert not card_valid("411111111111")  # 12 digits: too short even with a valid Luhn digit
    assert not card_valid("9999999999999995")  # Luhn-valid, no network starts with 9
    assert card_valid("2223000048400011")  # Mastercard's 2-series


@pytest.mark.parametrize(("value", "ok"), [
    ("DE89370400440532013000", True),
    ("DE89370400440532013001", False),  # one digit off: mod 97 fails
    ("DE8937040044053201300", False),  # a character short for Germany
    ("GB29NWBK60161331926819", True),
    ("XX29NWBK60161331926819", False),  # no such country
    ("NO9386011117947", True),  # the shortest IBAN (15)
    ("GBAANWBK60161331926819", False),  # check digits must be digits
])
def test_iban(value: str, ok: bool) -> None:
    assert iban_valid(value) is ok


@pytest.mark.parametrize(("value", "ok"), [
    ("11010519491231002X", True),  # check character X (remainder 2)
    ("11010519491231002x", True),  # written in lower case
    ("110105194912310021", False),  # wrong check digit
    ("110105194913310025", False),  # month 13
    ("110105190002290015", False),  # 1900 was no leap year
    ("210203196802290019", True),  # 1968 was
    ("990105194912310021", False),  # region 99 does not exist
    ("11010520500101001X", False),  # born in 2050
])
def test_cn_resident_id(value: str, ok: bool) -> None:
    assert cn_resident_id_valid(value, today=date(2026, 1, 1)) is ok


def test_cn_resident_id_future_check_uses_today() -> None:
    value = "110105202501010011"
    assert not cn_resident_id_valid(value, today=date(2024, 12, 31))
    s = sum(int(c) * w for c, w in zip(value[:17], (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2), strict=True))
    fixed = value[:17] + "10X98765432"[s % 11]
    assert cn_resident_id_valid(fixed, today=date(2025, 1, 2))


@pytest.mark.parametrize(("ssn", "ok"), [
    (("123", "45", "6789"), True), (("000", "12", "3456"), False), (("666", "12", "3456"), False),
    (("900", "12", "3456"), False), (("899", "12", "3456"), True), (("123", "00", "4567"), False),
    (("123", "45", "0000"), False),
])
def test_ssn_ranges(ssn: tuple[str, str, str], ok: bool) -> None:
    assert ssn_valid(*ssn) is ok


def test_entropy_and_class_switches() -> None:
    assert shannon_entropy("aaaa") == 0.0
    assert shannon_entropy("abcd") == pytest.approx(2.0)
    assert class_switches("aB3") == 1.0 and class_switches("abc") == 0.0


# ---- detectors in text


@pytest.mark.parametrize(("text", "expected"), [
    ("mail maria.gonzalez@example.org now", [("email", "maria.gonzalez@example.org")]),
    ("'dev.ops@example.io'", [("email", "dev.ops@example.io")]),
    ("我的邮箱是wang@example.cn请发", [("email", "wang@example.cn")]),
    ("the asset icon@2x.png", []),
    ("@app.get and user@localhost", []),
])
def test_email(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("Call me on +44 20 7946 0958 tomorrow", [("phone", "+44 20 7946 0958")]),
    ("(212) 555-0187, ask for Dana", [("phone", "(212) 555-0187")]),
    ("我的手机号是13812345678，有事", [("phone", "13812345678")]),
    ("手机：139 1234 5678", [("phone", "139 1234 5678")]),
    ("ring me on 07700 900123", [("phone", "07700 900123")]),
    ("the figure 07700 900123 alone", []),  # a national format needs a word that announces it
    ("UTC+08:00, +12.7 degrees, +15%", []),
    ("(123) 555-0187", []),  # no North American area code starts with 1
    ("timestamp 1714550400123", []),
])
def test_phone(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("card 4111 1111 1111 1111 exp 09/27", [("card", "4111 1111 1111 1111")]),
    ("amex 3782 822463 10005", [("card", "3782 822463 10005")]),
    ("4111-1111-1111-1111", [("card", "4111-1111-1111-1111")]),
    ("4111 1111 1111 1112 declined", []),  # Luhn fails
    ("4111-1111 1111-1111", []),  # mixed separators: not how a card is written
    ("ISBN 978-3-16-148410-0", []),
    ("IMEI 490154203237518", []),  # Luhn-valid, but an IMEI
    ("order #4111-2222", []),
    ("IBAN DE89 3704 0044 0532 0130 01", []),  # the tail of a grouped code, not a card
])
def test_card(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("wire to DE89 3704 0044 0532 0130 00 (bank)", [("iban", "DE89 3704 0044 0532 0130 00")]),
    ("iban=NL91ABNA0417164300", [("iban", "NL91ABNA0417164300")]),
    ("NL91 ABNA 0417 1643 01", []),
    ("XX12 3456 7890 1234 56", []),
])
def test_iban_in_text(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("身份证号 11010519491231002X 请核对", [("national_id", "11010519491231002X")]),
    ("身份证号 110105194912310021 是错的", []),
    ("My SSN is 123-45-6789.", [("national_id", "123-45-6789")]),
    ("SSN: 536 22 8730", [("national_id", "536 22 8730")]),
    ("SSN 123456789 on file", [("national_id", "123456789")]),
    ("meeting 536 22 8730", []),  # spaces or none only right after the word
    ("ticket 987-65-4320", []),  # area 9xx is never issued
    ("the date 2024-05-01", []),
])
def test_national_id(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("from 203.0.113.42 again", [("ip_address", "203.0.113.42")]),
    ("connect to 192.168.1.15:8080", [("ip_address", "192.168.1.15")]),
    ("gw 2001:db8:85a3::8a2e:370:7334", [("ip_address", "2001:db8:85a3::8a2e:370:7334")]),
    ("ip=::ffff:192.0.2.128", [("ip_address", "::ffff:192.0.2.128")]),
    ("version 10.2.3.4", []),
    ("upgraded to 4.2.1.0", []),
    ("999.12.1.1 and 1.2.3.4.5", []),
    ("127.0.0.1, 0.0.0.0 and ::1", []),  # loopback and unspecified identify nobody
    ("MAC 00:1A:2B:3C:4D:5E at 12:30:45, std::vector", []),
])
def test_ip_address(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize("secret", [
    "AKIAIOSFODNN7EXAMPL3",
    "ghp_" + "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5",
    "github_pat_" + "11ABCDEFG0123456789abc_" + "x9Y8w7V6u5T4s3R2q1P0o9N8m7L6k5J4i3H2g1F0e9D8c7B6a5Z4y3X2w1V",
    "xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
    "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    "sk-proj-Ab3De5Gh7Jk9Mn1Pq3St5Vw7Yz9Bc1De3Fg5Hi7",
    "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
])
def test_known_secret_prefixes(secret: str) -> None:
    assert found(f"here: {secret} (do not share)") == [("secret", secret)]


def test_private_key_block_whole_and_truncated() -> None:
    pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7x\n-----END RSA PRIVATE KEY-----"
    assert found(f"key:\n{pem}\nthanks") == [("secret", pem)]
    cut = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkq"
    assert found(f"pasted {cut}") == [("secret", cut)]


@pytest.mark.parametrize(("text", "expected"), [
    ("my password is Tr0ub4dor&3x ok", [("secret", "Tr0ub4dor&3x")]),
    ("DB_PASSWORD=s3cr3t-P4ss", [("secret", "s3cr3t-P4ss")]),
    ("the session secret was 1Td0oMfemf76CWSb2aWLI3J0XG1VvTS3 before", [("secret", "1Td0oMfemf76CWSb2aWLI3J0XG1VvTS3")]),
    ("the password is required", []),
    ("token=<YOUR_TOKEN_HERE> and api_key: ${API_KEY}", []),
    ("commit 3f786850e387550fdab836ed7e6dc881de23001b", []),  # hex alone: an identifier
    ("id 550e8400-e29b-41d4-a716-446655440000", []),
    ("ThisIsACamelCaseClassNameWith2Numbers3", []),
    ("/home/ann/Projects/HindsightDemo2024/src/main.py", []),
    ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", []),
])
def test_assigned_and_high_entropy_secrets(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


def test_overlaps_go_to_the_more_specific_type_and_findings_are_ordered() -> None:
    text = "id 11010519491231002X, mail ann@example.org, card 4111111111111111"
    assert found(text) == [
        ("national_id", "11010519491231002X"), ("email", "ann@example.org"), ("card", "4111111111111111")]
    assert [f.type for f in find_pii(text, frozenset({"card"}))] == ["card"]


@pytest.mark.parametrize(("text", "expected"), [
    ("call us on 0044 20 7946 0000", [("phone", "0044 20 7946 0000")]),
    ("id 00442079460000", []),  # "00" abroad only when grouped like a number
    ("dial-in code 482 915 330#", []),  # a meeting code after "dial" is no 3-3-4 number
    ("nameserver 1.1.1.1", [("ip_address", "1.1.1.1")]),  # "ver" inside a word is no version
    ("my iban is nl44rabo0123456789", [("iban", "nl44rabo0123456789")]),
    ("gitlab token glpat-nvkaJ3sqtqcExnV7eg9B", [("secret", "glpat-nvkaJ3sqtqcExnV7eg9B")]),
    ("hash $2b$12$KIXQJ8Yz5vGp1Fh8R6n1AeO", [("secret", "$2b$12$KIXQJ8Yz5vGp1Fh8R6n1AeO")]),
])
def test_forms_found_after_the_blind_corpus_part(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("write to ann dot lee at example dot com", [("email", "ann dot lee at example dot com")]),
    ("ann[at]example[dot]org", [("email", "ann[at]example[dot]org")]),
    ("visit us at example.com", []),  # no spelled dot nor bracketed at: a site, not an address
])
def test_spelled_out_email(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize("text", [
    "https://photos.example.com/u/13812345678/album",
    "www.example.com/products/4111111111111111",
    "https://cdn.example.com/a/Xk9Qm2Lp7Rt4Vw8Zy3Bn6Hs1.jpg",
    "https://live.example.net/7284/16241297914_14ea605e4b_b.jpg",
])
def test_ids_in_url_paths_are_not_pii(text: str) -> None:
    assert found(text) == []


def test_urls_still_give_up_addresses_hosts_and_keys() -> None:
    key = "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"
    assert found(f"http://203.0.113.5/admin?key={key}&to=ann@example.org") == [
        ("ip_address", "203.0.113.5"), ("secret", key), ("email", "ann@example.org")]


def test_assigned_values_need_mixed_characters() -> None:
    assert found('admin_token="cluster-admin-token"') == []
    assert found("token: ADMIN_TOKEN") == []
    assert found("password=hunter22") == [("secret", "hunter22")]


@pytest.mark.parametrize(("text", "expected"), [
    ("Requires glibc 2.35 and kernel 5.15.0.91", []),
    ("version=2.4.1.7", []),
    ("Release notes for 3.12.0.1 are below", []),
    ("Set netmask 255.255.255.0", []),
    ("the release server is at 10.0.0.5", [("ip_address", "10.0.0.5")]),  # an address word wins
])
def test_versions_and_netmasks_are_not_addresses(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("call me at 555-0132 tonight", [("phone", "555-0132")]),  # seven digits after a phone word
    ("room 555-0132 is on the fifth floor", []),
    ("toll free 1-800-555-0199", [("phone", "1-800-555-0199")]),
    ("电话 010-12345678", [("phone", "010-12345678")]),
    ("API key: 5f4dcc3b5aa765d61d8327deb882cf99", [("secret", "5f4dcc3b5aa765d61d8327deb882cf99")]),
])
def test_local_numbers_and_spaced_key_words(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("Llámame al 612 345 678, es mi móvil", [("phone", "612 345 678")]),
    ("Texted him on 07911 123456", [("phone", "07911 123456")]),
    ("Her number: (0)20 7946 0999", [("phone", "(0)20 7946 0999")]),
    ("number 1 500 000 units", []),  # seven digits only in the 555-0132 form
    ("dial-in code 482 915 330#", []),  # a code, even after a phone word
    ("the wifi pass is 'Kettle-Lamp-93'", [("secret", "Kettle-Lamp-93")]),
    ("The CIDR 10.0.0.0/8 is private space", []),  # a block of addresses, no one machine
    ("allow 10.20.30.40/32 and 192.168.1.15/24", [("ip_address", "10.20.30.40"), ("ip_address", "192.168.1.15")]),
    ("route 2001:db8:4::/48 via 2001:db8:5::1", [("ip_address", "2001:db8:5::1")]),
])
def test_forms_found_after_the_sixth_corpus_part(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected
