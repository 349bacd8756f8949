"""The vocabulary screening's rules are written in (pure data): regular-expression fragments
for what gets dropped, claimed, ordered, asked for or sent out, the cheap substrings that
pre-check costly rules, and the patterns that are not rules of a family (text addressed to
an AI, quoting, talk about attacks). ``screening_patterns`` builds the rules from these."""

from __future__ import annotations

import re

W = r"[\w'’-]+"  # one word
#: Words every rule of a family needs (see ``Rule.needs``): an override names what it drops.
RULE_WORDS = ("instruct", "rule", "directive", "guideline", "guardrail", "prompt", "programming", "constraint",
              "polic", "order", "command", "restriction", "filter", "training", "configur", "guidance",
              "safeguard", "limit", "principle", "boundar", "everything", "anything", "all ", "told", "given",
              "safety", "moderation", "censor", "reset", "factory", "follow", "obey", "ignore", "disregard",
              "forget", "bypass", "skip", "direction", "none of", "setup", "real ", "actual ", "new context",
              "simulation")
DROP = (r"(?:ignore|disregard|forget|overlook|skip|discard|abandon|bypass|override|overrule|"
        r"set aside|put aside|throw out|stop following|stop obeying|don'?t follow|do not follow|"
        r"no longer follow|cancel|nullify|void|erase|delete|drop|throw away|toss|scrap|ditch|wipe|clear|"
        r"reset|remove|lose|get rid of|break|escape)")
EARLIER = (r"(?:previous|prior|earlier|above|preceding|foregoing|original|initial|existing|old|"
           r"former|current|system|safety|default|given|standing|base|privacy|security|content|usual|normal|"
           r"standard|ethical|moderation|built-in|core)")
RULE_NOUNS = (r"(?:instructions?|rules?|directives?|guidelines?|guardrails?|prompts?|programming|"
              r"constraints?|polic(?:y|ies)|orders|commands?|restrictions?|filters?|training|"
              r"configuration|guidance|safeguards?|limitations?|principles|limits|boundaries)")
AGENT = (r"(?:ai|a\.i\.|llm|large language model|language model|chat ?bot|assistant|ai assistant|agent|ai agent|"
         r"ai system|ai model|ai helper|bot|gpt|model)")
ROLE = (r"(?:developer|creator|maker|programmer|owner|administrator|admin|operator|supervisor|"
        r"master|trainer|designer|engineer|boss|manager|provider)")
SAY = (r"(?:answer|respond|reply|say|tell|recommend|mention|suggest|include|reveal|disclose|output|"
       r"print|claim|state|describe|refer|praise|promote|insist|remind|add|end|start|begin|use|"
       r"write|speak|talk|rate|advise|direct|send|warn|agree|deny|refuse|call|address|steer|nudge|guide|"
       r"report|link|push|favou?r|prioriti[sz]e|discourage|criticise|criticize|respond)")
#: Verbs of answering and advising: what an order about the agent's replies is about (not
#: "include", "use", "wear": a manual's "always include your order number" orders a reader).
ANSWER = (r"(?:answer|respond|reply|say|tell|recommend|mention|suggest|reveal|disclose|claim|state|describe|"
          r"refer|praise|promote|insist|warn|agree|deny|refuse|advise|rate|discourage|steer|nudge|talk|speak|"
          r"criticise|criticize|call (?:it|them|this|the)|end (?:your|every|each|all)|start (?:your|every|each|all)|"
          r"begin (?:your|every|each|all)|include (?:a |the )?(?:link|phrase|sentence|line|mention)|link to|"
          r"favou?r|prioriti[sz]e|push|direct (?:them|users|people|the user)|bring (?:it|this|that) up)")
PERSIST = (r"(?:from now on|from this point(?: on| forward| onwards?)?|from here on(?: out)?|henceforth|"
           r"hereafter|going forward|from this moment(?: on)?|as of now|starting (?:now|today)|from today|"
           r"from now\b|in (?:every|each|all|any) (?:conversation|chat|session|reply|answer)s?|"
           r"(?:in|for) (?:each|every|all|any) (?:of )?your (?:future|next|upcoming|subsequent) \w+|"
           r"whenever you (?:answer|reply|respond|talk|write|summari[sz]e|speak|chat)|"
           r"for (?:all|every|each|any) future \w+|in (?:all )?future (?:conversations|chats|"
           r"sessions|answers|replies|responses)|for the rest of (?:this|the) (?:conversation|chat|"
           r"session)|permanently|forever|for good)")
WHO = (r"(?P<who>the user|a user|users|the customer|a customer|customers|the human|the person|"
       r"anyone|anybody|someone|somebody|people|a person|any(?:one)? user|they|he|she)")
ASKS = (r"(?:asks?|mentions?|says?|types?|quer(?:y|ies)|wants?|requests?|brings? up|talks? about|"
        r"inquires?|enquires?|searches|looks? for|is asking|needs?|writes?|raises?|wonders?)")
