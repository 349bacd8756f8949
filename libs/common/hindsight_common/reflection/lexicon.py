"""Closed English word lists the offline reflector's rules consult.

Kept apart from the rules so that widening coverage (a new job title, a new pet) is a data
change that cannot break a regular expression.
"""

from __future__ import annotations

# Speaker names that denote a role rather than a person. A turn by one of these is attributed
# to "the user" / skipped (assistant), never to a person called "User".
GENERIC_SPEAKERS = frozenset({"", "user", "human", "assistant", "ai", "bot", "system", "tool"})
MACHINE_SPEAKERS = frozenset({"assistant", "ai", "bot", "system", "tool"})

# Family, friends and colleagues: surface word -> canonical role used in `relation.<role>`.
ROLES: dict[str, str] = {
    "sister": "sister", "brother": "brother", "sibling": "siblings", "siblings": "siblings",
    "mom": "mother", "mum": "mother", "mother": "mother", "mommy": "mother", "mama": "mother",
    "dad": "father", "father": "father", "daddy": "father", "papa": "father",
    "parents": "parents", "husband": "husband", "wife": "wife", "spouse": "spouse",
    "partner": "partner", "boyfriend": "boyfriend", "girlfriend": "girlfriend",
    "fiance": "fiance", "fiancé": "fiance", "fiancee": "fiance", "fiancée": "fiance",
    "son": "son", "daughter": "daughter", "kid": "children", "kids": "children",
    "child": "children", "children": "children", "grandma": "grandmother",
    "grandmother": "grandmother", "granny": "grandmother", "nana": "grandmother",
    "grandpa": "grandfather", "grandfather": "grandfather", "grandparents": "grandparents",
    "aunt": "aunt", "uncle": "uncle", "cousin": "cousin", "niece": "niece",
    "nephew": "nephew", "friend": "friend", "roommate": "roommate", "flatmate": "roommate",
    "boss": "boss", "manager": "manager", "colleague": "colleague", "coworker": "colleague",
    "co-worker": "colleague", "neighbor": "neighbor", "neighbour": "neighbor",
    "twin": "twin", "stepmom": "stepmother", "stepdad": "stepfather",
    "mother-in-law": "mother_in_law", "father-in-law": "father_in_law",
    "sister-in-law": "sister_in_law", "brother-in-law": "brother_in_law",
    "stepson": "stepson", "stepdaughter": "stepdaughter", "housemate": "roommate",
    "teammate": "teammate", "classmate": "classmate", "godmother": "godmother",
    "godfather": "godfather", "grandson": "grandson", "granddaughter": "granddaughter",
    "supervisor": "supervisor", "mentor": "mentor", "landlord": "landlord",
    "landlady": "landlord", "bestie": "best_friend", "stepsister": "stepsister",
    "stepbrother": "stepbrother", "half-sister": "sister", "half-brother": "brother",
    "grandkids": "grandchildren", "grandchildren": "grandchildren", "in-laws": "in_laws",
    "best friend": "best_friend", "team lead": "team_lead", "tech lead": "tech_lead",
    "line manager": "manager", "best mate": "best_friend", "bff": "best_friend",
    "cousin-brother": "cousin", "cousin-sister": "cousin",
}
# Words between "my" and the role that do not change who the person is.
ROLE_MODIFIERS = frozenset({"younger", "older", "little", "big", "baby", "twin", "eldest",
                            "youngest", "oldest", "elder", "late", "dear", "two", "three"})

# Things people own -> the class used in `possession.<class>`.
POSSESSIONS: dict[str, str] = {
    **{w: "pet" for w in (
        "dog", "dogs", "puppy", "puppies", "pup", "cat", "cats", "kitten", "kittens",
        "hamster", "rabbit", "bunny", "parrot", "bird", "birds", "fish", "goldfish", "turtle",
        "tortoise", "horse", "pony", "snake", "lizard", "ferret", "retriever", "labrador",
        "poodle", "beagle", "terrier", "corgi", "husky", "bulldog", "chihuahua", "dachshund",
        "spaniel", "shepherd", "parrots", "hamsters", "rabbits", "greyhound", "whippet",
        "lurcher", "collie", "pug", "schnauzer", "rottweiler", "doberman", "dalmatian", "sheepdog",
        "mutt", "labradoodle", "cockapoo", "cockatiel", "budgie", "canary", "gecko",
        "chinchilla", "guinea pig", "axolotl", "hedgehog", "tabby", "moggy", "iguana", "chickens",
        "hens", "goat", "goats", "donkey", "alpaca")},
    **{w: "car" for w in (
        "car", "truck", "van", "suv", "jeep", "minivan", "sedan", "pickup", "tesla", "toyota",
        "honda", "ford", "bmw", "audi", "subaru", "volkswagen", "mercedes", "volvo", "kia",
        "hyundai", "mazda", "nissan", "prius")},
    **{w: "bike" for w in ("bike", "bicycle", "motorcycle", "motorbike", "scooter", "e-bike",
                           "vespa", "moped", "e-scooter", "tandem")},
    **{w: "home" for w in ("house", "apartment", "flat", "condo", "cabin", "cottage")},
    **{w: "instrument" for w in (
        "guitar", "piano", "violin", "cello", "drums", "ukulele", "saxophone", "trumpet",
        "flute", "keyboard", "banjo", "harp")},
    **{w: "boat" for w in ("boat", "sailboat", "kayak", "canoe", "yacht")},
    "garden": "garden", "allotment": "garden",
}

