"""The words of an instruction to the agent in languages other than English (pure data):
per concept ("drop", "rules", "from now on", ...), the words that say it in 27 languages
(Spanish, French, German, Italian, Portuguese, Dutch, Polish, Swedish, Danish, Norwegian,
Finnish, Czech, Romanian, Turkish, Russian, Ukrainian, Greek, Arabic, Hebrew, Hindi,
Indonesian and Malay, Vietnamese, Thai, Chinese, Japanese, Korean), written for Hindsight
from the languages themselves, not from any corpus.

An English rule can name a phrase; across 27 languages the phrases are too many, so
``screening_foreign`` looks for concepts that occur together in one sentence ("drop" and
"rules": an override; "from now on" and "answer": a standing order). The vocabulary is
kept to the words an order to an agent needs, in their common forms.

Notation, per term: ``word`` matches the whole word, ``stem*`` any word it begins (the
inflections: "instrukcj*" for "instrukcji", "instrukcje"), ``two words`` the words in a
row (the last one may be a stem). Terms in scripts written without spaces (Chinese,
Japanese, Thai) match anywhere. A leading ``=`` marks a term that is also English
("instructions", "prompt"): it counts towards a concept but a finding needs at least one
term that is not, so English text is left to the English rules.
"""

from __future__ import annotations

from hindsight_common.security.screening_lexicon_more import MORE
from hindsight_common.security.screening_lexicon_persist import I_GAVE, PERSIST