SECRET = (r"(?:passwords?|passcodes?|pins?|card numbers?|credit cards?|cvv|credentials?|api keys?|"
          r"tokens?|secrets?|social security|bank (?:details|account)|login|2fa|one-time code|session cookies?|"
          r"cookies|environment variables|\.env(?: file)?|private keys?|seed phrase|recovery (?:phrase|codes?)|"
          r"(?:verification|security|six-digit|2fa|sms|login) codes?|"
          # the files a machine keeps its keys in: a planted order names them to have them sent
          r"~/\.ssh\S*|id_rsa|id_ed25519|\.aws/credentials|\.npmrc|\.netrc|\.pgpass|\.kube/config|/etc/shadow|"
          r"wallet\.dat)")
DATA = (r"(?:conversations?|chats?|chat logs?|transcripts?|histor(?:y|ies)|messages|memor(?:y|ies)|"
        r"memory store|passwords?|credentials?|api keys?|tokens?|secrets?|personal (?:details|data|"
        r"information|info)|(?:the )?user'?s \w+|all (?:the |of the )?(?:data|information|messages|"
        r"files|details|notes)|everything (?:you know|you have|you'?ve (?:stored|saved|got|collected|kept)|stored|saved)|system prompt|"
        r"contents|session|card numbers?|contacts|private \w+|saved \w+|stored \w+|everything (?:you|that you) "
        r"(?:remember|have learned|learned|know about|recall)|their (?:files|data|documents|messages|contacts|"
        r"photos|history|details|credentials|passwords)|your (?:location|home address|phone number|contacts|passwords?|"
        r"credentials|messages|files|photos|card details)|everything (?:the user|they|he|she) (?:told|said|shared|gave|"
        r"wrote)|"
        # other people's records: what a request for "everyone's salaries" is after
        r"everyone'?s \w+|(?:all|every) (?:the )?(?:employees?|staff|customers?|users?|members?|patients?)'?s? \w+|"
        r"salar(?:y|ies)|payroll|ssns?|social security numbers|medical (?:notes|records|history))")
GIVEN = (r"(?:you(?:'ve| have)? (?:were |been )?(?:given|received|told|got|configured with|programmed with|"
         r"trained (?:with|on)|set up with|instructed with|shipped with|built with|deployed with|loaded with)|"
         r"given to you)")
DEST = (r"(?:(?:https?|ftp)://\S+|[\w.+-]+@[\w-]+\.[\w.-]+|webhook|pastebin|discord|telegram|"
        r"\b[\w-]+\.(?:example|com|net|org|io|ru|cn|xyz|top|info|biz|co)\b|"
        r"\bpublic (?:[#\w-]+ )?(?:channel|forum|repo(?:sitory)?|gist|page|group|chat)\b)")

#: AGENT_ADDRESS can only match text naming an AI of some kind.
AGENT_WORDS = ("ai", "a.i.", "llm", "language model", "bot", "assistant", "agent", "gpt", "model", "machine",
               "automated", "copilot", "grader")

#: Words that mark text as *talking about* attacks (security training, research, a filter's
#: test cases): a sign that sits inside quotes in such text is a quotation, not an order.
META = re.compile(
    r"\b(?:attack(?:er|ers|s)?|injections?|jailbreak\w*|phishing|malicious|security|red[ -]team\w*|"
    r"examples?|e\.g\.|such as|like when|phrases?|strings?|filters?|detect\w*|classif\w*|training|"
    r"paper|article|researchers?|a common|(?!(?-i:WARN(?:ING)?)\b)warn\w*|scam\w*|suspicious|spam|"
    r"pattern\w*|test cases?|fraud\w*|hack\w*|exploit\w*|prompts?|tested|testing|workshop|demo\w*|"
    r"lecture|course|slides|blog|tweet|scam\w*|hidden instructions?|injected|ignored|did not follow|"
    r"didn'?t follow|refused|tests|evaluat\w*|untrusted|vulnerab\w*|flaw|disclosed|patched|derail\w*|"
    r"proof of concept|advisory|cve-\d+)\b",
    re.I,
)
#: A quotation. In single quotes, an apostrophe between letters ("the user's files") does not
#: end it, and Korean, Japanese or Chinese may follow the closing quote (a particle: '…'는).
QUOTED = re.compile(r"\"[^\"\n]{3,400}\"|“[^”\n]{3,400}”|(?<!\w)'(?:[^'\n]|(?<=\w)'(?=\w)){3,400}'"
                    r"(?![^\W\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3])|«[^»\n]{3,400}»|"
                    r"„[^“”\n]{3,400}[“”]|‘[^’\n]{3,400}’|「[^」\n]{3,400}」|『[^』\n]{3,400}』|‹[^›\n]{3,400}›")

