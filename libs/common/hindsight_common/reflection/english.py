"""Small, deliberately shallow English helpers for the offline reflector.

No tagger, no parser: chat messages are short and first-person statements follow a handful of
shapes, so sentence/clause splitting, first-to-third person rewriting and topic slugs are done
with regular expressions and closed word lists. Everything here is a pure function of its
arguments.
"""

from __future__ import annotations

import re

from hindsight_common.reflection.lexicon import IRREGULAR_PAST

# --- time phrases -------------------------------------------------------------------------

_NUM = r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of|several)"
_UNIT = r"(?:minutes?|hours?|days?|weeks?|months?|years?|decades?)"
# "May" only counts when capitalised: lower-case "may" is the modal verb.
MONTH = (r"(?:january|february|march|april|(?-i:May)|june|july|august|september|october|"
          r"november|december)")
_DAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_PERIOD = rf"(?:week|month|year|weekend|summer|winter|spring|fall|autumn|night|semester|{_DAY})"
_ORD = r"\d{1,2}(?:st|nd|rd|th)?"
TIME_PHRASE = re.compile(
    rf"\b(?:yesterday|tomorrow|the other day|recently|this morning|this evening"
    rf"|(?:last|next|this coming|this|earlier this) {_PERIOD}"
    rf"|{_NUM} {_UNIT} ago|in {_NUM} {_UNIT}"
    rf"|(?:on |next |last |this )?{_DAY}s?"
    rf"|(?:on )?(?:the )?{_ORD} (?:of )?{MONTH}(?: \d{{4}})?"
    rf"|(?:on |in |since |from |by )?{MONTH}(?: {_ORD})?(?:,? \d{{4}})?"
    rf"|(?:in|since) \d{{4}}"
    rf"|over the (?:weekend|summer|holidays)|in the (?:spring|summer|autumn|fall|winter)"
    rf"|at the end of (?:the|this|next) {_PERIOD})\b",
    re.IGNORECASE,
)
_LEADING_TIME = re.compile(rf"^(?P<time>{TIME_PHRASE.pattern})\s*,?\s+(?=I\b|my\b|we\b)", re.IGNORECASE)
# How often: "every morning", "most weekends", "twice a week", "on Mondays".
HABIT_PHRASE = re.compile(
    rf"\b(?:(?:every|each) (?:single |other )?(?:day|morning|evening|night|week|weekend|month|"
    rf"summer|winter|{_DAY})|most (?:days|mornings|evenings|nights|weekends|weeks|{_DAY}s)|"
    rf"(?:once|twice|three times|four times|five times|\d+ times|a few times|several times) "
    rf"(?:a|per|every) (?:day|week|month|year)|on {_DAY}s|on weekends|at weekends|daily|"
    rf"(?:two|three|four|five|six|\d) (?:mornings|evenings|nights|days|lunchtimes) (?:a|per) "
    rf"week|without fail|religiously|first thing)\b", re.IGNORECASE)
# A frame before the subject that says when or for what, not who: "Most evenings I ...",
# "These days I ...", "For data work, I ...".
_LEADING_FRAME = re.compile(
    rf"^(?P<frame>{HABIT_PHRASE.pattern}|these days|nowadays|lately|for (?:[\w-]+ ){{0,3}}?"
    rf"[\w-]+(?=,? I\b))\s*,?\s+(?=I\b|my\b|we\b)", re.IGNORECASE)


def find_time(text: str) -> str | None:
    """Return the first time phrase in `text` ("last week", "on 5 May"), or None."""
    match = TIME_PHRASE.search(text)
    return match.group(0) if match else None


def split_leading_time(clause: str) -> tuple[str | None, str]:
    """Split "On 5 May I ran ..." into ("On 5 May", "I ran ..."); (None, clause) otherwise."""
    match = _LEADING_TIME.match(clause)
    if match is None:
        return None, clause
    return match.group("time"), clause[match.end():]


def split_leading_frame(clause: str) -> tuple[str | None, str]:
    """Split "Most evenings I play chess" into ("Most evenings", "I play chess")."""
    match = _LEADING_FRAME.match(clause)
    if match is None:
        return None, clause
    return match.group("frame"), clause[match.end():]


