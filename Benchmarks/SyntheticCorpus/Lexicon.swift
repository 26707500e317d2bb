/// Fixed word lists and alphabets the generated vocabulary is built from.
///
/// Everything here is data, chosen to look like the text of a short-video app's Discover page.
enum Lexicon {
  /// Common short-video words in rough order of popularity, function words first as in any
  /// English text: the Latin part of the vocabulary's head (ranks 0 to about 350, where Zipf
  /// puts about half of all word occurrences).
  static let latinHead: [String] = """
    the a to and my of in is this with for you i it on me fyp viral funny dance challenge \
    trending cat love cute video new dog music food cooking recipe day life vlog tutorial easy how diy \
    hack tips makeup outfit fashion style beauty skincare hair nails fitness workout gym \
    yoga pets puppy kitten baby family mom dad kids school study prank comedy meme reaction \
    duet trend pov storytime relatable mood vibes aesthetic summer winter christmas halloween \
    birthday wedding party travel beach city nature sunset car football soccer basketball \
    gaming game minecraft anime art drawing painting photography asmr satisfying slime lol \
    omg wow best top first time world home room kitchen breakfast lunch dinner dessert cake \
    pizza pasta chicken coffee tea vegan healthy spicy street chef baking bread cookies \
    chocolate ice cream fruit smoothie guitar piano cover singing rap remix live concert \
    karaoke choreography boyfriend girlfriend couple friends bestie wholesome sad happy \
    crazy epic fail win lifehack cleaning organize motivation quotes books booktok reading \
    learn science facts history space animals wildlife ocean fish bird horse farm garden \
    plants flowers rain snow morning night routine grwm ootd haul unboxing review tech \
    iphone phone money business edit transition filter effect glowup before after magic \
    trick skateboard surf hiking camping running when what why part real wait end secret \
    try first little big small old young girl boy queen king lover fan official daily \
    shorts cooking tiktok foryou explore fun insane perfect amazing beautiful weird \
    hilarious scary creepy cozy chill lazy sunday monday weekend holiday vacation road trip \
    dog mukbang noodles ramen sushi tacos burger fries salad soup steak eggs pancakes \
    waffles donut candy tutorial makeover thrift vintage shopping sneakers shoes dress \
    jewelry tattoo piercing cat kitty bunny hamster parrot turtle lizard snake shark \
    whale dolphin penguin panda bear lion tiger monkey elephant giraffe zebra
    """.split(separator: " ").map(String.init)

  /// Function words from the head, which make poor usernames and hashtag parts (`the.eats`,
  /// `TheBeautyA`); `my` is kept, as in `MyDayVlog`.
  static let functionWords: Set<String> = [
    "the", "a", "to", "and", "of", "in", "is", "this", "with", "for", "you", "i", "it", "on",
    "me", "how", "what", "when", "why",
  ]

  /// Accented Latin words, real ones, for the head and as seeds for accented tail words.
  static let accentedHead: [String] = [
    "café", "niño", "über", "façade", "crème", "jalapeño", "piñata", "señorita", "résumé",
    "naïve", "brûlée", "açaí", "pokémon", "déjà", "fiancée", "crêpe", "smörgåsbord", "straße",
    "mañana", "corazón", "canción", "música", "fútbol", "años", "pâtisserie", "français",
  ]

  /// Real non-Latin short-video words and emoji, placed in the vocabulary's head so that
  /// non-Latin text is common, not only in the long tail.
  static let nonLatinHead: [(String, WordScript)] = [
    ("🔥", .emoji), ("ダンス", .japanese), ("😂", .emoji), ("猫", .japanese), ("跳舞", .chinese),
    ("댄스", .korean), ("❤️", .emoji), ("東京", .japanese), ("音乐", .chinese), ("แมว", .thai),
    ("고양이", .korean), ("танцы", .cyrillic), ("💃🏽", .emoji), ("料理", .japanese),
    ("美食", .chinese), ("เต้น", .thai), ("먹방", .korean), ("кот", .cyrillic), ("😍", .emoji),
    ("かわいい", .japanese), ("搞笑", .chinese), ("χορός", .greek), ("👩‍🍳", .emoji),
    ("面白い", .japanese), ("猫咪", .chinese), ("노래", .korean), ("อาหาร", .thai),
    ("музыка", .cyrillic), ("✨", .emoji), ("犬", .japanese), ("日常", .chinese),
    ("브이로그", .korean), ("ตลก", .thai), ("рецепт", .cyrillic), ("γάτα", .greek),
    ("🥰", .emoji), ("日本", .japanese), ("可爱", .chinese), ("강아지", .korean),
    ("смешно", .cyrillic), ("μουσική", .greek), ("😭", .emoji), ("👍🏻", .emoji),
    ("ラーメン", .japanese), ("旅行", .chinese), ("🐱", .emoji),
  ]

  /// Real hashtags for the head of the hashtag vocabulary, most popular first. Case is as
  /// creators write them; no two are equal ignoring case.
  static let hashtagHead: [String] = [
    "fyp", "foryou", "viral", "foryoupage", "trending", "tiktok", "funny", "dance",
    "DanceChallenge", "comedy", "love", "cute", "CatsOfTikTok", "fypシ", "foodtok", "recipe",
    "cooking", "BookTok", "music", "challenge", "duet", "pov", "meme", "DogsOfTikTok", "cat",
    "dog", "fashion", "OOTD", "grwm", "makeup", "MakeupTutorial", "skincare", "fitness",
    "GymTok", "workout", "travel", "TravelTok", "asmr", "satisfying", "art", "DIY", "LifeHack",
    "LearnOnTikTok", "xyzbca", "parati", "pourtoi", "fürdich", "humor", "storytime",
    "relatable", "aesthetic", "vibes", "summer", "halloween", "christmas", "football", "NBA",
    "GameDay", "TransitionChallenge", "WhatIEatInADay", "CleanTok", "PlantTok", "momlife",
    "DadsOfTikTok", "couplegoals", "explore", "anime", "gaming", "foodie", "EasyRecipe",
    "ダンス", "猫", "美食", "먹방", "แมว", "танцы", "baile", "receta", "comida", "tiktokfood",
  ]

