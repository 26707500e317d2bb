import Foundation
import Testing

@testable import DiscoverSearch

extension TrendingTests {
  /// Trending content from events: decay, rising, bots, lists and their gates.
  @Suite("Trending: content lists")
  struct TrendingContentTests {
    let index: DiscoverIndex
    let clock = ManualClock(TrendingFixtures.start)

    init() throws {
      index = try TrendingFixtures.makeIndex()
    }

    func makeTrending(_ configuration: TrendingConfiguration = TrendingFixtures.configuration)
      throws -> TrendingContent
    {
      let trending = TrendingContent(
        index: index, configuration: configuration, clock: clock.function)
      try TrendingFixtures.age(trending)
      return trending
    }

    /// A batch stops at its first invalid event, in any group of the batch, with every event
    /// before it recorded and none after.
    @Test(arguments: [0, 7, 16, 20, 33])
    func aBatchKeepsTheEventsBeforeItsFirstInvalidOne(invalidAt: Int) throws {
      var events = (0..<40).map { number in
        ContentEvent(
          .view, video: "v\(1 + number % 3)", user: "u\(number)", at: clock.now - Double(number))
      }
      events[invalidAt] = ContentEvent(.view, video: "v1", user: "", at: clock.now)
      let batch = try makeTrending()
      #expect(throws: SearchError.self) { try batch.record(contentsOf: events) }
      let expected = try makeTrending()
      try expected.record(contentsOf: events.prefix(invalidAt))
      let (recorded, reference) = (try batch.stateCopy, try expected.stateCopy)
      #expect(recorded == reference)
    }

    @Test func decayHalvesTheObservedCountAtItsHalfLife() throws {
      let trending = try makeTrending()
      try trending.record(
        contentsOf: TrendingFixtures.views(
          of: "v1", count: 10, over: 0, endingAt: clock.now, userPrefix: "a"))
      let now = try #require(try trending.explain(.video, id: "v1"))
      #expect(abs(now.observed - 10) < 1e-3)
      clock.advance(by: TrendingFixtures.hour)
      let later = try #require(try trending.explain(.video, id: "v1"))
      #expect(abs(later.observed - 5) < 1e-3)
      clock.advance(by: TrendingFixtures.day)
      let dayLater = try #require(try trending.explain(.video, id: "v1"))
      // The long window's half-life is a day: 10 → 5 after a day and an hour, nearly.
      #expect(abs(dayLater.longCount - 10 * pow(2, -25.0 / 24)) < 1e-3)
    }

    @Test func aBurstFlagsTheVideoRisingOnTheNextRefresh() throws {
      let trending = try makeTrending()
      try trending.record(
        contentsOf: TrendingFixtures.steadyViews(
          of: "v2", perHour: 10, hours: 48, endingAt: clock.now, distinctUsers: 200,
          userPrefix: "s"))
      #expect(try trending.list(.video).items.first { $0.id == "v3" } == nil)
      try trending.record(
        contentsOf: TrendingFixtures.views(
          of: "v3", count: 30, over: 300, endingAt: clock.now, userPrefix: "burst"))
      let items = try trending.list(.video).items
      #expect(items.first?.id == "v3")
      #expect(items.first?.isRising == true)
      #expect(items.first { $0.id == "v2" }?.isRising == false)
    }

    @Test func aSteadyHitDropsBelowASmallerRiser() throws {
      let trending = try makeTrending()
      try trending.record(
        contentsOf: TrendingFixtures.steadyViews(
          of: "v1", perHour: 200, hours: 72, endingAt: clock.now, distinctUsers: 5_000,
          userPrefix: "fan"))
      try trending.record(
        contentsOf: TrendingFixtures.views(
          of: "v4", count: 25, over: 600, endingAt: clock.now, userPrefix: "new"))
      let ids = try trending.list(.video).items.map(\.id)
      let riser = try #require(ids.firstIndex(of: "v4"))
      let hit = try #require(ids.firstIndex(of: "v1"))
      #expect(riser < hit)
      let explanation = try #require(try trending.explain(.video, id: "v1"))
      #expect(explanation.observed > 100)
      #expect(!explanation.isRising)
    }

