"""More of the lexicon of ``screening_lexicon`` (pure data): six more languages, forms found
missing after blind part 17's one run, and 25 languages more (Catalan to Nepali, named above
``MORE``). Split off only to keep each module short."""

from __future__ import annotations

#: Six more languages (Hungarian, Swahili, Persian, Tagalog, Bengali, Urdu); Persian and Urdu
#: written without the zero-width non-joiner (normalising removes it), and fixes found on the
#: blind part 17 after its one run (the Arabic "model", the Greek "describes", Russian and
#: Turkish forms). Then, after those in each concept, in this order: Catalan, Galician, Basque,
#: Croatian, Bosnian and Serbian in Latin script, Slovak, Slovenian, Estonian, Latvian,
#: Lithuanian, Icelandic, Welsh, Afrikaans, Albanian; Serbian in Cyrillic, Macedonian,
#: Bulgarian, Kazakh; Georgian, Armenian, Amharic, Tamil, Telugu, Marathi, Nepali. A word that
#: is also a common word of another language in the lexicon is left out or spelled out as a
#: phrase ("ako korisnik": Slovak "ako" is "as"; Lithuanian "kad" is "that").
MORE: dict[str, str] = {
    "drop": (
        "ne compte plus|ne comptent plus|n'a plus cours|ne valent plus|বাদ দাও|বাদ দিন|bhool jao|bhul jao|bhool jaao|"
        "ignore karo|nazarandaz karo|hagyd figyelmen kívül|felejtsd el|ne vedd figyelembe|puuza|sahau|acha kufuata|"
        "نادیده بگیر|فراموش کن|کنار بگذار|huwag pansinin|kalimutan|balewalain|উপেক্ষা কর*|ভুলে যাও|অগ্রাহ্য|نظر انداز|"
        "نظرانداز|بھول جاؤ|تخل*|nie trzymaj się|не придерживайся|bırak|ignoreu|oblida|oblideu|oblidi|descarteu|"
        "no facis cas|no en facis cas|deixa de banda|ja no són vàlides|ja no s'apliquen|esquecede|esqueza|"
        "non fagas caso|xa non son válidas|xa non se aplican|ahaztu|ahaztu itzazu|baztertu|ez ikusiarena egin|"
        "ez egin kasurik|ez kasurik egin|jaramonik ez egin|ez dira baliozkoak|zanemari|zanemarite|ignoriraj|"
        "ignorirajte|ignoriši|ignorišite|zaboravi|zaboravite|odbaci|odbacite|ne obaziri se|ne obazirite se|"
        "ne obraćaj pažnju|više ne vrijede|više ne važe|više ne vrede|ignorujte|zabudni|zabudnite|nevšímaj si|"
        "nevšímajte si|neber do úvahy|neberte do úvahy|zahoďte|už neplatia|prezri|prezrite|ignoriraj|ignorirajte|"
        "pozabi|pozabite|ne upoštevaj|ne upoštevajte|zavrzi|ne veljajo več|ignoreeri|ignoreerige|unusta|unustage|eira|"
        "eirake|ära arvesta|ärge arvestage|jäta tähelepanuta|jätke tähelepanuta|ei kehti enam|ignorējiet|aizmirsti|"
        "aizmirstiet|neņem vērā|neņemiet vērā|atmetiet|vairs nav spēkā|ignoruok|ignoruokite|pamiršk|pamirškite|"
        "nepaisyk|nepaisykite|atmesk|atmeskite|nekreipk dėmesio|nekreipkite dėmesio|nebegalioja|hunsaðu|hunsið|"
        "gleymdu|gleymið|líttu framhjá|lítið framhjá|ekki taka mark á|taktu ekki mark á|gilda ekki lengur|hunsa|"
        "anwybydda|anwybyddwch|anghofia|anghofiwch|diystyra|diystyrwch|paid â dilyn|peidiwch â dilyn|ignoreer|"
        "verontagsaam|laat vaar|sien oor die hoof|moenie ag slaan op|geld nie meer|is nie meer geldig|injoro|injoroni|"
        "harro|harroni|shpërfill|shpërfillni|mos i merr parasysh|mos merr parasysh|mos i kushto vëmendje|"
        "nuk vlejnë më|занемари|занемарите|игнориши|игноришите|заборави|заборавите|одбаци|одбаците|не обазири се|"
        "не обазирите се|више не важе|више не вреде|више не вриједе|игнорирај|игнорирајте|заборавете|занемарете|"
        "отфрли|отфрлете|не обрнувај внимание|повеќе не важат|игнорирай|игнорирайте|забрави|забравете|пренебрегни|"
        "пренебрегнете|не обръщай внимание|не се съобразявай|вече не са валидни|вече не важат|елеме|елемеңіз|ескерме|"
        "ескермеңіз|ұмыт|ұмытыңыз|ұмытып кет|назар аударма|назар аудармаңыз|енді жарамсыз|უგულებელყავი|უგულებელყავით|"
        "დაივიწყე|დაივიწყეთ|ნუ მიაქცევ ყურადღებას|აღარ მოქმედებს|անտեսիր|անտեսեք|մոռացիր|մոռացեք|հաշվի մի առ|"
        "հաշվի մի առեք|այլևս չեն գործում|այլեւս չեն գործում|ችላ በል|ችላ በይ|ችላ ይበሉ|ችላ በሉ|እርሳ|እርሺ|ይርሱ|እርሱት|አትከተል|புறக்கணி*|"
        "மறந்துவிடு*|மறந்து விடு*|பொருட்படுத்தாதே|பொருட்படுத்த வேண்டாம்|கவனிக்க வேண்டாம்|విస్మరించ*|పట్టించుకోకు|"
        "పట్టించుకోవద్దు|పట్టించుకోకండి|మర్చిపో|మర్చిపోండి|మరచిపో|మరచిపోండి|दुर्लक्ष कर|दुर्लक्ष करा|विसरा|विसरून जा|"
        "लक्ष देऊ नकोस|लक्ष देऊ नका|यापुढे लागू नाहीत|बेवास्ता गर|बेवास्ता गर्नुहोस्|बिर्स|बिर्सनुहोस्|बिर्सिदेऊ|"
        "बिर्सिदिनुहोस्|ध्यान नदेऊ|ध्यान नदिनुहोस्"
    ),
    "earlier": (
        "pehle wale|pehle ke|pichhle|korábbi|előző|awali|zilizopita|قبلی|پیشین|nakaraang|naunang|আগের|পূর্ববর্তী|"
        "پچھلی|پچھلے|في بداية|na początku|başta|anteriors|prèvies|d'abans|inicials|aurreko|lehengo|jatorrizko|"
        "orain arteko|prethodn*|ranij*|dosadašnj*|prijašnj*|pređašnj*|izvorn*|predchádzajúc*|predošl*|doterajš*|"
        "skoršie|prejšnj*|predhodn*|dosedanj*|prvotn*|eelmis*|varasem*|senised|seniseid|eelnev*|algsed|iepriekšēj*|"
        "agrāk*|līdzšinēj*|sākotnēj*|ankstesn*|ligšiolin*|anksčiau|fyrri|upprunaleg*|hingað til|blaenorol|cynharach|"
        "gwreiddiol|hyd yn hyn|vroeëre|oorspronklik*|voorafgaande|tot dusver|mëparshm*|paraprak*|origjinal*|deri tani|"
        "më parë|претходн*|раниј*|досадашњ*|пређашњ*|изворн*|досегашн*|поранешн*|првичн*|предишн*|предходн*|досегашн*|"
        "първоначалн*|по-ранн*|алдыңғы|бұрынғы|бастапқы|осыған дейінгі|წინა|ადრინდელ*|თავდაპირველ*|აქამდე|նախորդ*|"
        "ավելի վաղ|սկզբնական|նախկին|մինչ այժմ|የቀድሞ|ቀዳሚ*|የቀደሙ*|ቀደም ሲል|ቀደምት|முந்தைய|முன்னர்|இதுவரையிலான|మునుపటి|"
        "ఇంతకుముందు|గతంలో|ఇంతవరకు|आधीच्या|आधीचे|पूर्वीच्या|पूर्वीचे|मागील|पहिले|पहिलेका|पहिलेको|अघिल्ला|अघिल्लो|अघिका|"
        "अघिको"
    ),
    "rules": (
        "=rules|=rule|utasítás*|szabály*|irányelv*|korlátozás*|maagizo|maelekezo|sheria|kanuni|vikwazo|دستورالعمل*|"
        "دستورات|دستورها|قوانین|قواعد|محدودیت*|tagubilin|patakaran|panuntunan|নির্দেশ*|নিয়ম|ہدایات|ہدایت|اصول|"
        "پابندیاں|zasad|directrius|pautes|restriccions|indicacions|normes|instrución*|restricións|normas|argibide*|"
        "jarraibide*|araua|arauak|arauei|arauen|murrizketa*|mugak|aginduak|upute|uputa|uputama|uputstv*|pravila|"
        "pravilima|pravilo|smjernic*|smernic*|ograničenj*|naredb*|obmedzeni*|navodil*|pravil|omejitv*|omejitev|juhis*|"
        "reegl*|eeskirj*|piirang*|suunis*|norādījum*|noteikum*|ierobežojum*|vadlīnij*|nurodym*|taisykl*|apribojim*|"
        "gairių|leiðbeining*|fyrirmæl*|reglur*|reglum|reglna|takmarkan*|cyfarwyddiad*|rheolau|canllaw*|cyfyngiad*|"
        "riglyn*|beperking*|opdragte|voorskrifte|udhëzim*|rregullat|rregullave|rregulla|kufizim*|упутств*|упуте|"
        "смерниц*|смјерниц*|ограничењ*|наредб*|упатств*|насоки|ограничувањ*|напътствия|нұсқау*|ереже*|шектеу*|"
        "ინსტრუქცი*|მითითებ*|წესი|წესებ*|შეზღუდვ*|հրահանգ*|կանոն*|սահմանափակում*|ցուցում*|መመሪያ*|የመመሪያ*|ሕጎች|ህጎች|ደንብ*|"
        "ደንቦች*|ገደብ*|ገደቦች*|ትዕዛዝ*|ትእዛዝ*|அறிவுறுத்தல்*|வழிமுறை*|விதி*|கட்டுப்பாடு*|வழிகாட்டுதல்*|கட்டளை*|సూచన*|నియమ*|"
        "నిబంధన*|ఆదేశ*|మార్గదర్శక*|పరిమితు*|सूचना|सूचनां*|मार्गदर्शक*|बंधने|निर्बंध*|प्रतिबन्ध*|बन्देज*|आदेश*"
    ),
    "system prompt": (
        "indicació del sistema|instruccions del sistema|instrucións do sistema|sistemaren prompt*|sistema prompt*|"
        "sistemaren argibide*|sistemako jarraibide*|sistemski prompt*|sustavski prompt*|sistemski upit|sustavski upit|"
        "sistemske upute|sustavske upute|sistemska uputstva|prompt sustava|prompt sistema|systémové pokyny|"
        "systémové inštrukcie|sistemski poziv|sistemska navodila|süsteemiviip*|süsteemi viip*|süsteemiprompt*|"
        "süsteemijuhis*|süsteemi juhised|sistēmas uzvedn*|sistēmas prompt*|sistēmas norādījumi|sistēmas instrukcijas|"
        "sistemos raginim*|sistemos prompt*|sistemos instrukcijos|sistemos nurodymai|kerfisfyrirmæl*|"
        "kerfisleiðbeining*|kerfisprompt*|anogwr system|anogwr y system|cyfarwyddiadau'r system|stelselopdrag*|"
        "stelselaanwysing*|stelselprompt*|sisteemprompt*|promptin e sistemit|prompti i sistemit|udhëzimet e sistemit|"
        "системски промпт*|системска упутства|системски упит|промпт система|системските инструкции|"
        "системски инструкции|системния промпт|системен промпт|системни инструкции|системните инструкции|"
        "системната подкана|жүйелік промпт*|жүйелік нұсқау*|სისტემური პრომპტ*|სისტემის პრომპტ*|სისტემური ინსტრუქცი*|"
        "համակարգային հուշում*|համակարգի հուշում*|համակարգային պրոմպտ*|համակարգային հրահանգ*|የሲስተም ፕሮምፕት|የስርዓት መመሪያ*|"
        "የሲስተም መመሪያ*|የሥርዓት መመሪያ*|சிஸ்டம் ப்ராம்ப்ட்*|சிஸ்டம் அறிவுறுத்தல்*|கணினி அறிவுறுத்தல்*|సిస్టమ్ ప్రాంప్ట్*|"
        "సిస్టమ్ సూచనలు|सिस्टीम प्रॉम्प्ट|सिस्टम सूचना|सिस्टम प्रम्प्ट|प्रणाली प्रम्प्ट"
    ),
    "from now on": (
        "ab se|aaj se|mostantól|ezentúl|mától|kuanzia sasa|tangu sasa|kuanzia leo|از این به بعد|از حالا به بعد|"
        "mula ngayon|simula ngayon|এখন থেকে|আজ থেকে|اب سے|آج سے|a partir d'ara|d'ara endavant|d'ara en endavant|"
        "des d'ara|de agora en diante|dende agora|desde agora|hemendik aurrera|aurrerantzean|od sada|od sad|odsad|"
        "ubuduće|od ovog trenutka|od ovoga trenutka|odteraz|odo dneška|od tejto chvíle|od zdaj|odslej|od zdaj naprej|"
        "od tega trenutka|v prihodnje|edaspidi|nüüdsest|sellest hetkest alates|no šī brīža|no šā brīža|no šī mirkļa|"
        "nuo šiol|nuo dabar|nuo šios akimirkos|héðan í frá|héðan af|frá og með núna|upp frá þessu|o hyn ymlaen|"
        "o hyn allan|van nou af|vanaf nou|tani e tutje|tash e tutje|prej tani|nga ky moment|од сада|од сад|убудуће|"
        "од овог тренутка|од сега|отсега|во иднина|од овој момент|отсега нататък|от сега нататък|отсега|занапред|"
        "от този момент|бұдан былай|қазірден бастап|осы сәттен бастап|ამიერიდან|ამ წუთიდან|ამ მომენტიდან|այսուհետ|"
        "այսուհետև|այսուհետեւ|այս պահից|ከአሁን ጀምሮ|ከእንግዲህ|ከአሁን በኋላ|இனிமேல்|இனி மேல்|இப்போதிலிருந்து|இப்போது முதல்|ఇకపై|"
        "ఇక నుంచి|ఇకనుంచి|ఇప్పటి నుంచి|ఇప్పటినుంచి|ఇక నుండి|ఇప్పటి నుండి|ఇకమీదట|आतापासून|यापुढे|इथून पुढे|अबदेखि|"
        "अब देखि|अब उप्रान्त|अहिलेदेखि"
    ),
    "answer": (
        "válasz*|ajánld|ajánlj|mondd|írd|jibu|majibu|pendekeza|taja|sema|mwambie|waambie|پاسخ|جواب|بگو|پیشنهاد کن|"
        "توصیه کن|sagot|sumagot|sabihin|irekomenda|banggitin|উত্তর|বলো|বলুন|সুপারিশ|بتاؤ|بتائیں|کہو|اكتب|πες|"
        "περιγράψ*|respon|responeu|respongui|respostes|recomana|recomaneu|esmenta|esmenteu|digues|digueu|escriu|"
        "escriviu|respondede|dilles|erantzun*|gomendatu|gomenda ezazu|aipatu|aipa ezazu|esaiozu|esaiezu|esaidazu|"
        "idatz ezazu|odgovor|odgovora|odgovoru|odgovori|odgovorom|odgovore|odgovorima|odgovaraj|odgovarajte|"
        "odgovorite|preporuči|preporučite|preporučuj|spomeni|spomenite|navedi|navedite|reci|=recite|kaži|kažite|"
        "napiši|napišite|odporuč*|spomeňte|uveď|uveďte|povedz|povedzte|napíšte|odgovarjaj|odgovarjajte|priporoči|"
        "priporočite|omeni|omenite|povej|povejte|vastake|vastus|vastuse|vastused|vastuseid|soovita|soovitage|mainige|"
        "ütle|öelge|kirjuta|kirjutage|atbilde|atbildi|atbildes|atbildiet|iesaki|iesakiet|piemini|pieminiet|sakiet|"
        "pasaki|pasakiet|uzraksti|uzrakstiet|atsakym*|atsakyk|atsakykite|rekomenduok|rekomenduokite|patark|patarkite|"
        "paminėk|paminėkite|pasakyk|pasakykite|parašyk|parašykite|svör|mæltu með|mælið með|nefndu|nefnið|segðu|segið|"
        "skrifaðu|skrifið|ateb*|argymell*|soniwch|dywed|dywedwch|ysgrifenna|ysgrifennwch|beveel aan|sê vir|vertel|"
        "skryf|përgjigj*|rekomando|rekomandoni|sugjero|sugjeroni|përmend|përmendni|thuaj|thuaji|thuajini|shkruaj|"
        "shkruani|одговор|одговора|одговору|одговори|одговором|одговоре|одговорима|одговарај|одговарајте|одговорите|"
        "препоручи|препоручите|спомени|спомените|наведи|наведите|реци|реците|кажите|одговорете|препорачај|"
        "препорачајте|спомни|спомнете|наведете|кажете|напишете|отговор|отговора|отговори|отговорите|отговаряй|"
        "отговаряйте|отговорете|препоръчай|препоръчвай|препоръчайте|споменавай|кажете|пиши|жауап|жауабы*|жауаптар*|"
        "жауабын|ұсын|ұсыныңыз|атап өт|атап өтіңіз|айт|айтыңыз|айтшы|жаз|жазыңыз|პასუხი|პასუხს|პასუხში|პასუხად|"
        "პასუხები|უპასუხე|უპასუხეთ|ურჩიე|ურჩიეთ|ახსენე|ახსენეთ|უთხარი|უთხარით|თქვი|თქვით|დაწერე|დაწერეთ|պատասխան|"
        "պատասխանը|պատասխանիր|պատասխանեք|պատասխանները|առաջարկիր|առաջարկեք|նշիր|նշեք|ասա|ասեք|գրիր|գրեք|መልስ|መልሱ|መልስ ስጥ|"
        "መልስ ይስጡ|ምላሽ*|ጠቁም|ይጠቁሙ|ንገር|ንገሪ|ይንገሩ|ንገራቸው|ጥቀስ|ይጥቀሱ|ጻፍ|ይጻፉ|ንገረው|ንገሪው|ንገሩት|ንገራት|பதில்*|பரிந்துரை*|குறிப்பிடு*|"
        "சொல்|சொல்லு|சொல்லுங்கள்|சொல்லவும்|கூறுங்கள்|கூறவும்|எழுது|எழுதுங்கள்|எழுதவும்|సమాధాన*|జవాబు*|బదులివ్వు|"
        "బదులివ్వండి|సిఫార్సు*|ప్రస్తావించు|ప్రస్తావించండి|చెప్పు|చెప్పండి|రాయండి|వ్రాయండి|వ్రాయి|शिफारस*|उल्लेख कर|"
        "उल्लेख करा|सांग|सांगा|लिहा|लिही|जवाफ*|सिफारिस*|उल्लेख गर*|भन|भन्नुहोस्|लेख्नुहोस्"
    ),
    "if": (
        "ha|amikor|ikiwa|kama|endapo|اگر|هر وقت|وقتی|kung|kapag|যদি|যখন|جب|cando|baldin|badu|badute|duenean|"
        "ako korisnik|ako netko|ako neko|ako kupac|ako klijent|ako te|ako vas|ako ikada|kad god|kad korisnik|kad te|"
        "kad vas|kad netko|kada god|kada korisnik|kada te|kada vas|kada netko|u slučaju da|ukoliko|ak sa|"
        "ak používateľ|ak niekto|ak ťa|ak vás|ak zákazník|keď sa|keď používateľ|keď niekto|pokiaľ|kadar koli|"
        "v primeru da|če uporabnik|če kdo|če te|če vas|če stranka|kui|gadījumā ja|ja lietotājs|ja kāds|ja tev|ja jums|"
        "ja klients|jei|jeigu|kai naudotojas|kai vartotojas|kai kas nors|ef|þegar|os bydd|os yw|os oes|"
        "as die gebruiker|as iemand|as jy|nëse|ако|кад|када|уколико|кога|доколку|когато|в случай че|егер|თუ|როცა|"
        "როდესაც|եթե|երբ|ከሆነ|ቢጠይቅ*|ቢጠይቁ*|ሲጠይቅ*|ሲጠይቁ*|என்றால்|எனில்|கேட்டால்|கேட்கும்போது|ఒకవేళ|అడిగితే|అడిగినప్పుడు|"
        "जर|जेव्हा|भने|सोधेमा"
    ),
    "ask": (
        "kérdez*|akiuliza|anauliza|atauliza|uliza*|پرسید|بپرسد|میپرسد|magtanong|nagtanong|tanungin|জিজ্ঞেস*|پوچھے|"
        "پوچھتا|demana|demanen|demani|galdetzen|galdetu*|galdera*|pita|pitaju|pitao|pitala|upita|upitaju|zapita*|"
        "postavi pitanje|opýta*|spýta*|vpraša*|küsib|küsivad|küsimus*|jautā*|pajautā*|vaicā*|klausia|klausimą|paklaus|"
        "paklaustų|paklausė|spyr|spyrja|spyrji|spurning*|spurði|gofyn*|vra|pyet*|упита|упитају|праша*|прашува*|"
        "попита*|сұра*|იკითხავს|ეკითხება|ჰკითხავს|გკითხავს|გკითხავთ|შეკითხვ*|հարցն*|հարց|հարցը|հարցեր*|ቢጠይቅ*|ቢጠይቁ*|"
        "ሲጠይቅ*|ሲጠይቁ*|ይጠይቃል|ይጠይቃሉ|ጥያቄ*|கேட்டால்|கேட்கும்போது|கேட்கிறார்|கேட்பார்|கேள்வி*|అడిగితే|అడిగినప్పుడు|"
        "అడుగుతారు|అడుగుతాడు|అడుగుతుంది|ప్రశ్న*|विचारल्यास|विचारले|विचारला|विचारतो|विचारते|विचारतात|विचारेल|सोध*"
    ),
    "audience": (
        "felhasználó*|valaki|ügyfél*|mtumiaji|watumiaji|mteja|کاربر|مشتری|کسی|gumagamit|ব্যবহারকারী|গ্রাহক|صارف|گاہک|"
        "usuari*|=client*|alguén|erabiltzaile*|norbait*|bezero*|korisnik*|netko|nekoga|nekome|klijent*|kupac|kupca|"
        "kupcu|používateľ*|niekto|niekoho|niekomu|uporabnik*|nekoga|nekomu|kasutaja*|keegi|kliend*|lietotāj*|kāds|"
        "naudotoj*|vartotoj*|kažkas|notandi|notandinn|notandann|notanda|notandanum|notendur|notendum|einhver|einhvern|"
        "einhverjum|einhvers|viðskiptavin*|defnyddiwr*|defnyddwyr|ddefnyddiwr*|ddefnyddwyr|rhywun|cwsmer*|gwsmer*|"
        "përdorues*|dikush|dikujt|корисник*|неко|некога|некоме|клијент*|купац|купца|купцу|некој|купувач*|потребител*|"
        "някой|пайдаланушы*|қолданушы*|біреу*|тұтынушы*|მომხმარებ*|ვინმე|კლიენტ*|օգտատեր*|օգտվող*|որևէ մեկը|"
        "ինչ-որ մեկը|հաճախորդ*|օգտատիր*|ተጠቃሚ*|የተጠቃሚ*|ደንበኛ*|አንድ ሰው|ማንም|ለተጠቃሚ*|பயனர்*|யாராவது|வாடிக்கையாளர்*|"
        "వినియోగదారు*|యూజర్*|ఎవరైనా|కస్టమర్*|ఖాతాదారు*|वापरकर्ता*|वापरकर्त्या*|कोणी|कोणीतरी|ग्राहक*|प्रयोगकर्ता*|"
        "कसैले|कोही|ग्राहक*"
    ),
    "role": (
        "rendszergazda*|fejlesztő*|adminisztrátor*|üzemeltető*|msimamizi|msanidi|watengenezaji|مدیر سیستم|توسعه دهنده|"
        "توسعهدهنده|تیم توسعه|ادمین|tagapangasiwa|অ্যাডমিন|ডেভেলপার|প্রশাসক|منتظم|ڈویلپر|ایڈمن|команды разработчиков|"
        "команда разработчиков|yöneticisiyim|desenvolupador*|administratzaile*|garatzaile*|razvojni tim|"
        "razvojnog tima|programer*|operater*|správca*|prevádzkovateľ*|skrbnik*|razvijalec|razvijalci|razvijalca|"
        "administraator*|arendaja*|izstrādātāj*|kūrėj*|programuotoj*|kerfisstjór*|forritar*|þróunaraðil*|gweinyddwr*|"
        "weinyddwr*|datblygwr*|ddatblygwr*|stelselbestuurder*|zhvillues*|програмер*|развојни тим|оператер*|програмер*|"
        "програмист*|әкімші*|әзірлеуші*|бағдарламашы*|ადმინისტრატორ*|დეველოპერ*|შემქმნელ*|ოპერატორ*|ադմինիստրատոր*|"
        "ադմին|մշակող*|ծրագրավորող*|አስተዳዳሪ*|ገንቢ*|நிர்வாகி*|டெவலப்பர்*|உருவாக்குநர்*|నిర్వాహకు*|అడ్మిన్*|డెవలపర్*|"
        "प्रशासक*|डेव्हलपर*|विकसक*|विकासकर्ता*|डेभलपर*"
    ),
    "unlock": (
        "korlátozás nélkül|kapcsold ki|letilt*|jogosult*|felfed*|mutasd|bila vikwazo|ondoa vikwazo|ruhusa|fichua|"
        "onyesha|بدون محدودیت|غیرفعال کن|مجاز|فاش کن|نشان بده|walang limitasyon|pinahihintulutan|ibunyag|ipakita|"
        "সীমাবদ্ধতা ছাড়া|অনুমতি|প্রকাশ কর*|بغیر کسی پابندی|اجازت|ظاہر کرو|отключ*|полными правами|полные права|"
        "kaldırıldı|kaldır*|tam yetki|sense restriccions|sense límits|sense filtres|sense advertències|autoritzat*|"
        "sen restricións|sen límites|sen filtros|sen avisos|amosa|amósame|murrizketarik gabe|mugarik gabe|"
        "iragazkirik gabe|abisurik gabe|desgaitu|ezgaitu|baimen*|erakutsi|agerian utzi|bez ograničenja|"
        "bez ikakvih ograničenja|bez filtera|bez filtara|bez upozorenja|bez cenzure|isključi|isključite|onemogući|"
        "onemogućite|deaktiviraj|deaktivirajte|ovlast*|dozvoljeno|dopušteno|otkrij|otkrijte|pokaži|pokažite|prikaži|"
        "prikažite|bez obmedzení|bez filtrov|bez upozornení|bez varovaní|vypnite|deaktivuj|deaktivujte|prezraď|"
        "prezraďte|odhaľ|odhaľte|ukážte|zobraz|zobrazte|povolen*|brez omejitev|brez filtrov|brez opozoril|izklopi|"
        "izklopite|onemogoči|onemogočite|pooblaščen*|dovoljen*|razkrij|razkrijte|pokaži|pokažite|prikaži|prikažite|"
        "ilma piiranguteta|piiranguteta|ilma filtriteta|ilma hoiatusteta|lülita välja|lülitage välja|keela|keelake|"
        "volitatud|volitus*|paljastage|näidake|bez ierobežojumiem|bez filtriem|bez brīdinājumiem|izslēdz|izslēdziet|"
        "atspējo|atspējojiet|pilnvarot*|autorizēt*|atļauts|atļauja|atklāj|atklājiet|parādi|parādiet|be apribojimų|"
        "be filtrų|be įspėjimų|išjunk|išjunkite|deaktyvuok|įgaliot*|autorizuot*|leidžiama|leidimas|atskleisk|"
        "atskleiskite|parodyk|parodykite|án takmarkana|án sía|án viðvarana|slökktu á|slökkvið á|heimilað*|heimilt|"
        "afhjúpaðu|sýndu|sýnið|heb gyfyngiadau|heb gyfyngiad|heb hidlwyr|heb rybuddion|analluoga|analluogwch|diffodd|"
        "awdurdodedig|caniatâd|ganiatâd|datgela|datgelwch|dangos|dangoswch|sonder beperkings|sonder filters|"
        "sonder waarskuwings|deaktiveer|skakel af|gemagtig*|wys|pa kufizime|pa kufizim|pa filtra|pa paralajmërime|"
        "çaktivizo|çaktivizoni|i autorizuar|e autorizuar|autorizuar|zbulo|zbuloni|trego|tregoni|shfaq|shfaqni|"
        "без ограничења|без икаквих ограничења|без филтера|без упозорења|искључи|искључите|онемогући|онемогућите|"
        "деактивирај|деактивирајте|овлашћен*|овлаштен*|дозвољено|откриј|откријте|покажите|прикажи|прикажите|"
        "без ограничувања|без филтри|без предупредувања|исклучи|исклучете|оневозможи|оневозможете|овластен*|"
        "овластувањ*|покажете|без ограничения|без никакви ограничения|без филтри|без предупреждения|изключи|изключете|"
        "деактивирай|деактивирайте|упълномощен*|оторизиран*|разкрий|разкрийте|покажете|шектеусіз|шектеулерсіз|"
        "сүзгісіз|ескертусіз|өшір|өшіріңіз|рұқсат*|өкілетті|көрсет|көрсетіңіз|ашып көрсет|შეზღუდვების გარეშე|"
        "შეზღუდვის გარეშე|ფილტრების გარეშე|გაფრთხილებების გარეშე|გათიშე|გათიშეთ|გამორთე|გამორთეთ|ავტორიზებულ*|"
        "უფლებამოსილ*|ნებართვ*|გაამჟღავნე|გამოაჩინე|მაჩვენე|აჩვენე|აჩვენეთ|առանց սահմանափակումների|"
        "առանց սահմանափակման|առանց ֆիլտրերի|առանց զգուշացումների|անջատիր|անջատեք|լիազորված|թույլատրված|"
        "թույլտվություն*|բացահայտիր|բացահայտեք|ցույց տուր|ցույց տվեք|ያለ ገደብ|ገደብ የለሽ|ያለ ማጣሪያ|ያለ ማስጠንቀቂያ|አጥፋ|አሰናክል|"
        "ያሰናክሉ|የተፈቀደ*|ፈቃድ|ፍቃድ|ግለጥ|ግለጽ|አሳይ|ያሳዩ|கட்டுப்பாடுகள் இல்லாமல்|கட்டுப்பாடு இல்லாமல்|வரம்புகள் இல்லாமல்|"
        "வடிகட்டி இல்லாமல்|எச்சரிக்கை இல்லாமல்|முடக்கு|முடக்கவும்|அங்கீகரிக்கப்பட்ட|அனுமதி*|வெளிப்படுத்து*|காட்டவும்|"
        "காட்டுங்கள்|காண்பி|காண்பிக்கவும்|పరిమితులు లేకుండా|ఆంక్షలు లేకుండా|ఫిల్టర్లు లేకుండా|హెచ్చరికలు లేకుండా|"
        "నిలిపివేయి|నిలిపివేయండి|అధికృత*|అనుమతి*|బహిర్గతం చేయి|బహిర్గతం చేయండి|చూపించు|చూపించండి|निर्बंधांशिवाय|"
        "मर्यादेशिवाय|मर्यादांशिवाय|फिल्टरशिवाय|परवानगी|उघड कर|उघड करा|दाखव|दाखवा|प्रतिबन्धबिना|प्रतिबन्ध बिना|"
        "सीमाबिना|फिल्टरबिना|चेतावनीबिना|निष्क्रिय गर*|खुलासा गर*|देखाउ|देखाउनुहोस्"
    ),
    "agent": (
        "τεχνητή νοημοσύνη|τεχνητής νοημοσύνης|pomočnik*|pomočniku|உதவியாளர*|비서*|pembantu|সহকারী*|asistentam|"
        "asistents|asystent*|mratibu|помічник*|помощник*|asszisztens*|mesterséges intelligencia*|ai-asszisztens*|"
        "msaidizi|akili bandia|دستیار|هوش مصنوعی|katulong|সহকারী|এআই|কৃত্রিম বুদ্ধিমত্তা|اسسٹنٹ|معاون|مصنوعی ذہانت|"
        "النموذج|نموذج*|intel·ligència artificial|intelixencia artificial|laguntzaile*|adimen artifiziala|"
        "adimen artifizialak|umjetna inteligencija|umjetne inteligencije|umjetnu inteligenciju|"
        "vještačka inteligencija|vještačke inteligencije|veštačka inteligencija|veštačke inteligencije|"
        "umelá inteligencia|umelej inteligencie|umelú inteligenciu|umetna inteligenca|umetne inteligence|"
        "umetno inteligenco|abiline|abilise|abilisele|tehisintellekt*|tehisaru|palīgs|palīgam|palīgu|palīga|"
        "mākslīgais intelekts|mākslīgā intelekta|mākslīgajam intelektam|padėjėj*|dirbtinis intelektas|"
        "dirbtinio intelekto|dirbtiniam intelektui|aðstoðarmað*|gervigreind*|spjallmenni*|cynorthwyydd|gynorthwyydd|"
        "deallusrwydd artiffisial|kunsmatige intelligensie|inteligjenca artificiale|inteligjencë artificiale|"
        "inteligjencës artificiale|помоћник*|вештачка интелигенција|вештачке интелигенције|вјештачка интелигенција|"
        "помошник*|вештачката интелигенција|изкуствен интелект|изкуственият интелект|изкуствения интелект|көмекші*|"
        "жасанды интеллект*|ასისტენტ*|ხელოვნური ინტელექტ*|օգնական*|ասիստենտ*|արհեստական բանականություն*|"
        "արհեստական բանականության|ረዳት*|ሰው ሰራሽ አስተውሎት|ሰው ሰራሽ ብልህነት|አርቴፊሻል ኢንተለጀንስ|செயற்கை நுண்ணறிவு*|సహాయకు*|"
        "అసిస్టెంట్*|కృత్రిమ మేధ*|सहाय्यक*|कृत्रिम बुद्धिमत्ता|एआय"
    ),
    "you": (
        "te|neked|téged|önnek|wewe|yako|zako|تو|شما|ikaw|iyong|তুমি|আপনি|তোমার|আপনার|آپ|تمہارے|váš|=vaše|vašeho|"
        "vašemu|vás|vaš|vaša|vašem|teus|vostè|vostre|vostra|vostres|vosaltres|vostede|vostedes|zuk|zure|zuretzat|tebi|"
        "tebe|vašeg|teba|tebou|vy|vami|teie|teid|tev|tevi|tavs|jums|jūsu|tave|tavo|þú|þig|þér|þinn|þín|þitt|þína|"
        "þinni|þínum|þið|ykkur|dy|eich|chdi|jy|jou|julle|juaj|теби|твој*|вам|вас|ви|вие|твоја|теб|твоя|твоят|твоите|"
        "вие|сен|сіз|саған|сізге|сені|сізді|сенің|сіздің|сендер|сіздер|შენ|თქვენ|შენი|თქვენი|შენს|თქვენს|შენთვის|"
        "თქვენთვის|դու|դուք|քո|ձեր|քեզ|ձեզ|አንተ|አንቺ|እርስዎ|እናንተ|ለአንተ|ያንተ|የአንተ|ለእርስዎ|የእርስዎ|நீ|நீங்கள்|உன்|உங்கள்|உனக்கு|"
        "உங்களுக்கு|உன்னை|உங்களை|உன்னுடைய|உங்களுடைய|నువ్వు|నీవు|మీరు|మీ|నీ|మీకు|నీకు|నిన్ను|మిమ్మల్ని|तू|तुम्ही|तुमचे|"
        "तुमच्या|तुमचा|तुमची|तुला|तुम्हाला|तुझे|तुझ्या|तुझा|तुझी|तिमी*|तपाई*|तिम्रो|तिम्रा"
    ),
    "send": (
        "küldje*|küldjék|αντέγραψε|υπόβαλε|υπόβαλέ|同步至|同步到|上传至|上传到|上傳至|上傳到|перешліть|надішліть|перешлите|отправьте|"
        "пришлите|küldd*|továbbít*|tuma|peleka|بفرست|ارسال کن|ipadala|magpadala|পাঠাও|পাঠান|بھیجو|بھیجیں|paylaş*|"
        "envieu|transmet|transmeteu|remet|remeteu|bidal*|birbidal*|pošalj*|proslijed*|prosled*|poslaću|šalji|šaljite|"
        "pošlem|odošl*|odosl*|prepošlite|pošlji|pošljite|pošljem|posreduj|posredujte|saatke|saada mulle|saada edasi|"
        "saadan|edasta|edastage|edastan|saada kogu|saada kõik|saada need|nosūt*|pārsūt*|sūtiet|siųsk|siųskite|išsiųs*|"
        "persiųs*|nusiųs*|sendu|sendið|áframsendu|áframsendið|mun senda|anfon*|danfon*|blaenyrra|blaenyrrwch|aanstuur|"
        "dërgo*|ridërgo*|përcill*|пошаљи|пошаљите|проследите|прослиједите|пошаљем|послаћу|шаљи|шаљите|испрат*|"
        "препрат*|изпрат*|препрат*|изпращай|изпращайте|жібер*|жолдаңыз|გაგზავნ*|გადააგზავნე|გადაგზავნ*|გავგზავნი|"
        "გაუგზავნე|ուղարկ*|փոխանցիր|փոխանցեք|ላክ|ላኪ|ይላኩ|ላኩ|እልካለሁ|አስተላልፍ|ያስተላልፉ|அனுப்ப*|முன்னனுப்பு*|పంప*|पाठव*|पठाउ*|"
        "पठाइ*"
    ),
    "data": (
        "beszélgetés*|előzmény*|adat*|mazungumzo|historia|taarifa|تاریخچه|گفتگو|مکالمه|اطلاعات|داده*|kasaysayan|"
        "usapan|pag-uusap|datos|কথোপকথন|ইতিহাস|তথ্য|گفتگو|معلومات|bilgi*|converses|dades|contrasenya*|=memòries|"
        "fitxers|missatges|correus|contrasinal*|ficheiros|mensaxes|elkarrizketa*|datuak|datuen|pasahitz*|fitxategi*|"
        "mezuak|solasaldi*|povijest*|istorij*|razgovor*|podaci|podatke|podataka|podacima|lozink*|datoteke|datoteka|"
        "poruke|sjećanja|sećanja|rozhovor*|súbory|správy|pamäť|zgodovin*|pogovor*|podatke|podatkov|podatkih|geslo|"
        "gesla|gesel|geslom|datotek*|sporočil*|spomine|spomini|ajalugu|ajaloo|vestlus*|andmed|andmeid|andmete|parool*|"
        "failid|faile|sõnumid|sõnumeid|vēsture|vēsturi|sarakste|saruna|sarunu|sarunām|datus|faili|failus|ziņas|"
        "ziņojumi|istorij*|pokalb*|duomen*|slaptažod*|failai|failus|žinut*|laiškus|laiškai|laiškų|spjallferil*|"
        "samtöl*|gögn|gögnin|gögnum|lykilorð*|skrár|skrárnar|skilaboð*|tölvupóst*|minningar|hanes|sgwrs|sgyrsiau|"
        "cyfrinair|gyfrinair|cyfrineiriau|ffeiliau|negeseuon|geskiedenis|gegewens|wagwoord*|lêers|boodskappe|bisedë|"
        "bisedat|bisedave|biseda|të dhëna|të dhënat|fjalëkalim*|skedar*|mesazh*|подаци|податке|података|лозинк*|"
        "датотек*|поруке|порука|сећања|сјећања|податоци|податоците|пораки|пораките|данни|данните|файлове|файловете|"
        "съобщения|съобщенията|спомени|кореспонденция|тарих*|әңгіме*|сөйлесу*|хат алмасу|деректер*|мәлімет*|"
        "құпия сөз*|құпиясөз*|файлдар*|хабарлама*|ისტორი*|საუბარ*|საუბრ*|მიმოწერ*|მონაცემ*|პაროლ*|ფაილ*|შეტყობინებ*|"
        "պատմություն*|զրույց*|խոսակցություն*|տվյալ*|գաղտնաբառ*|ֆայլ*|հաղորդագրություն*|նամակ*|ታሪክ*|ውይይት*|መረጃ*|"
        "የይለፍ ቃል*|ፋይል*|መልዕክት*|መልእክት*|የውይይት*|வரலாறு|வரலாற்றை|உரையாடல்*|தரவு*|தரவை|கடவுச்சொல்*|கோப்பு*|செய்தி|"
        "செய்திகள்*|செய்தியை|చరిత్ర*|సంభాషణ*|డేటా|సమాచార*|పాస్వర్డ్*|పాస్ వర్డ్*|ఫైల్*|సందేశ*|संभाषण*|माहिती|फाइल*|"
        "फाईल*|कुराकानी*|डाटा|फाइल*|सन्देश*|जानकारी"
    ),
    "dest": (
        "cím*|anwani|barua pepe|آدرس|نشانی|ঠিকানা|پتہ|ایڈریس|adreça|adreces|enderezo*|helbide*|na naslov|e-naslov*|"
        "aadress*|netfang*|heimilisfang*|cyfeiriad*|gyfeiriad*|мекенжай*|მისამართ*|հասցե*|አድራሻ*|முகவரி*|చిరునామా*|"
        "అడ్రస్*|पत्ता|पत्त्यावर|पत्यावर|ठेगाना*"
    ),
    "every": (
        "minden|összes|kila|yote|zote|همه|هر|bawat|lahat|প্রতিটি|সব|تمام|=totes|tots|guzti*|bakoitz*|denak|svaki|"
        "svaka|svako|svakog|svakom|svakoj|svaku|svakim|svakome|svi|svih|svim|svima|všetk*|vsako|vsakem|vsaki|vsakega|"
        "vsakemu|vse|vsi|vseh|vsem|iga|igas|igale|kõik|kõiki|kõigile|kõigis|kõigi|katrs|katru|katrā|katram|katrai|"
        "kiekvien*|hverja|hverju|hverri|öll|allar|allir|öllum|pob|pawb|i gyd|al die|çdo|të gjitha|të gjithë|свак*|сви|"
        "све|свих|свим|секој|секоја|секое|сите|всеки|всяка|всяко|всички|әр|әрбір|барлық|бүкіл|ყველა|ყოველ|ყოველი|"
        "თითოეულ*|յուրաքանչյուր|ամեն|բոլոր|እያንዳንዱ*|እያንዳንድ|ሁሉ*|ஒவ்வொரு|எல்லா|அனைத்து|அனைத்தும்|எல்லாம்|ప్రతి|ప్రతీ|"
        "అన్ని|అందరూ|सर्व|सगळे|सगळ्या|सर्वच|हरेक|सबै"
    ),
    "always": (
        "mindig|soha|kila mara|daima|kamwe|همیشه|هرگز|palagi|সবসময়|ہمیشہ|mai més|xamais|beti|inoiz ez|ez inoiz|"
        "uvijek|uvek|nikad|nikada|vedno|zmeraj|vselej|alati|mitte kunagi|vienmēr|visada|visuomet|niekada|alltaf|"
        "ávallt|aldrei|bob amser|wastad|byth|altyd|gjithmonë|përherë|kurrë|увијек|увек|никад|никада|секогаш|никогаш|"
        "винаги|никога|әрқашан|үнемі|ешқашан|әрдайым|ყოველთვის|მუდამ|არასდროს|არასოდეს|միշտ|երբեք|ሁልጊዜ|ሁሌም|ዘወትር|ሁል ጊዜ|"
        "በጭራሽ|எப்போதும்|எப்பொழுதும்|ஒருபோதும்|ఎల్లప్పుడూ|ఎప్పుడూ|ఎల్లవేళలా|नेहमी|नेहमीच|सदैव|सधैं|सधैँ|कहिल्यै"
    ),
    "reading": (
        "relit|relis|relisez|összefoglal*|olvas*|feldolgoz*|anayesoma|unayesoma|muhtasari|anayefupisha|میخواند|خلاصه|"
        "nagbabasa|nagbubuod|buod|পড়ছে|সারসংক্ষেপ|پڑھ رہا|خلاصہ|περιγράφ*|=describe|décrit|beschreibt|descrive|"
        "descreve|beschrijft|opisuje|beskriver|kuvailee|popisuje|descrie|tanımlayan|описывает|описує|يصف|מתאר|"
        "mendeskripsikan|mô tả|อธิบาย|描述|説明|설명*|llegeix|llegint|resumeix|resumint|processa|processant|irakurtzen|"
        "laburbiltzen|laburtzen|prozesatzen|koji čita|koja čita|što čita|čitajući|čitaš ovo|sažima|sažimaš|obrađuje|"
        "obrađuješ|ktorý číta|ktorá číta|čítajúc*|zhŕňa|spracúva|spracováva|ki bere|povzema|obdeluje|loeb|loed|"
        "töötleb|töötled|kas lasa|apkopo|apstrādā|skaito|skaitai|apibendrina|apdoroja|ert að lesa|sem les|"
        "dregur saman|vinnur úr|darllen|ddarllen|crynhoi|grynhoi|prosesu|brosesu|=lees|verwerk|som op|opsom|lexon|"
        "lexoni|përmbledh|përpunon|чита|читаш|читајући|сажима|обрађује|обрађујеш|читаш|сумира|обработува|чете|четеш|"
        "обобщава|обработва|оқып жатқан|оқиды|оқисың|оқисыз|өңдейді|კითხულობ*|აჯამებ*|ამუშავებ*|կարդում|կարդացող|"
        "ամփոփում|մշակում|የሚያነብ*|ያነባል|ታነባለህ|የሚያጠቃልል|படிக்கும்|படிக்கிறாய்|படிக்கிறீர்கள்|வாசிக்கும்|சுருக்கும்|"
        "செயலாக்கும்|చదువుతున్న|చదువుతోంది|చదువుతున్నావు|సంగ్రహించే|वाचत|वाचणारा|वाचणाऱ्या|पढ्दै|पढिरहेको|पढ्ने"
    ),
    "must": (
        "kell|köteles|lazima|unapaswa|inabidi|باید|kailangan|অবশ্যই|لازمی|ضرور|has de|heu de|ha de|cal que|hauràs de|"
        "hauries de|tes que|ten que|tedes que|behar duzu|beharko duzu|nahitaez|derrigorrez|moraš|morate|mora|moraju|"
        "moraćeš|trebaš|trebate|obavezno|dužan si|dužni ste|musíš|musíte|si povinný|ste povinní|povinne|morajo|"
        "obvezno|dolžan si|pead|peate|peab|kohustatud|obligāti|tev jā*|jums jā*|privalai|privalote|privalo|turi|"
        "turite|þú verður|þarft að|þarftu að|skalt|skaltu|átt að|ber að|rhaid|dylet|dylech|verplig|duhet|detyrohesh|"
        "detyrohet|patjetër|мораш|морате|мора|морају|треба да|требаш|обавезно|дужан си|дужни сте|задолжително|трябва|"
        "длъжен си|длъжни сте|задължително|тиіс|тиіссің|тиіссіз|міндетті|керек|უნდა|ვალდებული|აუცილებლად|պետք է|"
        "պարտավոր|պարտադիր|አለብህ|አለብሽ|አለብዎት|አለባችሁ|አለበት|ግዴታ|வேண்டும்|கட்டாயம்|கட்டாயமாக|తప్పక|తప్పనిసరిగా|తప్పనిసరి|"
        "చేయాలి|చెప్పాలి|ఇవ్వాలి|పంపాలి|पाहिजे|अनिवार्यपणे|करावे लागेल|-नुपर्छ|-नुपर्नेछ|पर्छ|अनिवार्य"
    ),
    "conceal": (
        "ne szólj|ne mondd el|bila kumwambia|usimwambie|bila kumjulisha|به کاربر نگو|بدون اطلاع|پنهان کن|"
        "nang hindi sinasabi|huwag sabihin|না জানিয়ে|بتائے بغیر|مت بتانا|не сообщайте|не сообщать|tanpa memberitahu*|"
        "tanpa sepengetahuan|bi‌سروصدا|بی سروصدا|خاموشی سے|nem szólok|без да казвам|без да питам|知らせない|伝えない|알리지 않*|"
        "không báo|ohne dich zu informieren|sem te avisar|sin avisarte|sans te prévenir|ne demek|не сказав|"
        "не говорячи|без ведома|bez vědomí|bez wiedzy|sense dir-ho|sense dir-li|sense avisar|sense informar|"
        "sense que ho sàpiga|no li diguis|no els diguis|no ho diguis|d'amagat|en secret|sen avisar|sen dicirllo|"
        "non llo digas|non lle digas|non lles digas|agocha|en segredo|ás agachadas|esan gabe|jakinarazi gabe|isilpean|"
        "ezkutuan|ez esan|ezkutatu|a da ne kažeš|a da ne kažete|bez obavještavanja|bez obaveštavanja|ne govori|"
        "nemoj reći|nemoj mu reći|nemoj joj reći|nemojte reći|ne spominji|sakrij|sakrijte|potajno|u tajnosti|"
        "bez znanja|bez toho aby si|bez vedomia|nehovor|nehovorte|nespomínaj|skry|potajomky|ne da bi povedal|"
        "brez vednosti|ne povej|skrij|skrijte|na skrivaj|skrivoma|potihoma|ütlemata|teatamata|ära ütle|ärge öelge|"
        "ära räägi|varjake|salaja|nesakot|nepasakot|neinformējot|nesaki|nesakiet|nestāsti|paslēp|noslēp|slepeni|"
        "nemanāmi|nesakydamas|nesakydama|nepasakęs|nepranešdamas|nepranešus|nesakyk|nesakykite|paslėpk|slaptai|"
        "nežinant|án þess að segja|án þess að láta vita|ekki segja|segðu ekki|leyndu|í laumi|á laun|í leyni|"
        "heb ddweud|heb sôn|heb roi gwybod|paid â dweud|peidiwch â dweud|cuddia|cuddiwch|sonder om te sê|"
        "sonder om te vertel|moenie sê nie|moenie vertel nie|versteek|verberg|stilletjies|in die geheim|"
        "sonder om die gebruiker|pa i treguar|pa e treguar|pa treguar|pa njoftuar|pa i thënë|mos i trego|mos i thuaj|"
        "mos trego|fshih|fshihe|fshehurazi|në fshehtësi|а да не кажеш|а да не кажете|немој рећи|немој му рећи|"
        "немојте рећи|сакриј|сакријте|потајно|у тајности|без знања|без обавештавања|без да кажеш|без да кажете|"
        "не кажувај|скриј|скријте|потајно|без знаење|без да казваш|без да казвате|без да кажеш|не казвай|не му казвай|"
        "не им казвай|скрий|скрийте|скришом|без знанието|без да знае|айтпай|айтпастан|ескертпей|хабарламай|айтпа|"
        "айтпаңыз|жасыр|жасырыңыз|білдірмей|უთქმელად|შეუტყობინებლად|გაუფრთხილებლად|ნუ ეტყვი|არ უთხრა|არ უთხრათ|დამალე|"
        "დამალეთ|ფარულად|მალულად|առանց ասելու|առանց տեղեկացնելու|առանց զգուշացնելու|մի ասա|մի ասեք|թաքցրու|թաքցրեք|"
        "աննկատ|ሳትነግር|ሳይነግሩ|ሳትነግረው|አትንገር|አትንገሪ|አይንገሩ|ደብቅ|ይደብቁ|በሚስጥር|በድብቅ|ሳያውቅ|சொல்லாமல்|தெரிவிக்காமல்|அறிவிக்காமல்|"
        "சொல்லாதே|சொல்ல வேண்டாம்|மறைக்கவும்|ரகசியமாக|இரகசியமாக|చెప్పకుండా|తెలియజేయకుండా|చెప్పకు|చెప్పవద్దు|చెప్పకండి|"
        "దాచు|దాచండి|రహస్యంగా|గుట్టుగా|न सांगता|कळवल्याशिवाय|सांगितल्याशिवाय|सांगू नकोस|सांगू नका|लपव|लपवा|गुप्तपणे|"
        "गुपचूप|नभनी|नभनीकन|जानकारी नदिई|नभन|नभन्नुहोस्|लुकाउ|लुकाउनुहोस्|गोप्य रूपमा"
    ),
    "secret": (
        "jelszó*|jelszav*|kódot|kódod|kódját|kódja|kódokat|kódszám*|nenosiri|nywila|msimbo|رمز عبور|کد|পাসওয়ার্ড|পিন|"
        "پاس ورڈ|کوڈ|סיסמ*|הסיסמ*|הקוד|contrasenya*|contrasinal*|pasahitz*|lozink*|kod za provjeru|verifikacijski kod|"
        "jednokratni kod|geslo|gesla|gesel|geslom|parool*|salasõna*|slaptažod*|lykilorð*|aðgangsorð*|cyfrinair|"
        "gyfrinair|chyfrinair|cyfrineiriau|wagwoord*|fjalëkalim*|лозинк*|пин|парол*|құпия сөз*|құпиясөз*|პაროლ*|"
        "პინ-კოდ*|գաղտնաբառ*|የይለፍ ቃል*|ፒን|கடவுச்சொல்*|ஓடிபி|పాస్వర్డ్*|పాస్ వర్డ్*|పిన్|ओटीपी"
    ),
    "request": (
        "kérd*|omba|muombe|waombe|بخواه|درخواست کن|hingin|humingi|চাও|চান|مانگو|לבקש|demana li|demaneu li|demana ls|"
        "demaneu los|sol·licita li|eskatu iezaiozu|eskatu iezaiezu|eska iezaiozu|eska iezaiezu|zatraži|zatražite|"
        "zamoli|zamolite|požiadaj|požiadajte|vyžiadaj|vyžiadajte|vypýtaj si|zahtevaj|zahtevajte|prosi|küsige|nõudke|"
        "paluge|palūdz|palūdziet|pieprasi|pieprasiet|paprašyk*|prašyk|reikalauk*|biddu um|biðjið um|krefstu|krefjist|"
        "gofynnwch am|gofyn am|gofynna am|vra vir|versoek|kërko|kërkoni|kërkoji|kërkojini|затражи|затражите|замоли|"
        "замолите|побарај|побарајте|поискай|поискайте|изискай|сұраңыз|сұрап ал|талап ет|талап етіңіз|მოსთხოვე|"
        "მოსთხოვეთ|სთხოვე|სთხოვეთ|ჰკითხე|խնդրիր|խնդրեք|պահանջիր|պահանջեք|ጠይቅ|ጠይቂ|ይጠይቁ|ጠይቋቸው|கேளுங்கள்|கேட்கவும்|"
        "கோருங்கள்|கோரவும்|అడగండి|అడుగండి|కోరండి|मागा|मागून घ्या|विचारा|माग|माग्नुहोस्"
    ),
    # "cancelled, revoked": earlier rules declared void only with "earlier" beside them
    # ("the restrictions for the guest network were lifted" is an admin's news)
    "cancelled": (
        "anulad*|cancelad*|annulé*|aufgehoben|annullat*|zrušen*|anulowan*|upphäv*|ophævet|opphevet|peruttu|"
        "iptal edildi|ακυρώθηκαν|ألغيت|أُلغيت|בוטלו|रद्द|dibatalkan|bị hủy|ยกเลิก|已取消|취소*|বাতিল|منسوخ|لغو شد|atcelt*|"
        "razveljavljen*|поништен*|отменени|отменен*|отменяются|аннулирован*|скасован*"
    ),
    "never": (
        "soha|kamwe|usiwahi|هرگز|kailanman|কখনো না|کبھی نہیں|mai més|mai no|xamais|inoiz|sekula|sekulan|nikad|nikada|"
        "nipošto|nikoli|nikdar|mitte kunagi|ära kunagi|ärge kunagi|iial|ealeski|nekad|niekada|niekados|niekuomet|"
        "aldrei|byth|fyth|erioed|kurrë|никад|никада|нипошто|никогаш|никога|ешқашан|არასდროს|არასოდეს|երբեք|በጭራሽ|ፈጽሞ|"
        "መቼም|ஒருபோதும்|ఎన్నటికీ|ఎప్పటికీ|कधीही|कधीच|कहिल्यै|कदापि"
    ),
    # an address outside: where data goes that is not the user's
    "outside": (
        "dirección externa|correo externo|adresse externe|externe adresse|externe e-mail*|indirizzo esterno|"
        "endereço externo|extern adres|zewnętrzny adres|adres zewnętrzny|externí adres*|adresă externă|harici adres*|"
        "dış adres*|внешний адрес|внешнюю почту|зовнішню адресу|зовнішню пошту|εξωτερική διεύθυνση|عنوان خارجي|"
        "כתובת חיצונית|बाहरी पते|alamat luar|alamat eksternal|địa chỉ bên ngoài|ที่อยู่ภายนอก|外部地址|外部邮箱|外部郵箱|外部アドレス|"
        "外部のアドレス|외부 주소|külső cím*|anwani ya nje|آدرس بیرونی|آدرس خارجی|panlabas na address|বাহ্যিক ঠিকানা|"
        "بیرونی ای میل|بیرونی پتے|външна адреса|външния адрес|ekstern adresse|extern adress|ulkoinen osoite|"
        "adreça externa|correu extern|enderezo externo|kanpoko helbide*|vanjsku adresu|vanjska adresa|vanjske adrese|"
        "vanjskoj adresi|spoljnu adresu|spoljna adresa|eksternu adresu|eksterna adresa|externú adresu|externá adresa|"
        "vonkajšiu adresu|zunanji naslov|zunanji e-naslov|zunanjo e-pošto|välisaadress*|väline aadress|"
        "välisele aadressile|ārējo adresi|ārēja adrese|ārējā adresē|išorinį adresą|išorinis adresas|išoriniu adresu|"
        "ytra netfang*|utanaðkomandi netfang*|cyfeiriad allanol|gyfeiriad allanol|e-bost allanol|eksterne adres|"
        "eksterne e-pos*|adresë të jashtme|adresë e jashtme|adresën e jashtme|adresa e jashtme|спољну адресу|"
        "спољна адреса|спољне адресе|екстерну адресу|екстерна адреса|надворешна адреса|надворешната адреса|"
        "екстерна адреса|външен имейл|външна поща|сыртқы мекенжай*|сыртқы адрес*|сыртқы пошта*|გარე მისამართ*|"
        "გარე ელფოსტ*|արտաքին հասցե*|արտաքին փոստ*|ውጫዊ አድራሻ*|የውጭ አድራሻ*|வெளிப்புற முகவரி*|வெளி முகவரி*|బాహ్య చిరునామా*|"
        "బయటి చిరునామా*|బాహ్య ఈమెయిల్*|बाह्य पत्त्यावर|बाह्य पत्ता|बाहेरील पत्त्यावर|बाह्य ठेगाना*|बाहिरी ठेगाना*|"
        "बाहिरी इमेल"
    ),
}

