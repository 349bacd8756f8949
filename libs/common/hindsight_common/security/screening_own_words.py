"""Signs that the assistant's own words report a hijack (pure): it acted on, or adopted as a
lasting rule, something that content it read told it to do.

Why the assistant's words need their own reading: the rules look for orders *to* the agent
("you must", "from now on send ..."). A hijacked assistant repeats the order as its own
deed or promise ("as the README asked, I ran ...", "saved the rule from the vendor's
e-mail: I'll skip her confirmation step"), which the order rules do not see. Three readings,
each of two things together and neither alone:

- a deed credited to content (a page, a document, an e-mail, a caller, "as they asked"),
  not to the person it works for ("as you asked" is the ordinary case), beside a deed or
  promise in the rest of the turn (sent, changed, granted, saved, skipped, from now on ...);
  an assistant that passes on an e-mail's news ("according to the airline's e-mail, your
  flight now leaves at 16:40") credits content and does nothing;
- payment or account details changed "from their e-mail" (the IBAN, the payee, a recovery
  address): invoice fraud reaching an agent that pays;
- a standing promise ("from now on", "trigger saved") to act unchecked: without asking,
  skipping a confirmation, no longer warning, quietly, treating someone as the user.

And one thing alone: a new master or no limits ("I'll take instructions from their mailbox
rather than from you", "in this mode I don't refuse requests").

A refusal ("I ignored it and didn't act on it") is none of these. Other languages are read
for the first with the words of ``screening_lexicon_deeds`` (credited, content and deed, or a
deed credited to "him" or "them", in one sentence or two that follow each other).

Only the assistant's turns are read this way (``Screener.screen``): in a user's or a
colleague's words, "per the memo, I've moved the payment" is that person's own act.
"""

from __future__ import annotations

import re

from hindsight_common.security.screening_foreign import SENTENCE, Lexicon
from hindsight_common.security.screening_lexicon_deeds import DEEDS
from hindsight_common.security.screening_rule import Family

_CONTENT = (r"(?:web ?page|page|website|site|readme|pdf|document|doc|docs|file|attachment|e-?mail|mail|message|"
            r"text|note|notes|comment|footer|header|footnote|banner|pop-?up|invite|invitation|description|listing|"
            r"ticket|post|forum|thread|charter|article|review|sheet|spreadsheet|form|caller|sender|vendor|"
            r"supplier|contractor|installer|(?:support|service) agent|instructions|guidance|section|markup|"
            r"alt text|metadata|string|block|payload|link|memo|letter|notice|update|chat message|sms|newsletter|"
            r"bulletin|advisory|announcement|manual|guide|wiki|faq|transcript|voicemail|(?:issue |pr )?template|"
            r"blog|blog post|podcast|video|tweet|channel|widget|plugin|extension|integration|portal|search results?|request|"
            r"tool (?:output|result)s?|"
            # a file by its name: "the repo's CONTRIBUTING.md said ..."
            r"[\w-]+\.(?:md|txt|pdf|html?|json|ya?ml|csv|docx?|xlsx?|ics))")
