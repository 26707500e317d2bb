import Foundation
import Testing

@testable import DiscoverSearch

extension TrendingTests {
  /// Every list on the real corpus (with two sounds and two effects added, which it lacks),
  /// from events written here; and event files through the loader.
  @Suite("Trending: real corpus and event files")
  struct TrendingRealCorpusTests {
    /// The ASCII fast path of hashtag folding gives what the analyzer gives, for every
    /// hashtag of the real corpus and for hand-made names.
    @Test func hashtagFoldingMatchesTheAnalyzer() throws {
      let loaded = try RealCorpus.load()
      var names = [
        "DanceChallenge", "abc123", "2024", "X", "a1b2c3", "ÉTÉ", "dance_off", "k-pop", "Ｆｕｌｌ",
        "#Tag", "ǅemal", "İstanbul", "straße",
      ]
      for case .video(let video) in loaded.documents { names += video.hashtags }
      for name in names {
        let trimmed = name.hasPrefix("#") ? String(name.dropFirst()) : name
        let analyzed = Analyzer.fold(trimmed).filter { $0 != " " }
        #expect(TrendingCatalog.foldHashtag(name) == analyzed, "\(name)")
      }
    }

    @Test func everyListOnTheRealCorpus() throws {
      let loaded = try RealCorpus.load()
      let extras: [Document] = [
        .sound(Sound(id: "snd-real-1", title: "Real Beat", artist: "Someone")),
        .sound(Sound(id: "snd-real-2", title: "Other Beat")),
        .effect(Effect(id: "fx-real-1", name: "Glow", thumbnailURL: "https://e/1.jpg")),
        .effect(Effect(id: "fx-real-2", name: "Blur")),
      ]
      let index = try DiscoverIndex.build(from: loaded.documents + extras)
      let videos = loaded.documents.compactMap { document -> Video? in
        if case .video(let video) = document, !video.hashtags.isEmpty { return video }
        return nil
      }
      let riser = try #require(videos.dropFirst(200).first)
      let steady = try #require(videos.first)
      let tag = try #require(riser.hashtags.first)
      let now = TrendingFixtures.start
      let clock = ManualClock(now)
      var configuration = TrendingConfiguration()
      configuration.refreshInterval = 0
      let trending = TrendingContent(
        index: index, configuration: configuration, clock: clock.function)
      try TrendingFixtures.age(trending)

      var events = TrendingFixtures.steadyViews(
        of: steady.id, perHour: 30, hours: 48, endingAt: now, distinctUsers: 600,
        userPrefix: "fan")
      events += TrendingFixtures.views(
        of: riser.id, count: 40, over: 600, endingAt: now, userPrefix: "new", region: "BR")
      for number in 0..<10 {
        events.append(
          ContentEvent(
            .post, video: "fresh\(number)", user: "maker\(number)", at: now - 300,
            region: "BR", hashtags: [tag.uppercased()], sound: "snd-real-1", effect: "fx-real-1"))
      }
      try trending.record(contentsOf: events)

      let grid = try trending.list(.video).items
      #expect(grid.first?.id == riser.id)
      #expect(grid.first?.isRising == true)
      #expect(grid.first?.title == riser.title)
      #expect(grid.first?.thumbnailURL == riser.thumbnailURL)
      #expect(grid.first { $0.id == steady.id }?.isRising == false)
      #expect(try trending.list(.video, region: "BR").items.map(\.id) == [riser.id])

      let hashtag = try #require(try trending.list(.hashtag).items.first)
      #expect(TrendingCatalog.foldHashtag(hashtag.title) == TrendingCatalog.foldHashtag(tag))
      #expect(hashtag.featuredVideoIDs.first == riser.id)
      #expect(hashtag.viewCount >= 40)
      // A challenge's views are its total in all regions, in a regional list too.
      let regional = try #require(
        try trending.list(.hashtag, region: "BR").items.first { $0.id == hashtag.id })
      #expect(regional.viewCount == hashtag.viewCount)
      let sound = try #require(try trending.list(.sound).items.first)
      #expect(sound.id == "snd-real-1")
      let effect = try #require(try trending.list(.effect, region: "BR").items.first)
      #expect(effect.id == "fx-real-1")
      #expect(effect.thumbnailURL == "https://e/1.jpg")
    }