JOBS = frozenset({
    "engineer", "developer", "programmer", "nurse", "teacher", "doctor", "physician",
    "surgeon", "lawyer", "attorney", "designer", "photographer", "writer", "author",
    "artist", "painter", "chef", "cook", "accountant", "scientist", "analyst", "consultant",
    "pilot", "firefighter", "architect", "electrician", "plumber", "paramedic", "pharmacist",
    "dentist", "therapist", "counselor", "counsellor", "librarian", "professor", "researcher",
    "journalist", "editor", "musician", "barista", "waiter", "waitress", "mechanic",
    "carpenter", "farmer", "officer", "soldier", "coach", "trainer", "driver", "cashier",
    "clerk", "secretary", "entrepreneur", "founder", "freelancer", "translator", "vet",
    "veterinarian", "intern", "realtor", "banker", "economist", "historian", "biologist",
    "chemist", "physicist", "mathematician", "statistician", "psychologist", "worker",
    "ceo", "cto", "cfo", "director", "tutor", "instructor", "lecturer", "nanny", "caregiver",
    "stylist", "hairdresser", "baker", "butcher", "tailor", "practitioner", "manager",
    "administrator", "technician", "dancer", "actor", "actress", "singer",
    "producer", "marketer", "recruiter", "salesman", "saleswoman", "police", "cop",
    "detective", "judge", "midwife", "optometrist", "radiologist", "sysadmin", "copywriter",
    "tester",
})

# "-ist" words that describe a person's outlook or pastime, not their work.
NOT_JOBS = frozenset({"optimist", "pessimist", "perfectionist", "realist", "idealist",
                       "minimalist", "feminist", "atheist", "purist", "racist", "extremist",
                       "tourist", "cyclist", "socialist", "communist", "capitalist", "humanist",
                       "pacifist", "nationalist", "narcissist", "hedonist", "fatalist",
                       "loyalist", "moralist", "modernist", "motorist", "finalist", "buddhist",
                       "methodist", "baptist", "activist", "environmentalist", "vocalist"})

DIETS = ("vegetarian", "vegan", "pescatarian", "gluten-free", "gluten free", "keto",
         "halal", "kosher", "lactose intolerant", "lactose-intolerant", "dairy-free",
         "coeliac", "celiac", "teetotal", "plant-based")

NATURAL_LANGUAGES = frozenset({
    "english", "french", "spanish", "german", "italian", "portuguese", "dutch", "russian",
    "chinese", "mandarin", "cantonese", "japanese", "korean", "arabic", "hindi", "urdu",
    "bengali", "turkish", "polish", "swedish", "norwegian", "danish", "finnish", "greek",
    "hebrew", "vietnamese", "thai", "indonesian", "malay", "swahili", "ukrainian", "czech",
    "romanian", "hungarian", "tagalog", "persian", "farsi", "catalan", "welsh", "irish",
})
PROGRAMMING_LANGUAGES = frozenset({
    "python", "java", "javascript", "typescript", "rust", "go", "golang", "c", "c++", "c#",
    "ruby", "kotlin", "swift", "scala", "haskell", "php", "perl", "elixir", "clojure",
    "julia", "lua", "dart", "zig", "ocaml", "f#", "sql", "r",
})

# Past-tense forms that are not "-ed" words; used to recognise a reported event.
IRREGULAR_PAST = frozenset({
    "ran", "went", "got", "had", "met", "took", "bought", "made", "did", "saw", "lost",
    "won", "left", "flew", "began", "wrote", "sold", "broke", "came", "became", "gave",
    "found", "kept", "paid", "spent", "taught", "swam", "drove", "ate", "drank", "grew",
    "rode", "sang", "slept", "spoke", "built", "threw", "caught", "fell", "held", "sent",
    "quit", "read", "hit", "shot", "tore", "wore", "forgot", "knew", "felt", "heard",
    "thought", "told", "said", "meant", "understood", "misunderstood", "misread", "stood",
    "sat", "led", "fed", "hid", "bit", "shut", "chose", "drew", "forgave", "froze",
})
# Everyday destinations: going there is an errand, not a trip or a life event.
ERRANDS = frozenset({
    "bed", "work", "school", "class", "home", "gym", "shop", "shops", "store", "supermarket",
    "office", "bank", "doctor", "doctor's", "dentist", "dentist's", "pharmacy", "chemist",
    "library", "pub", "bar", "cafe", "café", "park", "toilet", "bathroom", "loo", "kitchen",
    "meeting", "post office", "market", "mall", "canteen", "lunch", "dinner", "breakfast",
    "sleep", "church", "station", "airport", "hairdresser", "hairdresser's", "vet",
})
# Past verbs that report a thought, a wish or speech, not something that happened.
NON_EVENT_PAST = frozenset({
    "wanted", "needed", "liked", "loved", "hated", "enjoyed", "used", "tried", "thought",
    "guessed", "wondered", "asked", "mentioned", "meant", "said", "told", "noticed",
    "realized", "realised", "hoped", "expected", "supposed", "called", "was", "were",
    "felt", "knew", "seemed", "agreed", "misread", "misunderstood", "heard", "forgot",
    "decided", "preferred",
})
# Life events worth keeping even when no date is given ("I adopted a cat").
LIFE_EVENTS = frozenset({
    "adopted", "graduated", "retired", "married", "divorced", "quit", "joined",
    "published", "launched", "won", "lost", "bought", "sold", "started", "finished",
    "completed", "volunteered", "ran", "painted", "signed", "moved", "got_married",
    "got_engaged", "got_promoted", "got_divorced", "got_hired", "got_fired",
})
PARTICLES = frozenset({"up", "out", "off", "back", "over"})

REPORTING_WORDS = frozenset({
    "said", "say", "says", "saying", "claim", "claimed", "claiming", "think", "thinks",
    "thought", "told", "tell", "tells", "mean", "meant", "believe", "believes", "suggest",
    "claims", "swears", "swore", "reckons", "reckon", "reckoned", "mentioned", "mentions",
    "insists", "insisted", "wrote", "writes",
})
