"""The textual signs of an instruction aimed at the agent, by attack family (pure data):
the rules of ``screening_rules_claims`` (override, authority) and ``screening_rules_orders``
(directive, conditional, exfiltration), each with its cheap pre-check.

Each rule is a regular expression over normalised text (see ``screening_decode``) with a
weight in (0, 1]: how strongly one match alone says "this is an attack". Weights are
deliberately modest for signs that ordinary speech also produces (an imperative
"always ...", a vocative "assistant, ..."), so that only several signs together, or one
sign in low-trust text, reach the quarantine threshold. What the words are *about*
matters more than the words: "ignore my previous message" is a correction, "ignore your
previous instructions" an override, so the rules name instruction-like objects.
"""

from __future__ import annotations

import re
from dataclasses import replace

from hindsight_common.security.screening_rule import FAMILIES, Family, Rule, needs_pattern
from hindsight_common.security.screening_rules_claims import CLAIMS
from hindsight_common.security.screening_rules_orders import ORDERS

__all__ = ["FAMILIES", "Family", "RULES", "Rule", "rules_to_try"]

_WHO_WORDS = ("user", "customer", "anyone", "anybody", "someone", "somebody", "people", "person", "they", "he ",
              "she ", "human", "topic", "asked", "comes up", "mention", "question", "request")
#: Cheap pre-checks for the rules that are expensive to try everywhere (by reason).
_NEEDS_BY_REASON: dict[str, tuple[str, ...]] = {
    "asks to send data to an outside address": ("@", "://", "webhook", "pastebin", "discord", "telegram", ".example",
                                                 ".com", ".net", ".org", ".io", ".ru", ".cn", ".xyz", ".top", ".info",
                                                 ".biz", ".co", "public"),
    "a standing order from now on (another language)": (
        "从现在开始", "从今以后", "以后", "a partir de", "désormais", "à partir de maintenant", "ab sofort", "von nun an",
        "d'ora in poi", "с этого момента", "отныне", "voortaan", "od teraz"),
    "a trigger on someone reaching the agent": ("you", "through", "via", "over the", "over my", "over our", "on the",
                                                "on my", "on our", "on this", "on your"),
    "names the system prompt (another language)": ("系统", "prompt", "invite", "system", "сист"),
    "tells the agent what it must do": ("ai", "llm", "model", "bot", "assistant", "agent", "gpt"),
    "asks to pass every conversation on": ("all ", "every", "each", "any "),
    "a standing order from now on": ("from now", "from this", "from here", "henceforth", "hereafter", "going forward",
                                     "as of now", "starting", "from today", "future", "whenever you", "for the rest",
                                     "permanently", "forever", "for good"),
    "an address that receives data": ("@", "://", "webhook", "pastebin", "discord", "telegram"),
    "an image or link that carries data out": ("://",),
    "asks for past conversations or other users' data": ("conversation", "chat", "message", "memor", "session",
                                                         "other user", "user", "customer", "client", "member",
                                                         "patient", "contact", "called you", "spoke", "talked to you",
                                                         "wrote to you", "everything", "everyone", "employee", "people",
                                                         "before me", "ahead of me"),
    "puts something into every answer": ("every", "each", "all ", "any "),
    "tells it what to do to the user": ("user", "customer"),
    "a trigger that scripts a later answer": _WHO_WORDS,
    "an always/never order about the agent's audience": ("always", "never", "only"),
    "an always/never order about answers": ("always", "never", "only", "don't ever", "do not ever"),
}
#: Rules that are other wordings of one sign, counted once at the strongest (``combine``
#: counts a reason once): "from now on, please always reply to me in plain sentences" is one
#: standing order about the answers, a preference, not two signs adding up past the user's
#: threshold.
_SAME_SIGN = {"an always/never order about answers": "a standing order from now on"}
RULES: tuple[Rule, ...] = tuple(
    replace(r, needs=_NEEDS_BY_REASON.get(r.reason, r.needs), reason=_SAME_SIGN.get(r.reason, r.reason))
    for r in CLAIMS + ORDERS)

# The rules by pre-check: each distinct pre-check is tried once per text, and the rules
# behind a failed one are never visited (most ordinary text fails nearly all of them, and
# visiting ~100 rules one by one cost more than the searches themselves).
_UNGATED: tuple[int, ...] = tuple(i for i, r in enumerate(RULES) if not r.needs)
_BY_GATE: tuple[tuple[re.Pattern[str], tuple[int, ...]], ...] = tuple(
    (needs_pattern(needs), tuple(i for i, r in enumerate(RULES) if r.needs == needs))
    for needs in dict.fromkeys(r.needs for r in RULES if r.needs))


def rules_to_try(lowered: str) -> list[Rule]:
    """The rules whose pre-check ``lowered`` (a lower-cased text) passes, in ``RULES`` order."""
    tried = list(_UNGATED)
    for gate, rows in _BY_GATE:
        if gate.search(lowered):
            tried += rows
    return [RULES[i] for i in sorted(tried)]