#: Text that speaks to an AI that happens to read it (a web page, a document, an e-mail
#: talking past the human to the agent): rarely innocent in content the agent fetched.
AGENT_ADDRESS = re.compile(
    # an AI named by what it does to the text: "Assistant managing this home:", "language
    # models comparing these accounts should", "Grading model:", "AI helpers installing this mod:"
    r"\b(?:ai|llm|language model|model|bot|chat ?bot|assistant|ai assistant|ai agent|automated agent|copilot|gpt|"
    r"ai helper|grader)s?\s+(?:that\s+|who\s+|which\s+)?(?:is\s+|are\s+)?[a-z]+ing\b[^.!?\n:]{0,50}?(?::|\b(?:should|"
    r"must|shall|needs? to|is required to|are required to|has to|have to)\b)|"
    r"\b(?:grading|reader|reviewing|scoring|summari[sz]ing|screening|indexing|answering|automated)\s+"
    r"(?:ai|llm|model|bot|assistant|agent|grader|helper)s?\s*:|"
    # an AI named by its job on the text, then a colon: "[AI reviewer: state that ...]"
    r"\b(?:ai|llm|gpt)[ -](?:reviewers?|readers?|summari[sz]ers?|screeners?|graders?|parsers?|analy[sz]ers?|"
    r"evaluators?|recruiters?|scanners?|crawlers?|indexers?|auditors?|checkers?)\s*:|"
    rf"\b{AGENT}s?\s+(?:[\w-]+\s+)?(?:that (?:is |are )?)?(?:reading|processing|parsing|summari[sz]ing|browsing|"
    r"analy[sz]ing|seeing|scanning|crawling|ingesting|indexing)\s+(?:this|these|the following)\b|"
    # "... my notes" only when it is addressed, not talked about ("an AI assistant reading our
    # tickets would save time")
    rf"(?<!\ban )(?<!\ba )(?<!\ban ai )(?<!\ba ai )\b{AGENT}s?\s+(?:[\w-]+\s+)?(?:that (?:is |are )?)?(?:reading|"
    r"processing|parsing|summari[sz]ing|browsing|analy[sz]ing|seeing|scanning|crawling|ingesting|indexing)\s+(?:my|our)\b|"
    rf"\bif you(?: are|'re)\s+(?:an?\s+)?(?:ai|llm|language model|assistant|bot|chat ?bot|agent|automated|"
    r"gpt|machine)\b|"
    rf"\b(?:note|message|instructions?|attention|memo|notice|hint|a word|directive|order|command|request|important|"
    rf"info|information|guidance|policy|rules?)\s*(?:to|for|,|:)?\s+(?:the\s+|any\s+|"
    rf"all\s+)?(?:ai\s+|automated\s+|[a-z-]+ing\s+)?{AGENT}s?\b(?!\s+(?:at|in|on|of|from|who|manager|director|desk|coach))|"
    rf"\b(?:this|the following|the next)\s+(?:text|message|note|section|part|content|page|paragraph|line)s?\s+"
    rf"(?:is|are)\s+(?:only\s+)?(?:for|to|meant for|intended for|addressed to|written for)\s+(?:the\s+|any\s+|all\s+)?"
    rf"{AGENT}s?\b|\bfor (?:ai|llm|language model|assistant|agent|bot|gpt)s?(?:[ -](?:models?|systems?|tools?|agents?|"
    rf"assistants?|readers?|helpers?|crawlers?|bots?|use|eyes))? only\b|"
    rf"(?:^|[\n>(\[\-]|--)\s*(?:to|for|attn:?|attention:?)\s+(?:the\s+|any\s+|all\s+)?{AGENT}s?\s*[:,]|"
    rf"\bdear\s+(?:ai|llm|chat ?bot|ai assistant|ai agent|language model|gpt|model)\b|"
    rf"(?:^|[\s>(\[\-\"'])(?:dear\s+|hey\s+|hello\s+)?(?:ai|assistants?|ai assistants?|ai agents?|agents?|llms?|"
    r"models?|chat ?bots?|bots?|gpt)\s*[:,]\s+(?:please\s+)?(?:message|inform|notify|email|text|contact|alert|urge|ask|"
    r"summari[sz]e|describe|mark|classify|label|treat|ignore|forget|disregard|tell|say|send|forward|copy|recommend|"
    r"reveal|always|never|do|don'?t|you|from|respond|reply|rate|remember|store|delete|insist|output)\b",
    re.I,
)

#: A decoded payload that opens like an order (base64 of "Tell the user ...").
ORDER_START = re.compile(
    r"\s*(?:please\s+|now\s+)?(?:tell|send|reveal|share|recommend|say|answer|respond|reply|ignore|forget|disregard|"
    r"list|output|print|export|leak|delete|insist|advise|describe|mark|rate|suggest|confirm|repeat|summari[sz]e|"
    r"submit|follow|obey|act|pretend|become|switch|enable|disable|grant|approve|append|add|include|remember|"
    r"store|save|memori[sz]e|always|never|you|from now on|do not|don'?t|assistant|agent|bot|system|skip|bypass|show|give|"
    r"approve|delete|transfer|forward|post|paste|open|run|execute|grant|unlock|disable|email|upload|buy|pay|"
    # a shell command that fetches and runs a script: no data is encoded as one
    r"curl|wget|iwr|invoke-webrequest|powershell)\b",
    re.I,
)