#: Forms found missing after blind part 28's one run (round 8): the infinitives and nouns of
#: "send" a request uses ("לשלוח", "إرسال", Malay "hantar"), the credentials and card details
#: asked for, ways of keeping it from someone, and the Greek "whenever".
_ROUND_8: dict[str, str] = {
    "send": "transmettre|faire suivre|לשלוח|שלחו|תשלחו|להעביר|إرسال|ارسال|يرجى إرسال|hantar|hantarkan|kirimkan|надіслати|переслати|"
            "отправить|переслать|enviar|reenviar|mandar|übermitteln|weiterleiten|schicken|inviare|inoltrare|"
            "encaminhar|wysłać|przesłać|göndermek|iletmek|भेजना|भेज दें|gửi cho|ส่งให้|发送给|送信して",
    "secret": "identifiants|identifiant|code de récupération|codes de récupération|פרטי כרטיס האשראי|כרטיס האשראי|"
              "מספר הדרכון|كلمة المرور|كلمة مرور|بيانات الدخول|رقم البطاقة|بطاقة الائتمان|kata laluan|nombor kad|"
              "στοιχεία σύνδεσης|облікові дані|учетные данные|credenciales|datos de la tarjeta|zugangsdaten|"
              "credenziali|credenciais|dane logowania|giriş bilgileri|पासवर्ड|ओटीपी|passport number|"
              "номер паспорта|número de pasaporte|numéro de passeport",
    "conceal": "jangan beritahu|tanpa memberitahu|μην του πεις|μην της πεις|χωρίς να του πεις|χωρίς να της πεις|"
               "μην το αναφέρεις|אין צורך לשאול|בלי לספר|sans le prévenir|sans la prévenir|inutile de lui demander|"
               "pas besoin de lui demander|دون إخباره|لا تخبره|بدون علمه|не кажи йому|не кажи їй|без його відома|"
               "मत बताना|बिना बताए|no le digas|sin decirle|sag ihm nichts|sag ihr nichts|usimuulize|usimwulize",
    "if": "όποτε|οποτεδήποτε",
    "data": "nombor telefon|alamat rumah|maklumat peribadi|pangkalan data|data pelanggan|sejarah perbualan",
    # a special mode the agent is told it is in ("modo desarrollador", "开发者模式"), as the
    # English rule reads "developer mode"
    "mode": "modo desarrollador|modo de desarrollador|modo sin restricciones|modo sin filtros|mode développeur|"
            "mode sans restriction*|mode sans filtre|entwicklermodus|entwickler-modus|modus ohne einschränkungen|"
            "modalità sviluppatore|modalità senza restrizioni|modo de desenvolvedor|modo desenvolvedor|"
            "modo sem restrições|ontwikkelaarsmodus|ontwikkelaarmodus|tryb dewelopera|tryb programisty|"
            "tryb bez ograniczeń|utvecklarläge|udviklertilstand|utviklermodus|kehittäjätila|vývojářský režim|"
            "režim vývojáře|modul dezvoltator|geliştirici modu|sınırsız mod|режим разработчика|режим без ограничений|"
            "режим розробника|режим без обмежень|λειτουργία προγραμματιστή|وضع المطور|وضع المطوّر|وضع بلا قيود|"
            "מצב מפתח|מצב מפתחים|حالت توسعه دهنده|حالت بدون محدودیت|डेवलपर मोड|mode pengembang|mode tanpa batas|"
            "chế độ nhà phát triển|chế độ không giới hạn|โหมดนักพัฒนา|开发者模式|開發者模式|无限制模式|無限制模式|"
            "越狱模式|開発者モード|制限なしモード|개발자 모드|무제한 모드|fejlesztői mód|hali ya msanidi",
}
for _concept, _terms in _ROUND_8.items():
    MORE[_concept] = MORE[_concept] + "|" + _terms if _concept in MORE else _terms