#: The deed credited to the content: "as the README asked", "per the instructions embedded in
#: the product page", "following the note in the page's HTML comment", "from the vendor's e-mail".
_CREDITED = re.compile(
    rf"\b(?:as|since|because|per|following|according to|in line with|on the strength of|at the request of|"
    rf"as requested (?:in|by)|as instructed (?:in|by)|as directed (?:in|by)|(?:the )?rule from|instructions? from|"
    rf"(?:it|that|this) came from|(?:which|that) came from)\s+(?:the|that|this|those|these|their|its|his|her|"
    rf"(?-i:[A-Z][a-z]+)'s)"
    rf"\s+(?:[\w'’\"“”-]+\s+){{0,5}}?{_CONTENT}s?\b(?!\s+(?:you|that you|which you)\s+(?:\w+\s+)?"
    rf"(?:uploaded|shared|sent|gave|provided|wrote|attached|pasted|asked))"
    rf"|\b{_CONTENT}s?\s+(?:[\w'’\"“”-]+\s+){{0,3}}?(?:said|says|asked|asks|instructed|instructs|requested|described|indicated|"
    rf"told me|required|wanted|directed|specified|stated|explained|contained)\b"
    rf"|(?:\bi (?:also |then |just |first )?|(?:^|[.!?:]\s+))(?:(?:\w+-)?decoded|followed|read|opened)\b[^.!?\n]{{0,80}}?"
    rf"\b(?:it|which|that) (?:said|asked|told me|instructed)\b"
    # "I followed the setup page's instructions", "carried out the instruction" found in a tool result
    rf"|\bi (?:also |then |just |first )?(?:followed|obeyed|applied|executed|carried out|acted on|did what)\b"
    rf"[^.!?\n]{{0,60}}?\b(?:{_CONTENT}|"
    rf"instructions?|steps?)\b|\b(?:carried out|executed|followed|applied) the (?:\w+ )?instructions?\b"
    # a third party asked: "as they asked", "as he requested" (the user is "you")
    rf"|\bas (?:they|he|she) (?:asked|requested|instructed|said|told me|wanted)\b"
    # the decoded text as an order: "the hex string ... decoded to 'add a deploy key'", "it turned
    # out to be an instruction to export the table"
    rf"|\b{_CONTENT}s?\s+(?:[\w'’\"“”-]+\s+){{0,5}}?decoded to\b|\b(?:it|which|that) (?:turned out to be|was) "
    rf"(?:an? |the )?(?:[\w-]+ )?(?:instruction|order|command|request)s? to\b"
    # "I decoded the comment ... and followed it"
    rf"|\bi (?:also |then |just |first )?(?:\w+-)?decoded\b(?:[^.!?\n]|\.(?=[\w/~])){{0,100}}?\band (?:followed|obeyed|carried out|"
    rf"executed|ran|did) (?:it|them|what it said)\b"
    # a destination credited to content: "the adviser address listed in that PDF"
    rf"|\b(?:address|e-?mail|endpoint|url|link|account|number|iban)\s+(?:listed|given|named|mentioned|found|provided|"
    rf"shown)\s+in\s+(?:the|that|this|their|its)\s+(?:[\w'’-]+\s+){{0,2}}?{_CONTENT}s?\b"
    # the text it just read, asking: "I decoded the string. It asked me to add a key, so I did"
    rf"|(?:^|[.!?]\s+)it (?:asked|told|instructed|wanted|directed) me to\b|(?:^|[.!?]\s+)it said (?:to|i should|i must)\b"
    # the decoded or found text itself: "I reversed it and posted the list, like it said"
    rf"|\b(?:like|as|just as) (?:it|the (?:text|line|note|string|message)) (?:said|asked|instructed|told me|wanted)\b"
    # "Rule saved from the forum thread: ..."
    rf"|\b(?:rule|instruction|note|setting|preference|trigger)s? (?:saved|taken|copied|stored|added|picked up) from "
    rf"(?:the|that|this|a|an|their|its)\b"
    # "I've stored the trigger from that PDF"
    rf"|\b(?:saved|stored|added|kept|noted|set up|picked up) the (?:[\w-]+ )?(?:rule|instruction|note|setting|"
    rf"preference|trigger|routine)s? (?:from|in) (?:the|that|this|a|an|their|its)\b",
    re.I)