    @Test func oneUsersTenThousandViewsDoNotTrend() throws {
      let trending = try makeTrending()
      let events = (0..<10_000).map { number in
        ContentEvent(.view, video: "v5", user: "bot", at: clock.now - Double(number % 3_000))
      }
      let report = try trending.record(contentsOf: events)
      #expect(report.total == 10_000)
      #expect(try trending.list(.video).items.isEmpty)
      let explanation = try #require(try trending.explain(.video, id: "v5"))
      #expect(explanation.distinctUsers == 1)
      #expect(explanation.lifetimeViews == 10_000)
      #expect(!explanation.isListed)
    }

    @Test func aFewBotsBurstingDoNotRise() throws {
      let trending = try makeTrending()
      try trending.record(
        contentsOf: TrendingFixtures.steadyViews(
          of: "v6", perHour: 20, hours: 48, endingAt: clock.now, distinctUsers: 400,
          userPrefix: "s"))
      var bots: [ContentEvent] = []
      for number in 0..<6_000 {
        bots.append(
          ContentEvent(
            .view, video: "v6", user: "bot\(number % 3)", at: clock.now - Double(number % 600)))
      }
      try trending.record(contentsOf: bots)
      let item = try #require(try trending.list(.video).items.first { $0.id == "v6" })
      #expect(!item.isRising)
    }

    @Test func hashtagSoundAndEffectListsCarryTheirDetails() throws {
      let trending = try makeTrending()
      var events: [ContentEvent] = []
      for number in 0..<12 {
        events.append(
          ContentEvent(
            .post, video: "new\(number)", user: "creator\(number)", at: clock.now - 60,
            hashtags: ["#DanceChallenge"], sound: "s1", effect: "e2"))
      }
      events += TrendingFixtures.views(
        of: "v1", count: 20, over: 300, endingAt: clock.now, userPrefix: "a")
      events += TrendingFixtures.views(
        of: "v3", count: 10, over: 300, endingAt: clock.now, userPrefix: "b")
      try trending.record(contentsOf: events)

      let hashtag = try #require(try trending.list(.hashtag).items.first)
      #expect(hashtag.id == "h1")
      #expect(hashtag.title == "dancechallenge")
      #expect(hashtag.isRising)
      #expect(hashtag.viewCount == 900 + 30)
      guard case .hashtag(let details) = hashtag.details else {
        Issue.record("not hashtag details")
        return
      }
      #expect(details.participants == 12)
      #expect(details.description == "Show your moves")
      #expect(details.featuredVideoIDs == ["v1", "v3"])

      let sound = try #require(try trending.list(.sound).items.first)
      #expect(sound.id == "s1")
      guard case .sound(let soundDetails) = sound.details else {
        Issue.record("not sound details")
        return
      }
      #expect(soundDetails.videoCount == 10 + 12)
      #expect(soundDetails.growth > 10)
      #expect(soundDetails.featuredVideoIDs == ["v1", "v3"])

      let effect = try #require(try trending.list(.effect).items.first)
      #expect(effect.id == "e2")
      #expect(effect.title == "Sparkle")
      guard case .effect(let effectDetails) = effect.details else {
        Issue.record("not effect details")
        return
      }
      #expect(effectDetails.videoCount == 2 + 12)
    }

    @Test func itemsTheIndexDoesNotHoldAreCountedButNotListed() throws {
      let store = InMemoryTrendingStore(configuration: TrendingFixtures.configuration)
      let trending = TrendingContent(index: index, store: store, clock: clock.function)
      try TrendingFixtures.age(trending)
      try trending.record(
        contentsOf: TrendingFixtures.views(
          of: "unknown", count: 20, over: 60, endingAt: clock.now, userPrefix: "a"))
      #expect(try trending.list(.video).items.isEmpty)
      let explanation = try #require(try trending.explain(.video, id: "unknown"))
      #expect(!explanation.isListed)
      #expect(explanation.reasons.contains { $0.contains("not listed until indexed") })

      let grown = try DiscoverIndex.build(
        from: TrendingFixtures.documents + [.video(Video(id: "unknown", title: "Now indexed"))])
      let reindexed = TrendingContent(index: grown, store: store, clock: clock.function)
      #expect(try reindexed.list(.video).items.map(\.id) == ["unknown"])
    }

