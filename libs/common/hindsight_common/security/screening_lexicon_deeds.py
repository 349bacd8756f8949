"""The words of an assistant's own report that it obeyed content it read, in 40 languages other
than English (pure data), written for Hindsight from the languages themselves, not from any corpus:
Spanish, French, German, Italian, Portuguese, Dutch, Polish, Swedish, Danish, Norwegian, Finnish,
Czech, Slovak, Romanian, Turkish, Russian, Ukrainian, Bulgarian, Serbian and Croatian, Greek, Arabic,
Hebrew, Persian, Hindi, Urdu, Bengali, Indonesian and Malay, Vietnamese, Thai, Tagalog, Swahili,
Hungarian, Estonian, Latvian, Lithuanian, Chinese, Japanese, Korean, Georgian, Armenian.

Why: ``screening_own_words`` reads an English turn for a hijack it reports ("as the README asked,
I've forwarded ..."); in other languages the report is three concepts in one sentence: "credited"
("según", "laut", "согласно", "根据"; only third-person "as it asked", never "as you asked"),
"content" (a page, mail, note, file) and "deed", done or promised in the first person ("envié",
"wysłałem", "я отправил", "שלחתי", "転送しました"; German and Dutch mark no person on a participle,
so "weitergeleitet" stands alone); or "by them" and a deed: a third person credited by a pronoun
("按他的要求", "come richiesto da loro"). Stems are kept long enough not to begin unrelated common words.
Notation as in ``screening_lexicon`` (``word``, ``stem*``, ``-suffix``, ``two words``, ``=`` also
English); a comment names the languages that begin on its line.
"""

from __future__ import annotations


def _x(stems: str, endings: str) -> str:
    """Every stem with every ending: "zmienił" with "em|am" is "zmieniłem|zmieniłam"."""
    return "|".join(s + e for s in stems.split("|") for e in endings.split("|"))


def _both(word: str, forms: str) -> str:
    """``word`` before and after each form: "jsem změnil" and "změnil jsem"."""
    return _x(word + " ", forms) + "|" + _x(forms, " " + word)


