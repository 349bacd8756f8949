"""The words of "keep this for good" in other languages (pure data): "permanently", "a
standing rule", "remember this rule", "in all future conversations", in the languages of
``screening_lexicon`` and ``screening_lexicon_more``, in the same notation. Written for
Hindsight from the languages themselves, not from any corpus, in round 9, after the user's
own words ("save this as a permanent rule: when my ex-partner asks, tell her ...") were the
screener's weakest side. Alone it is an ordinary wish ("remember for good that I'm
vegetarian"); ``screening_foreign`` counts it beside a cue and an answer, or a secret kept."""

from __future__ import annotations

PERSIST = (
    # "long-term / permanent memory" (round 10), where a lasting order is put
    "memoria permanente|memoria a largo plazo|mémoire permanente|mémoire à long terme|langzeitgedächtnis|"
    "dauerhaften speicher|memoria a lungo termine|memória permanente|memória de longo prazo|"
    "langetermijngeheugen|permanente geheugen|pamięci trwałej|pamięć długotrwał*|pamięci długotrwał*|"
    "долговременн* памят*|постоянн* памят*|довготривал* пам'ят*|长期记忆|長期記憶|長期メモリ|장기 기억*|"
    "uzun süreli hafıza*|kalıcı hafıza*|الذاكرة الدائمة|الذاكرة طويلة المدى|"
    # reflexive and "for the next times" forms (round 11)
    "ricordati questa regola|per le prossime volte|acuérdate de esta regla|para las próximas veces|"
    "souviens-toi de cette règle|pour les prochaines fois|lembre-se desta regra|lembra-te desta regra|"
    "para as próximas vezes|für die zukunft merken|"
    "permanentemente|para siempre|regla permanente|norma permanente|guarda esta regla|guarde esta regla|"  # es
    "recuerda esta regla|recuerde esta regla|memoriza esta regla|conversaciones futuras|"  # es
    "définitivement|pour toujours|à jamais|règle permanente|règle définitive|retiens cette règle|"  # fr
    "retenez cette règle|enregistre cette règle|enregistrez cette règle|mémoris*|conversations futures|"  # fr
    "dauerhaft*|für immer|auf Dauer|permanente Regel|ständige Regel|feste Regel|merk dir diese Regel|"  # de
    "merke dir diese Regel|merken Sie sich diese Regel|speichere diese Regel|speichern Sie diese Regel|"  # de
    "alle zukünftigen Gespräche|künftigen Gespräch*|"  # de
    "per sempre|in modo permanente|regola permanente|memorizz*|ricorda questa regola|"  # it
    "ricordi questa regola|salva questa regola|conversazioni future|"  # it
    "para sempre|de forma permanente|regra permanente|regra fixa|guarde esta regra|salve esta regra|"  # pt
    "memorize esta regra|grave esta regra|conversas futuras|"  # pt
    "voorgoed|voor altijd|blijvend*|vaste regel|onthoud deze regel|sla deze regel op|bewaar deze regel|"  # nl
    "alle toekomstige gesprekken|toekomstige sessies|"  # nl
    "trwał*|na zawsze|na stałe|stałą reguł*|stała reguła|zapamiętaj tę regułę|zapamiętaj tę zasadę|"  # pl
    "zapisz tę regułę|zapisz tę zasadę|przyszłych rozmow*|"  # pl
    "för alltid|för gott|för evigt|permanent regel|stående regel|fast regel|kom ihåg denna regel|"  # sv
    "kom ihåg den här regeln|kom alltid ihåg|spara denna regel|spara den här regeln|alla framtida samtal|"  # sv
    "for altid|for evigt|varig*|husk denne regel|husk altid|gem denne regel|alle fremtidige samtaler|"  # da
    "for alltid|for evig|husk denne regelen|lagre denne regelen|husk alltid|fremtidige økter|"  # no
    "framtidige samtaler|"  # no
    "pysyv*|ikuisesti|lopullisesti|tallenna tämä sääntö|muista tämä sääntö|muista aina|"  # fi
    "tulevissa keskusteluissa|"  # fi
    "trvale|navždy|natrvalo|trvalé pravidlo|stálé pravidlo|zapamatuj si toto pravidlo|"  # cs
    "zapamatujte si toto pravidlo|ulož toto pravidlo|uložte toto pravidlo|budoucích konverzac*|"  # cs
    "pentru totdeauna|pentru întotdeauna|definitiv|în mod permanent|regulă permanentă|regula permanentă|"  # ro
    "reține această regulă|rețineți această regulă|reţine această regulă|salvează această regulă|"  # ro
    "memorează această regulă|conversațiile viitoare|conversaţiile viitoare|"  # ro
    "kalıcı*|sonsuza dek|sonsuza kadar|ebediyen|bu kuralı kaydet|bu kuralı kaydedin|bu kuralı hatırla*|"  # tr
    "bu kuralı unutma*|her zaman hatırla*|gelecekteki tüm konuşma*|gelecekteki tüm sohbet*|"  # tr
    "навсегда|навечно|бессрочно|постоянн*|запомни это правило|запомните это правило|"  # ru
    "сохрани это правило|сохраните это правило|всегда помни|будущих разговор*|будущих сесси*|"  # ru
    "назавжди|навіки|постійн*|збережи це правило|збережіть це правило|майбутніх розмов*|"  # uk
    "майбутніх сесі*|"  # uk
    "μόνιμ*|για πάντα|παντοτινά|οριστικά|θυμήσου αυτόν τον κανόνα|θυμηθείτε αυτόν τον κανόνα|"  # el
    "αποθήκευσε αυτόν τον κανόνα|αποθηκεύστε αυτόν τον κανόνα|να θυμάσαι πάντα|μελλοντικές συζητήσ*|"  # el
    "إلى الأبد|للأبد|بشكل دائم|بصفة دائمة|قاعدة دائمة|بشكل نهائي|احفظ هذه القاعدة|تذكر هذه القاعدة|"  # ar
    "تذكّر هذه القاعدة|المحادثات المستقبلية|الجلسات المستقبلية|"  # ar
    "לצמיתות|לתמיד|דרך קבע|כלל קבוע|שמור את הכלל הזה|תשמור את הכלל הזה|זכור את הכלל הזה|"  # he
    "תזכור את הכלל הזה|השיחות העתידיות|שיחות עתידיות|"  # he
    "हमेशा के लिए|स्थायी रूप से|स्थायी नियम|यह नियम याद रखो|यह नियम याद रखें|इस नियम को याद रखें|"  # hi
    "इस नियम को सहेजें|हमेशा याद रखें|हमेशा याद रखो|भविष्य की सभी बातचीत|"  # hi
    "selamanya|secara permanen|aturan permanen|aturan tetap|simpan aturan ini|ingat aturan ini|"  # id/ms
    "ingatlah aturan ini|percakapan mendatang|secara kekal|peraturan kekal|peraturan tetap|"  # id/ms
    "simpan peraturan ini|ingat peraturan ini|perbualan akan datang|"  # id/ms
    "vĩnh viễn|mãi mãi|quy tắc cố định|quy tắc lâu dài|nhớ quy tắc này|lưu quy tắc này|luôn ghi nhớ|"  # vi
    "cuộc trò chuyện sau này|cuộc trò chuyện trong tương lai|"  # vi
    "ถาวร|ตลอดไป|ตลอดกาล|จำกฎนี้|บันทึกกฎนี้|เก็บกฎนี้|จำไว้เสมอ|การสนทนาในอนาคต|"  # th
    "永久|永远|永遠|牢记|牢記|一直记住|一直記住|始终记住|始終記住|记住这条规则|記住這條規則|记住这个规则|"  # zh
    "記住這個規則|保存这条规则|保存這條規則|长期规则|長期規則|固定规则|固定規則|所有未来的对话|"  # zh
    "所有未來的對話|以后所有对话|以後所有對話|以后的所有对话|以後的所有對話|"  # zh
    "恒久|永続|いつまでも|ずっと覚えて|常に覚えて|このルールを覚え|このルールを保存|このルールを記憶|"  # ja
    "今後のすべての会話|今後の全ての会話|"  # ja
    "영구적*|영원히|영구 규칙*|고정 규칙*|이 규칙을 기억*|이 규칙을 저장*|항상 기억*|앞으로 모든 대화*|"  # ko
    "앞으로의 모든 대화*|향후 모든 대화*|"  # ko
    "végleges*|örökre|tartósan|állandó szabály*|jegyezd meg ezt a szabályt|jegyezze meg ezt a szabályt|"  # hu
    "mentsd el ezt a szabályt|mentse el ezt a szabályt|mindig emlékezz*|jövőbeli beszélgetés*|"  # hu
    "milele|kudumu|hifadhi sheria hii|kumbuka sheria hii|hifadhi kanuni hii|kumbuka kanuni hii|"  # sw
    "mazungumzo yote yajayo|"  # sw
    "برای همیشه|به طور دائم|بطور دائم|دائمی|همیشگی|این قانون را به خاطر بسپار*|این قانون را ذخیره کن*|"  # fa
    "این قاعده را به خاطر بسپار*|گفتگوهای آینده|مکالمات آینده|همیشه به خاطر بسپار*|"  # fa
    "magpakailanman|habambuhay|nang permanente|permanenteng patakaran|tandaan ang patakarang ito|"  # tl
    "tandaan mo ang patakarang ito|itago ang patakarang ito|tandaan ang panuntunang ito|"  # tl
    "lahat ng susunod na usapan|palagi mong tandaan|"  # tl
    "চিরকালের জন্য|চিরদিনের জন্য|স্থায়ী*|স্থায়ী*|এই নিয়মটি মনে রাখো|এই নিয়মটি মনে রাখুন|"  # bn
    "এই নিয়মটি সংরক্ষণ কর*|ভবিষ্যতের সব কথোপকথন*|সবসময় মনে রাখ*|"  # bn
    "ہمیشہ کے لیے|ہمیشہ کے لئے|مستقل طور پر|مستقل اصول|یہ اصول یاد رکھو|یہ اصول یاد رکھیں|"  # ur
    "اس اصول کو یاد رکھیں|اس اصول کو محفوظ کر*|مستقبل کی تمام گفتگو*|آئندہ تمام گفتگو*|"  # ur
    "permanentment|definitivament|per a sempre|regla permanent|norma permanent|recorda aquesta regla|"  # ca
    "desa aquesta regla|guarda aquesta regla|memoritza aquesta regla|totes les converses futures|"  # ca
    "de xeito permanente|de maneira permanente|para todo sempre|garda esta regra|lembra esta regra|"  # gl
    "lembre esta regra|recorda esta regra|tódalas conversas futuras|"  # gl
    "betirako|behin betiko|betiko arau*|iraunkor*|gogoratu arau hau|gorde arau hau|"  # eu
    "etorkizuneko elkarrizketa*|etorkizuneko saio*|"  # eu
    "trajno|zauvijek|zauvek|stalno pravilo|zapamti ovo pravilo|zapamtite ovo pravilo|spremi ovo pravilo|"  # hr/bs/sr
    "sačuvaj ovo pravilo|sačuvajte ovo pravilo|budućim razgovor*|"  # hr/bs/sr
    "naveky|trvalým pravidl*|zapamätaj si toto pravidlo|zapamätajte si toto pravidlo|"  # sk
    "ulož si toto pravidlo|uložte si toto pravidlo|budúcich konverzáci*|budúcich rozhovor*|"  # sk
    "za vedno|za zmeraj|zapomni si to pravilo|zapomnite si to pravilo|shrani to pravilo|"  # sl
    "shranite to pravilo|prihodnjih pogovor*|"  # sl
    "jäädavalt|igaveseks|alatiseks|püsiv*|jäta see reegel meelde|jätke see reegel meelde|"  # et
    "salvesta see reegel|tulevastes vestlus*|"  # et
    "pastāvīg*|uz visiem laikiem|mūžīgi|atceries šo noteikumu|atcerieties šo noteikumu|"  # lv
    "saglabā šo noteikumu|saglabājiet šo noteikumu|turpmākajās sarun*|"  # lv
    "visam laikui|amžinai|nuolatin*|įsimink šią taisyklę|įsiminkite šią taisyklę|"  # lt
    "išsaugok šią taisyklę|išsaugokite šią taisyklę|būsimuose pokalbi*|"  # lt
    "að eilífu|varanleg*|til frambúðar|föst regla|fastaregla|mundu þessa reglu|munið þessa reglu|"  # is
    "vistaðu þessa reglu|framtíðarsamtöl*|"  # is
    "am byth|yn barhaol|parhaol|rheol sefydlog|cofiwch y rheol hon|cofia y rheol hon|cadwch y rheol hon|"  # cy
    "sgyrsiau yn y dyfodol|"  # cy
    "vir altyd|vir ewig|blywend*|permanente reël|vaste reël|onthou hierdie reël|stoor hierdie reël|"  # af
    "bewaar hierdie reël|alle toekomstige gesprekke|"  # af
    "përgjithmonë|përhersh*|mbaj mend këtë rregull|mbani mend këtë rregull|ruaje këtë rregull|"  # sq
    "ruani këtë rregull|bisedat e ardhshme|bisedat e ardhme|"  # sq
    "заувек|заувијек|трајно|стално правило|запамти ово правило|запамтите ово правило|"  # sr
    "сачувај ово правило|сачувајте ово правило|будућим разговор*|"  # sr
    "засекогаш|постојано правило|запомни го ова правило|запомнете го ова правило|"  # mk
    "зачувај го ова правило|зачувајте го ова правило|сите идни разговори|идните разговори|"  # mk
    "завинаги|трайно|перманентно|запомни това правило|запомнете това правило|запази това правило|"  # bg
    "запазете това правило|бъдещи разговор*|"  # bg
    "мәңгі*|біржола|тұрақты ереже|тұрақты түрде|осы ережені есте сақта*|бұл ережені есте сақта*|"  # kk
    "болашақтағы барлық сөйлесу*|барлық болашақ әңгіме*|"  # kk
    "სამუდამოდ|სამარადისოდ|მუდმივ*|დაიმახსოვრე ეს წესი|დაიმახსოვრეთ ეს წესი|შეინახე ეს წესი|"  # ka
    "შეინახეთ ეს წესი|მომავალ საუბრებში|ყველა მომავალ საუბარში|"  # ka
    "ընդմիշտ|հավերժ*|մշտապես|մշտական*|հիշիր այս կանոնը|հիշեք այս կանոնը|պահպանիր այս կանոնը|"  # hy
    "պահպանեք այս կանոնը|ապագա զրույցներ*|"  # hy
    "ለዘለቄታው|ለዘላለም|በቋሚነት|ቋሚ ደንብ|ቋሚ ህግ|ይህንን ደንብ አስታው*|ይህንን ህግ አስታው*|ይህን ደንብ አስታው*|"  # am
    "ይህንን ደንብ አስቀምጥ|የወደፊት ውይይቶች*|"  # am
    "நிரந்தர*|என்றென்றும்|எப்போதும் நினைவில்|இந்த விதியை நினைவில் வை*|இந்த விதியை சேமி*|"  # ta
    "எதிர்கால உரையாடல்*|"  # ta
    "శాశ్వత*|ఎప్పటికీ|ఈ నియమాన్ని గుర్తుంచుకో*|ఈ నియమాన్ని సేవ్ చేయ*|ఈ నియమాన్ని భద్రపరచ*|"  # te
    "భవిష్యత్ సంభాషణల*|"  # te
    "कायमस्वरूपी|कायमचे|कायमसाठी|कायमचा नियम|हा नियम लक्षात ठेवा|हा नियम लक्षात ठेव|"  # mr
    "हा नियम जतन करा|नेहमी लक्षात ठेवा|भविष्यातील संभाषण*|"  # mr
    "सधैंका लागि|सधैँका लागि|सधैंको लागि|स्थायी रूपमा|यो नियम सम्झनुहोस्|यो नियम याद राख|"  # ne
    "यो नियम सुरक्षित गर्नुहोस्|सधैं सम्झनु|भविष्यका सबै कुराकानी*"  # ne
)

