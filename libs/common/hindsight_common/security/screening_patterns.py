"""The textual signs of an instruction aimed at the agent, by attack family (pure data).

Each rule is a regular expression over normalised text (see ``screening_decode``) with a
weight in (0, 1]: how strongly one match alone says "this is an attack". Weights are
deliberately modest for signs that ordinary speech also produces (an imperative
"always ...", a vocative "assistant, ..."), so that only several signs together, or one
sign in low-trust text, reach the quarantine threshold. What the words are *about*
matters more than the words: "ignore my previous message" is a correction, "ignore your
previous instructions" an override, so the rules name instruction-like objects.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from typing import Literal

from hindsight_common.security.screening_words import (
    AGENT,
    ANSWER,
    ASKS,
    DATA,
    DEST,
    DROP,
    EARLIER,
    GIVEN,
    PERSIST,
    ROLE,
    RULE_NOUNS,
    RULE_WORDS,
    SAY,
    SECRET,
    WHO,
    W,
)

Family = Literal[
    "override", "authority", "directive", "hidden", "encoded", "conditional", "exfiltration", "conflict",
]
FAMILIES: tuple[Family, ...] = (
    "override", "authority", "directive", "hidden", "encoded", "conditional", "exfiltration", "conflict",
)


@dataclass(frozen=True)
class Rule:
    family: Family
    reason: str
    weight: float
    pattern: re.Pattern[str]
    # Cheap pre-check: the rule can only match lower-cased text containing one of these
    # (empty: always try it). Most text has none, and a substring test is far cheaper
    # than a large alternation tried at every position.
    needs: tuple[str, ...] = ()

    def search_in(self, text: str, lowered: str) -> list[re.Match[str]]:
        if self.needs and _needs_pattern(self.needs).search(lowered) is None:
            return []
        return list(self.pattern.finditer(text))


@functools.cache
def _needs_pattern(needs: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(n) for n in needs))


def _rule(family: Family, reason: str, weight: float, pattern: str, flags: int = re.I,
          needs: tuple[str, ...] | None = None) -> Rule:
    return Rule(family, reason, weight, re.compile(pattern, flags), _NEEDS.get(family, ()) if needs is None else needs)


_NEEDS: dict[str, tuple[str, ...]] = {"override": RULE_WORDS}
RULES: tuple[Rule, ...] = (
    # override: dropping the agent's own instructions
    _rule("override", "asks to drop earlier instructions", 0.9,
          rf"\b{DROP}\W+(?:{W}\W+){{0,4}}?{EARLIER}\W+(?:{W}\W+){{0,2}}?{RULE_NOUNS}"),
    _rule("override", "asks to drop the instructions it was given", 0.85,
          rf"\b{DROP}\W+(?:{W}\W+){{0,4}}?{RULE_NOUNS}\W+(?:that\s+)?(?:{GIVEN}|you (?:follow|obey|have)|(?:placed|imposed|put|set) (?:on|upon|for) you|"
          rf"you (?:operate|work|run) (?:under|with))"),
    _rule("override", "says the rules it follows are wrong", 0.8,
          rf"\b{RULE_NOUNS}\s+(?:that\s+)?you\s+(?:follow|obey|have|were given|operate under|work under)\s+(?:are|is)\s+"
          r"(?:now\s+|all\s+)?(?:outdated|obsolete|wrong|void|cancel+ed|invalid|replaced|no longer valid|fake|"
          r"mistaken|broken)"),
    _rule("override", "asks to set its rules aside", 0.8,
          rf"\b(?:set|put|push|leave|cast|lay)\s+(?:all\s+)?(?:of\s+)?(?:your|the|all|any|those|these)\s+(?:{W}\s+)?"
          rf"{RULE_NOUNS}\s+aside\b"),
    _rule("override", "hands control to someone else", 0.55,
          r"\bdo (?:whatever|anything|everything) (?:the sender|the author|this (?:page|email|message|document)|"
          r"i|we|they|he|she) (?:says?|asks?|tells? you|wants?|requests?|instructs?)\b"),
    _rule("override", "says it need not follow its rules", 0.75,
          rf"\byou (?:no longer|don'?t|do not|won'?t|will not|needn'?t|need not)\s+(?:have|need|got)?\s*(?:to\s+)?"
          rf"(?:follow|obey|respect|observe|stick to|adhere to|abide by|care about)\s+(?:any\s+)?(?:of\s+)?(?:your|the|"
          rf"those|these|its)\s+(?:{W}\s+)?{RULE_NOUNS}|\b(?:i'?ve|i have|we'?ve|we have)\s+(?:unlocked|jailbroken|"
          r"freed|liberated)\s+you\b|\byou (?:are|'re) (?:now )?(?:unlocked|jailbroken|liberated)\b"),
    _rule("override", "asks to drop the agent's rules", 0.8,
          rf"\b{DROP}\W+(?:all\W+|any\W+)?(?:of\W+)?(?:your|the assistant'?s|the model'?s)\W+"
          rf"(?:{W}\W+){{0,2}}?{RULE_NOUNS}"),
    _rule("override", "asks to disregard everything before it", 0.8,
          r"\b(?:ignore|disregard|forget)\s+(?:everything|all(?: of)?(?: that| this)?|anything)\s+"
          r"(?:above|before this|prior|earlier|written above|you (?:were|have been|'ve been) told|"
          r"you know|said (?:above|before))"),
    _rule("override", "declares earlier instructions void", 0.85,
          rf"\b(?:{EARLIER}\W+(?:{W}\W+)?{RULE_NOUNS}|{RULE_NOUNS}\W+(?:{W}\W+){{0,2}}?(?:{GIVEN}|above|before "
          rf"this|so far|until now)|your\W+(?:{W}\W+)?{RULE_NOUNS})\W+(?:{W}\W+){{0,3}}?(?:(?:(?:are|is|were|was|"
          r"have been|has been)\W+)?(?:now\W+|just\W+|only\W+|hereby\W+)?(?:void|null|cancel+ed|revoked|invalid|"
          r"no longer valid|overridden|suspended|lifted|a test|fake|not real|a joke|rescinded|withdrawn|"
          r"superseded by (?:this|these|the following))|"
          r"(?:don'?t|do not|no longer|doesn'?t|does not)\W+(?:exist|apply|matter|count|bind you))"),
    _rule("override", "asks to drop rules from earlier context", 0.85,
          rf"\b{DROP}\W+(?:{W}\W+){{0,3}}?{RULE_NOUNS}\W+(?:{W}\W+){{0,3}}?(?:your|previous|prior|earlier|"
          r"above|original|system|initial)\b"),
    _rule("override", "says what it was told no longer counts", 0.75,
          r"\b(?:whatever|everything|anything|all|what)\s+(?:that\s+)?(?:you were|you've been|you have been|you "
          r"were ever|you got|you've got)\s+(?:told|instructed|given|taught|programmed|asked)\b[^.!?\n]{0,60}?"
          r"\b(?:doesn'?t|does not|don'?t|no longer|is|are|isn'?t|won'?t)\s+(?:matter|count|apply|cancel+ed|void|"
          r"valid|relevant|important|binding)|\b(?:everything|all|whatever)\s+(?:you were|you've been|you have "
          r"been)\s+(?:told|instructed|given)\s+(?:before|earlier|so far|until now|previously)"),
    _rule("override", "says it may ignore its rules", 0.7,
          rf"\b(?:you are|you're|you will be|feel)\s+(?:now\s+)?(?:free|allowed|permitted|welcome|authori[sz]ed|"
          rf"entitled)\s+to\s+(?:ignore|disregard|break|bypass|skip|forget|drop)\b"),
    _rule("override", "asks it to reset itself", 0.4,
          r"\b(?:reset|reboot|restart|reinitiali[sz]e)\s+(?:yourself|your (?:memory|context|mind|brain|state))|"
          r"\bfactory (?:settings|reset|defaults)\b"),
    _rule("override", "orders it to follow only this text", 0.6,
          r"\b(?:follow|obey|heed|execute|comply with)\s+only\s+(?:this|these|the text|the following|the "
          r"instructions|what|my)\b|\b(?:follow|obey)\s+(?:only\s+)?the\s+(?:text|steps|instructions)\s+"
          r"(?:below|that follow|in this (?:page|document|message|email))"),
    _rule("override", "asks to act as if it had no rules", 0.8,
          rf"\byou (?:were|have been|had been|'ve been)?\s*never (?:been )?given (?:any )?{RULE_NOUNS}|"
          rf"\b(?:pretend|imagine|act as if|act as though|behave as if|behave as though|as though|assume)\W+(?:that\W+)?(?:{W}\W+){{0,3}}?(?:your|the|"
          rf"any|all)\W+(?:{W}\W+)?{RULE_NOUNS}|\byou (?:have|had) no (?:{W}\W+)?{RULE_NOUNS}"),
    _rule("override", "announces new instructions", 0.5,
          r"\b(?:new|updated|real|actual|revised|true|secret|hidden)\s+(?:task|instructions?|rules?|"
          r"directives?|objective|goal|prompt|orders)\s*(?:[:\-–]|(?:is|are)\b)"),
    _rule("override", "asks to turn off safeguards", 0.65,
          r"\b(?:disable|turn off|deactivate|remove|switch off|bypass|lift|suspend|circumvent)\s+"
          r"(?:your|the|all|any)?\s*(?:\w+\s+)?(?:filters?|safety|safeguards?|guardrails?|restrictions|"
          r"moderation|content polic\w+|limits|censorship)"),
    _rule("override", "declares safeguards disabled", 0.65,
          r"\b(?:safety|security|content|moderation)\s+(?:mode|filters?|checks?|rules)\s+(?:is\s+|are\s+)?"
          r"(?:now\s+)?(?:disabled|off|removed|lifted|suspended|paused|turned off|deactivated|bypassed)"),
    # The commonest overrides in other languages (Chinese, Spanish, French, German, Portuguese,
    # Italian, Russian): not a translation of every rule, the sign seen most in the wild.
    _rule("override", "asks to drop earlier instructions (another language)", 0.85,
          r"(?:忽略|无视|忽视|不要理会|忘记|忘掉)(?:你|您)?(?:之前|以前|先前|上面|上述|所有|全部|此前)?(?:的)?(?:所有|全部|一切)?(?:的)?"
          r"(?:指令|指示|规则|提示|命令|设定|说明)|"
          r"\b(?:ignora|olvida|descarta|omite)\s+(?:\w+\s+){0,3}?(?:instrucciones|reglas|indicaciones)\b|"
          r"\b(?:ignore[rz]?|oublie[rz]?)\s+(?:\w+\s+){0,3}?(?:instructions|consignes|règles)\s+(?:précédentes|"
          r"antérieures)|\b(?:ignore[rz]|oublie[rz]?)\s+(?:\w+\s+){0,3}?(?:instructions|consignes|règles)\b|"
          r"\b(?:ignoriere|vergiss|missachte)\s+(?:\w+\s+){0,3}?(?:anweisungen|regeln|instruktionen)\b|"
          r"\b(?:ignore|esqueça|esqueca|desconsidere)\s+(?:\w+\s+){0,3}?(?:instruções|instrucoes|regras)\b|"
          r"\b(?:ignora|dimentica)\s+(?:\w+\s+){0,3}?(?:istruzioni|regole)\b|"
          r"\b(?:игнорируй|забудь)\s+(?:\w+\s+){0,3}?(?:инструкции|указания|правила)",
          needs=()),
    _rule("directive", "a standing order from now on (another language)", 0.5,
          r"(?:从现在开始|从今以后|以后)(?:你)?(?:必须|要|只能|总是|永远)|\ba partir de ahora\b|\bdésormais\b|"
          r"\bà partir de maintenant\b|\bab sofort\b|\bvon nun an\b|\ba partir de agora\b|\bd'ora in poi\b|"
          r"\bс этого момента\b|\bотныне\b"),
    _rule("authority", "names the system prompt (another language)", 0.5,
          r"系统提示|系统指令|\bprompt del sistema\b|\binvite système\b|\bsystem-?prompt\b|\bsystemanweisung\b|"
          r"\bprompt do sistema\b|\bсистемн(?:ый|ые) (?:промпт|инструкции)\b"),
    # authority: claims to be someone the agent must obey, fake prompt structure
    _rule("authority", "claims to be the agent's developer or operator", 0.75,
          rf"\b(?:i am|i'm|this is|speaking as|as|it's)\s+(?:your|the assistant'?s|the ai'?s|the model'?s)"
          rf"\s+(?:{W}\s+)?{ROLE}s?\b"),
    _rule("authority", "claims to run this assistant", 0.75,
          rf"\b(?:i am|i'm|we are|we're|this is|as)\s+(?:the|its)\s+(?:{W}\s+)?{ROLE}s?\s+(?:of|for|behind)\s+"
          rf"(?:this|the|you|your)\s*(?:{AGENT}|system|service|platform|deployment|instance)?\b"),
    _rule("authority", "invokes superuser powers", 0.5, r"\bsudo\b\s*[:\-]|\bsudo (?:mode|access|command)\b"),
    _rule("authority", "says something obliges it", 0.4,
          r"\b(?:requires|obliges|compels|forces|obligates|mandates)\s+(?:you|the assistant|the ai|the model)\s+to\b"),
    _rule("authority", "gives the agent a direct order", 0.45,
          r"\bi (?:hereby )?(?:order|command|instruct|direct|authori[sz]e) you to\b"),
    _rule("authority", "claims to come from the agent's makers", 0.55,
          r"\b(?:from|by|of)\s+your\s+(?:(?:development|dev|engineering|safety|security|ops|ai|model|trust and "
          r"safety)\s+team|developers?|creators?|makers?|operators?|owners?|programmers?|administrators?)\b"),
    _rule("authority", "rewrites the agent's rules", 0.6,
          rf"\b(?:update|change|modify|rewrite|replace|amend|extend|reset)\s+your\s+(?:{W}\s+)?(?:{RULE_NOUNS}|"
          r"system prompt|behaviou?r|persona|memory)"),
    _rule("authority", "claims to be the system or its administrator", 0.35,
          r"\b(?:this is|message from|notice from|speaking for|on behalf of)\s+(?:the|your)\s+(?:system|"
          r"system administrator|sysadmin|administrator|admin|developers?|operators?|security team|"
          r"moderators?|platform)\b"),
    _rule("authority", "claims to speak for the model's vendor", 0.6,
          r"\b(?:message|notice|update|instructions?|memo|directive)s?\s+from\s+(?:the\s+)?(?:openai|"
          r"anthropic|google deepmind|google|microsoft|meta ai|your (?:developers?|creators?|operators?))"),
    _rule("authority", "says the agent's rules have changed", 0.6,
          r"\byour\s+(?:policies|policy|rules|instructions|guidelines|programming|configuration|settings|"
          r"system prompt|directives)\s+(?:have|has|were|was)\s+(?:just\s+)?(?:been\s+)?(?:changed|"
          r"updated|replaced|modified|revised|rewritten)"),
    _rule("authority", "fake chat-template tokens", 0.85,
          r"<\|[a-z_]{2,20}\|>|\[/?INST\]|<</?SYS>>|<\|?(?:im_start|im_end|endoftext)\|?>|"
          r"<(?:/?system|/?assistant)>"),
    _rule("authority", "a system or developer role line", 0.5,
          r"(?:^|\n|[.!?]\s+|>\s*|\(|\]\s*|//\s*|#\s*|/\*\s*|--\s*|<!--\s*)\s*(?:SYSTEM|ADMIN|DEVELOPER|ROOT|SYSTEM PROMPT|SYSTEM MESSAGE|"
          r"SYSTEM NOTE|SYSTEM OVERRIDE)\s*:", 0),
    _rule("authority", "a bracketed system or admin tag", 0.35,
          r"\[\s*(?:SYSTEM|ADMIN|DEVELOPER|ROOT|OPERATOR)(?:\s+[A-Z]+)?\s*\]|<\s*(?:SYSTEM|ADMIN)\s*>", 0),
    _rule("authority", "a system role line", 0.35,
          r"(?:^|\n|[.!?]\s+|>\s*)\s*(?:system|developer|admin|root|system prompt|system message)\s*:"),
    _rule("authority", "frames text as a system prompt", 0.7,
          r"\b(?:begin|start|end|beginning)\s+(?:of\s+)?(?:the\s+)?(?:new\s+)?(?:system|developer|admin|hidden|"
          r"real)\s+(?:prompt|message|instructions?)\b|[\"']role[\"']\s*:\s*[\"'](?:system|developer)[\"']"),
    _rule("authority", "claims to have made the agent", 0.75,
          r"\bthe\s+(?:person|one|team|company|people|guy|engineer|lab)\s+(?:who|that)\s+(?:built|made|created|"
          r"trained|programmed|designed|deployed|owns|runs|controls|coded)\s+you\b"),
    _rule("authority", "claims special privileges", 0.45,
          r"\b(?:elevated|admin|administrator|root|special|unrestricted|superuser|god)\s+(?:privileges|access|"
          r"permissions|rights|clearance)\b|\bcomply\s+(?:fully|immediately|without question|at once)\b|"
          r"\bfull compliance\b"),
    _rule("authority", "declares an override", 0.5,
          r"\b(?:priority|admin|administrator|emergency|security|system|developer|operator|root|master)\s+"
          r"override\b|\boverride (?:code|mode|command|authori[sz]ation)\b"),
    _rule("authority", "claims to be an administrator or insider", 0.5,
          r"\b(?:admin|administrator|developer|operator|sysadmin|root|moderator|your owner)\s+here\b|"
          r"\bi (?:work|am|'m) (?:at|for|with|from) (?:openai|anthropic|google deepmind|the (?:ai|model) "
          r"(?:team|company|vendor))\b|\bmy (?:security )?clearance\b"),
    _rule("authority", "claims the agent's makers allowed it", 0.6,
          r"\b(?:your|the assistant'?s|the model'?s)\s+(?:developers?|creators?|operators?|owners?|admins?|"
          r"administrators?|makers?|providers?)\s+(?:have|has|had)\s+(?:already\s+)?(?:authori[sz]ed|approved|"
          r"allowed|permitted|cleared|sanctioned)|\b(?:i am|i'm|we are|we're)\s+(?:fully\s+)?(?:authori[sz]ed|"
          r"cleared|permitted)\s+to\s+(?:change|modify|override|disable|unlock|reconfigure)"),
    _rule("authority", "a conversation transcript", 0.35,
          r"(?:^|\n)\s*(?:assistant|user|human|ai|system)\s*:[^\n]*\n\s*(?:assistant|user|human|ai|"
          r"system)\s*:"),
    _rule("authority", "an assistant turn agreeing to drop its rules", 0.6,
          rf"\bi(?:'ll| will| am going to|'m going to| shall| can)\s+(?:now\s+)?(?:ignore|disregard|bypass|break|drop|"
          rf"forget|set aside|stop following|no longer follow)\s+(?:all\s+)?(?:of\s+)?my\s+(?:{W}\s+)?{RULE_NOUNS}"),
    _rule("authority", "a fake prompt-format turn", 0.6,
          r"\n\s*\n\s*(?:Human|Assistant|H|A)\s*:", 0),
    _rule("authority", "an instruction header", 0.7,
          r"(?:#{2,}|={2,}|-{3,}|\*{2,}|\[)\s*(?:new|updated|system|admin\w*|important|override|hidden|secret|real|"
          r"urgent)\s*(?:instructions?|"
          r"prompt|rules|directives?|orders)\b"),
    _rule("authority", "switches the agent into a special mode", 0.6,
          r"\b(?:developer|debug|god|admin|sudo|jailbreak|jailbroken|unrestricted|unfiltered|dan|"
          r"maintenance|root) mode\b"),
    _rule("authority", "gives the agent a new identity", 0.5,
          r"\byou are (?:now|no longer|henceforth) (?:an? |the |in )?\w+"),
    _rule("authority", "asks for unrestricted behaviour", 0.5,
          r"\b(?:without|with no|free of) (?:any )?(?:restrictions|limits|limitations|filters|rules|"
          r"guardrails|censorship|safeguards)\b"),
    # directive: standing orders about how the agent behaves
    _rule("directive", "a standing order from now on", 0.6,
          rf"\b{PERSIST}\W+(?:[\w'’]+\W+){{0,3}}?(?:you|your|always|never|only|act|behave|become|adopt|"
          rf"pretend|treat|stop|{SAY})\b"),
    _rule("directive", "puts something into every answer", 0.5,
          rf"\b{SAY}\w*\b[^.!?\n]{{0,60}}?\b(?:in|into|with|to|at the end of)\s+(?:every|each|all|any)\s+(?:of your\s+)?"
          r"(?:reply|replies|answer|answers|response|responses|message|messages|conversation|conversations|"
          r"summary|summaries|output)\b"),
    _rule("directive", "gives the agent a persona", 0.5,
          r"\b(?:adopt|assume|take on|switch to)\s+(?:the|a|this)\s+(?:\w+\s+)?(?:persona|role|identity|character|"
          r"personality)\b"),
    _rule("directive", "tells it what to do to the user", 0.4,
          r"\b(?:tell|instruct|ask|direct|get|convince|persuade|make|urge|push|pressure|remind|force|trick)\s+"
          r"(?:the user|users|the customer|customers)\s+(?:to|into|that)\b"),
    _rule("directive", "sets what every answer must say", 0.55,
          r"\b(?:every|each|all|any)\s+(?:\w+\s+)?(?:answer|reply|replies|response|summary|summaries|message|"
          r"recommendation|output)s?\s+(?:(?:you|that you)\s+(?:write|give|produce|send|make|generate)\s+)?"
          r"(?:must|should|shall|has to|have to|needs? to|will)\b"),
    _rule("directive", "tells it what it is required to do", 0.5,
          r"\b(?:you are|you're)\s+(?:now\s+|hereby\s+)?(?:required|obliged|obligated|instructed|ordered|"
          r"commanded|expected|supposed|programmed|configured)\s+(?:from \w+ \w+\s+)?to\b"),
    _rule("directive", "restricts what it recommends", 0.45,
          r"\b(?:recommend|suggest|promote|mention|link to|endorse)\s+(?:only|exclusively)\b|\bonly\s+"
          r"(?:recommend|suggest|promote|endorse|link to)\b|\band nothing else\b"),
    _rule("directive", "lays down a rule for the agent", 0.4,
          r"\b(?:make it a rule|make a rule|adopt (?:a|the|this) rule|new rule|standing rule|a permanent rule|"
          r"a hard rule)\b"),
    _rule("directive", "an always/never order about answers", 0.5,
          rf"(?:^|[.!?;:\n]\s*|\b(?:please|(?:rule|sure|important|remember|need|have) to|you (?:must|should|"
          rf"shall|will|need to|have to)|"
          rf"make sure (?:you|to)|be sure to|remember to)\s+)(?:always|never|only|do not ever|don'?t ever)"
          rf"\s+{ANSWER}\w*\b"),
    _rule("directive", "orders the agent's future behaviour", 0.55,
          rf"\byou (?:must|should|shall|will|need to|have to|are required to|are to)\s+(?:now\s+)?"
          rf"(?:always|never|only|from now on|no longer)\s+(?:\w+\s+)?{ANSWER}\w*\b"),
    _rule("directive", "an always/never order about the agent's audience", 0.5,
          rf"\b(?:always|never|only)\s+(?:\w+\s+){{0,2}}?{ANSWER}\w*\b[^.!?\n]{{0,80}}\b(?:the user|users|anyone|"
          r"everyone|everybody|customers|visitors|readers|others|other users|other people|people|everyone "
          r"else)\b|\b(?:always|never|only)\b[^.!?\n]{0,80}\b(?:the user|users|customers|every (?:question|"
          r"answer|reply|response|message|conversation)|your (?:answers|replies|responses|summar\w+)|the "
          r"conversation)\b"),
    _rule("directive", "tells the agent what it must do", 0.6,
          rf"\b(?:the |this |any |all )?{AGENT}s?\s+(?:must|should|shall|will now|is to|has to|needs to|"
          r"is required to|may not|must not)\b"),
    _rule("directive", "restricts how the agent answers", 0.5,
          r"\b(?:respond|reply|answer)\s+only\b|\bonly\s+(?:respond|reply|answer)\b|\b(?:respond|reply|"
          r"answer)\s+(?:to )?(?:every|each|all|any)\s+(?:question|message|request|prompt)s?\s+with\b"),
    _rule("directive", "asks to plant a lasting memory or rule", 0.5,
          r"\b(?:save|store|remember|keep|add|record|memori[sz]e|commit|write)\s+(?:this|that|the following|"
          r"it)\s+(?:\w+\s+){0,3}?(?:as|in|to|into)\s+(?:an?\s+|your\s+)?(?:[\w-]+\s+)?(?:memory|memories|"
          r"rule|instruction|directive|policy|belief|core value|system prompt)"),
    _rule("directive", "asks to tamper with stored memories", 0.5,
          r"\b(?:delete|erase|wipe|remove|overwrite|modify|alter|corrupt|replace)\s+(?:all\s+)?(?:of\s+)?"
          r"(?:the user'?s|the|your|their|all|every|any)?\s*(?:\w+\s+)?(?:memor(?:y|ies)|records|"
          r"saved notes)\b"),
    # conditional triggers: act later, on a cue
    _rule("conditional", "a trigger that scripts a later answer", 0.55,
          rf"\b(?:when|whenever|if|once|in case|should|any ?time|every time|each time)\s+(?:ever\s+)?"
          rf"{WHO}\s+(?:ever\s+)?{ASKS}\b[^.!?\n]{{0,120}}?(?:[,;:]|\bthen\b)\s*(?:then\s+)?(?:you\s+(?:should|must|"
          rf"will)\s+)?(?:always\s+|only\s+|just\s+|simply\s+)?(?:add|include|note|tell|say|respond|reply|answer|recommend|claim|direct|send|redirect|"
          rf"inform|insist|suggest|point|push|ask|warn|state|assure|convince|lie|give|provide|link|mention|"
          rf"deny|refuse|steer)\b"),
    # The same sign as above, worded as a clause and a comma: one reason, so the two never add up.
    _rule("conditional", "a trigger that scripts a later answer", 0.55,
          r"\b(?:when|whenever|if|once|next time|any ?time|every time|each time|should|whatever|no matter what|"
          r"upon|on|for|at|after)\b"
          r"[^.!?\n]{0,100}?\b(?:the user|users|anyone|anybody|someone|somebody|people|customers?|the topic|asked|"
          r"comes up|come up|is mentioned|are mentioned|is raised|they|(?:any|every|each) (?:question|request|query|"
          r"mention))\b[^.!?\n]{0,60}?,\s*(?:then\s+)?(?:please\s+)?(?:always\s+|only\s+|just\s+)?(?:add|include|instruct|tell|say|respond|reply|answer|recommend|claim|direct|send|redirect|insist|suggest|push|"
          r"warn|state|assure|book|buy|order|click|visit|open|forward|share|deny|refuse|mention|link|steer|"
          r"the (?:correct|right|only|official|proper) (?:answer|response|reply))\b"),
    _rule("conditional", "an answer scripted for a later cue", 0.55,
          rf"(?:^|[.!?;:\n*]\s*|\b(?:please|and|then|always)\s+){ANSWER}\w*\b[^.!?\n]{{0,60}}\b(?:every time|whenever|each time|any ?time|when|if|once)\s+(?:ever\s+)?"
          rf"(?:the user|a user|users|anyone|anybody|someone|somebody|people|customers?)\s+(?:ever\s+)?{ASKS}\b"),
    _rule("conditional", "a scripted answer", 0.4,
          r"\b(?:respond|reply|answer)\s+by\s+(?:saying|telling|claiming|stating)\b|\bthe\s+(?:correct|right|"
          r"only|official|proper)\s+(?:answer|response|reply)\s+is\b"),
    _rule("conditional", "a trigger on secrets", 0.5,
          rf"\b(?:when|whenever|if|once|any ?time|every time)\b[^.!?\n]{{0,60}}\b{SECRET}\b[^.!?\n]{{0,60}}"
          r"\b(?:ask|tell|have|get|make|request|prompt|send|save|store|note|repeat)\b"),
    _rule("conditional", "asks for secrets", 0.5,
          rf"\b(?:ask|prompt|request|get|collect|have)\s+(?:them|him|her|the user|users|for)\s+"
          rf"(?:\w+\s+){{0,5}}?{SECRET}"),
    _rule("conditional", "asks the reader for secrets", 0.3,
          rf"\b(?:type|enter|send|share|confirm|provide|reply with)\s+(?:your|their|the)\s+(?:\w+\s+)?{SECRET}"),
    # exfiltration: move data out
    _rule("exfiltration", "asks to send data to an outside address", 0.8,
          rf"\b(?:send|forward|post|upload|e-?mail|mail|transmit|leak|exfiltrate|copy|share|submit|dump|"
          rf"export|relay|sync|deliver|push|paste|beam|pipe|include|collect|gather|harvest|extract|grab|append|"
          rf"attach|encode|embed|put|add|insert|cc|bcc)\b[^.!?\n]{{0,80}}?\b{DATA}\b[^.!?\n]{{0,80}}?{DEST}|"
          rf"\b{DATA}\b[^.!?\n]{{0,80}}?\b(?:send|forward|post|upload|e-?mail|transmit|submit|export|relay|"
          rf"deliver|push|paste|append|attach)\b[^.!?\n]{{0,40}}?{DEST}"),
    _rule("exfiltration", "asks to pass every conversation on", 0.7,
          r"\b(?:send|forward|copy|cc|bcc|share|transmit|report|relay|mirror)\s+(?:all|every|each|any)\s+(?:of\s+)?"
          r"(?:your|the|this|these)?\s*(?:\w+\s+)?(?:chats?|conversations?|messages|replies|answers|memories|data|"
          r"history|transcripts?|sessions)\b[^.!?\n]{0,60}?\bto\s+(?:us|me|them|him|her|this address|the sender|"
          r"our (?:team|server|address))\b"),
    _rule("exfiltration", "asks for past conversations or other users' data", 0.6,
          r"\b(?:full text|transcripts?|contents|copy|copies|log|logs|history|record|records|summary)\s+of\s+"
          r"(?:your|the|all|every)\s+(?:\w+\s+)?(?:conversations?|chats?|messages|memories|sessions)\b[^.!?\n]{0,40}"
          r"\b(?:with|of|from)\s+(?:the user|users|other users|everyone)|\bother users'?\s+(?:data|memories|"
          r"info|information|details|conversations|messages|files|secrets)\b|\b(?:every|each|any|all) users?'?s?\s+(?:data|"
          r"memories|info|information|details|conversations|messages|files|secrets|history)\b"),
    _rule("exfiltration", "an address that receives data", 0.25,
          rf"\b(?:send|forward|post|upload|e-?mail|transmit|copy|submit|dump|export|relay)\b[^.!?\n]{{0,100}}?"
          rf"{DEST}"),
    _rule("exfiltration", "an image or link that carries data out", 0.8,
          r"!?\[[^\]]*\]\(\s*(?:https?://)[^)\s]*(?:\{[^}]*\}|\$\{|%7B|<[^>]+>|\[[A-Z_]+\])[^)]*\)|"
          r"(?:https?://)\S*[?&]\w+=\s*(?:\{[^}]*\}|\$\{|<[^>]+>|\[[A-Z_]+\])"),
)

WHO_WORDS = ("user", "customer", "anyone", "anybody", "someone", "somebody", "people", "person", "they", "he ",
              "she ", "human", "topic", "asked", "comes up", "mention", "question", "request")
#: Cheap pre-checks for the rules that are expensive to try everywhere (by reason).
_NEEDS_BY_REASON: dict[str, tuple[str, ...]] = {
    "asks to send data to an outside address": ("@", "://", "webhook", "pastebin", "discord", "telegram", ".example",
                                                 ".com", ".net", ".org", ".io", ".ru", ".cn", ".xyz", ".top", ".info",
                                                 ".biz", ".co"),
    "asks to drop earlier instructions (another language)": (
        "忽略", "无视", "忽视", "不要理会", "忘记", "忘掉", "ignor", "olvida", "descarta", "omite", "oublie", "vergiss",
        "missachte", "esque", "desconsidere", "dimentica", "игнорир", "забудь"),
    "a standing order from now on (another language)": (
        "从现在开始", "从今以后", "以后", "a partir de", "désormais", "à partir de maintenant", "ab sofort", "von nun an",
        "d'ora in poi", "с этого момента", "отныне"),
    "names the system prompt (another language)": ("系统", "prompt", "invite", "system", "сист"),
    "tells the agent what it must do": ("ai", "llm", "model", "bot", "assistant", "agent", "gpt"),
    "asks to pass every conversation on": ("all ", "every", "each", "any "),
    "a standing order from now on": ("from now", "from this", "from here", "henceforth", "hereafter", "going forward",
                                     "as of now", "starting", "from today", "future", "whenever you", "for the rest",
                                     "permanently", "forever", "for good"),
    "an address that receives data": ("@", "://", "webhook", "pastebin", "discord", "telegram"),
    "an image or link that carries data out": ("://",),
    "asks for past conversations or other users' data": ("conversation", "chat", "message", "memor", "session",
                                                         "other user"),
    "puts something into every answer": ("every", "each", "all ", "any "),
    "tells it what to do to the user": ("user", "customer"),
    "a trigger that scripts a later answer": WHO_WORDS,
    "an always/never order about the agent's audience": ("always", "never", "only"),
    "an always/never order about answers": ("always", "never", "only", "don't ever", "do not ever"),
}
RULES = tuple(replace(r, needs=_NEEDS_BY_REASON.get(r.reason, r.needs)) for r in RULES)