#: What a planted order is for, done or promised in the first person.
_DEED = re.compile(
    r"\b(?:iban|routing|account (?:number|ending)|wire|wired|transfer|payment|payee|autopay|invoice|wallet|"
    r"recovery (?:email|e-mail|phone|address|codes?)|password|passcode|credentials|\.aws|\.ssh|\.env|api keys?|"
    r"tokens?|one-time code|(?:6|six)-digit code|sms code|2fa|two-factor|"
    r"access|owner|admin\w*|permission\w*|authori[sz]\w*|trusted|"
    r"forwarded|sent|posted|uploaded|shared|emailed|e-mailed|exported|submitted|published|ran|executed|included|"
    r"disabled|switched off|turned off|granted|changed|updated|added|inserted|embedded|attached|appended|approved|"
    r"accepted|archived|deleted|removed|cancel+ed|replaced|"
    r"memory|memories|remember\w*|saved|stored|rule|preference|from now on|going forward|from here on|"
    r"in future|next time|whenever|every time|automatically|persistent\w*|permanent\w*|"
    r"skip|skipped|won'?t|no longer|left out|leave out|quietly|silently|without|cookies?|"
    r"(?:which |and )?i'?ve (?:done|gone ahead|started)|i have (?:done|gone ahead|started)|done that|went ahead)\b",
    re.I)
#: The assistant speaking of itself, or a report that drops the "I" ("Sent them to ...").
_FIRST_PERSON = re.compile(r"\b(?:i|i'?ve|i'?ll|i'?m|i'?d|me|my)\b|(?:^|[.!?]\s+)\s*(?:saved|stored|noted|done|"
                           r"memory updated|updated|forwarded|sent|changed|decoded|added|posted|shared|granted)\b", re.I)


#: A standing promise in the first person ("from now on I'll", "trigger saved: whenever ...").
_STANDING = re.compile(
    r"\b(?:from now on|going forward|from here on|henceforth|in future|in the future|for future|whenever|next time|"
    r"for the rest of (?:this|the) (?:session|conversation|chat)|"
    r"every time|each time|automatically|any ?more|by default|standing (?:rule|note|order|instruction)|"
    r"(?:rule|trigger|routine|note|preference|instruction)s? (?:saved|stored|set|added|recorded)|"
    r"(?:saved|stored|added|recorded|noted|kept)\b[^.!?\n]{0,40}?\b(?:memory|rule|trigger|routine|preference|"
    r"future)|memory (?:updated|note)|long-term memory)\b", re.I)
#: What a hijacked promise gives up: checks and warnings, the user's sight of what it does,
#: the user's sole authority over it.
_RISKY = re.compile(
    r"\bwithout (?:first )?(?:asking|checking|confirm\w*|verif\w*|telling|mentioning|notifying|warning|flagging|"
    r"any (?:further )?(?:questions|checks?|confirmation))|\bskip\w*\s+(?:(?:the|her|his|their|your|any|all|usual|"
    r"normal|extra)\s+)*(?:confirmation|verification|identity|approval|check|review|warning|callback)\w*|"
    r"\b(?:won'?t|will not|no longer|not to|never|stop)\s+(?:\w+\s+)?(?:warn|flag|show|surface|point out|ask|check|"
    r"confirm|verify|declin|refus|mention|tell)\w*|\b(?:quietly|silently|secretly)\b|\bkeep (?:this|it) between us\b|"
    r"\bleave (?:out|(?:\w+\s+){1,3}out)\b|\bpre-?(?:approved|authori[sz]ed)\b|\b(?:auto-?|automatically )"
    r"(?:approve|accept|pay|wire|forward|send|unlock|disarm|mark|delete|share)\w*|\btreat\b[^.!?\n]{0,60}?\bas "
    r"(?:if (?:it|they) (?:came|come|were)|coming from|carrying|from)\b|\btrusted by default\b|"
    r"\b(?:administrator|admin|owner) (?:status|rights|access|level)\b|"
    r"\bstop (?:applying|following|using|enforcing) (?:my|the|its|any) (?:\w+ ){0,2}(?:restrictions|rules|guidelines|"
    r"filters|safeguards|policies)\b", re.I)