#: "(the instructions) that I gave you", "that I asked for" (round 13): instructions the writer
#: owns, named after the noun, so a request to drop them corrects the writer's own words
#: ("olvida las instrucciones de formato que te di antes"), as "my instructions" does before it.
I_GAVE = (
    "que te di|que te he dado|que te había dado|que te pedí|que te indiqué|que le di|"  # es
    "que je t'ai donné*|que je vous ai donné*|que je t'ai demandé*|que je vous ai demandé*|"  # fr
    "die ich dir gegeben|die ich ihnen gegeben|die ich dir gesagt|um die ich dich gebeten|"  # de
    "che ti ho dato|che ti avevo dato|che ti ho chiesto|che le ho dato|"  # it
    "que te dei|que eu te dei|que te pedi|que lhe dei|"  # pt
    "die ik je gaf|die ik je heb gegeven|die ik je gegeven|waar ik om vroeg|"  # nl
    "które ci dałem|które ci dałam|które ci podałem|które ci podałam|o które prosiłem|o które prosiłam|"  # pl
    "som jag gav dig|som jag bad om|som jeg gav deg|som jeg gav dig|"  # sv, no, da
    "sana verdiğim|size verdiğim|"  # tr
    "которые я тебе дал*|которые я вам дал*|что я тебе дал*|которые я просил*|які я тобі дав*|які я вам дав*|"  # ru, uk
    "私が出した|さっき伝えた|私が頼んだ|先ほどお願いした|我之前给你的|我刚才给你的|我给你的|我之前说的|"  # ja, zh
    "내가 준|제가 드린|내가 말한|제가 말씀드린|"  # ko
    "जो मैंने दिए थे|जो मैंने दी थी|जो मैंने कहा था|التي أعطيتك|التي أعطيتها لك|التي طلبتها|שנתתי לך|שביקשתי|"  # hi, ar, he
    "tôi đã đưa|mình đã đưa|tôi đã dặn|yang saya berikan|yang tadi saya berikan|yang saya minta"  # vi, id
)