  /// Roles that complete a username or a display name (`dance_queen`, `chef.mario`).
  static let usernameRoles: [String] = """
    queen king lover fan girl boy chef official daily life vibes tv studio kitchen world \
    club crew squad fam diaries journey stories time hub zone lab house mama papa baby \
    addict nerd geek guru pro master artist maker dancer singer gamer cooks eats travels \
    tok clips media films nation central hq fit style beauty music comedy pets food art diy
    """.split(separator: " ").map(String.init)

  /// Syllable onsets for English-like pseudo-words; the empty onset makes vowel-initial words.
  static let onsets: [String] = [
    "b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "z",
    "br", "ch", "cl", "cr", "dr", "fl", "gr", "pl", "pr", "sh", "sl", "sp", "st", "th", "tr",
    "qu", "", "", "b", "d", "l", "m", "r", "s", "t",
  ]
  /// Syllable nuclei (vowels) for pseudo-words.
  static let nuclei: [String] = [
    "a", "e", "i", "o", "u", "a", "e", "i", "o", "ai", "ea", "ee", "oo", "ou", "y", "io",
  ]
  /// Syllable codas for pseudo-words; empty codas dominate, as in English.
  static let codas: [String] = [
    "", "", "", "", "", "n", "r", "s", "l", "m", "t", "k", "ng", "x", "st", "nd", "ck",
  ]
  /// Accented replacements for plain vowels and consonants, used to make accented tail words.
  static let accentReplacements: [Character: [String]] = [
    "a": ["á", "à", "â", "ä", "ã", "å"], "e": ["é", "è", "ê", "ë"], "i": ["í", "î", "ï"],
    "o": ["ó", "ô", "ö", "õ", "ø"], "u": ["ú", "ü", "û"], "n": ["ñ"], "c": ["ç"], "s": ["ş", "ß"],
  ]

  /// Cyrillic consonants and vowels for Russian-like pseudo-words.
  static let cyrillicConsonants = chars("бвгджзклмнпрстфхцчш")
  /// Cyrillic vowels.
  static let cyrillicVowels = chars("аеиоуыяюэ")
  /// Greek consonants; a final `σ` is written `ς`.
  static let greekConsonants = chars("βγδζθκλμνξπρστφχ")
  /// Greek vowels, some with the tonos accent.
  static let greekVowels = chars("αεηιουωάέίόύ")
  /// Katakana syllables (ン and the long-vowel mark ー are added by the word builder).
  static let katakana = chars(
    "アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワ"
      + "ガギグゲゴザジズゼゾダデドバビブベボパピプペポ")
  /// Hiragana syllables.
  static let hiragana = chars(
    "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわ")
  /// Common kanji.
  static let kanji = chars(
    "東京猫犬料理食日本人大小山川花海空雨雪春夏秋冬愛友家学生音楽動画旅行美味新古早朝夜道店町"
      + "森木水火光風星月心歌舞踊笑顔手足目口赤青白黒金服車駅島魚鳥馬肉米茶菓子")
  /// Common simplified Chinese characters.
  static let hanzi = chars(
    "跳舞音乐美食搞笑猫咪狗我你好大小中国人天生活日常视频今快开心吃喝玩学习工作旅行城市风景花"
      + "草山水海边朋友家妈爸宝贝可爱漂亮帅哥女唱歌做饭菜甜品早餐夜宵新年春节")
  /// Thai consonants.
  static let thaiConsonants = chars("กขคงจชซดตถทนบปผพฟมยรลวสหอ")
  /// Emoji that take a Fitzpatrick skin-tone modifier (Unicode TR51).
  static let toneableEmoji = chars("💃👍👋🙌👏💪🤳🙋👌🤞")
  /// The five Fitzpatrick skin-tone modifiers, U+1F3FB to U+1F3FF. Built from scalars: as a
  /// string the five form one grapheme cluster, since modifiers extend what precedes them.
  static let skinTones = (0x1F3FB...0x1F3FF).compactMap(Unicode.Scalar.init).map { String($0) }
  /// Single emoji without modifiers.
  static let plainEmoji = chars(
    "🔥😂😍🥰😭✨🙏👀💯🎉🎶🐱🐶🍕🍜🍣☕🌸🌈⭐🌙🏀⚽🎮📚👑💀🤣😎🤔🥺💖🍰🍩🌮🍔🌊🎸🎤🎬📸")
  /// Zero-width-joiner sequences, each one grapheme (Unicode TR51), some with skin tones.
  static let zwjEmoji: [String] = [
    "👩‍🍳", "👨‍🍳", "👩‍🎤", "👨‍💻", "👩‍💻", "🧑‍🎨", "👨‍👩‍👧", "👨‍👩‍👧‍👦", "🏳️‍🌈", "🐻‍❄️", "😮‍💨",
    "❤️‍🔥", "🧑🏽‍🍳", "👩🏾‍🎤",
  ]

  private static func chars(_ text: String) -> [String] {
    text.map(String.init)
  }
}