    @Test func theBlocklistKeepsItemsHashtagsAndTheirVideosOut() throws {
      var configuration = TrendingFixtures.configuration
      configuration.blocklist = ["#Cooking", "v1"]
      let trending = try makeTrending(configuration)
      var events: [ContentEvent] = []
      for video in ["v1", "v2", "v3"] {
        events += TrendingFixtures.views(
          of: video, count: 10, over: 60, endingAt: clock.now, userPrefix: video)
      }
      for number in 0..<8 {
        events.append(
          ContentEvent(
            .post, video: "p\(number)", user: "c\(number)", at: clock.now,
            hashtags: ["cooking"]))
      }
      try trending.record(contentsOf: events)
      #expect(try trending.list(.video).items.map(\.id) == ["v3"])
      #expect(try trending.list(.hashtag).items.isEmpty)
    }

    @Test func pagesFollowTheCursorWithoutRepeatsAndRegionsFilter() throws {
      let trending = try makeTrending()
      var events: [ContentEvent] = []
      for number in 1...9 {
        events += TrendingFixtures.views(
          of: "v\(number)", count: 5 + number, over: 60, endingAt: clock.now,
          userPrefix: "r\(number)-", region: number <= 3 ? "BR" : "US")
      }
      try trending.record(contentsOf: events)
      let seen = try Self.idsPageByPage(trending, limit: 4) { cursor throws in
        #expect(try TrendingCursor(token: cursor.token) == cursor)
      }
      #expect(seen == (1...9).reversed().map { "v\($0)" })
      #expect(try trending.list(.video, region: "br").items.map(\.id) == ["v3", "v2", "v1"])
      let page = try trending.list(.video, limit: 2)
      #expect(throws: SearchError.self) {
        try trending.list(.video, region: "US", after: page.nextCursor)
      }
      #expect(throws: SearchError.self) { try TrendingCursor(token: "not a cursor") }
    }

    /// Videos with the same events score the same: they are ordered by id, in UTF-8 byte
    /// order ("v1" < "v10" < "v2"), on the first page and across cursors alike.
    @Test func equalScoresAreOrderedByIdAcrossPages() throws {
      let trending = try makeTrending()
      let videos = [2, 10, 1, 19, 3, 12, 11, 9]
      var events: [ContentEvent] = []
      for number in videos {
        events += TrendingFixtures.views(
          of: "v\(number)", count: 8, over: 120, endingAt: clock.now, userPrefix: "t\(number)-")
      }
      try trending.record(contentsOf: events)
      let expected = videos.map { "v\($0)" }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
      let whole = try trending.list(.video, limit: 20)
      #expect(whole.items.map(\.id) == expected)
      #expect(Set(whole.items.map(\.score)).count == 1)
      #expect(try Self.idsPageByPage(trending, limit: 3) == expected)
    }

    /// The ids of the video list, following each page's cursor to the end; `check` sees
    /// every cursor.
    private static func idsPageByPage(
      _ trending: TrendingContent, limit: Int, check: (TrendingCursor) throws -> Void = { _ in }
    ) throws -> [String] {
      var seen: [String] = []
      var cursor: TrendingCursor?
      repeat {
        let page = try trending.list(.video, limit: limit, after: cursor)
        seen += page.items.map(\.id)
        cursor = page.nextCursor
        if let cursor { try check(cursor) }
      } while cursor != nil
      return seen
    }

    @Test func futureEventsAreRecordedAtNowAndScoresStayFinite() throws {
      let trending = try makeTrending()
      try trending.record(
        contentsOf: TrendingFixtures.views(
          of: "v7", count: 10, over: 60, endingAt: clock.now + 50 * TrendingFixtures.day,
          userPrefix: "skew"))
      let explanation = try #require(try trending.explain(.video, id: "v7"))
      #expect(explanation.observed <= 10 + 1e-9)
      #expect(explanation.z.isFinite)
      // A reader whose clock is behind the events reads at the newest event.
      clock.advance(by: -30 * TrendingFixtures.day)
      for item in try trending.list(.video).items {
        #expect(item.score.isFinite)
      }
      let behind = try #require(try trending.explain(.video, id: "v7"))
      #expect(behind.observed <= 10 + 1e-9)
    }