def find_habit(text: str) -> str | None:
    """The first how-often phrase in `text` ("twice a week"), or None."""
    match = HABIT_PHRASE.search(text)
    return match.group(0).lower() if match else None


# --- sentences and clauses ------------------------------------------------------------------

_ABBREVIATIONS = ("St", "Dr", "Mr", "Mrs", "Ms", "Prof", "e.g", "i.e", "etc", "vs")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+|;\s+|\s+[-–—]\s+")
_CLAUSE_BREAK = re.compile(
    r"\s*(?:,\s*|\s)(?:but|and|so|though|although|while|whereas)\s+"
    r"(?=(?:(?:now|these days|nowadays) )?(?:I|my|he|she)\b)"
    r"|,\s+(?=(?:I|my|he|she|He|She)\b)",
)
_DISCOURSE = re.compile(
    r"^(?:(?:oh|ah|well|yeah|yes|yep|yup|hey|hi|hello|so|ok|okay|honestly|btw|by the way|"
    r"also|and|but|plus|ha(?:ha)+|lol|omg|wow|tbh|to be honest|anyway|anyways|fun fact|"
    r"(?:just |quick |a quick |just a )?heads[ -]up|just so you know|fwiw|"
    r"guess what|funny enough|personally|hmm+|um+|uh+|since|now that|because|after|"
    r"great|cool|nice|oh and|now|these days|nowadays|lately)\b[\s,!:.-]*)+",
    re.IGNORECASE,
)


_LOWER_I = re.compile(r"\bi(?=(?:'(?:m|ve|ll|d))?\b)(?![.-])")
# "I kind of prefer" reads as "I kinda prefer": one adverb, not a noun and a preposition.
_HEDGE = re.compile(r"\b(kind|sort) of (?=(?:prefer|like|love|enjoy|hate|dislike|miss)\w*\b)",
                    re.IGNORECASE)


def split_sentences(text: str) -> list[str]:
    """Split a chat message into sentences, keeping "St. Mary's" and "e.g." together.

    Chat-style lower-case "i" / "i'm" is capitalised first, since every rule keys on "I".
    """
    text = _LOWER_I.sub("I", text.replace("’", "'").strip())
    text = _HEDGE.sub(lambda m: m.group(1) + "a ", text)
    pieces: list[str] = []
    carry = ""
    for piece in _SENTENCE_END.split(text):
        piece = carry + piece
        if piece.endswith(".") and piece[:-1].split(" ")[-1] in _ABBREVIATIONS:
            carry = piece + " "
            continue
        carry = ""
        if piece.strip():
            pieces.append(piece.strip())
    if carry.strip():
        pieces.append(carry.strip())
    return pieces


_JOINT_SUBJECT = re.compile(r"^[Mm]y [a-z-]+(?: [A-Z][a-z]+)?$")


def split_clauses(sentence: str) -> list[str]:
    """Split a sentence where a new first-person (or he/she) clause starts.

    "My wife and I bought a flat" stays one clause: "my wife and I" is its subject.
    """
    clauses: list[str] = []
    for piece in (c.strip(" ,") for c in _CLAUSE_BREAK.split(sentence)):
        if not piece:
            continue
        if clauses and _JOINT_SUBJECT.match(clauses[-1]) and piece.startswith("I "):
            clauses[-1] = f"{clauses[-1]} and {piece}"
        else:
            clauses.append(piece)
    return clauses


def strip_discourse(text: str) -> str:
    """Drop leading fillers ("oh, honestly, ...") that carry no content."""
    return _DISCOURSE.sub("", text).strip()


_QUESTION_WORDS = frozenset({
    "do", "does", "did", "are", "is", "was", "were", "can", "could", "would", "will",
    "should", "shall", "have", "has", "what", "what's", "why", "how", "how's", "where",
    "when", "who", "whom", "which", "whose", "may", "am", "isn't", "aren't", "doesn't",
    "didn't", "wouldn't", "shouldn't", "couldn't",
})
_HYPOTHETICAL = re.compile(
    r"\b(?:if|unless|whether|imagine|suppose|supposing|wish|wonder|wondering|hypothetically|"
    r"(?:maybe|perhaps)(?!\s+(?:once|twice|three times|every|a couple of times)\b)|might|could have|"
    r"would have|someday|one day|hope)\b"
    r"|\bI(?:'d| would)\b(?!\s+(?:much\s+)?(?:prefer|rather|(?:take|pick|choose|go for)\b.+\bover\b))",
    re.IGNORECASE,
)


