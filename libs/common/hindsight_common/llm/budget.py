"""Token estimates and input truncation, so a chat request fits the model's context.

Without a tokenizer, tokens are estimated by a heuristic that errs on the high side:

* 4 ASCII characters per token (English prose and code average 3.5 to 4.5 with the common
  BPE vocabularies), rounded up;
* 1 token per non-ASCII character (CJK text and emoji take one to three tokens per
  character; accented Latin text is mostly ASCII anyway).

Overestimating only cuts a little more than needed; underestimating gets the request
refused. Pass ``tokenizer`` (any ``str -> int`` counter) for exact figures.

Each message also costs a few tokens of framing (role, separators), and the reply is primed
with a few more; the constants below follow the figures OpenAI publishes for its chat
format, which other servers' chat templates are close to.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from hindsight_common.ports.llm import ChatMessage

__all__ = [
    "ASCII_CHARS_PER_TOKEN",
    "MESSAGE_OVERHEAD_TOKENS",
    "REPLY_PRIMING_TOKENS",
    "TRUNCATION_MARKER",
    "TokenCounter",
    "estimate_messages_tokens",
    "estimate_tokens",
    "input_budget",
    "truncate_messages",
]

TokenCounter = Callable[[str], int]

ASCII_CHARS_PER_TOKEN = 4
MESSAGE_OVERHEAD_TOKENS = 4
REPLY_PRIMING_TOKENS = 3
TRUNCATION_MARKER = "[... earlier content cut to fit the model's context ...]\n"

# When cutting, move the cut forward to the next line break (or else the next space) if
# one is this close, so the kept text starts on a whole line or a whole word.
_LINE_SNAP_CHARS = 400
_WORD_SNAP_CHARS = 40


def estimate_tokens(text: str, tokenizer: TokenCounter | None = None) -> int:
    """Return the number of tokens ``text`` takes (exact with ``tokenizer``, else estimated)."""
    if tokenizer is not None:
        return max(0, tokenizer(text))
    if not text:
        return 0
    ascii_chars = len(text.encode("ascii", "ignore"))
    return math.ceil(ascii_chars / ASCII_CHARS_PER_TOKEN) + (len(text) - ascii_chars)


def estimate_messages_tokens(
    messages: Sequence[ChatMessage], tokenizer: TokenCounter | None = None
) -> int:
    """Return the prompt tokens a chat request with ``messages`` takes, framing included."""
    return REPLY_PRIMING_TOKENS + sum(
        MESSAGE_OVERHEAD_TOKENS + estimate_tokens(m.content, tokenizer) for m in messages
    )


def input_budget(context_tokens: int, max_output_tokens: int, reserved_tokens: int = 0) -> int:
    """Return the tokens left for the messages once the reply and ``reserved_tokens`` fit.

    Raises ``ValueError`` when nothing is left (the reply alone fills the context).
    """
    budget = context_tokens - max_output_tokens - reserved_tokens
    if budget <= 0:
        raise ValueError(
            f"no room for input: context of {context_tokens} tokens, {max_output_tokens} "
            f"reserved for the reply and {reserved_tokens} for the request's framing; "
            "lower max_output_tokens or use a model with a larger context"
        )
    return budget


def truncate_messages(
    messages: Sequence[ChatMessage],
    max_input_tokens: int,
    *,
    tokenizer: TokenCounter | None = None,
    marker: str = TRUNCATION_MARKER,
) -> list[ChatMessage]:
    """Return ``messages`` cut so that they take at most ``max_input_tokens``.

    System messages are kept whole. Of the others, the newest content is kept: walking from
    the newest message back, messages are kept whole while they fit; the first one that does
    not fit keeps its end, after ``marker``; older ones are dropped. Order is preserved, and
    messages that already fit are returned unchanged.

    Raises ``ValueError`` when the system messages leave no room for any of the newest
    message's content.
    """
    if estimate_messages_tokens(messages, tokenizer) <= max_input_tokens:
        return list(messages)
    system_cost = sum(
        MESSAGE_OVERHEAD_TOKENS + estimate_tokens(m.content, tokenizer)
        for m in messages
        if m.role == "system"
    )
    remaining = max_input_tokens - REPLY_PRIMING_TOKENS - system_cost
    no_room = ValueError(
        f"the system messages take {system_cost} tokens of the {max_input_tokens} "
        "available for input, leaving no room for the conversation; shorten the system "
        "prompt or use a model with a larger context"
    )
    if remaining < 0:
        raise no_room
    others = [i for i, m in enumerate(messages) if m.role != "system"]
    kept: dict[int, ChatMessage] = {}
    for position, index in enumerate(reversed(others)):
        message = messages[index]
        cost = MESSAGE_OVERHEAD_TOKENS + estimate_tokens(message.content, tokenizer)
        if cost <= remaining:
            kept[index] = message
            remaining -= cost
            continue
        tail = _keep_tail(
            message.content, remaining - MESSAGE_OVERHEAD_TOKENS, tokenizer, marker
        )
        if tail is not None:
            kept[index] = ChatMessage(role=message.role, content=marker + tail)
        elif position == 0:
            raise no_room
        break
    return [
        kept.get(i, message)
        for i, message in enumerate(messages)
        if message.role == "system" or i in kept
    ]


def _keep_tail(
    content: str, room: int, tokenizer: TokenCounter | None, marker: str
) -> str | None:
    """Return the longest end of ``content`` that fits in ``room`` after ``marker``.

    Returns None when not even a few characters fit.
    """

    def fits(cut: int) -> bool:
        return estimate_tokens(marker + content[cut:], tokenizer) <= room

    if room <= 0 or len(content) < 2 or not fits(len(content) - 1):
        return None
    low, high = 1, len(content) - 1  # fits(high) holds; find the smallest cut that fits
    while low < high:
        middle = (low + high) // 2
        if fits(middle):
            high = middle
        else:
            low = middle + 1
    cut = _snap_forward(content, low)
    if not fits(cut):  # a tokenizer need not shrink with the text; keep the exact cut
        cut = low
    return content[cut:]


def _snap_forward(content: str, cut: int) -> int:
    line = content.find("\n", cut, cut + _LINE_SNAP_CHARS)
    if line >= 0 and line + 1 < len(content):
        return line + 1
    space = content.find(" ", cut, cut + _WORD_SNAP_CHARS)
    if space >= 0 and space + 1 < len(content):
        return space + 1
    return cut