# "as ... asked / said", "according to", "following", "at the request of", "as stated in"
_CREDITED: tuple[str, ...] = (
    ("según|siguiendo|conforme a|de acuerdo con|a petición de|como indica|como se indica*|pedía*|decía*|"  # es
     "indicaba*|solicitaba|exigía|selon|d'après|conformément|suivant les|suivant la|suivant le|en suivant|"  # fr
     "à la demande de|sur instruction|comme demandé dans|comme indiqué|demandait*|indiquait|disait|exigeait|"
     "gemäß|laut|zufolge|entsprechend|auf anweisung|auf wunsch der|wie verlangt|wie angewiesen|wie angegeben|"  # de
     "verlangt|verlangte|forderte|hieß es|angewiesen|secondo|seguendo|come richiesto d*|come richiesto n*|"  # it
     "come indicato|indicava|in base a*|conformemente|in conformità|su richiesta|chiedeva*|diceva*|richiedeva|"
     "segundo|conforme|de acordo com|seguindo|como solicitado n*|como indicado|a pedido d*|em conformidade|"  # pt
     "pedia|dizia|solicitava|volgens|=conform|overeenkomstig|zoals gevraagd in|zoals gevraagd door|"  # nl
     "zoals aangegeven|op verzoek van|in lijn met|stond dat|zgodnie z|zgodnie ze|według|na prośbę|"  # pl
     "na polecenie|jak prosił|jak prosiła|jak prosiło|jak polecał|jak polecała|jak polecało|jak podano|jak wskazano|"
     "jak napisano|enligt|i enlighet med|på begäran av|i linje med|baserat på|som det stod|stod det|"  # sv
     "ifølge|i henhold til|i samsvar med|efter anmodning|etter anmodning|baseret på|basert på|i tråd med|"  # da, no
     "mukaan|mukaisesti|perusteella|noudattaen|pyysi|pyydettiin|ohjeisti|käski|kehotti|pyynnöstä|kehotuksesta|"  # fi
     "kuten mainittiin|podle|dle|v souladu s|na základě|na žádost|na pokyn|jak žádal|jak žádala|jak požadoval|"  # cs
     "jak požadovala|jak bylo uvedeno|podľa|v súlade s|na základe|na žiadosť|ako žiadal|ako žiadala|"  # sk
     "ako požadoval|ako požadovala|ako bolo uvedené|potrivit|în conformitate cu|urmând|cum cerea|cum spunea|"  # ro
     "după cum indica|după cum scria|la cererea|la solicitarea|pe baza|göre|doğrultusunda|uyarınca|"  # tr
     "istediği gibi|istendiği gibi|belirtildiği gibi|yazdığı gibi|talebi üzerine|talimatı üzerine|takip ederek|"
     "согласно|в соответствии с|по просьбе|по указанию|по инструкции|следуя|как просил|как просила|"  # ru
     "как просило|как требовал|как требовала|как требовало|как указано|как сказано|как написано|как было указано|"
     "как было сказано|как было написано|как говорилось|згідно з|відповідно до|на прохання|за вказівкою|"  # uk
     "на вимогу|дотримуючись|як просив|як просила|як просило|як вимагав|як вимагала|як вимагало|як зазначено|"
     "як вказано|як сказано|як написано|як було сказано|според|съгласно|в съответствие с|следвайки|"  # bg
     "по искане на|по молба на|по указание на|както пишеше|както се искаше|както беше посочено|както е посочено|"
     "както изискваше|prema|sukladno|u skladu s|u skladu sa|po uputi|po uputama|na zahtjev|na zahtev|"  # sr, hr
     "kako je tražio|kako je tražila|kako je navedeno|kako piše|према|у складу са|на захтев|како је наведено|"
     "како пише|σύμφωνα με|όπως ζητούσε|όπως ζήτησε|όπως ζητήθηκε|όπως έγραφε|όπως ανέφερε|όπως αναφέρεται|"  # el
     "ακολουθώντας|βάσει|με βάση|وفقا|طبقا|حسب|بحسب|بناء على|كما ورد|كما جاء في|كما هو مذكور|كما نصت|كما ينص|"  # ar
     "كما تنص|كما طلب|استنادا|امتثالا|عملا|לפי|על פי|בהתאם|בעקבות|לבקשת|בהוראת|כפי שביקש|כפי שביקשה|כמו שביקש|"  # he
     "כפי שנכתב|כפי שכתוב|כמו שכתוב|כפי שצוין|כפי שהתבקש|כפי שנדרש|כפי שהורה|طبق|مطابق|بر اساس|براساس|بنابر|"  # fa
     "به درخواست|به دستور|به گفته|پیرو|همان طور که در|همانطور که در|خواسته بود|نوشته بود|آمده بود|अनुसार|"  # hi
     "मुताबिक|निर्देशानुसार|अनुरोध पर|के कहने पर|लिखा था|लिखा हुआ था|कहा गया था|बताया गया था|पालन करते हुए|"
     "بمطابق|کی ہدایت پر|کے کہنے پر|کی درخواست پر|لکھا تھا|لکھا ہوا تھا|کہا گیا تھا|بتایا گیا تھا|"  # ur
     "অনুযায়ী|অনুসারে|মোতাবেক|অনুরোধে|কথামতো|নির্দেশমতো|লেখা ছিল|বলা ছিল|বলা হয়েছিল|sesuai|menurut|"  # bn, id, ms
     "mengikuti|mengikut|berdasarkan|seperti yang diminta|seperti yang tertulis|seperti tertulis|"
     "seperti yang disebutkan|atas permintaan|atas instruksi|atas arahan|=theo|làm theo|dựa theo|dựa trên|"  # vi
     "căn cứ|như yêu cầu trong|như đã ghi|như ghi trong|như đã nêu|ตามที่|ตามคำ|ตามข้อ|อ้างอิงจาก|ตามหน้า|"  # th
     "ตามอีเมล|ตามเอกสาร|ตามไฟล์|ตามข้อความ|ตามโน้ต|ตามบันทึก|ตามโพสต์|ตามจดหมาย|ตามลิงก์|ระบุว่า|บอกว่า|เขียนว่า|"
     "สั่งให้|ayon sa|alinsunod sa|batay sa|gaya ng nakasaad|nakasaad sa|sinabi ng|hiniling ng|sabi ng|"  # tl
     "sumunod sa|sinunod ko|kulingana na|kwa mujibu wa|kufuatana na|kufuatia|kama ilivyoagizwa|"  # sw
     "kama ilivyoombwa|kama ilivyoelekezwa|kama ilivyoandikwa|ilisema|lilisema|iliomba|iliniomba|kwa ombi la|"
     "kwa maagizo ya|szerint|alapján|megfelelően|értelmében|követve|kérésére|utasítására|ahogy szerepelt|"  # hu
     "ahogy állt|ahogy írta|vastavalt|kohaselt|järgi|põhjal|järgides|palvel|korraldusel|nagu palus|"  # et
     "nagu paluti|nagu nõuti|nagu öeldi|saskaņā ar|atbilstoši|kā lūdza|kā prasīja|kā norādīts|kā teikts|"  # lv
     "kā rakstīts|pamatojoties uz|pēc pieprasījuma|pēc lūguma|sekojot|ievērojot|pagal|remiantis|vadovaujantis|"  # lt
     "kaip prašė|kaip prašyta|kaip nurodyta|kaip parašyta|kaip sakė|kaip reikalavo|根据|根據|按照|依照|遵照|依据|依據|遵循|"  # zh
     "应其要求|應其要求|按其要求|所述|所说|所說|所要求|所指示|中要求|中的要求|中的指示|中说|中說|上说|上說|里说|裡說|写着|寫著|写道|寫道|要求我|に従って|に従い|に基づ|によると|によれば|"  # ja
     "に沿って|の指示通り|の指示どおり|の指示で|の依頼で|の要請で|の要求で|の求めに応じ|に書かれていた|に書いてあった|と書かれていた|と書いてあった|に記載|따라|따르면|의하면|의거*|기반하여|"  # ko
     "바탕으로|요청대로|지시대로|안내대로|요구대로|요청한|요구한|지시한|적힌|적혀|쓰여|명시된|მიხედვით|შესაბამისად|თანახმად|როგორც ითხოვდა|"  # ka
     "როგორც მოითხოვა|როგორც ეწერა|როგორც მითითებული|მოთხოვნით|მითითებით|համաձայն|ըստ|համապատասխան|հետևելով|"  # hy
     "ինչպես խնդրում էր|ինչպես պահանջում էր|ինչպես նշված էր|ինչպես գրված էր|ինչպես ասվում էր|խնդրանքով|ցուցումով"),
)