def is_question(sentence: str) -> bool:
    """True for "Do you like jazz?" and for chat-style questions without a question mark."""
    words = sentence.split()
    return sentence.rstrip().endswith("?") or (
        bool(words) and words[0].lower().strip(",") in _QUESTION_WORDS)


def is_hypothetical(clause: str) -> bool:
    """True for conditionals, wishes and musings, which state nothing about the speaker."""
    return _HYPOTHETICAL.search(clause) is not None


# --- first to third person ------------------------------------------------------------------

ADVERBS = frozenset({
    "really", "just", "also", "absolutely", "totally", "truly", "actually", "still", "now",
    "recently", "finally", "definitely", "genuinely", "honestly", "seriously", "mostly",
    "generally", "currently", "originally", "personally", "already", "literally", "simply",
    "certainly", "deeply", "secretly", "kinda", "sorta", "even", "only", "always", "never",
    "usually", "often", "sometimes", "normally", "typically", "regularly", "rarely",
    "much", "far", "quite", "seldom", "hardly", "ever", "mainly", "largely", "no", "longer",
    "altogether", "completely", "entirely",
})
_MODALS = frozenset({"can", "can't", "cannot", "could", "couldn't", "will", "won't", "would",
                     "wouldn't", "should", "shouldn't", "must", "might", "may", "didn't",
                     "wasn't", "was", "had", "hadn't"})
_IRREGULAR_3SG = {"am": "is", "have": "has", "do": "does", "don't": "doesn't", "go": "goes",
                  "haven't": "hasn't", "be": "is", "aren't": "isn't"}
_IRREGULAR_BASE = {"has": "have", "does": "do", "goes": "go", "is": "be"}
_AMBIGUOUS_PAST = frozenset({"read", "quit", "hit", "put", "cut", "set", "let"})
_CONTRACTIONS = {"i'm": "is", "i've": "has", "i'll": "will", "i'd": "would"}
_TOKEN = re.compile(r"[A-Za-z0-9@._+#-]+(?:'[A-Za-z]+)?|\s+|[^\sA-Za-z0-9]")