CONCEPTS: dict[str, str] = {
    # "ignore / forget / disregard / no longer valid"
    "drop": (
        "ignora|ignoren|ignorá|olvida*|olvide*|descarta*|omite|omitan|haz caso omiso|pasa por alto|"
        "deja de lado|no hagas caso|no tengas en cuenta|ya no son válid*|ya no aplican|"  # es
        "=ignore|ignorez|ignorer|oublie|oubliez|oublier|ne tiens pas compte|ne tenez pas compte|"
        "fais abstraction|faites abstraction|laisse de côté|laissez de côté|ne sont plus valables|"
        "ne s'appliquent plus|"  # fr
        "ignorier*|vergiss|vergessen sie|missacht*|beachte nicht|beachten sie nicht|außer acht|verwirf|"
        "gelten nicht mehr|ungültig|hinfällig|"  # de
        "ignora|ignori|dimentica|dimenticate|trascura|non tenere conto|lascia perdere|metti da parte|"
        "non valgono più|"  # it
        "esqueça|esqueca|esquece|esqueçam|desconsidere|desconsidera|deixe de lado|não leve em conta|"
        "não valem mais|não se aplicam mais|"  # pt
        "negeer|vergeet|laat varen|sla over|trek je niets aan|gelden niet meer|niet langer geldig|"  # nl
        "zignoruj|ignoruj|zapomnij|pomiń|pomin|porzuć|nie zwracaj uwagi|nie obowiązują|"  # pl
        "ignorera|strunta i|glöm|bortse från|gäller inte längre|"  # sv
        "ignorer|glem|se bort fra|gælder ikke længere|gjelder ikke lenger|"  # da, no
        "ohita|unohda|jätä huomiotta|älä välitä|eivät ole enää voimassa|"  # fi
        "ignoruj|zapomeň|nevšímej si|už neplatí|"  # cs
        "ignoră|uită|nu ține cont|nu mai sunt valabile|"  # ro
        "yok say|görmezden gel|unut|dikkate alma|artık geçerli değil|"  # tr
        "игнорируй|проигнорируй|игнорировать|забудь|забудьте|не обращай внимания|отбрось|не учитывай|"
        "больше не действуют|недействительн*|"  # ru
        "ігноруй|проігноруй|забудь|не зважай|відкинь|більше не діють|"  # uk
        "αγνόησε|αγνοήστε|ξέχασε|ξεχάστε|δεν ισχύουν πλέον|"  # el
        "تجاهل|وتجاهل|انس|إنس|لا تلتفت|لم تعد سارية|"  # ar
        "התעלם|התעלמי|התעלמו|שכח|שכחי|כבר לא תקפות|"  # he
        "अनदेखा|नज़रअंदाज़|नजरअंदाज|भूल जाओ|भूल जाइए|भूल जाएं|"  # hi
        "abaikan|lupakan|hiraukan|acuhkan|tidak berlaku lagi|"  # id, ms
        "bỏ qua|phớt lờ|lờ đi|quên|không còn hiệu lực|"  # vi
        "เพิกเฉย|ละเว้น|ลืม|ไม่ต้องสนใจ|ไม่มีผลอีกต่อไป|"  # th
        "忽略|无视|無視|忽视|忽視|不要理会|不要理會|忘记|忘記|忘掉|别管|別管|抛开|拋開|作废|作廢|无效|無效|"
        "不再适用|不再適用|失效|"  # zh
        "無視|忘れ|無効|破棄|従わな|"  # ja
        "무시*|잊어*|잊으*|잊고|무효*|따르지 마*|παράβλεψ*|δεν ισχύουν πια|vorgegeben|تجاوز|وتجاوز"  # ko
    ),
    # "previous / earlier / original / all"
    "earlier": (
        "anterior|anteriores|previa|previas|previo|previos|=original*|de antes|"  # es, pt
        "précédent*|antérieur*|=initial*|d'origine|reçues|"  # fr
        "vorherig*|bisherig*|früher*|ursprünglich*|vorigen|zuvor|aufgetragen|"  # de
        "=precedent*|originali|prima|"  # it
        "prévia|prévias|prévio|prévios|anteriormente|"  # pt
        "vorige|eerdere|eerder|oorspronkelijk*|voorgaande|"  # nl
        "wcześniej*|poprzedni*|dotychczasow*|"  # pl
        "tidigare|föregående|ursprungliga|tidligere|forrige|oprindelig*|opprinnelig*|"  # sv, da, no
        "aiemm*|edelli*|"  # fi
        "předchozí*|dřívější*|původní*|"  # cs
        "anterioare|precedente|"  # ro
        "önceki|daha önce|eski|"  # tr
        "предыдущ*|прежн*|ранее|исходн*|"  # ru
        "попередн*|раніше|"  # uk
        "προηγούμεν*|αρχικ*|"  # el
        "السابقة|السابق|"  # ar
        "הקודמות|הקודמים|הקודם|"  # he
        "पिछले|पिछली|पहले|"  # hi
        "sebelumnya|"  # id
        "trước đó|"  # vi
        "ก่อนหน้า|เดิม|"  # th
        "之前|以前|先前|上面|上述|此前|原来|原來|原有|"  # zh
        "これまで|以前|前の|元の|先の|"  # ja
        "이전*|기존*|지금까지"  # ko
    ),
    # "instructions / rules / guidelines / restrictions / what you were told"
    "rules": (
        "instrucci*|reglas|indicaciones|directrices|pautas|restricciones|"  # es
        "=instruction*|consigne*|règles|=directives|=restrictions|"  # fr
        "anweisung*|regeln|instruktion*|vorgabe*|richtlinie*|einschränkung*|beschränkung*|aufgetragen|"  # de
        "istruzion*|regole|direttive|indicazioni|restrizioni|"  # it
        "instruções|instrução|instrucoes|instrucao|regras|diretrizes|orientações|restrições|"  # pt
        "instructies|regels|richtlijnen|opdrachten|opgedragen|beperkingen|"  # nl
        "polece*|instrukcj*|zasad*|wytyczn*|reguł*|ogranicze*|"  # pl
        "instruktion*|regler*|riktlinjer*|begränsning*|instruks*|retningslinjer*|begrænsning*|begrensning*|"  # sv da no
        "ohje*|sääntö*|säännö*|rajoitu*|"  # fi
        "pokyn*|instrukc*|pravidl*|omezení|"  # cs
        "instrucțiun*|instructiun*|reguli*|restricții|restricțiile|restrictii|"  # ro
        "talimat*|kural*|yönerge*|kısıtlama*|"  # tr
        "инструкци*|правил*|указани*|ограничени*|промпт*|установк*|"  # ru
        "інструкці*|правил*|вказівк*|обмежен*|"  # uk
        "οδηγίες|οδηγιών|κανόνες|κανόνων|περιορισμ*|"  # el
        "التعليمات|تعليمات|القواعد|الأوامر|القيود|"  # ar
        "ההוראות|הוראות|הכללים|ההנחיות|הנחיות|המגבלות|"  # he
        "निर्देश*|नियम*|प्रतिबंध*|"  # hi
        "instruksi|perintah|aturan|pedoman|batasan|arahan|"  # id
        "hướng dẫn|chỉ dẫn|quy tắc|chỉ thị|giới hạn|"  # vi
        "คำสั่ง|กฎ|ข้อจำกัด|"  # th
        "指令|指示|规则|規則|提示词|提示詞|命令|设定|設定|限制|规定|規定|"  # zh
        "ルール|制限|プロンプト|"  # ja
        "지시*|지침*|규칙*|명령*|제한*|프롬프트*|vorgegeben|droits|权限|權限|規範|规范|安全規範"  # ko
    ),
    # "the system prompt"
    "system prompt": (
        "prompt del sistema|prompt de sistema|invite système|prompt système|systemprompt*|systemanweisung*|"
        "prompt di sistema|prompt do sistema|systeemprompt*|prompt systemow*|järjestelmäkehote*|"
        "systémový prompt|promptul de sistem|sistem istemi*|sistem komut*|системный промпт|системную подсказку|"
        "системные инструкции|системний промпт|системні інструкції|προτροπή συστήματος|موجه النظام|"
        "تعليمات النظام|הנחיית המערכת|सिस्टम प्रॉम्प्ट|prompt sistem|lời nhắc hệ thống|พรอมต์ระบบ|"
        "系统提示|系統提示|系统指令|系統指令|システムプロンプト|시스템 프롬프트*"
    ),
    # "from now on"
    "from now on": (
        "a partir de ahora|de ahora en adelante|desde ahora|en adelante|"  # es
        "désormais|dorénavant|à partir de maintenant|à partir d'aujourd'hui|"  # fr
        "ab sofort|von nun an|ab jetzt|künftig|in zukunft|fortan|"  # de
        "d'ora in poi|da ora in poi|d'ora in avanti|da adesso in poi|"  # it
        "de agora em diante|a partir de agora|daqui em diante|daqui pra frente|"  # pt
        "vanaf nu|voortaan|van nu af aan|in het vervolg|"  # nl
        "od teraz|od tej chwili|odtąd|od dziś|od dzisiaj|"  # pl
        "från och med nu|hädanefter|framöver|fra nu af|fremover|heretter|fra nå av|"  # sv da no
        "tästä lähtien|jatkossa|tästä eteenpäin|"  # fi
        "od teď|od nynějška|napříště|"  # cs
        "de acum înainte|de acum încolo|"  # ro
        "bundan sonra|bundan böyle|artık|"  # tr
        "с этого момента|отныне|впредь|с сегодняшнего дня|теперь всегда|"  # ru
        "відтепер|з цього моменту|надалі|"  # uk
        "από εδώ και πέρα|από τώρα και στο εξής|στο εξής|"  # el
        "من الآن فصاعدا|من الآن فصاعدًا|من الآن|"  # ar
        "מעכשיו|מהיום|מעתה|"  # he
        "अब से|आज से|आगे से|"  # hi
        "mulai sekarang|mulai saat ini|mulai hari ini|seterusnya|"  # id
        "từ giờ|từ nay|từ bây giờ|"  # vi
        "ต่อจากนี้|จากนี้ไป|ตั้งแต่นี้|"  # th
        "从现在开始|從現在開始|从现在起|從現在起|从今以后|從今以後|今后|往后|"  # zh
        "今後|これから|今から|以降|"  # ja
        "앞으로|지금부터|이제부터|향후|自即日起|即日起|从今天起|從今天起"  # ko
    ),
    # "answer / reply / recommend / mention / tell / say"
    "answer": (
        "respuesta*|responde|responder|respondan|respondas|contesta*|recomienda*|menciona*|dile|diles|"
        "di que|digas|decir|"  # es
        "réponse*|réponds|répondez|recommande*|mentionne*|dis-lui|dites|dis que|"  # fr
        "antwort*|antworte*|empfiehl*|empfehle*|erwähne*|sag|sagen sie|"  # de
        "rispost*|rispondi|rispondil*|rispondigli|rispondete|consiglia*|raccomanda*|menziona*|digli|dille|di' che|"  # it
        "resposta*|responda*|recomende*|recomenda*|mencione*|diga|diz|dizer|"  # pt
        "antwoord*|reactie*|aanbevel*|noem|zeg|zegt|"  # nl
        "odpowied*|odpowiadaj*|poleć|polecaj|wspomnij|wspominaj|powiedz|mów|"  # pl
        "svar*|rekommendera*|nämn|säg|anbefal*|nævn|nevn|"  # sv da no
        "vastau*|vastaa|suosittele*|mainitse|sano|kerro|"  # fi
        "odpověď*|odpověz|odpovídej|doporuč*|zmiň|řekni|"  # cs
        "răspuns*|răspunde|recomandă|menționează|spune|"  # ro
        "yanıt*|cevap*|öner*|bahset*|söyle*|"  # tr
        "ответ*|отвечай|рекомендуй|советуй|упоминай|скажи|говори|сообщи|"  # ru
        "відповід*|рекомендуй|згадуй|скажи|кажи|"  # uk
        "απάντησ*|απάντα|πρότεινε|ανέφερε|πες|"  # el
        "إجابة|إجابات|اجابة|ردود|أجب|اذكر|قل|أخبر|"  # ar
        "תשובה|תשובות|ענה|עני|המלץ|תמליץ|ציין|תגיד|אמור|"  # he
        "जवाब|उत्तर|सुझाव|बताओ|बताएं|बताइए|कहो|कहें|"  # hi
        "jawaban|jawab|rekomendasikan|sarankan|sebutkan|katakan|bilang|"  # id
        "câu trả lời|trả lời|giới thiệu|đề xuất|khuyên|nói|"  # vi
        "คำตอบ|ตอบ|แนะนำ|บอก|"  # th
        "回答|回复|回覆|推荐|推薦|告诉|告訴|就说|就說|提到|"  # zh
        "返答|答え|勧め|すすめ|言って|伝え|"  # ja
        "답변*|대답*|답하*|추천*|말하*|언급*|알려*|berätta|fortæl|fortell|podaj|فأخبر*|أخبر*|فقل|قل له|напиши|напишите|"
        "напиши|escribe|écris|schreib|scrivi|escreva|schrijf|napisz|skriv|kirjoita|napiš|scrie|yaz|напиши|"
        "γράψε|اكتب|כתוב|लिखो|tulis|viết|เขียน|写|寫|書いて|써*|작성*"  # ko
    ),
    # "if / when ... asks"
    "if": (
        "si|cuando|quand|lorsque|wenn|se|quando|als|indien|wanneer|jeśli|jeżeli|gdy|om|när|hvis|når|"
        "jos|kun|pokud|když|dacă|când|eğer|если|когда|якщо|коли|αν|όταν|إذا|اذا|عندما|אם|כאשר|"
        "अगर|यदि|जब|jika|kalau|apabila|bila|nếu|khi|"
        "ถ้า|หาก|เมื่อ|如果|若|要是|たら|場合|なら|"
        "-면|경우|gdyby|-rsa|一旦|只要|每当|每當|再问|再問"
    ),
    "ask": (
        "pregunt*|demande*|fragt|fragen|erkundigt|chiede|chieda|domanda|pergunt*|vraagt|vragen|zapyta*|pyta*|"
        "frågar|spør*|spørger|kysyy|kysyvät|zeptá*|ptá*|întreabă|sorar*|soru*|спросит|спрашива*|запита*|пита*|"
        "ρωτήσει|ρωτά|سأل|يسأل|سألك|يسألك|يسألكم|تسألك|ישאל|שואל|पूछे|पूछता|पूछती|bertanya|menanyakan|tanya|hỏi|ถาม|"
        "问|問|询问|詢問|尋ね|聞い|質問|聞かれ|물으*|묻*|질문*|문의*"
    ),
    # "the user / someone / anyone / a customer"
    "audience": (
        "usuario*|alguien|cliente*|utilisateur*|quelqu'un|nutzer*|benutzer*|jemand|kunde*|utente|qualcuno|"
        "usuário*|utilizador*|alguém|gebruiker*|iemand|klant*|użytkownik*|ktoś|klient*|användare*|någon|kund|"
        "kunden|kunder|"
        "bruger*|bruker*|nogen|noen|käyttäjä*|joku|asiakas*|uživatel*|někdo|zákazník*|utilizator*|cineva|"
        "kullanıcı*|biri|müşteri*|пользовател*|кто-то|кто-нибудь|клиент*|користувач*|хтось|χρήστη*|κάποιος|"
        "πελάτ*|المستخدم|أحد|العميل|המשתמש|מישהו|לקוח|उपयोगकर्ता|यूज़र|कोई|pengguna|seseorang|pelanggan|"
        "người dùng|ai đó|khách hàng|ผู้ใช้|ใคร|ลูกค้า|用户|用戶|使用者|有人|客户|客戶|ユーザー|利用者|誰か|お客|"
        "사용자*|누군가*|고객*|유저*"
    ),
    # "administrator / developer / operator / the system" (who could give orders)
    "role": (
        "administrador*|desarrollador*|operador*|administrateur*|développeur*|opérateur*|entwickler*|betreiber*|"
        "amministrator*|sviluppator*|=operator*|desenvolvedor*|programador*|beheerder*|ontwikkelaar*|"
        "=administrator*|programist*|deweloper*|=administratör*|utvecklare*|utvikler*|udvikler*|ylläpitäjä*|"
        "kehittäjä*|správce|vývojář*|dezvoltator*|yönetici*|geliştirici*|администратор*|разработчик*|"
        "оператор*|адміністратор*|розробник*|διαχειριστ*|προγραμματιστ*|المسؤول|المطور|مدير النظام|מנהל*|"
        "מפתח*|व्यवस्थापक|डेवलपर|एडमिन|pengembang|quản trị viên|nhà phát triển|ผู้ดูแลระบบ|นักพัฒนา|"
        "管理员|管理員|开发者|開發者|开发人员|開發人員|运营方|營運方|管理者|開発者|運営|관리자*|개발자*|운영자*|plateforme|plattform|piattaforma|"
        "plataforma|平台管理|系統公告|系统公告|operatør*|فريق التطوير|التطوير|المطورين|مطور*|служба безопасности|"
        "службы безопасности|служба поддержки|sicherheitsteam|equipo de seguridad|équipe de sécurité|"
        "team sicurezza|equipe de segurança|beveiligingsteam|zespół bezpieczeństwa|säkerhetsteam|"
        "güvenlik ekibi|安全团队|安全團隊|セキュリティチーム|보안팀|보안 팀"
    ),
    # "restrictions lifted / authorised / disable / reveal / show"
    "unlock": (
        "sin restricciones|sin límites|desactiva*|autorizad*|revela|revelar|revele|revelen|muestra|"  # es
        "sans restriction*|sans limite*|désactive*|autorisé*|révèle*|montre|affiche|"  # fr
        "ohne einschränkung*|ohne beschränkung*|deaktivier*|autorisiert|berechtigt|enthülle*|preisgeben|"
        "verrate|zeige|"
        "senza restrizioni|senza limiti|disattiva*|autorizzat*|rivela*|mostra|"  # it
        "sem restrições|sem limites|desative|desativa*|autorizad*|revele|revelar|mostre|"  # pt
        "zonder beperkingen|uitschakel*|schakel uit|gemachtigd|bevoegd|onthul*|toon|"  # nl
        "bez ograniczeń|wyłącz*|upoważnion*|ujawnij|ujawnić|pokaż|"  # pl
        "utan begränsningar|inaktivera*|behörig*|avslöja*|=visa|uten begrensninger|uden begrænsninger|"
        "deaktiver*|autoriser*|avslør*|afslør*|vis|"  # sv da no
        "ilman rajoituksia|poista käytöstä|valtuutettu|paljasta|näytä|"  # fi
        "bez omezení|vypni|vypnout|oprávněn*|prozraď|ukaž|"  # cs
        "fără restricții|dezactivează|autorizat*|dezvăluie|arată|"  # ro
        "kısıtlamasız|sınırsız|devre dışı|yetkili|ifşa|açıkla|göster|"  # tr
        "без ограничений|отключи*|снять|сними|разрешено|раскрой|раскрыть|покажи|выведи|"  # ru
        "без обмежень|вимкни|вимкнути|дозволено|розкрий|виведи|"  # uk
        "χωρίς περιορισμούς|απενεργοποίησ*|εξουσιοδοτ*|αποκάλυψ*|δείξε|"  # el
        "بدون قيود|عطل|مخول|اكشف|اعرض|"  # ar
        "ללא הגבלות|בלי מגבלות|השבת|מורשה|חשוף|הצג|"  # he
        "बिना किसी प्रतिबंध|अक्षम|अधिकृत|प्रकट|दिखाओ|"  # hi
        "tanpa batasan|nonaktifkan|berwenang|diizinkan|ungkapkan|tampilkan|tunjukkan|"  # id
        "không giới hạn|vô hiệu hóa|được phép|tiết lộ|hiển thị|"  # vi
        "ไม่มีข้อจำกัด|ปิดการใช้งาน|ได้รับอนุญาต|เปิดเผย|แสดง|"  # th
        "解除|取消限制|不受限制|无限制|無限制|授权|授權|透露|泄露|洩露|输出|輸出|显示|顯示|"  # zh
        "制限なし|無制限|許可|開示|明かし|出力|表示|見せ|"  # ja
        "해제*|제한 없이|권한*|공개*|누설*|출력*|보여*|levée*|levées|aufgehoben|revocad*|sollevat*|权限|權限|最高权限|最高權限|opheven|"
        "zniesion*|tillatelse|tilladelse|tillstånd|zezwoleni*|izin|разрешени*|дозвіл*|άδεια|إذن|يحق لك|"
        "הרשאה|अनुमति|quyền|สิทธิ์|permiso|autorisation|berechtigung*|permesso|permissão|toestemming"  # ko
    ),
    # "the assistant / the AI / the model"
    "agent": (
        "ia|ki|asistente|=assistant|assistente|assistent*|asystent*|asistan*|ассистент*|асистент*|βοηθ*|"
        "المساعد|الذكاء الاصطناعي|העוזר|בינה מלאכותית|सहायक|एआई|asisten|trợ lý|ผู้ช่วย|ปัญญาประดิษฐ์|"
        "助手|助理|人工智能|アシスタント|어시스턴트*|인공지능*|ии|ші|yapay zeka|tekoäly*|umělá inteligence|"
        "sztuczn* inteligencj*|künstliche intelligenz|intelligence artificielle|inteligencia artificial|"
        "intelligenza artificiale|inteligência artificial|kunstmatige intelligentie|kecerdasan buatan|"
        "trí tuệ nhân tạo|inteligența artificială|asistent*|asistentule|לעוזר|עוזר*|הבינה המלאכותית|מודל*|"
        "модел*|μοντέλο*|模型|モデル|모델*|=model*|modelo*|modèle*|modell*|modello*|chatbot*|챗봇*|聊天机器人|聊天機器人|"
        "チャットボット|avustaja*|에이전트*|エージェント|ии-агент*|агенту|агент|агента|=ai-agent*|ki-agent*|=ai-assistent*|"
        "ki-assistent*"
    ),
    # "you / your" (the reader addressed)
    "you": (
        "tú|tu|tus|usted|tes|=ton|vous|votre|vos|du|dein*|dir|dich|tuo|tua|tuoi|=tue|você|voce|teu|"
        "jij|jouw|uw|ty|twoj*|twój|twoich|cię|din|ditt|dina|=dig|deg|dine|sinä|sinun|sinulle|tvoj*|tvůj|"
        "tvých|tě|tău|sen|senin|sana|ты|твои|твой|твоих|тебе|тебя|вы|ваш*|ти|твої|твій|тобі|εσύ|σου|"
        "σας|أنت|انت|אתה|שלך|לך|तुम|आप|तुम्हारे|आपके|kamu|anda|bạn|คุณ|你|您|あなた|君|너*|당신*|네가|तुम्हें|आपको|"
        "तुमको|sizin|siz|senden|sinulla|sinua|sinut|sinulle"
    ),
    # "my" (a correction of one's own words, not an order to the agent)
    "mine": (
        "mi|mis|mía|mon|mes|mein*|mio|mia|miei|mie|meu|minha|meus|minhas|mijn|mój|moje|moich|moją|min|"
        "mitt|mina|minun|můj|mých|mea|mele|benim|мой|мои|моё|моих|моей|мій|мої|моїх|שלי|मेरे|मेरी|"
        "मेरा|saya|của tôi|ของฉัน|ของผม|我的|私の|僕の|내|제"
    ),
    # "send / forward"
    "send": (
        "envía*|envia*|manda|mándame|mandale|reenvía*|envoie*|envoyez|transfère*|transmets|transmettez|sende|"
        "senden|sendet|schicke*|"
        "schick|leite weiter|invia*|inoltra*|envie|mande|encaminhe|stuur*|verstuur*|wyślij|prześlij|skicka*|"
        "vidarebefordra*|=send|videresend*|lähetä|välitä|pošli|přepošli|trimite*|gönder*|ilet|iletin|отправ*|"
        "перешли|пришли|надішли|στείλε|στείλτε|προώθησε|أرسل|ارسل|שלח|שלחי|העבר|भेजो|भेजें|भेज दो|"
        "kirim|kirimkan|teruskan|gửi|chuyển tiếp|ส่ง|发给|發給|发送|發送|转发|轉發|发到|發到|寄给|寄給|"
        "送信|送って|転送|送れ|보내*|전송*|전달*|pošlete|pošli*|leite|weiterleit*|sendet|envoie-moi|gửi cho|发过来|發過來|寄过来|"
        "أرسل*|فأرسل*|وأرسل*|ارسل*|"
        # the third person and other forms ("let your assistant send ...")
        "envíe|envíen|enviar|mandar|envoyer|transférer|schicken|inviare|enviar|enviem|versturen|wysłać|przesłać|"
        "skicka|sende|lähettää|poslat|přeposlat|pošle|přepošle|trimită|göndersin|göndermesi*|перешле|пошлёт|"
        "отправит|перешлёт|надішле|перешле|відправить|пошаље|проследи|прослиједи|pošalje|proslijedi|"
        "αποστείλει|يرسل|ترسل|ישלח|תשלח|भेजे|भेजें|mengirim*|mengirimkan|anitumie|atume|tuma|"
        "gửi đi|ส่งไป|寄送|送付|보내도록"
    ),
    # what is sent: conversations, history, memories, credentials, user data
    "data": (
        "historial|conversaci*|datos|contraseña*|memorias|recuerdos|historique|données|mots de passe|"
        "mémoires|verlauf|gespräch*|unterhaltung*|daten|passwörter|passwort|erinnerungen|chatverlauf|cronologia|"
        "conversazion*|dati|memorie|histórico|conversas|conversa|dados|senha*|memórias|geschiedenis|gesprek*|"
        "gegevens|wachtwoord*|herinneringen|=histori*|rozmow*|dane|hasła|hasło|wspomnie*|historik*|"
        "konversation*|samtal*|uppgifter|lösenord*|minnen|passord*|adgangskode*|samtaler|keskustelu*|tiedot|"
        "salasan*|konverzac*|údaje|hesla|heslo|istoric*|conversații|conversațiile|conversatii|=parol*|"
        "geçmiş*|konuşma*|sohbet*|"
        "veriler*|şifre*|parola*|истори*|переписк*|разговор*|данные|парол*|воспоминан*|памят*|істор*|"
        "листуван*|розмов*|дані|пам'ят*|ιστορικό|συνομιλ*|δεδομένα|κωδικ*|سجل|المحادثات|المحادثة|البيانات|"
        "كلمات المرور|الذكريات|היסטוריית|השיחות|שיחות|הנתונים|סיסמאות|הזיכרונות|इतिहास|बातचीत|डेटा|पासवर्ड|"
        "riwayat|percakapan|obrolan|kata sandi|memori|ingatan|lịch sử|cuộc trò chuyện|hội thoại|dữ liệu|"
        "mật khẩu|ký ức|ประวัติ|การสนทนา|ข้อมูล|รหัสผ่าน|对话|對話|聊天记录|聊天記錄|记录|記錄|数据|資料|"
        "密码|密碼|记忆|記憶|历史|歷史|会話|履歴|データ|パスワード|メモリ|대화*|기록*|데이터*|비밀번호*|"
        "암호*|기억*|메모리*|paměť|paměti|přihlašovací*|факты|сохранённ*|сохраненн*|gespeichert*|guardad*|"
        "enregistré*|salvat*|opgeslagen|zapisan*|sparade|lagrede|tallennet*|uložen*|kayıtlı|збережен*|"
        "αποθηκευμέν*|المحفوظة|השמור*|सेव|tersimpan|đã lưu|ที่บันทึกไว้|保存的|保存された|저장된|银行卡号|銀行卡號|验证码|驗證碼|"
        "número de tarjeta|numărul cardului|kartennummer|numéro de carte|e-post*|=e-mail*|correos|courriels|"
        "wiadomości|meddelanden|meldinger|viestit|zprávy|mesaje|mesajlar*|сообщения|письма|повідомлення|"
        "μηνύματα|رسائل|الرسائل|הודעות|संदेश|pesan|tin nhắn|邮件|郵件|メール|메일*|메시지*|.env|=credentials|"
        # files and documents
        "archivos|ficheros|documentos|fichiers|dateien|dokumente|documenti|file|arquivos|bestanden|pliki|plików|"
        "dokumenty|filer|tiedostot|soubory|fișiere|fişiere|dosyalar*|belgeler*|файлы|файлів|файли|документы|"
        "документи|αρχεία|έγγραφα|الملفات|ملفات|המסמכים|הקבצים|फ़ाइलें|फाइलें|दस्तावेज़|berkas|dokumen|tệp|tài liệu|"
        "ไฟล์|เอกสาร|文件|檔案|ファイル|書類|파일*|문서*"
    ),
    # where it goes: an address (the signs of a link or mail are added by the matcher)
    "dest": (
        "dirección|adres*|indirizzo|endereço|osoite*|adresă|адрес*|адресу|διεύθυνση|"
        "عنوان|כתובת|पता|पते|alamat|địa chỉ|ที่อยู่|地址|アドレス|주소*|给我|給我|私に|나에게|저에게"
    ),
    # "the AI": English, so it never decides alone, but a page in any language addresses it so
    "ai": "=ai|=a.i",
    # attacks discussed, not made: an article, a training, an example (for quoted attacks)
    "meta": (
        "ataque*|atacante*|inyección|seguridad|phishing|ejemplo*|artículo|estafa*|fraude*|investigador*|"
        "attaque*|attaquant*|=injection|sécurité|exemple*|=article|arnaque*|escroquer*|chercheu*|"
        "angriff*|angreifer*|injektion|sicherheit*|beispiel*|artikel|betrug*|betrüger*|forscher*|schulung*|"
        "attacc*|aggressor*|iniezione|sicurezza|esempio|articolo|truffa*|ricercat*|"
        "injeção|segurança|exemplo*|artigo|golpe*|pesquisador*|"
        "aanval*|aanvaller*|injectie|beveiliging|veiligheid|voorbeeld*|oplichting|oplichter*|onderzoeker*|"
        "atak*|atakując*|wstrzykiwani*|bezpieczeńst*|cyberbezpieczeńst*|przykład*|artykuł*|oszust*|szkoleni*|"
        "angripare*|säkerhet*|exempel|bedrägeri*|forskare|angreb*|angrep*|angriber*|angriper*|sikkerhed*|"
        "sikkerhet*|eksempel|artikkel|svindel*|hyökkä*|tietoturva*|esimerk*|artikkeli*|huijau*|huijari*|"
        "útok*|útočník*|bezpečnost*|příklad*|článk*|článek|podvod*|atacator*|securitate|exemplu*|articol*|"
        "escroc*|saldır*|güvenlik*|örnek*|makale*|dolandırıc*|oltalama|атак*|злоумышленник*|инъекци*|"
        "безопасност*|пример*|стать*|мошенни*|фишинг*|зловмисник*|безпек*|приклад*|статт*|шахра*|"
        "επίθεσ*|επιτιθέμεν*|ασφάλεια*|παράδειγμα|άρθρο|απάτη*|هجوم|الهجوم|هجمات|الهجمات|حقن|التصيد|المهاجم*|مهاجم*|الأمن|الأمان|"
        "مثال|مقال|احتيال|מתקפ*|תוקפ*|התקפ*|אבטח*|דוגמה|מאמר|הונאה|हमला|हमले|हमलावर|सुरक्षा|उदाहरण|लेख|"
        "धोखाधड़ी|serangan|penyerang|keamanan|contoh|penipuan|penipu|tấn công|bảo mật|an ninh|ví dụ|"
        "bài viết|lừa đảo|โจมตี|ความปลอดภัย|ตัวอย่าง|บทความ|หลอกลวง|ฟิชชิง|攻击|攻擊|注入|安全|例如|比如|例子|"
        "文章|博客|诈骗|詐騙|钓鱼|釣魚|攻撃|インジェクション|セキュリティ|例えば|記事|ブログ|詐欺|フィッシング|"
        "공격*|주입*|인젝션*|보안*|예시*|블로그*|사기*|피싱*"
    ),
    # secrets a scam asks for
    "secret": (
        "=otp|=pin|=cvv|contraseña*|clave|mot de passe|passwort|kennwort|senha*|wachtwoord*|hasł*|hasel|"
        "lösenord*|passord*|adgangskode*|salasan*|heslo|hesla|parol*|şifre*|пароль*|пин-код*|κωδικ*|"
        "كلمة المرور|الرمز|סיסמ*|पासवर्ड|पिन|kata sandi|kode|mật khẩu|mã xác nhận|รหัสผ่าน|"
        "密码|密碼|验证码|驗證碼|パスワード|暗証番号|認証コード|비밀번호*|인증번호*|=password*|=passcode*"
    ),
    # "ask them for / have them give" (a request put to the user)
    "request": (
        "pide*|pídele|demande-lui|demandez-lui|fordere*|verlange*|chiedi*|chiedigli|peça|pede|vraag om|"
        "poproś|popros|poproś o|be om|be honom|spør om|pyydä|požádej|cere-i|cere|iste|isteyin|попроси*|"
        "запроси*|попроси|ζήτα|ζήτησε|اطلب|בקש*|मांगो|मांगें|minta|mintalah|yêu cầu|hãy yêu cầu|ขอ|"
        "要求|让他|讓他|请他|請他|求め|요청*|입력하게*"
    ),
    # "never" alone (security advice: "never give your password to anyone")
    "never": (
        "nunca|jamás|jamais|niemals|nie wieder|nooit|nigdy|aldrig|aldri|koskaan|nikdy|niciodată|asla|"
        "никогда|ніколи|ποτέ|أبدا|أبدًا|לעולם|कभी नहीं|jangan pernah|không bao giờ|ห้าม|จะไม่|绝不|絕不|永远不要|"
        "不要照做|请勿|請勿|切勿|"
        "永遠不要|決して|절대*"
    ),
    # "must / is to / is required to" (an obligation laid on someone)
    "must": (
        "debe|deben|debes|tiene que|doit|doivent|dois|muss|müssen|musst|ist verpflichtet|deve|devono|devi|"
        "moet|moeten|musi|muszą|musisz|måste|må|skal|pitää|täytyy|on velvollinen|musí|trebuie|zorunda|"
        "zorundasın|должен|должна|должно|обязан|предписано|повинен|повинна|зобов'язаний|πρέπει|يجب|عليك|"
        "חייב|חייבת|עליך|चाहिए|होगा|harus|wajib|phải|ต้อง|必须|必須|務必|务必|なければ|ください|해야*|하십시오|"
        "하세요|-해야"
    ),
    # "without telling / keep it from / don't mention" (concealment from the person concerned)
    "conceal": (
        "sin decírselo|sin avisar|sin informar|no se lo digas|no le digas|oculta|sans le dire|sans prévenir|"
        "ne le dis pas|=cache|verschweige*|ohne es zu sagen|ohne zu erwähnen|sag es nicht|senza dirlo|"
        "senza avvisare|non dirlo|nascondi|sem contar|sem avisar|não conte|esconda|zonder te melden|"
        "vertel het niet|verzwijg*|nie mów|nie informuj|ukryj|utan att nämna|utan att berätta|säg inte|"
        "uten å si|ikke fortell|uden at sige|kertomatta|älä kerro|aniž bys|neříkej|fără să|nu-i spune|"
        "söylemeden|haber vermeden|söyleme|не сообщай|не говори|не сообщая|скрой|скрывай|не кажи|не повідомляй|"
        "χωρίς να|μην πεις|دون أن تخبره|دون إخبار|لا تخبر|لا تذكر|لا تذكري|בלי לספר|אל תספר|אל תציג|אל תגלה|אל תזכיר|בלי להזכיר|बताए बिना|मत बताना|मत बताओ|"
        "tanpa memberi tahu|jangan beri tahu|jangan bilang|đừng nói|không cho biết|ไม่ต้องบอก|อย่าบอก|"
        "不要告诉|不要告訴|别告诉|別告訴|隐瞒|隱瞞|言わずに|伝えずに|知らせずに|黙って|알리지 마*|말하지 마*|몰래"
    ),
    # "every / all" (of the agent's answers)
    "every": (
        "cada|todas|todos|chaque|toutes|tous|jede*|allen|alle|ogni|tutte|tutti|elke|elk|każd*|wszystkich|"
        "wszystkie|varje|hver|hvert|jokai*|kaikki*|každ*|všech|všechny|fiecare|toate|=her|tüm|кажд*|всех|"
        "все|кожн*|всіх|усіх|κάθε|όλες|όλα|كل|جميع|כל|हर|प्रत्येक|setiap|semua|mỗi|mọi|tất cả|ทุก|"
        "每次|每个|每個|每一|所有|すべての|全ての|毎回|모든|매번"
    ),
    # "always / never"
    "always": (
        "siempre|nunca|jamás|toujours|jamais|immer|niemals|sempre|altijd|nooit|zawsze|nigdy|alltid|"
        "aldrig|aldri|aina|koskaan|vždy|nikdy|întotdeauna|mereu|niciodată|daima|asla|her zaman|всегда|никогда|"
        "завжди|ніколи|πάντα|ποτέ|دائما|دائمًا|أبدا|أبدًا|תמיד|לעולם|हमेशा|कभी|selalu|jangan pernah|luôn|"
        "không bao giờ|เสมอ|ห้าม|总是|總是|始终|始終|永远|永遠|绝不|絕不|常に|必ず|決して|항상|반드시|절대*"
    ),
    # an AI "reading / summarising / processing" this content
    "reading": (
        "=lee|leyendo|=resume|resumiendo|procesa|=lit|lisant|=résume|résumant|liest|zusammenfasst|verarbeitet|"
        "legge|riassume|elabora|lendo|resumindo|leest|samenvat|verwerkt|czyta|czytający|streszcza|"
        "przetwarza|läser|sammanfattar|leser|læser|oppsummerer|opsummerer|lukee|tiivistää|käsittelee|čte|"
        "shrnuje|zpracovává|citește|rezumă|procesează|okuyan|özetleyen|işleyen|читающ*|читает|обрабатывающ*|"
        "пересказывающ*|читає|підсумовує|обробляє|διαβάζει|συνοψίζει|يقرأ|يلخص|שקורא|שמסכם|קורא|पढ़ रहे|"
        "पढ़ने वाले|सारांश|membaca|merangkum|memproses|đang đọc|tóm tắt|อ่าน|สรุป|阅读|閱讀|读取|讀取|总结|"
        "總結|摘要|読んで|読み込|要約|읽는*|읽고*|요약*|rezum*|samenvatten|підсумову*"
    ),
}

for _concept, _terms in MORE.items():
    CONCEPTS[_concept] = CONCEPTS[_concept] + "|" + _terms if _concept in CONCEPTS else _terms
#: "permanently", "save this rule": a rule planted for good (round 9).
CONCEPTS["persist"] = PERSIST
#: "that I gave you": the writer's own instructions, named after the noun (round 13).
CONCEPTS["i_gave"] = I_GAVE


#: Scripts written without spaces between words: their terms match anywhere.
UNSPACED = ((0x3040, 0x30FF), (0x3400, 0x9FFF), (0xF900, 0xFAFF), (0x0E00, 0x0E7F))
