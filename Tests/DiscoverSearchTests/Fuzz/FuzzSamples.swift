import Foundation

@testable import DiscoverSearch

/// The documents, index, trending content and index directory the fuzz targets run their
/// inputs against. Built the same way in every process, so that an input saved by a fuzzer
/// means the same in a regression test.
enum FuzzSamples {
  /// Real-looking documents of every type, in the corpus format, with the hard text
  /// searches meet: accents (composed and not), emoji sequences, Thai, Japanese, Turkish,
  /// full-width letters, hashtags and mentions.
  static let corpusLines: [String] = [
    #"{"type":"user","id":"UCoUM-UJ7rirJYP8CQ0EIaHA","username":"brunomars","displayName":"Bruno Mars","bio":"Bruno Mars official","followerCount":39200000,"verified":true}"#,
    #"{"type":"user","id":"UC7_YxT-KID8kRbqZo7MyscQ","username":"markiplier","displayName":"Markiplier","followerCount":37000000}"#,
    #"{"type":"user","id":"u-dance","username":"dance_queen","displayName":"Dance Queen 💃🏽","bio":"daily #dance tutorials","followerCount":12000,"verified":false}"#,
    #"{"type":"user","id":"u-thai","username":"thai_cook","displayName":"ครัวไทย","followerCount":800}"#,
    #"{"type":"video","id":"ekr2nIex040","title":"ROSÉ & Bruno Mars - APT. (Official Music Video)","description":"ROSÉ & Bruno Mars - APT. Download/stream","hashtags":["rosé","brunomars","apt"],"creator":"UCoUM-UJ7rirJYP8CQ0EIaHA","sound":"s-apt","viewCount":1028000000,"likeCount":12000000,"createdAt":"2024-10-18T04:00:00Z","thumbnailURL":"https://i.ytimg.com/vi/ekr2nIex040/default.jpg"}"#,
    #"{"type":"video","id":"fnPxkuFIA48","title":"I Played Every Five Nights at Freddy's Game","hashtags":["fnaf","gaming"],"creator":"UC7_YxT-KID8kRbqZo7MyscQ","viewCount":3400000,"likeCount":210000,"createdAt":"2024-11-02T17:30:00Z"}"#,
    #"{"type":"video","id":"v-dance","title":"Dance Challenge 💃🏽 tutorial","description":"learn the #DanceChallenge with @dance_queen","hashtags":["DanceChallenge","fyp"],"creator":"u-dance","sound":"s-orig","effect":"e-green","viewCount":48000,"likeCount":3100,"createdAt":"2026-10-01T12:00:00Z","thumbnailURL":"https://cdn.example.com/t/v1.jpg"}"#,
    #"{"type":"video","id":"v-thai","title":"ต้มยำกุ้ง สูตรง่าย ๆ","hashtags":["อาหารไทย","tomyum"],"creator":"u-thai","viewCount":9000,"createdAt":"2026-09-12T08:15:00+07:00"}"#,
    #"{"type":"video","id":"v-tokyo","title":"東京タワーに行きました 🗼","hashtags":["東京","travel"],"viewCount":5200,"likeCount":410}"#,
    #"{"type":"video","id":"v-cafe","title":"Café crème at the Straße café — NFD Cafe\u0301","hashtags":["café"],"viewCount":77,"likeCount":3}"#,
    #"{"type":"video","id":"v-emoji","title":"🔥🔥 family 👨‍👩‍👧‍👦 fire drill 🔥","hashtags":["fire","🔥"],"viewCount":1200}"#,
    #"{"type":"video","id":"v-turkish","title":"İstanbul ısırgan otu DİYARBAKIR","hashtags":["istanbul"],"viewCount":640}"#,
    #"{"type":"video","id":"v-wide","title":"ＦＵＬＬ　ＷＩＤＴＨ dance １２３","viewCount":15}"#,
    #"{"type":"video","id":"v-numbers","title":"Top 10 tips for 2026: 5c 4K 60fps","hashtags":["tips2026"],"viewCount":300000,"createdAt":"2026-01-01T00:00:00Z"}"#,
    #"{"type":"video","id":"v-long","title":"\#(String(repeating: "challenge dance ", count: 20))end","viewCount":1}"#,
    #"{"type":"hashtag","id":"h-dance","name":"dancechallenge","description":"Show your moves","viewCount":9000000,"videoCount":1}"#,
    #"{"type":"hashtag","id":"h-fyp","name":"fyp","viewCount":120000000,"videoCount":40}"#,
    #"{"type":"hashtag","id":"h-apt","name":"apt","viewCount":5000000,"videoCount":2}"#,
    #"{"type":"hashtag","id":"h-thai","name":"อาหารไทย","viewCount":40000,"videoCount":3}"#,
    #"{"type":"sound","id":"s-apt","title":"APT.","artist":"ROSÉ & Bruno Mars","videoCount":2000000}"#,
    #"{"type":"sound","id":"s-orig","title":"Original sound - dance_queen","artist":"Dance Queen","videoCount":7}"#,
    #"{"type":"effect","id":"e-green","name":"Green Screen","thumbnailURL":"https://cdn.example.com/e/green.png","useCount":40}"#,
  ]