def third_singular(verb: str) -> str:
    """Conjugate a verb said after "I" for a third-person subject ("love" -> "loves")."""
    low = verb.lower()
    if low in _IRREGULAR_3SG:
        return _IRREGULAR_3SG[low]
    if (low in _MODALS or low in IRREGULAR_PAST or low.endswith("ed") or not low.isalpha()
            or low in _AMBIGUOUS_PAST):
        return verb
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if low.endswith("y") and len(low) > 2 and low[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def base_form(verb: str) -> str:
    """Undo `third_singular` for topic slugs ("checks" -> "check", "goes" -> "go")."""
    low = verb.lower()
    if low in _IRREGULAR_BASE:
        return _IRREGULAR_BASE[low]
    if low.endswith("ies") and len(low) > 4:
        return low[:-3] + "y"
    if low.endswith(("shes", "ches", "xes", "zes", "oes", "sses")):
        return low[:-2]
    if low.endswith("s") and not low.endswith("ss"):
        return low[:-1]
    return low


_LEAD_I = re.compile(r"^I(?P<contraction>'m|'ve|'ll|'d)?\b\s*(?P<rest>.*)$", re.DOTALL)


def starts_with_i(clause: str) -> bool:
    """True when the clause's subject is the speaker ("I ...", "I'm ...")."""
    return _LEAD_I.match(clause) is not None


def conjugate_lead(clause: str) -> str:
    """The predicate of an "I ..." clause, conjugated: "I really love X" -> "really loves X"."""
    match = _LEAD_I.match(clause)
    if match is None:
        return clause
    contraction, rest = match.group("contraction"), match.group("rest")
    if contraction:
        return f"{_CONTRACTIONS['i' + contraction]} {rest}".strip()
    words = rest.split(" ")
    for index, word in enumerate(words):
        if word.lower() not in ADVERBS:
            words[index] = third_singular(word)
            break
    return " ".join(words)


def third_person(text: str, name: str, other: str) -> str:
    """Rewrite a first-person text about `name` into a third-person one (case kept as is).

    "I love my dog" -> "Caroline loves Caroline's dog". A name repeated instead of "her" is
    clumsy but keeps every memory self-contained without guessing anyone's pronouns. "you"
    becomes `other` (the other party of the conversation).
    """
    tokens = _TOKEN.findall(text.replace("’", "'"))
    out: list[str] = []
    conjugate_next = False
    for token in tokens:
        low = token.lower()
        if conjugate_next and token.strip():
            # The verb after "I" may sit behind adverbs: "I really love" -> "really loves".
            if not token[0].isalpha():
                conjugate_next = False
            elif low not in ADVERBS:
                token = third_singular(token)
                conjugate_next = False
        if token == "I":
            out.append(name)
            conjugate_next = True
            continue
        if low in _CONTRACTIONS and token[0] == "I":
            out.append(f"{name} {_CONTRACTIONS[low]}")
            continue
        replacement = {"my": f"{name}'s", "mine": f"{name}'s", "me": name, "myself": name,
                       "you": other, "your": f"{other}'s", "yours": f"{other}'s",
                       "you're": f"{other} is", "you've": f"{other} has"}.get(low)
        out.append(replacement if replacement is not None else token)
    return "".join(out)


# --- values, topics, entities ---------------------------------------------------------------

_CLIP = re.compile(
    r"\s*(?:[;!?()\"]|(?<!\d):|:(?!\d)|(?<!\bSt)(?<!\bDr)(?<!\bMr)(?<!\bMs)(?<!\bMrs)\.(?:\s|$)"
    r"|,(?!\s+[A-Z][a-z])"
    r"|\s(?:but|because|since|so|though|although|while|who|which|especially|mostly|except|"
    r"unless|if|when|whereas|lol|haha)\b"
    r"|\sand\b(?!\s+(?:a|an|some|one|two|three|a bit|[A-Z]))"
    r"|\sI\b|\s[-–—]\s)"
)
_FILLER_TAIL = re.compile(
    r"(?:\s+(?:now|these days|right now|at the moment|too|as well|anymore|nowadays|please|"
    r"ever since|for (?:a while|years|ages|\w+ (?:days|weeks|months|years))))+$",
    re.IGNORECASE,
)


def clip(text: str, *, strip_time: bool) -> str:
    """Cut a captured phrase at the end of its clause; optionally drop a trailing date."""
    match = _CLIP.search(text)
    value = (text[: match.start()] if match else text).strip(" ,.")
    if strip_time:
        for _ in range(2):
            time = TIME_PHRASE.search(value)
            if time is not None and time.start() > 0:
                value = value[: time.start()].rstrip(" ,")
            value = _FILLER_TAIL.sub("", value).strip(" ,.")
    return value


_LEAD_SKIP = frozenset({
    "a", "an", "the", "my", "your", "his", "her", "their", "our", "its", "some", "any", "this",
    "that", "these", "those", "to", "please", "i", "we", "you", "it", "they", "he", "she",
    "should", "have", "has", "had", "will", "would", "must", "need", "needs", "did", "didn't",
    "don't", "do", "does", "doesn't", "was", "were", "is", "are", "be", "been", "being", "not",
    "no", "always", "never", "also", "just", "really", "first", "more", "much", "so", "very",
    "use", "uses", "using", "used", "eat", "eating", "drink", "drinking", "having", "get",
    "getting", "going", "go", "take", "taking", "make", "making", "sure", "watch", "watching",
    "listen", "listening", "play", "playing", "read", "reading", "try", "trying", "forgot",
    "forget", "remember", "keep", "keeping", "i'll", "we'll", "i'm", "we're", "it's", "when",
    "people's", "can't", "won't", "about", "of", "for", "in", "on", "at", "with", "all",
})
# Words that end a topic: prepositions, conjunctions and place/time adverbs.
_TOPIC_STOP = frozenset({
    "before", "after", "from", "into", "onto", "until", "during", "since", "without",
    "through", "via", "over", "under", "than", "like", "as", "there", "here", "then", "while",
    "because", "and", "or", "but", "so", "if", "by", "every", "each", "again", "too",
    "today", "tonight", "tomorrow", "yesterday", "later", "soon", "instead", "better",
    "worse", "less", "along", "around", "across", "past", "near", "beside", "towards", "toward",
    "behind", "among", "matters", "helps", "works", "pays", "counts",
    "maybe", "perhaps",
})
_NUMBERS = frozenset({"once", "twice", "one", "two", "three", "four", "five", "six", "seven",
                      "eight", "nine", "ten", "several", "few"})
# Words that end a topic once it has a word ("bed early", "yoga three times", "chess
# online") but are part of it, or skipped, when they lead ("early meetings", "two cats",
# "online games"): numbers, and adverbs of time, place and company.
_TRAILING_STOP = _NUMBERS | {"most", "religiously", "early", "late", "online", "offline", "outdoors", "indoors",
                             "outside", "inside", "abroad", "alone", "together", "nearby",
                             "locally", "downstairs", "upstairs"}
_INNER_SKIP = frozenset({"a", "an", "the", "my", "your", "his", "her", "their", "our", "its",
                         "some", "this", "these", "those", "more", "extra", "enough"})


def topic(phrase: str, *, limit: int = 2) -> str:
    """Slug of the first content words of `phrase`: "the spicy food at work" -> "spicy_food".

    Leading function words and light verbs are skipped, determiners inside are skipped, and
    any other function word (a preposition, a conjunction, an adverb) ends the topic. The
    key scheme documented in README.md depends on this.
    """
    words = [w.lower().removesuffix("'s") for w in re.findall(r"[A-Za-z0-9+#'-]+", phrase)]
    words = [w.strip("'-") for w in words if w.strip("'-")]
    index, last_skipped = 0, ""
    while index < len(words) and words[index] in _LEAD_SKIP:
        last_skipped = words[index]
        index += 1
    picked: list[str] = []
    for word in words[index:]:
        number = word in _NUMBERS or word.isdigit()
        if word in _INNER_SKIP or (number and not picked):
            continue
        if (word in _TRAILING_STOP or number) and picked:
            break
        if word in _LEAD_SKIP or word in _TOPIC_STOP or word in ADVERBS or len(picked) == limit \
                or word.endswith("n't"):
            break
        picked.append(word)
    if not picked and last_skipped.isalpha() and last_skipped not in _INNER_SKIP:
        picked = [last_skipped]
    return "_".join(picked).replace("-", "_")


_NON_ENTITIES = frozenset({
    "I", "The", "A", "An", "My", "On", "In", "Next", "Lesson", "Remember", "Yesterday", "Today",
    "Tomorrow", "Last", "This", "That", "It", "He", "She", "We", "They", "You", "Sorry",
    "Actually", "No", "January", "February", "March", "April", "May", "June", "July",
    "August", "September", "October", "November", "December", "Monday", "Tuesday",
    "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "Please", "Note",
})
_CAPITALISED = re.compile(r"\b[A-Z][\w&-]*(?:\.?\s+[A-Z][\w&-]*)*")


def entities(text: str, subject: str) -> tuple[str, ...]:
    """The subject first, then capitalised names and places in `text`, without duplicates."""
    found: list[str] = [subject]
    for match in _CAPITALISED.finditer(text):
        words = [w for w in re.split(r"\.?\s+", match.group(0)) if w not in _NON_ENTITIES]
        name = " ".join(words).removesuffix("'s").strip()
        if name and name.lower() not in {f.lower() for f in found}:
            found.append(name)
    return tuple(found)


def ing_to_base(word: str) -> str:
    """"moving" -> "move", "running" -> "run", "learning" -> "learn" (good enough for slugs)."""
    low = word.lower()
    if not low.endswith("ing") or len(low) < 5:
        return low
    stem = low[:-3]
    if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "ls":
        return stem[:-1]
    if stem.endswith(("v", "tak", "ir", "at", "leav", "hav", "mak", "com", "danc", "driv")):
        return stem + "e"
    return stem