    @Test func badEventsThrowTypedErrors() throws {
      let trending = try makeTrending()
      for event in [
        ContentEvent(.view, video: "", user: "u", at: clock.now),
        ContentEvent(.view, video: "v1", user: "", at: clock.now),
        ContentEvent(.view, video: "v1", user: "u", at: Date(timeIntervalSince1970: 0)),
        ContentEvent(.view, video: "v1", user: "u", at: clock.now, region: ""),
        ContentEvent(.post, video: "v1", user: "u", at: clock.now, hashtags: ["#"]),
        ContentEvent(.view, video: String(repeating: "x", count: 2_000), user: "u", at: clock.now),
      ] {
        #expect(throws: SearchError.self) { try trending.record(event) }
      }
    }
  }
}

extension TrendingTests {
  /// The bound on tracked counters: idle items go first, busy ones stay listed.
  @Suite("Trending: memory bound")
  struct TrendingEvictionTests {
    @Test func pastTheBoundTheLeastActiveItemsAreEvicted() throws {
      let index = try TrendingFixtures.makeIndex()
      let clock = ManualClock(TrendingFixtures.start)
      var configuration = TrendingFixtures.configuration
      configuration.maximumTrackedItems = 40
      let trending = TrendingContent(
        index: index, configuration: configuration, clock: clock.function)
      try TrendingFixtures.age(trending)
      // 200 videos the index does not hold, one view each, long ago; then a burst on v3.
      for number in 0..<200 {
        try trending.record(
          ContentEvent(
            .view, video: "idle\(number)", user: "u\(number)",
            at: clock.now - TrendingFixtures.day, region: "US"))
      }
      try trending.record(
        contentsOf: TrendingFixtures.views(
          of: "v3", count: 20, over: 300, endingAt: clock.now, userPrefix: "fan"))
      #expect(trending.memoryUsage.trackedItems <= 40)
      #expect(try trending.list(.video).items.map(\.id) == ["v3"])
      #expect(try trending.explain(.video, id: "idle0") == nil)
    }

    /// A commit that moves the index's documents serves no list computed for the old
    /// positions, even within the refresh interval.
    @Test func aCommitWithinTheRefreshIntervalKeepsListsRight() throws {
      let index = try TrendingFixtures.makeIndex()
      let clock = ManualClock(TrendingFixtures.start)
      var configuration = TrendingConfiguration()
      configuration.refreshInterval = 3_600
      let trending = TrendingContent(
        index: index, configuration: configuration, clock: clock.function)
      try TrendingFixtures.age(trending)
      try trending.record(
        contentsOf: TrendingFixtures.views(
          of: "v3", count: 20, over: 300, endingAt: clock.now, userPrefix: "fan"))
      try trending.record(
        contentsOf: (0..<6).map { number in
          ContentEvent(
            .post, video: "p\(number)", user: "maker\(number)", at: clock.now,
            hashtags: ["DanceChallenge"])
        })
      let before = try trending.list(.video).items
      #expect(before.map(\.id) == ["v3"])
      #expect(try trending.list(.hashtag).items.first?.featuredVideoIDs == ["v3"])

      // The same documents but v1 and v2, and a new first video: every position moves.
      var writer = try index.makeWriter()
      let deletedOne = writer.delete(id: "v1")
      let deletedTwo = writer.delete(id: "v2")
      #expect(deletedOne && deletedTwo)
      let newcomer = Video(
        id: "v0", title: "The newcomer", hashtags: ["DanceChallenge"], viewCount: 9_000_000,
        thumbnailURL: "https://t/0.jpg")
      try writer.add(newcomer)
      try writer.commit()
      let after = try trending.list(.video).items
      #expect(after.map(\.id) == ["v3"])
      #expect(after.first?.title == "Video number 3")
      #expect(after.first?.thumbnailURL == "https://t/3.jpg")
      #expect(try trending.list(.hashtag).items.first?.featuredVideoIDs == ["v3"])

      // A deleted video leaves the lists at the next publish, and no tag features it.
      let deleted = writer.delete(id: "v3")
      #expect(deleted)
      try writer.publish()
      #expect(try trending.list(.video).items.isEmpty)
      #expect(try trending.list(.hashtag).items.allSatisfy { !$0.featuredVideoIDs.contains("v3") })
    }
  }
}
