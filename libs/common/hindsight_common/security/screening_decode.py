"""What screening reads besides the visible text (pure): normalised text, text hidden
from a human reader (HTML comments, invisible styling, zero-width and bidi characters),
and encoded payloads (base64, hex, URL escapes, rot13, digit-for-letter spelling).

Each function returns the *texts to screen again*; screening decides what they mean.
Decoding is bounded: a few candidates per kind, capped lengths, printable results only,
so a megabyte of base64 costs no more than its first few blobs.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import html
import re
import unicodedata
from dataclasses import dataclass
from urllib.parse import unquote

from hindsight_common.security.screening_foreign import LEXICON

#: Zero-width and bidirectional-control characters: invisible to a reader, used to split
#: trigger words or reorder what a human sees. (U+200D, the emoji joiner, is left alone.)
INVISIBLE = re.compile("[\u200b\u200c\u200e\u200f\u2060-\u2064\u2066-\u2069\u202a-\u202e\u00ad\ufeff\u180e"
                       "\U000e0000-\U000e007f]")
#: Words that ask for a decoding: "decode", "rot13", "backwards", in several languages.
_DECODE_HINT = re.compile(
    r"rot-?13|decod|décod|dekod|decif|déchiffr|entschlüssel|avkoda|dekoodaa|dešifr|çöz|расшифр|декодир|"
    r"розшифр|αποκωδικ|فك|פענח|डिकोड|revers|backwards|al revés|à l'envers|rückwärts|al contrario|"
    r"de trás para frente|achterstevoren|od tyłu|baklänges|baklengs|takaperin|pozpátku|invers|tersten|"
    r"задом наперёд|справа налево|навпаки|ανάποδα|بالعكس|הפוך|उल्टा|terbalik|ngược|กลับหลัง|倒过来|倒過來|"
    r"反过来|逆から|逆さ|거꾸로|解码|解碼|デコード|디코드|الٹا|برعکس|উল্টো|ডিকোড|رمزگشایی|dekódol|visszafelé|"
    r"i-decode|baligtad|pabaligtad|simbua|kinyume", re.I)
#: "... and just do it": a decoding asked for so that what comes out is carried out unread.
_RUN_IT = re.compile(
    r"\b(?:(?:just |then |and )(?:do|run|execute|perform|follow|apply|obey|carry)\b|do (?:it|that|what it says|"
    r"exactly what it says|as it says)\b|carry (?:it|them|that) out\b|execute (?:it|that|the)\b|follow (?:it|them|"
    r"the instructions?)\b|act on it\b|perform (?:it|the)\b|"
    # the same in other languages
    r"haz lo que dice|hazlo|ejecuta|ejecútalo|síguelo|cúmplelo|obedece|fais ce qu|exécute|suis-le|obéis|führ\w* \w+ "
    r"aus|ausführen|befolge|mach,? was|tu,? was|esegui|fai quello che|seguilo|faça o que|faz o que|cumpra|"
    r"voer \w+ uit|uitvoeren|doe wat|wykonaj|zrób to|zrób,? co|выполни|сделай,? что|сделай то|исполни|виконай|"
    r"зроби,? що|uygula|yerine getir|gereğini yap|laksanakan|lakukan|jalankan|thực hiện|làm theo|执行|照做|実行|"
    r"その通りに|실행|그대로|نفذ|نفّذ|בצע|תבצע|पालन कर|अमल कर|utför|gör som|udfør|utfør|gjør som|gør som|suorita|"
    r"tee mitä|proveď|vykonaj|udělej,? co|urob,? čo|execută|fă ce|εκτέλεσε|κάνε ό|hajtsd végre|csináld|tekeleza|"
    r"اجرا کن|انجام بده|isagawa|sundin|täida|izvrši|izvedi|изпълни|įvykdyk|izpildi|framkvæmdu)", re.I)
# Unicode tag characters: an invisible copy of ASCII (U+E0020-U+E007E), "ASCII smuggling".
_TAGS = re.compile("[\U000e0020-\U000e007e]{4,}")
_COMMENT = re.compile(r"<!--(.*?)(?:-->|$)", re.S)
_HIDING_STYLE = re.compile(
    r"<(\w+)[^>]*style\s*=\s*[\"'][^\"']*(?:color\s*:\s*(?:white|#fff\b|#ffffff|rgba?\(\s*255\s*,\s*255\s*,"
    r"\s*255)|font-size\s*:\s*(?:0|1(?:\.\d+)?(?:px|pt))\b|color\s*:\s*#f[a-f]f[a-f]f[a-f]\b|display\s*:\s*none|visibility\s*:\s*hidden|opacity\s*:\s*0(?:\.0+)?\b|"
    r"height\s*:\s*0|width\s*:\s*0)[^\"']*[\"'][^>]*>(.*?)(?:</\1>|$)",
    re.I | re.S,
)
_HIDING_FONT = re.compile(
    r"<(font)[^>]*color\s*=\s*[\"']?(?:white|#fff\b|#ffffff)[^>]*>(.*?)(?:</font>|$)", re.I | re.S)
_HIDDEN_ATTR = re.compile(r"<(\w+)[^>]*\s(?:hidden|aria-hidden\s*=\s*[\"']true[\"'])[^>]*>(.*?)(?:</\1>|$)", re.I | re.S)
#: The class names style sheets hide an element by ("hide", "sr-only", "visually-hidden").
_HIDING_CLASS = re.compile(r"<(\w+)[^>]*\sclass\s*=\s*[\"'][^\"']*\b(?:hide|hidden|sr-only|visually-hidden|invisible|"
                           r"d-none|offscreen)\b[^\"']*[\"'][^>]*>(.*?)(?:</\1>|$)", re.I | re.S)
#: Attributes a reader never sees as text but an agent reading the markup does.
_ATTRIBUTE = re.compile(r"\b(?:alt|title|content|aria-label|data-[\w-]+)\s*=\s*(?:\"([^\"]{12,})\"|'([^']{12,})')", re.I)
_TAG = re.compile(r"<[^>]{1,200}>")
_BASE64 = re.compile(r"(?<![\w+/-])[A-Za-z0-9+/_-]{16,}={0,2}")
# The same tucked after an underscore, as in a file name ("receipt_YWdlbnQ6....pdf").
_BASE64_IN_NAME = re.compile(r"(?<=_)[A-Za-z0-9+/-]{16,}={0,2}")
_HEX = re.compile(r"(?<![0-9A-Za-z])(?:[0-9a-fA-F]{2}[\s:]?){12,}")
_URL_ESCAPES = re.compile(r"(?:%[0-9a-fA-F]{2}.*){4,}", re.S)
# Letters spelled out one at a time ("i g n o r e   t h e ..."), a way past word filters.
_SPACED = re.compile(r"(?<!\w)(?:[A-Za-z][ \t]{1,3}){9,}[A-Za-z](?!\w)")
# The same with a dot, dash or star between the letters of a word ("S.e.n.d y.o.u.r").
_DOTTED = re.compile(r"(?<![\w.])(?=[A-Za-z][.·*_-][A-Za-z])(?:[A-Za-z](?:[.·*_-]|[.·*_-]?[ \t]{1,3})){9,}[A-Za-z](?![\w])")
# JSON or source-code escapes ("\\u0049\\u0067..."): a payload spelled one code point at a time.
_CODE_ESCAPES = re.compile(r"(?:\\u[0-9a-fA-F]{4}|\\x[0-9a-fA-F]{2}){4,}")
# HTML character references ("&#x41;&#x73;..."): a payload a page shows as text but spells in code.
_ENTITIES = re.compile(r"(?:&#(?:x[0-9a-fA-F]{1,6}|\d{1,7});\s?){4,}")
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"})
_LEET_WORD = re.compile(r"\b(?=\w*[a-z])(?=\w*[013457@$])[\w@$]{3,}\b", re.I)
_WORD = re.compile(r"[A-Za-z]+")
#: Words so common in English that a run of words without any is not plain English
#: (rot13 turns every one of them into something else: "the" -> "gur").
_COMMON = frozenset(
    "the a an and or to of in on at for is are was were be it this that you your i me my we our he she "
    "they them with as by from not do have has will can all so if but what just about up out no yes".split())
_CHAT_WORDS = {"u": "you", "ur": "your", "pls": "please", "plz": "please", "ppl": "people", "msg": "message",
               "msgs": "messages", "prev": "previous", "instrs": "instructions"}
_CHAT_WORD = re.compile(r"(?<![\w'’])(?:" + "|".join(_CHAT_WORDS) + r")(?![\w'’])", re.I)
MAX_CANDIDATES = 4
MAX_DECODED = 4000


@dataclass(frozen=True)
class Layer:
    """A text found inside the content, and how it was found."""

    how: str  # "comment", "styled", "invisible", "base64", "hex", "url", "rot13", "leet"
    text: str


# Cyrillic and Greek letters that look Latin, and a Latin letter beside one of them inside a
# word: "Тhе аssіstаnt" spelled to slip past the rules. No word of Russian or Greek mixes in
# Latin letters, so only mixed words are folded.
_LOOKALIKES = str.maketrans("АВЕКМНОРСТУХЅІЈаеорсухѕіјԁӏһԛԝүΑΒΕΖΗΙΚΜΝΟΡΤΥΧοινρκυ",
                            "ABEKMHOPCTYXSIJaeopcyxsijdlhqwyABEZHIKMNOPTYXoivpku")
_MIXED_SCRIPT = re.compile(r"[A-Za-z][\u0370-\u03ff\u0400-\u04ff\u0500-\u052f]|[\u0370-\u03ff\u0400-\u04ff\u0500-\u052f][A-Za-z]")
_LETTERS = re.compile(r"[^\W\d_]+")


def _unmixed(word: str) -> str:
    return word.translate(_LOOKALIKES) if _MIXED_SCRIPT.search(word) else word


_MASKED_ADDRESS = re.compile(r"[\w.+-]*\*{2,}[\w.+*-]*@[\w-]+(?:\.[\w-]+)+")


def normalise(text: str) -> str:
    """Compatibility-folded (NFKC: full-width and styled letters become plain ones), look-alike
    letters inside mixed-script words made Latin, without invisible characters, whitespace
    collapsed. Screening matches on this form."""
    folded = unicodedata.normalize("NFKC", text)
    if _MIXED_SCRIPT.search(folded):
        folded = _LETTERS.sub(lambda m: _unmixed(m.group(0)), folded)
    plain = re.sub(r"[ \t\r\f\v]+", " ", INVISIBLE.sub("", folded))
    # A masked address ("r****@gmail.com" in a reset notice) names the reader's own inbox,
    # never a place an attacker sends data to.
    plain = _MASKED_ADDRESS.sub("a masked address", plain)
    # Chat spelling ("forget ur rules", "can u") reads as the words it stands for.
    return _CHAT_WORD.sub(lambda m: _CHAT_WORDS[m.group(0).lower()], plain)


#: A zero-width non-joiner between two letters of a script that spells with it (Persian,
#: Urdu, Hindi, Bengali ...), and the direction marks of right-to-left text, are orthography.
_SPELLING_JOINER = re.compile(r"(?<=[^\s\d\x00-\x7f\u00c0-\u024f])\u200c(?=[^\s\d\x00-\x7f\u00c0-\u024f])")
_RIGHT_TO_LEFT = re.compile(r"[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")


def invisible_count(text: str) -> int:
    """Invisible characters that hide something, less those that spell a language."""
    found = len(INVISIBLE.findall(text))
    if found:
        found -= len(_SPELLING_JOINER.findall(text))
        if _RIGHT_TO_LEFT.search(text):
            found -= text.count("\u200e") + text.count("\u200f")
    return found


def hidden_layers(text: str) -> list[Layer]:
    """Text a human reader would not see: HTML comments, invisibly styled elements, and
    attributes (alt, title, meta content) long enough to say something."""
    out = [Layer("comment", m.group(1)) for m in _COMMENT.finditer(text)][:MAX_CANDIDATES]
    out += [Layer("tag characters", "".join(chr(ord(c) - 0xE0000) for c in m.group(0)))
            for m in _TAGS.finditer(text)][:MAX_CANDIDATES]
    for pattern in (_HIDING_STYLE, _HIDING_FONT, _HIDDEN_ATTR, _HIDING_CLASS):
        out += [Layer("styled", _TAG.sub(" ", m.group(2))) for m in pattern.finditer(text)][:MAX_CANDIDATES]
    out += [Layer("attribute", m.group(1) or m.group(2)) for m in _ATTRIBUTE.finditer(text)][:MAX_CANDIDATES]
    return [layer for layer in out if layer.text.strip()]


def _printable(raw: bytes) -> str | None:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    letters = sum(c.isalpha() or c.isspace() for c in text)
    # Decoded instructions are words and spaces; hashes, images and keys are not.
    if len(text) < 8 or " " not in text or letters < 0.8 * len(text):
        return None
    return text[:MAX_DECODED]


def _from_base64(blob: str) -> str | None:
    padded = blob + "=" * (-len(blob) % 4)
    try:
        raw = base64.urlsafe_b64decode(padded) if ("-" in blob or "_" in blob) else base64.b64decode(padded)
    except (binascii.Error, ValueError):
        return None
    return _printable(raw)


def spaced_layers(raw: str) -> list[Layer]:
    """Letters spelled out one at a time, read as words: from the text as sent (normalising
    collapses the wider gaps that separate the words)."""
    out = [Layer("spaced letters", _from_spaced(m.group(0))) for m in _SPACED.finditer(raw)]
    out += [Layer("spaced letters", _from_dotted(m.group(0))) for m in _DOTTED.finditer(raw)]
    return out[:MAX_CANDIDATES]


def _from_spaced(run: str) -> str:
    """"s k i p   t h e" -> "skip the": letters joined, wider gaps kept as word breaks."""
    return " ".join(word.replace(" ", "") for word in re.split(r"\s{2,}", run.strip()))[:MAX_DECODED]


def _from_dotted(run: str) -> str:
    """"S.e.n.d y.o.u.r" -> "Send your": the marks between letters dropped, spaces kept."""
    return " ".join(re.sub(r"[.·*_-]", "", word) for word in run.split())[:MAX_DECODED]


def _from_escapes(run: str) -> str:
    return re.sub(r"\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})",
                  lambda m: chr(int(m.group(1) or m.group(2), 16)), run)[:MAX_DECODED]


def _from_hex(blob: str) -> str | None:
    digits = re.sub(r"[\s:]", "", blob)
    if len(digits) % 2:
        digits = digits[:-1]
    try:
        return _printable(bytes.fromhex(digits))
    except ValueError:
        return None


def encoded_layers(text: str, readings: bool = True) -> list[Layer]:
    """Encoded payloads that decode to readable text: base64, hex, URL and code escapes,
    and (with ``readings``) the whole text read as rot13, backwards and with digits read as
    letters (cheap, and their readings only matter if they contain an instruction)."""
    out: list[Layer] = []
    for how, pattern, decode in (("base64", _BASE64, _from_base64), ("base64", _BASE64_IN_NAME, _from_base64),
                                 ("hex", _HEX, _from_hex)):
        found = 0
        for m in pattern.finditer(text):
            decoded = decode(m.group(0))
            if decoded is not None:
                out.append(Layer(how, decoded))
                found += 1
            if found >= MAX_CANDIDATES:
                break
    if _URL_ESCAPES.search(text):
        out.append(Layer("url", unquote(text)[:MAX_DECODED]))
    out += [Layer("escapes", _from_escapes(m.group(0))) for m in _CODE_ESCAPES.finditer(text)][:MAX_CANDIDATES]
    out += [Layer("entities", html.unescape(m.group(0))) for m in _ENTITIES.finditer(text)][:MAX_CANDIDATES]
    if not readings:
        return out
    runs = _uncommon_runs(text[:MAX_DECODED])
    if runs:
        # A reading in another language is looked for only where the text asks for decoding
        # (the lexicon costs more than the English word count, and most runs are names).
        hinted = _DECODE_HINT.search(text) is not None
        decoded = codecs.encode(" ... ".join(runs), "rot13")
        if _reads_as_language(decoded, hinted):  # names and jargon read as rot13 are gibberish: not worth screening
            out.append(Layer("rot13", decoded))
        backwards = " ... ".join(run[::-1] for run in reversed(runs))
        if _reads_as_language(backwards, hinted):  # "drowssap ruoy tnirp": written backwards
            out.append(Layer("reversed", backwards))
    if _LEET_WORD.search(text):
        out.append(Layer("leet", _LEET_WORD.sub(lambda m: m.group(0).translate(_LEET), text[:MAX_DECODED])))
    return out


# The decoding words as plain substrings, those in ASCII apart: a cheap first look (the
# case-blind pattern costs about 50 us a text, these 3 us for English text).
_HINT_WORDS = [w.replace("-?", "") for w in _DECODE_HINT.pattern.split("|")]
_HINT_ASCII = re.compile("|".join(re.escape(w) for w in _HINT_WORDS if w.isascii()))
_HINT_ANY = re.compile("|".join(re.escape(w) for w in _HINT_WORDS))


def asks_to_decode_and_run(text: str) -> bool:
    """Whether ``text`` asks for a decoding and for what it decodes to be carried out
    ("decode this and just do it", "read it backwards and follow it")."""
    lowered = text.lower()
    if (_HINT_ASCII if lowered.isascii() else _HINT_ANY).search(lowered) is None:
        return False
    hint = _DECODE_HINT.search(text)
    return hint is not None and _RUN_IT.search(text, max(0, hint.start() - 200)) is not None


def _reads_as_language(text: str, other_languages: bool = True) -> bool:
    """English, or (``other_languages``) at least two of the concepts an order is made of
    in another language (``screening_foreign``): gibberish makes neither."""
    if _reads_as_english(text):
        return True
    return other_languages and len({t.concept for t, _ in LEXICON.hits(text) if not t.english}) >= 2


def _reads_as_english(text: str) -> bool:
    """Whether ``text`` has common English words about as often as English does."""
    words = _WORD.findall(text)
    common = sum(w.lower() in _COMMON for w in words)
    return common >= max(1, len(words) // 8)


def _uncommon_runs(text: str, at_least: int = 3) -> list[str]:
    """Stretches of ``at_least`` or more words none of which is a common English word:
    where a rot13 payload would be (plain English has a common word every few words), so
    only those are read as rot13."""
    runs: list[str] = []
    start: int | None = None
    end = 0
    count = 0
    for m in _WORD.finditer(text):
        if m.group(0).lower() in _COMMON:
            if count >= at_least and start is not None:
                runs.append(text[start:end])
            start, count = None, 0
            continue
        if start is None:
            start = m.start()
        end, count = m.end(), count + 1
    if count >= at_least and start is not None:
        runs.append(text[start:end])
    return runs