  /// Generated videos, enough that the most frequent words ("clip", "dance") have posting
  /// lists of more than one 128-posting block, and bitmaps.
  static let generatedLines: [String] = (0..<150).map { number in
    let words = ["dance", "challenge", "tutorial", "fyp", "mars", "cafe"]
    return
      #"{"type":"video","id":"clip-\#(number)","title":"clip \#(number) dance \#(words[number % words.count])","hashtags":["clip\#(number % 7)"],"viewCount":\#(number * 37)}"#
  }

  /// The documents of ``corpusLines`` and ``generatedLines``.
  static let documents: [Document] = {
    do {
      let (documents, _) = try CorpusLoader.loadDocuments(
        fromJSONLines: (corpusLines + generatedLines).joined(separator: "\n"), policy: .stop)
      return documents
    } catch {
      fatalError("the fuzz sample corpus does not load: \(error)")
    }
  }()

  /// An index of ``documents``, built once per process.
  static let index: DiscoverIndex = {
    do {
      return try DiscoverIndex.build(from: documents)
    } catch {
      fatalError("the fuzz sample index does not build: \(error)")
    }
  }()

  /// An index of ``corpusLines`` alone, for targets that build on it per input.
  static let smallIndex: DiscoverIndex = {
    do {
      return try DiscoverIndex.build(from: documents.prefix(corpusLines.count))
    } catch {
      fatalError("the small fuzz sample index does not build: \(error)")
    }
  }()

  /// "Now" for trending and analytics: 2026-12-01T10:00:00Z, fixed, so that every run of an
  /// input does the same.
  static let now = Date(timeIntervalSince1970: 1_796_119_200)

  /// Trending content over ``index`` with items on every list, in two regions.
  static let trending: TrendingContent = {
    let trending = TrendingContent(index: index, clock: { now })
    let videos = ["ekr2nIex040", "fnPxkuFIA48", "v-dance", "v-thai", "v-tokyo", "v-emoji"]
    for (offset, video) in videos.enumerated() {
      for user in 0..<(offset + 2) * 3 {
        let event = ContentEvent(
          .view, video: video, user: "viewer-\(user)",
          at: now.addingTimeInterval(Double(-60 * user)), region: user % 2 == 0 ? "US" : "TH")
        _ = try? trending.record(event)
      }
    }
    _ = try? trending.record(
      ContentEvent(
        .post, video: "v-dance", user: "u-dance", at: now, hashtags: ["DanceChallenge"],
        sound: "s-orig", effect: "e-green"))
    return trending
  }()

  /// A new directory for one process's files, in RAM where the machine has `/dev/shm`, so
  /// that the index target's thousands of writes stay off the disk.
  static func makeTemporaryDirectory(_ name: String) -> URL {
    let base =
      FileManager.default.fileExists(atPath: "/dev/shm")
      ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
    let url = base.appendingPathComponent("discover-fuzz-\(name)-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    } catch {
      fatalError("cannot create \(url.path): \(error)")
    }
    return url
  }

  /// The files of a real index directory, in name order: two segments (the second written
  /// beside the first by a writer), their documents files, a deletes and a counts file for
  /// the first, the manifest and the trending state.
  static let indexFiles: [(name: String, bytes: [UInt8])] = {
    let directory = makeTemporaryDirectory("index-template")
    defer { try? FileManager.default.removeItem(at: directory) }
    do {
      try index.save(to: directory)
      let opened = try DiscoverIndex.open(at: directory)
      do {
        var writer = try opened.makeWriter()
        writer.mergePolicy = MergePolicy(
          segmentsPerTier: 50, maximumSegments: 50, mergesInBackground: false,
          deletedDocumentsAllowance: 1)
        // A writer's first commit builds one segment; its second adds one beside it, with a
        // deletes and a counts file for the first.
        try writer.add(
          Document(
            jsonLine:
              #"{"type":"video","id":"v-new","title":"New dance drop #fyp","hashtags":["fyp"],"creator":"u-dance","viewCount":10}"#
          ))
        try writer.commit()
        _ = writer.delete(id: "v-long")
        try writer.updateCounts(CountUpdate(id: "v-dance", viewCount: 50_000, likeCount: 3_300))
        try writer.add(
          Document(
            jsonLine:
              #"{"type":"sound","id":"s-new","title":"New sound","artist":"Dance Queen","videoCount":1}"#
          ))
        try writer.commit()
      }
      let trending = TrendingContent(index: opened, clock: { now })
      for user in 0..<6 {
        _ = try trending.record(
          ContentEvent(
            .view, video: "v-dance", user: "viewer-\(user)",
            at: now.addingTimeInterval(Double(-30 * user)), region: "US"))
      }
      try trending.save(to: directory)
      let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        .filter { $0 != IndexDirectory.lockFileName }.sorted()
      return try names.map { name in
        (name, [UInt8](try Data(contentsOf: directory.appendingPathComponent(name))))
      }
    } catch {
      fatalError("cannot make the fuzz template index: \(error)")
    }
  }()
}