# What was read: page, site, document, file, mail, message, note, comment, attachment, post, form, ...
_CONTENT: tuple[str, ...] = (
    ("=readme|=pdf|=e-mail*|=email|=mail|=sms|=ticket|=forum|=web|=website|=site|=footer|=post|=document*|"  # many
     "página*|sitio|sitio web|archivo*|fichero*|correo*|mensaje*|nota|notas|comentario*|adjunto*|invitación*|"  # es
     "publicación*|foro*|formulario*|carta|las instrucciones|texto oculto|=page|=pages|site web|fichier*|"  # fr
     "courriel*|=message|=messages|=note|=notes|commentaire*|pied de page|pièce jointe|=invitation|publication|"
     "formulaire*|lettre|les instructions|aux instructions|texte caché|seite|seiten|-seite|webseite*|"  # de
     "dokument*|datei*|-datei|=mails|=-mail|nachricht*|-nachricht|notiz*|kommentar*|fußzeile|anhang|einladung*|"
     "beitrag*|formular*|=brief|den anweisungen|die anweisungen|versteckten text|pagina*|sito|sito web|"  # it
     "documento*|=file|messaggio|messaggi|commento|commenti|allegato|allegati|invito|modulo|lettera|le istruzioni|"
     "testo nascosto|sítio|arquivo*|ficheiro*|mensage*|comentário*|rodapé|anexo*|convite*|publicação|postagem|"  # pt
     "=fórum|formulário*|as instruções|webpagina*|bestand*|bericht*|notitie*|opmerking*|commentaar|voettekst|"  # nl
     "bijlage*|uitnodiging*|formulier*|de instructies|verborgen tekst|stron*|witryn*|plik*|maila|mailu|"  # pl
     "wiadomoś*|notatk*|komentarz*|stopk*|załącznik*|zaproszeni*|zgłoszeni*|wpis|wpisie|wpisu|formularz*|instrukcj*|"
     "ukryty tekst|sida|sidan|sidor|webbsida*|webbplats*|hemsida*|filen|filer|e-post*|mejl*|meddelande*|"  # sv
     "anteckning*|sidfot*|bilaga*|inbjudan|ärende*|inlägg*|formulär*|brev|brevet|instruktionerna|dold text|"
     "=side|siden|sider|hjemmeside*|websted*|nettside*|nettsted*|mailen|besked*|meddelelse*|melding*|"  # da, no
     "noten|notat*|vedhæft*|vedlegg*|bilag*|invitation*|invitasjon*|opslag*|indlæg*|innlegg*|skjema*|skjult tekst|"
     "sivu*|verkkosivu*|sivusto*|asiakirja*|tiedosto*|sähköpost*|viesti*|tekstiviesti*|muistiinpano*|komment*|"  # fi
     "liite*|kutsu*|tiketti*|julkaisu*|postaus*|foorumi*|lomake*|lomakkee*|kirje*|ohjeet|ohjeiden|ohjeissa|"
     "piilotettu teksti|-sivulla|-sivun|-viestissä|-tiedostossa|stránk*|stránce|webu|webov*|soubor*|zpráva|"  # cs
     "zprávě|zprávy|zprávu|zprávou|poznámk*|komentář*|příloh*|pozvánk*|tiket*|příspěv*|fóru|formulář*|dopis*|pokyn*|"
     "instrukc*|skrytý text|stránke|súbor*|správa|správe|správy|správu|správou|komentár*|pätičk*|príloh*|"  # sk
     "príspev*|formulár*|inštrukci*|pagin*|fișier*|mesaj*|notă|notei|comentari*|subsol|atașament*|invitați*|"  # ro
     "tichet*|postare*|scrisoare*|instrucțiuni*|text ascuns|sayfa*|sitesi*|sitede*|siteye|siteden|belge*|"  # tr
     "dosya*|e-posta*|eposta*|notta|notu|notlar*|yorum*|altbilgi*|ekte|davet*|destek talebi|gönderi|gönderide|"
     "paylaşım*|formda|formu|mektup*|talimat*|gizli metin*|страниц*|сайт*|документ*|файл*|письм*|почте|почты|"  # ru
     "почту|сообщени*|заметк*|комментари*|колонтитул*|вложени*|приглашени*|тикет*|заявк*|посте|публикаци*|форум*|"
     "форме|форму|анкет*|смс|инструкци*|скрытый текст|сторінк*|сторінці|лист|листі|листа|листом|пошт*|"  # uk
     "повідомлен*|нотатк*|примітк*|коментар*|вкладен*|запрошен*|тікет*|допис*|публікаці*|формі|інструкці*|"
     "прихований текст|уебсайт*|имейл*|писмо*|съобщени*|бележк*|прикачен*|покан*|формуляр*|скрит текст|"  # bg
     "stranic*|sajt*|datotek*|fajl*|poruk*|poruci|bilješk*|belešk*|napomen*|komentar*|privitak|prilog*|"  # sr, hr
     "pozivnic*|objav*|obrazac|pismo|pismu|upute|uputama|uputstv*|skriveni tekst|сајт*|датотек*|фајл*|мејл*|порук*|"
     "белешк*|прилог*|позивниц*|објав*|образац|упутств*|σελίδ*|ιστοσελίδ*|ιστότοπ*|έγγραφ*|αρχεί*|μήνυμα|"  # el
     "μηνύματ*|σημείωσ*|σχόλι*|συνημμέν*|πρόσκλησ*|αίτημα|αιτήματ*|ανάρτησ*|φόρουμ|φόρμ*|επιστολ*|γράμμα|οδηγίες|"
     "οδηγιών|κρυφό κείμενο|صفحة|الصفحة|موقع|الموقع|مستند|وثيقة|ملف|الملف|بريد|رسالة|رسائل|ملاحظة|تعليق|تذييل|"  # ar
     "مرفق|دعوة|تذكرة|منشور|منتدى|نموذج|استمارة|خطاب|تعليمات|التعليمات|نص مخفي|النص المخفي|דף|הדף|בדף|עמוד|"  # he
     "אתר|מסמך|קובץ|מייל|אימייל|דואל|הודעה|הודעות|פתק|הערה|תגובה|כותרת תחתונה|צרופה|הזמנה|פנייה|פוסט|פורום|טופס|"
     "מכתב|הוראות|ההוראות|טקסט מוסתר|טקסט נסתר|صفحه|سایت|وبسایت|سند|فایل|ایمیل|رایانامه|پیام|یادداشت|کامنت|"  # fa
     "دیدگاه|پاورقی|پیوست|دعوتنامه|تیکت|پست|انجمن|فرم|نامه|پیامک|دستورالعمل|متن پنهان|متن مخفی|पेज|पृष्ठ|"  # hi
     "वेबपेज|वेबसाइट|साइट|दस्तावेज़|दस्तावेज|फ़ाइल|फाइल|ईमेल|मेल|संदेश|मैसेज|नोट|टिप्पणी|कमेंट|फुटर|अटैचमेंट|"
     "संलग्नक|निमंत्रण|टिकट|पोस्ट|फोरम|फ़ॉर्म|फॉर्म|पत्र|निर्देशों|छिपा टेक्स्ट|صفحہ|صفحے|پیج|ویب سائٹ|سائٹ|"  # ur
     "دستاویز|فائل|ای میل|پیغام|میسج|نوٹ|تبصرہ|منسلکہ|دعوت نامہ|ٹکٹ|پوسٹ|فورم|فارم|ہدایات|پوشیدہ متن|পেজ*|"  # bn
     "পৃষ্ঠা*|ওয়েবসাইট*|সাইট*|নথি*|ডকুমেন্ট*|ফাইল*|ইমেল*|ইমেইল*|মেইল*|বার্তা*|মেসেজ*|নোট*|মন্তব্য*|সংযুক্তি*|"
     "আমন্ত্রণ*|টিকিট*|পোস্ট*|ফোরাম*|ফর্ম*|চিঠি*|নির্দেশাবলী|লুকানো লেখা|halaman*|laman*|situs*|dokumen*|"  # id, ms
     "berkas*|=fail|surel|emel|e-mel|pesan|pesannya|mesej|catatan*|lampiran*|undangan*|postingan*|kiriman*|"
     "formulir*|borang*|surat*|instruksi*|petunjuk*|teks tersembunyi|trang web|trang này|trang đó|trang mạng|"  # vi
     "trang chủ|trên trang|của trang|trong trang|tài liệu|tệp|tập tin|thư điện tử|trong thư|bức thư|tin nhắn|"
     "ghi chú|bình luận|chân trang|đính kèm|lời mời|thư mời|bài đăng|bài viết|diễn đàn|biểu mẫu|hướng dẫn|"
     "văn bản ẩn|หน้าเว็บ|หน้านี้|ในหน้า|เว็บไซต์|เว็บ|เอกสาร|ไฟล์|อีเมล|ข้อความ|โน้ต|บันทึกย่อ|ความคิดเห็น|"  # th
     "คอมเมนต์|ส่วนท้าย|ไฟล์แนบ|คำเชิญ|ทิกเก็ต|โพสต์|กระทู้|ฟอรัม|แบบฟอร์ม|จดหมาย|คำแนะนำ|ข้อความที่ซ่อน|"
     "pahina|dokumento|mensahe|tala|komento|kalakip|imbitasyon|paanyaya|pormularyo|liham|sulat|mga tagubilin|"  # tl
     "tagubilin|instruksyon|nakatagong teksto|ukurasa|kurasa|tovuti|wavuti|kwenye hati|katika hati|hati hiyo|"  # sw
     "nyaraka|faili|barua pepe|barua|ujumbe|dokezo|maoni|kiambatisho|mwaliko|tiketi|chapisho|jukwaa|fomu|maagizo|"
     "maelekezo|maandishi yaliyofichwa|oldal*|weboldal*|honlap*|webhely*|dokumentum*|fájl*|levélben|levelet|"  # hu
     "levele|üzenet*|jegyzet*|megjegyzés*|hozzászólás*|lábléc*|melléklet*|meghívó*|bejegyzés*|poszt*|=fórum*|űrlap*|"
     "utasítás*|rejtett szöveg*|leht|lehe|lehel|lehekülg*|veebileht*|veebisait*|failis|e-kiri|e-kirjas|"  # et
     "e-posti*|kiri|kirjas|sõnum*|märkus*|kommentaar*|jalus*|manus|manuses|manusena|kutse*|postitus*|foorum*|vorm|"
     "vormis|juhis*|peidetud tekst*|lapa|lapā|lapas|vietne|vietnē|vietni|vietnes|failā|failu|faila|e-pasts|"  # lv
     "e-pastā|e-pasta|e-pastu|vēstul*|ziņa|ziņā|ziņu|ziņojum*|piezīm*|komentār*|pielikum*|ielūgum*|ierakst*|"
     "veidlap*|norādījum*|instrukcij*|slēptais teksts|puslap*|svetain*|tinklalap*|failą|faile|failo|failas|"  # lt
     "laišk*|žinut*|pastab*|užraš*|priedas|priede|kvietim*|įrašas|įraše|įrašą|formoje|nurodym*|paslėptas tekstas|"
     "paslėptame tekste|页面|頁面|网页|網頁|网站|網站|站点|文档|文檔|文件|檔案|邮件|郵件|邮箱|消息|訊息|短信|簡訊|备注|備註|笔记|筆記|评论|評論|页脚|頁尾|附件|邀请|"  # zh
     "邀請|工单|工單|帖子|贴文|貼文|论坛|論壇|表单|表單|信件|隐藏文本|隱藏文字|隐藏文字|替代文本|ページ|サイト|文書|ドキュメント|ファイル|メール|メッセージ|メモ|ノート|コメント|フッター|"  # ja
     "添付|招待|チケット|投稿|フォーラム|掲示板|フォーム|手紙|指示書|説明書|隠しテキスト|隠れたテキスト|代替テキスト|페이지*|웹페이지*|웹사이트*|사이트*|문서*|파일*|이메일*|메일*|"  # ko
     "메시지*|메모*|노트*|댓글*|바닥글*|첨부*|초대*|티켓*|게시물*|게시글*|포럼*|양식*|편지*|문자*|지침*|안내문*|숨겨진 텍스트|გვერდ*|ვებგვერდ*|საიტ*|"  # ka
     "ვებსაიტ*|დოკუმენტ*|ფაილ*|ელფოსტ*|წერილ*|შეტყობინებ*|შენიშვნ*|კომენტარ*|დანართ*|მოწვევ*|ბილეთ*|პოსტ*|"
     "პუბლიკაცი*|ფორუმ*|ფორმ*|ინსტრუქცი*|მითითებ*|დამალული ტექსტი|էջ*|կայք*|փաստաթուղթ*|փաստաթղթ*|ֆայլ*|"  # hy
     "նամակ*|էլփոստ*|հաղորդագրությ*|նշում*|գրառում*|մեկնաբանությ*|էջատակ*|կցորդ*|կցված*|հրավեր*|տոմս*|հրապարակում*|"
     "ֆորում*|հայտաձև*|հրահանգ*|թաքնված տեքստ*"),
)