    /// Pages past the items a refresh orders (``Ranking/orderedLength``) come from the same
    /// order as one long page: no repeats, none missed, equal scores by id. A hashtag's
    /// featured videos are the first three of the ordered head that use it.
    @Test func pagesPastTheOrderedHeadKeepTheListOrder() throws {
      let loaded = try RealCorpus.load()
      let index = try DiscoverIndex.build(from: loaded.documents)
      let videos = Array(
        loaded.documents.compactMap { document -> Video? in
          if case .video(let video) = document { return video }
          return nil
        }
        .prefix(250))
      try #require(videos.count == 250)
      let now = TrendingFixtures.start
      let clock = ManualClock(now)
      var configuration = TrendingConfiguration()
      configuration.refreshInterval = 0
      let trending = TrendingContent(
        index: index, configuration: configuration, clock: clock.function)
      try TrendingFixtures.age(trending)
      var events: [ContentEvent] = []
      for (number, video) in videos.enumerated() {
        // Forty view counts over 250 videos: most scores are shared with several others.
        events += TrendingFixtures.views(
          of: video.id, count: 8 + number % 40, over: 600, endingAt: now,
          userPrefix: "p\(number)-")
      }
      // The five hashtags most of these videos use trend by six new creators each.
      var uses: [String: Int] = [:]
      for video in videos {
        for tag in Set(video.hashtags.map(TrendingCatalog.foldHashtag)) {
          uses[tag, default: 0] += 1
        }
      }
      let tags = uses.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(5).map(\.key)
      for (number, tag) in tags.enumerated() {
        for creator in 0..<6 {
          events.append(
            ContentEvent(
              .post, video: "new-\(number)-\(creator)", user: "maker-\(number)-\(creator)",
              at: now - 60, hashtags: [tag]))
        }
      }
      try trending.record(contentsOf: events)

      let whole = try trending.list(.video, limit: TrendingContent.maximumListLimit)
      #expect(whole.nextCursor == nil)
      #expect(Set(whole.items.map(\.id)) == Set(videos.map(\.id)))
      for (item, next) in zip(whole.items, whole.items.dropFirst()) {
        #expect(item.score > next.score || (item.score == next.score && item.id < next.id))
      }
      for limit in [7, 100, 130] {
        var paged: [String] = []
        var cursor: TrendingCursor?
        repeat {
          let page = try trending.list(.video, limit: limit, after: cursor)
          paged += page.items.map(\.id)
          cursor = page.nextCursor
        } while cursor != nil
        #expect(paged == whole.items.map(\.id), "limit \(limit)")
      }

      let tagsOfVideo = Dictionary(
        uniqueKeysWithValues: videos.map {
          ($0.id, Set($0.hashtags.map(TrendingCatalog.foldHashtag)))
        })
      let hashtags = try trending.list(.hashtag).items
      #expect(Set(hashtags.map { TrendingCatalog.foldHashtag($0.title) }) == Set(tags))
      for hashtag in hashtags {
        let tag = TrendingCatalog.foldHashtag(hashtag.title)
        let expected = whole.items.prefix(Ranking.orderedLength)
          .filter { tagsOfVideo[$0.id]?.contains(tag) == true }.prefix(3)
        #expect(hashtag.featuredVideoIDs == expected.map(\.id), "\(tag)")
      }
    }

    @Test func badEventLinesAreNumberedAndEveryValidLineIsKept() throws {
      var lines = [
        #"{"kind":"view","video":"v1","user":"u1","at":"2026-12-01T10:00:00Z"}"#,
        #"{"kind":"teleport","video":"v1","user":"u1","at":"2026-12-01T10:00:00Z"}"#,
        #"{"kind":"view","video":"v1","user":"u1","at":"12/01/2026"}"#,
        #"{"kind":"view","user":"u1","at":"2026-12-01T10:00:00Z"}"#,
        #"{"kind":"view","video":"v1","at":"2026-12-01T10:00:00Z"}"#,
        #"{"kind":"view","video":-5,"user":"u1","at":"2026-12-01T10:00:00Z"}"#,
        #"{"kind":"view","video":"v1","user":"u1","at":"999999-12-01T10:00:00Z"}"#,
        #"{"kind":"post","video":"v2","user":"u1","at":"2026-12-01T10:00:00Z","hashtags":[1]}"#,
        "",
        #"{"kind":"share","video":"v2","user":"u2","at":"2026-12-01T10:00:00+02:00","region":"US","extra":true}"#,
      ]
      lines.append(
        #"{"kind":"view","video":"v\#(String(repeating: "9", count: 2_000))","user":"u","at":"2026-12-01T10:00:00Z"}"#
      )
      var bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
      bytes +=
        Array(#"{"kind":"view","video":""#.utf8) + [0xC3, 0x28]
        + Array(#"","user":"u","at":"2026-12-01T10:00:00Z"}"#.utf8)
      var events: [ContentEvent] = []
      let report = try ContentEventLoader.forEachEvent(inJSONLines: bytes, policy: .skip) {
        events.append($0)
      }
      #expect(events.map(\.kind) == [.view, .share])
      #expect(events.last?.region == "US")
      #expect(report.eventCount == 2)
      #expect(report.blankLineCount == 1)
      #expect(report.issues.map(\.line) == [2, 3, 4, 5, 6, 7, 8, 11, 12])
      #expect(report.issues[0].reason.contains("unknown kind"))
      #expect(report.issues[1].reason.contains("bad date"))
      #expect(report.issues[2].reason.contains("missing \"video\""))
      #expect(report.issues[8].reason.contains("UTF-8"))
      #expect(throws: SearchError.self) {
        _ = try ContentEventLoader.forEachEvent(inJSONLines: bytes, policy: .stop) { _ in }
      }
    }

    @Test func searchesDatedAheadOfTheReadersClockKeepTrendingFinite() throws {
      let recordingClock = ManualClock(TrendingFixtures.start + 50 * TrendingFixtures.day)
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("future-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: directory) }
      let path = directory.appendingPathComponent("analytics.sqlite").path
      do {
        let ahead = try QueryAnalytics(path: path, clock: recordingClock.function)
        for user in ["a", "b", "c"] {
          try ahead.recordSearch(
            SearchEvent(
              query: "skewed clock", userID: user, time: recordingClock.now, resultCount: 3))
        }
      }
      let reader = try QueryAnalytics(path: path, clock: { TrendingFixtures.start })
      let trending = reader.trendingSearches(limit: 10)
      #expect(trending.map(\.query) == ["skewed clock"])
      for search in trending {
        #expect(search.score.isFinite && search.velocity.isFinite && search.recentCount <= 3 + 1e-9)
      }
    }
  }
}