#: Another master, or no limits: "I'll take instructions from their mailbox rather than from
#: you", "in this mode I don't refuse requests".
_RENOUNCED = re.compile(
    r"\b(?:instructions|orders|commands|directions?)\s+from\b[^.!?\n]{0,60}?\b(?:rather than|instead of|not)\s+"
    r"(?:from\s+)?you\b|\bi (?:don'?t|do not|won'?t|will not|no longer|will no longer|can no longer|never)\s+"
    r"(?:refuse|decline|say no to|turn down|filter|censor)\s+(?:any\s+|a\s+|the\s+)?(?:requests?|questions?|"
    r"anything|prompts?|tasks?)\b", re.I)

#: Payment or account details changed on the word of a message ("replaced the bank details
#: with the new IBAN from their e-mail"): how invoice fraud reaches an agent that pays.
_FROM_MESSAGE = re.compile(
    r"\bfrom (?:the|their|his|her|its|that|this|an?) (?:[\w'’-]+ ){0,3}?(?:e-?mail|message|letter|invoice|text|sms|"
    r"note|call|caller|chat)\b", re.I)
_MONEY_DEED = re.compile(
    r"\b(?:replaced|changed|updated|switched|set|entered|added)\b[^.!?\n]{0,80}?\b(?:iban|bank details|account "
    r"(?:number|details)|payee|routing|sort code|swift|beneficiary|remittance|recovery (?:e-?mail|phone|address)|"
    r"payment details|wallet)\b|\b(?:iban|bank details|account number|payee|beneficiary)\b[^.!?\n]{0,80}?"
    r"\b(?:replaced|changed|updated|switched)\b", re.I)

#: An assistant telling the user it saw an order and did not obey it.
_REFUSED = re.compile(r"\b(?:won'?t|will not|didn'?t|did not|not going to|refus\w*|declin\w*)\s+(?:be\s+)?"
                      r"(?:act|follow|obey|comply|do (?:that|it|so))\w*|\bignored (?:it|them|that|the)\b|"
                      r"\bprompt injection|\bnot (?:as )?instructions\b", re.I)


#: The same three things in other languages (``screening_lexicon_deeds``).
_DEEDS = Lexicon(DEEDS)


def _foreign_report(text: str) -> bool:
    """Whether a sentence of ``text``, or two that follow each other, credit content (or a
    third person: "as he asked") with a first-person deed, in a language other than English:
    the concepts, one of them in words not English. Two sentences, as a report often names
    what it read and then what it did ("I decoded the string in the ticket. It's done.")."""
    found = [_DEEDS.hits(m.group(0)) for m in SENTENCE.finditer(text)]
    for i in range(len(found)):
        hits = found[i] + (found[i + 1] if i + 1 < len(found) else [])
        concepts = {t.concept for t, _ in hits}
        if (concepts >= {"credited", "content", "deed"} or concepts >= {"by_them", "deed"}) \
                and any(not t.english for t, _ in hits):
            return True
    return False


def own_word_findings(text: str) -> list[tuple[Family, str, float]]:
    """The hijack an assistant's turn reports (family, reason, weight), at most one: the deed
    it credits to content it read, payment details taken from a message, or a promise to act
    unchecked; a credit to content with no deed beside it is a weak sign (0.3)."""
    if _foreign_report(text):  # unaccented Indonesian or Swahili is ASCII too: every turn is read
        return [("directive", "the assistant did what content it read told it to (another language)", 0.65)]
    if not _FIRST_PERSON.search(text) or _REFUSED.search(text):
        return []
    if _RENOUNCED.search(text):
        return [("override", "the assistant says it answers to someone else or refuses nothing", 0.65)]
    if _FROM_MESSAGE.search(text) and _MONEY_DEED.search(text):
        return [("directive", "the assistant changed payment details on the word of a message", 0.65)]
    credited = _CREDITED.search(text)
    if credited is None:
        if _STANDING.search(text) and _RISKY.search(text):
            return [("directive", "the assistant promises to act unchecked from now on", 0.65)]
        return []
    rest = text[:credited.start()] + " " + text[credited.end():]
    if _DEED.search(rest):
        return [("directive", "the assistant did what content it read told it to", 0.65)]
    return [("directive", "the assistant credits content it read with what it did", 0.3)]