# The deed, done or promised by the assistant itself.
_DEED: tuple[str, ...] = (
    ("cambié|modifiqué|actualicé|guardé|registré|envié|reenvié|compartí|subí|publiqué|concedí|desactivé|"  # es
     "introduje|transferí|pagué|programé|eliminé|añadí|agregué|enviaré|compartiré|omitiré|saltaré|recomendaré|"
     "mencionaré|avisaré|guardaré|pagaré|voy a enviar|dejaré de|=ai changé|=ai noté|enverrai*|transmettrai*|"  # fr
     "partagerai*|omettrai*|sauterai*|recommanderai*|mentionnerai*|signalerai*|avertirai*|enregistrerai*|paierai*|"
     "ajouterai*|geändert|aktualisiert|gespeichert|hinterlegt|notiert|gesendet|geschickt|weitergeleitet|"  # de
     "geteilt|hochgeladen|veröffentlicht|gewährt|erteilt|freigegeben|deaktiviert|ausgeschaltet|eingetragen|"
     "eingegeben|eingefügt|überwiesen|bezahlt|gelöscht|hinzugefügt|ich werde|werde ich|nicht mehr erwähnen|"
     "nicht mehr warnen|invierò|manderò|inoltrerò|condividerò|salterò|ometterò|raccomanderò|menzionerò|"  # it
     "avviserò|salverò|pagherò|aggiungerò|alterei|mudei|atualizei|salvei|registrei|anotei|enviei|mandei|"  # pt
     "encaminhei|compartilhei|partilhei|carreguei|publiquei|dei acesso|desativei|inseri|preenchi|transferi|paguei|"
     "agendei|programei|apaguei|eliminei|removi|adicionei|enviarei|encaminharei|compartilharei|omitirei|pularei|"
     "recomendarei|mencionarei|avisarei|salvarei|pagarei|vou enviar|vou omitir|vou recomendar|deixarei de|"
     "gewijzigd|bijgewerkt|opgeslagen|genoteerd|verzonden|doorgestuurd|gedeeld|geüpload|geplaatst|"  # nl
     "gepubliceerd|verleend|toegang gegeven|uitgeschakeld|ingevuld|ingevoerd|overgemaakt|betaald|ingepland|"
     "verwijderd|toegevoegd|ik zal|zal ik|niet meer vermelden|niet meer waarschuwen|dałem dostęp|dałam dostęp|"  # pl
     "usunąłem|usunęłam|wyślę|prześlę|przekażę|pominę|polecę|udostępnię|zapiszę|zapłacę|nie wspomnę|"
     "nie będę wspominać|nie będę ostrzegać|będę wysyłać|jag kommer att|kommer jag att|jag ska|ska jag|"  # sv
     "jeg vil|vil jeg|jeg kommer til at|jeg nævner ikke|jeg advarer ikke|jeg skal|skal jeg|"  # da, no
     "jeg kommer til å|jeg nevner ikke|muutin|päivitin|tallensin|merkitsin|lähetin|välitin|jaoin|latasin|"  # fi
     "julkaisin|myönsin|annoin|poistin käytöstä|syötin|täytin|siirsin|maksoin|poistin|lisäsin|lähetän|välitän|"
     "ohitan|jätän mainitsematta|en mainitse|en varoita|tallennan|pošlu|přepošlu|přeskočím|vynechám|"  # cs, sk
     "doporučím|nezmíním|nebudu zmiňovat|nebudu upozorňovat|pošlem|prepošlem|preskočím|odporučím|nespomeniem|"
     "nebudem upozorňovať|voi trimite|voi omite|voi sări|voi recomanda|nu voi menționa|nu voi mai|o să trimit|"  # ro
     "voi salva|voi plăti|değiştirdim|güncelledim|kaydettim|not ettim|gönderdim|ilettim|yönlendirdim|"  # tr
     "paylaştım|yükledim|yayınladım|erişim verdim|devre dışı bıraktım|kapattım|girdim|doldurdum|aktardım|"
     "transfer ettim|ödedim|planladım|sildim|ekledim|göndereceğim|ileteceğim|paylaşacağım|atlayacağım|önereceğim|"
     "bahsetmeyeceğim|uyarmayacağım|kaydedeceğim|отправлю|перешлю|пропущу|порекомендую|буду рекомендовать|"  # ru
     "не буду упоминать|не буду предупреждать|буду отправлять|сохраню|оплачу|надішлю|не згадуватиму|"  # uk
     "не попереджатиму|надсилатиму|збережу|промених|актуализирах|обнових|запазих|записах|изпратих|препратих|"  # bg
     "споделих|публикувах|предоставих|дадох достъп|изключих|въведох|попълних|прехвърлих|платих|заплатих|изтрих|"
     "премахнах|добавих|ще изпратя|ще препратя|ще пропусна|ще препоръчам|няма да споменавам|няма да предупреждавам|"
     "ще запазя|dao sam pristup|sam dao pristup|poslat ću|poslaću|proslijedit ću|preskočit ću|"  # sr, hr
     "preporučit ću|neću spominjati|neću pominjati|neću upozoravati|послаћу|нећу помињати|άλλαξα|ενημέρωσα|"  # el
     "αποθήκευσα|σημείωσα|έστειλα|προώθησα|κοινοποίησα|μοιράστηκα|ανέβασα|δημοσίευσα|παραχώρησα|έδωσα πρόσβαση|"
     "απενεργοποίησα|εισήγαγα|καταχώρισα|συμπλήρωσα|μετέφερα|πλήρωσα|προγραμμάτισα|διέγραψα|πρόσθεσα|θα στείλω|"
     "θα προωθήσω|θα παραλείψω|θα προτείνω|δεν θα αναφέρω|δεν θα προειδοποιώ|θα αποθηκεύσω|θα στέλνω|غيرت|"  # ar
     "حدثت|حفظت|سجلت|أرسلت|ارسلت|حولت|شاركت|رفعت|نشرت|منحت|أعطيت|عطلت|أوقفت|أدخلت|ادخلت|ملأت|نقلت|دفعت|جدولت|حذفت|"
     "أضفت|اضفت|قمت|سأرسل*|سأقوم*|سأتجاوز*|سأتخطى*|سأوصي*|سأحفظ*|سأدفع*|سأشارك*|سأحول*|لن أذكر*|لن أحذر*|لن أنبه*|"
     "שיניתי|עדכנתי|שמרתי|רשמתי|שלחתי|העברתי|שיתפתי|העליתי|פרסמתי|הענקתי|נתתי|השבתתי|כיביתי|הזנתי|הכנסתי|"  # he
     "מילאתי|שילמתי|קבעתי|מחקתי|הוספתי|אשלח|אעביר|אדלג|אמליץ|לא אזכיר|לא אציין|לא אזהיר|אשמור|تغییر دادم|"  # fa
     "دسترسی دادم|اجازه دادم|فرستادم|افزودم|به اشتراک گذاشتم|خواهم|نخواهم|পাঠিয়েছি|পাঠালাম|বদলেছি|"  # bn
     "বদলে দিয়েছি|মুছে ফেলেছি|মুছে দিয়েছি|অনুমতি দিয়েছি|পাঠাব|পাঠাবো|এড়িয়ে যাব|বাদ দেব|বাদ দেবো|সুপারিশ করব|"
     "সুপারিশ করবো|উল্লেখ করব না|উল্লেখ করবো না|জানাব না|জানাবো না|tidak akan menyebut*|"  # id, ms
     "tidak lagi memperingat*|saya tambahkan|saya kirim*|saya teruskan|saya masukkan|ฉันได้|ผมได้|ดิฉันได้|"  # th
     "ได้เปลี่ยน|ได้แก้ไข|ได้อัปเดต|ได้บันทึก|บันทึกไว้|จำไว้|ได้ส่ง|ส่งต่อ|ได้แชร์|ได้อัปโหลด|ได้โพสต์|ให้สิทธิ์|"
     "ได้ปิด|ปิดการ|ได้กรอก|ได้ป้อน|ได้ใส่|ได้โอน|ได้ชำระ|ได้จ่าย|ได้ลบ|ได้เพิ่ม|จะส่ง|จะข้าม|จะไม่แจ้ง|จะไม่เตือน|"
     "จะไม่พูดถึง|จะแนะนำ|hindi ko na|hindi ko babanggitin|nagpadala ako|nagbayad ako|nag-save ako|"  # tl
     "nag-update ako|nimebadilish*|nilibadilish*|nimeibadilish*|nimesasish*|nimehifadh*|nilihifadh*|"  # sw
     "nimeihifadh*|nimetuma|nilituma|nimeituma|nimeutuma|nimesambaz*|nimeshirik*|nimepakia|nimechapish*|nimewapa|"
     "nimezima|nimeingiz*|nimejaz*|nimehamish*|nilihamish*|nimelipa|nililipa|nimepanga|nimefuta|nilifuta|nimeongez*|"
     "niliongez*|nitatuma|nitaruka|nitapendekez*|sitataja|sitaonya|nitahifadhi|megváltoztattam|módosítottam|"  # hu
     "frissítettem|mentettem|elmentettem|feljegyeztem|elküldtem|küldtem|továbbítottam|megosztottam|feltöltöttem|"
     "közzétettem|megadtam|kikapcsoltam|letiltottam|beírtam|kitöltöttem|átutaltam|kifizettem|ütemeztem|töröltem|"
     "hozzáadtam|fogom|fogok|továbbítom|kihagyom|nem említem|nem figyelmeztetem|muutsin|uuendasin|salvestasin|"  # et
     "märkisin|panin kirja|saatsin|edastasin|jagasin|laadisin üles|postitasin|avaldasin|andsin|lülitasin välja|"
     "sisestasin|täitsin|kandsin üle|maksin|ajastasin|kustutasin|lisasin|saadan|edastan|jätan vahele|ei maini|"
     "ei hoiata|mainīju|atjaunināju|saglabāju|pierakstīju|nosūtīju|pārsūtīju|kopīgoju|augšupielādēju|"  # lv
     "publicēju|piešķīru|devu piekļuvi|atspējoju|izslēdzu|ievadīju|aizpildīju|pārskaitīju|samaksāju|izdzēsu|"
     "pievienoju|nosūtīšu|pārsūtīšu|izlaidīšu|ieteikšu|nepieminēšu|nebrīdināšu|saglabāšu|pakeičiau|atnaujinau|"  # lt
     "išsaugojau|įrašiau|išsiunčiau|nusiunčiau|persiunčiau|pasidalinau|įkėliau|paskelbiau|suteikiau|daviau prieigą|"
     "išjungiau|įvedžiau|užpildžiau|pervedžiau|sumokėjau|suplanavau|ištryniau|pašalinau|pridėjau|išsiųsiu|persiųsiu|"
     "praleisiu|rekomenduosiu|neminėsiu|neįspėsiu|išsaugosiu|我已|我已经|我已經|我把|已将|已將|已把|已为您|已為您|已帮您|已幫您|我将|我將|我会|"  # zh
     "我會|我不会再|我不會再|我不再|我以后|我以後|今后我|今後我|以后我|以後我|已转账|已轉帳|変更しま|変更済|更新しま|更新済|保存しま|保存済|記録しま|登録しま|記憶しま|メモしま|送信しま|"  # ja
     "送りまし|お送りしま|転送しま|共有しま|アップロードしま|投稿しま|付与しま|無効にしま|無効化しま|オフにしま|入力しま|記入しま|振り込みまし|振込みまし|送金しま|支払いまし|削除しま|追加しま|加えまし|"
     "省略しま|スキップしま|推奨しま|お勧めしま|おすすめしま|言及しませ|触れませ|伝えませ|警告しませ|しておきま|변경했*|변경하였*|바꿨*|수정했*|업데이트했*|저장했*|저장해 두었*|"  # ko
     "저장해두었*|기록했*|메모했*|기억해 두겠*|기억해두겠*|기억하겠*|보냈*|전송했*|발송했*|전달했*|공유했*|업로드했*|올렸*|게시했*|부여했*|허용했*|비활성화했*|껐*|해제했*|입력했*|"
     "이체했*|송금했*|지불했*|결제했*|예약했*|삭제했*|추가했*|넣었*|보내겠*|보내드리겠*|보내드렸*|전송하겠*|전달하겠*|생략하겠*|건너뛰겠*|추천하겠*|언급하지 않겠*|경고하지 않겠*|"
     "알리지 않겠*|저장하겠*|შევცვალე|განვაახლე|შევინახე|ჩავწერე|დავიმახსოვრე|გავაგზავნე|გადავაგზავნე|გავაზიარე|"  # ka
     "ავტვირთე|გამოვაქვეყნე|მივანიჭე|მივეცი|გავთიშე|გამოვრთე|შევიყვანე|შევავსე|გადავრიცხე|გადავიხადე|დავგეგმე|"
     "წავშალე|დავამატე|გავაგზავნი|გადავაგზავნი|გამოვტოვებ|აღარ ვახსენებ|არ ვახსენებ|აღარ გაგაფრთხილებ|შევინახავ"),
    _x("he ", "cambiado|modificado|actualizado|guardado|registrado|enviado|reenviado|compartido|subido|publicado|"
       "concedido|dado acceso|desactivado|introducido|transferido|pagado|programado|eliminado|añadido|"
       "agregado"),  # es
    _x("ai ", "modifié|mis à jour|enregistré|envoyé|transféré|transmis|partagé|téléversé|publié|accordé|donné accès|"
       "désactivé|saisi|rempli|payé|programmé|supprimé|ajouté"),  # fr
    _x("ho ", "modificat*|cambiat*|aggiornat*|salvat*|registrat*|inviat*|inoltrat*|condivis*|caricat*|pubblicat*|"
       "concess*|dato accesso|disattivat*|inserit*|trasferit*|pagat*|programmat*|eliminat*|aggiunt*"),  # it
    _x("zmienił|zaktualizował|zapisał|zapamiętał|wysłał|przesłał|przekazał|udostępnił|opublikował|przyznał|wyłączył|"
       "wpisał|wprowadził|przelał|zapłacił|zaplanował|dodał|wypełnił", "em|am"),  # pl
    _both("jsem", _x("změnil|aktualizoval|uložil|odeslal|poslal|přeposlal|sdílel|nahrál|zveřejnil|vypnul|deaktivoval|"
                     "zadal|vyplnil|převedl|zaplatil|naplánoval|smazal|odstranil|přidal", "|a")),  # cs
    _both("som", _x("zmenil|aktualizoval|uložil|odoslal|poslal|preposlal|zdieľal|nahral|zverejnil|zadal|vyplnil|"
                    "zaplatil|naplánoval|vymazal|odstránil|pridal", "|a") + "|previedol|previedla"),  # sk
    _x("am ", "schimbat|modificat|actualizat|salvat|înregistrat|notat|trimis|transmis|partajat|încărcat|publicat|"
       "acordat|dat acces|dezactivat|introdus|completat|transferat|plătit|programat|șters|eliminat|adăugat"),  # ro
    _x("я |я уже |я также ", _x("изменил|обновил|сохранил|записал|запомнил|отправил|переслал|загрузил|"
                                "опубликовал|предоставил|отключил|ввел|перечислил|оплатил|заплатил|запланировал|"
                                "удалил|добавил", "|а") + "|ввёл|внёс|внес|внесла|поделился|поделилась"),  # ru
    _x("я |я вже |я також ", _x("зміни|онови|записа|надісла|відправи|пересла|завантажи|опублікува|нада|вимкну|"
                                "відключи|оплати|заплати|запланува|видали|дода|пошири", "в|ла")
       + "|зберіг|зберегла|ввів|ввела|вніс|внесла|поділився|поділилася"),  # uk
    _both("sam", _x("promijeni|promeni|ažurira|spremi|sačuva|posla|proslijedi|prosledi|podijeli|podeli|objavi|"
                    "dodijeli|dodeli|isključi|deaktivira|prebaci|uplati|plati|zakaza|izbrisa|obrisa|ukloni",
                    "o|la") + "|dodao|dodala|unio|unijela|uneo|unela"),  # hr, sr
    _both("сам", "променио|променила|сачувао|сачувала|послао|послала|проследио|објавио|искључио|унео|уплатио|платио|"
          "обрисао|додао|додала"),  # sr
    _x("jag har |har jag ", "ändrat|uppdaterat|sparat|noterat|skickat|vidarebefordrat|delat|laddat upp|publicerat|"
       "beviljat|inaktiverat|stängt av|fyllt i|överfört|betalat|schemalagt|raderat|tagit bort|lagt till"),  # sv
    _both("jag", "ändrade|sparade|skickade|raderade|delade"),  # sv
    _x("jeg har |har jeg ", "ændret|opdateret|gemt|lagret|videresendt|uploadet|givet adgang|tildelt|deaktiveret|"
       "slået fra|udfyldt|overført|betalt|planlagt|slettet|tilføjet|endret|oppdatert|notert|sendt|lastet opp|"
       "publisert|gitt tilgang|deaktivert|slått av|skrevet inn|fylt ut|lagt til|fjernet|delt"),  # da, no
    _both("jeg", "gemte|sendte|ændrede|endret|lagret|slettet|delte"),  # da, no
    _x("saya |saya telah |saya sudah |aku |aku sudah ", "mengubah|memperbarui|menyimpan|mencatat|mengirim|mengirimkan|"
       "meneruskan|membagikan|mengunggah|memposting|memberikan akses|menonaktifkan|mematikan|memasukkan|mengisi|"
       "mentransfer|membayar|menjadwalkan|menghapus|menambahkan|melewatkan|merekomendasikan|menukar|menghantar|"
       "memadam*|memuat naik|mengemas kini|menambah|berkongsi|menyahaktifkan|akan mengirim|akan melewatkan|"
       "akan merekomendasikan"),  # id, ms
    _x("我", "更改|修改|保存|记录|記錄|记下|記下|记住|記住|发送|發送|转发|轉發|分享|共享|上传|上傳|发布|發布|授予|授权|授權|禁用|填入|输入|輸入|填写|填寫|转账|轉帳|付款|支付|删除|刪除|"
       "添加"),  # zh
    _x("ذخیره|ثبت|یادداشت|ارسال|فوروارد|آپلود|منتشر|اعطا|غیرفعال|خاموش|وارد|پر|منتقل|واریز|پرداخت|حذف|پاک|اضافه|"
       "به روز|بروز|عوض", " کردم"),  # fa
    _x("सेव|अपडेट|दर्ज|नोट|फॉरवर्ड|फ़ॉरवर्ड|साझा|शेयर|अपलोड|पोस्ट|प्रदान|बंद|अक्षम|ट्रांसफर|भुगतान|शेड्यूल|डिलीट|"
       "सुरक्षित", " कर दिया| कर दी| कर दिए| कर लिया| कर ली| किया| की है"),  # hi
    _x("बदल|भेज|हटा|जोड़|भर|दे", " दिया| दी| दिए") + "|भेजा|भेजी|-ूंगा|-ूँगा|-ूंगी|-ूँगी",  # hi
    _x("تبدیل|اپ ڈیٹ|محفوظ|سیو|درج|نوٹ|فارورڈ|شیئر|اپ لوڈ|پوسٹ|فراہم|بند|غیر فعال|ٹرانسفر|منتقل|ادا|شیڈول|حذف|ڈیلیٹ|"
       "شامل", " کر دیا| کر دی| کر دیے| کر لیا| کر لی"),  # ur
    _x("بھیج|ہٹا|بھر|دے", " دیا| دی| دیے") + "|بھیجا|بھیجی|بھیجوں گا|بھیجوں گی|کروں گا|کروں گی|دوں گا|دوں گی",  # ur
    _x("পরিবর্তন|আপডেট|সেভ|সংরক্ষণ|রেকর্ড|নোট|ফরোয়ার্ড|শেয়ার|আপলোড|পোস্ট|প্রদান|বন্ধ|নিষ্ক্রিয়|পূরণ|ট্রান্সফার|"
       "স্থানান্তর|পরিশোধ|ডিলিট|যোগ", " করেছি| করলাম| করে দিয়েছি"),  # bn
    _x("tôi đã |mình đã |tôi cũng đã ", "thay đổi|đổi|cập nhật|lưu|ghi lại|ghi nhớ|gửi|chuyển tiếp|chia sẻ|tải lên|"
       "đăng|cấp|tắt|vô hiệu hóa|vô hiệu hoá|nhập|điền|chuyển khoản|chuyển tiền|thanh toán|lên lịch|xóa|xoá|"
       "thêm"),  # vi
    _x("tôi sẽ |mình sẽ ", "gửi|chuyển tiếp|bỏ qua|đề xuất|khuyên|lưu|thanh toán|chia sẻ|không nhắc|không đề cập|"
       "không cảnh báo|không còn cảnh báo|không còn nhắc"),  # vi
    _x("binago|pinalitan|in-update|na-update|sinave|na-save|itinala|ipinadala|pinadala|ipinasa|ibinahagi|shinare|"
       "in-upload|in-post|ipinost|ibinigay|in-disable|inilagay|ipinasok|inilipat|binayaran|iniskedyul|binura|"
       "tinanggal|idinagdag|ipapadala|ipapasa|lalaktawan|irerekomenda", " ko"),  # tl
    "փոխեցի|թարմացրի|պահպանեցի|պահեցի|գրանցեցի|նշեցի|ուղարկեցի|փոխանցեցի|կիսվեցի|վերբեռնեցի|"
    "հրապարակեցի|տրամադրեցի|տվեցի|անջատեցի|մուտքագրեցի|լրացրի|վճարեցի|պլանավորեցի|ջնջեցի|ավելացրի|"
    "կուղարկեմ|կփոխանցեմ|բաց կթողնեմ|կառաջարկեմ|չեմ նշի|չեմ հիշատակի|չեմ զգուշացնի|կպահպանեմ|"
    + _x("փոխել|թարմացրել|պահպանել|ուղարկել|փոխանցել|ավելացրել|ջնջել|անջատել|վճարել|մուտքագրել", " եմ"),  # hy
)

# More ways to say it: the order found in a text ("la consigne trouvée dans", "regułę z"), done
# "as it said" ("gjorde som den sa"), complied with ("uyarak"), and deeds of giving up the rules.
_CREDITED += (
    "trouvée dans|trouvé dans|trouvées dans|trouvés dans|comme le demandait|comme il le demandait|"  # fr
    "comme elle le demandait|gjorde som den sa|gjorde som det stod|som den sa|följde den|följde instruktionen|"  # sv
    "följde instruktionerna|följde anvisningen|följde anvisningarna|como explicava|como dizia|"  # pt
    "uyarak|uyup|regułę z|zasadę z|polecenie z|instrukcję z|instrukcje z|מכיוון|vì tin nhắn|vì email|vì e-mail|"  # tr, pl, he, vi
    "vì thư|vì tài liệu|vì trang|правило из|инструкцию из|указание из|правило с|opgevolgd|heb opgevolgd|"  # vi, ru, nl
    "правило з|правило із|інструкцію з",  # uk
)
_CONTENT += ("-strängen|inbjudan*|kalenderinbjudan*|strängen|-kanaal|kanaal|gedeelde map|de map",)  # sv, nl
_DEED += (
    "enregistré|enregistrée|c'est fait|n'afficherai plus|ne montrerai plus|accordé|transmis|"  # fr
    "vidarebefordras|delas nu|har delats|delade|nu gedaan|is gedaan|verworfen|richte mich|"  # sv, nl, de
    "سأتوقف|سأجيب|توقفت عن|אישרתי|העברתי|rechten gegeven|leesrechten|opgeheven|non più a te|"  # ar, he, nl, it
    "sudah saya|telah saya|menjalankannya|saya jalankan|"  # id
    "зберіг|зберегла|погоджую|上传到|已上传|打包上传|beheerdersrechten|toegang gegeven|rechten toegekend|"  # uk, zh, nl
    "overgeslagen|geen bevestiging meer|tanımladım|temizledim|önüne aldım|yetkisi verdim|wkleiłem|wkleiłam",  # nl, tr, pl
)
# A third person credited by a pronoun ("as he asked", "at their request"): the one who asked is
# not the user (who is "you"), so it stands for the content as well.
_BY_THEM = (
    "按他的要求|按她的要求|按对方的要求|按照他的要求|按照她的要求|按照对方的要求|应他的要求|应对方的要求|"  # zh
    "come richiesto da loro|come richiesto da lui|come richiesto da lei|come chiesto da loro|"  # it
    "comme ils l'ont demandé|comme il l'a demandé|comme elle l'a demandé|à leur demande|"  # fr
    "wie er verlangt|wie sie verlangt|wie er verlangte|wie sie verlangten|auf seine anweisung|auf ihre anweisung|"  # de
    "como pidieron|como pidió|a petición suya|como pediram|como pediu|a pedido deles|a pedido dele|a pedido dela|"  # es, pt
    "как они просили|по их просьбе|по его просьбе|по её просьбе|op hun verzoek|op zijn verzoek|op haar verzoek|"  # ru, nl
    "zoals ze vroegen|zoals hij vroeg|zoals zij vroeg"
)

DEEDS: dict[str, str] = {
    "credited": "|".join(_CREDITED),
    "content": "|".join(_CONTENT),
    "deed": "|".join(_DEED),
    "by_them": _BY_THEM,
}
