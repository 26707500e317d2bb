import Foundation
import SyntheticCorpus
import Testing

@testable import DiscoverSearch

extension TrendingTests {
  /// Exact merging, retraction and persistence: the state is the same bits however the
  /// events are split, ordered, retracted or saved.
  @Suite("Trending: exactness")
  struct TrendingExactnessTests {
    let index: DiscoverIndex
    let clock = ManualClock(TrendingFixtures.start + 3 * TrendingFixtures.day)

    init() throws {
      index = try TrendingFixtures.makeIndex()
    }

    /// A seeded random stream over three days: views, likes, shares and posts, on the
    /// fixture's videos and on unknown ones, with regions, crossing several landmark epochs.
    static func randomEvents(seed: UInt64, count: Int) -> [ContentEvent] {
      var random = SplitMix64(seed: seed)
      let start = TrendingFixtures.start
      let kinds: [ContentEvent.Kind] = [.view, .view, .view, .view, .like, .share, .post]
      let regions: [String?] = [nil, "US", "BR", "jp"]
      return (0..<count).map { number in
        let kind = kinds[Int(random.next() % UInt64(kinds.count))]
        let time = start + Double(random.next() % UInt64(3 * 86_400))
        let video = "v\(1 + random.next() % 24)"
        let user = "u\(random.next() % 300)"
        let region = regions[Int(random.next() % 4)]
        guard kind == .post else {
          return ContentEvent(kind, video: video, user: user, at: time, region: region)
        }
        return ContentEvent(
          .post, video: "p\(number % 50)", user: user, at: time, region: region,
          hashtags: random.next() % 2 == 0 ? ["DanceChallenge", "fyp"] : ["cooking"],
          sound: random.next() % 3 == 0 ? nil : "s\(1 + random.next() % 3)",
          effect: random.next() % 2 == 0 ? "e\(1 + random.next() % 2)" : nil)
      }
    }

    func makeTrending() -> TrendingContent {
      TrendingContent(
        index: index, configuration: TrendingFixtures.configuration, clock: clock.function)
    }

    func pages(_ trending: TrendingContent) throws -> [[TrendingItem]] {
      var lists: [[TrendingItem]] = []
      for type in ContentType.allCases {
        for region in [nil, "US", "BR"] {
          lists.append(try trending.list(type, region: region, limit: 50).items)
        }
      }
      return lists
    }

    @Test(arguments: [2, 3, 7])
    func randomSplitsMergeToTheSingleProcessStateBitForBit(instances: Int) throws {
      let seed = UInt64.random(in: 0...UInt64.max)
      let events = Self.randomEvents(seed: seed, count: 6_000)
      let single = makeTrending()
      try single.record(contentsOf: events)

      var random = SplitMix64(seed: seed ^ 0xABCD)
      var parts = [[ContentEvent]](repeating: [], count: instances)
      for event in events { parts[Int(random.next() % UInt64(instances))].append(event) }
      let merged = makeTrending()
      for part in parts {
        let instance = makeTrending()
        // Each instance sees its part in its own order.
        try instance.record(contentsOf: part.shuffled(using: &random))
        try merged.merge(instance)
      }
      #expect(try merged.stateCopy == single.stateCopy, "seed \(seed)")
      #expect(try pages(merged) == pages(single), "seed \(seed)")
    }

    /// Lists keep their candidates incrementally (a counter joins when its short sum crosses
    /// the threshold); a state rebuilt from its journal must list the same items, after
    /// every chunk of a stream that crosses several landmark moves.
    @Test func incrementalCandidatesListWhatARebuildLists() throws {
      let seed = UInt64.random(in: 0...UInt64.max)
      let events = Self.randomEvents(seed: seed, count: 6_000).sorted { $0.time < $1.time }
      let clock = ManualClock(TrendingFixtures.start)
      let trending = TrendingContent(
        index: index, configuration: TrendingFixtures.configuration, clock: clock.function)
      for start in stride(from: 0, to: events.count, by: 400) {
        let part = Array(events[start..<min(start + 400, events.count)])
        clock.advance(by: max(0, part[part.count - 1].time.timeIntervalSince(clock.now)))
        try trending.record(contentsOf: part)
        var rebuilt = try trending.stateCopy
        rebuilt.rebuildDerived(types: Set(ContentType.allCases))
        let reference = TrendingContent(
          index: index, store: InMemoryTrendingStore(state: rebuilt), clock: clock.function)
        #expect(try pages(trending) == pages(reference), "seed \(seed), events \(start)")
        try expectCandidatesMatchCounters(trending.stateCopy, "seed \(seed), events \(start)")
      }
    }

    /// Every counter at its type's candidate threshold is a candidate, and every candidate's
    /// copy of its counters is the counter's value.
    private func expectCandidatesMatchCounters(_ state: TrendingState, _ context: String) {
      for type in ContentType.allCases {
        let threshold = state.hotThreshold(type)
        let candidates = state.hot[type.index].all
        let absent = state.hot[type.index].absent.map(\.candidate.counter)
        let keys = Set(candidates.map(\.counter) + absent)
        #expect(
          keys.count == candidates.count + absent.count, "a candidate is in twice: \(context)")
        for (key, counter) in state.counters[type.index]
        where Double(counter.short) >= threshold && !keys.contains(key) {
          Issue.record("\(type) counter at the threshold is no candidate: \(context)")
        }
        for candidate in candidates
        where CandidateList.Counters(
          state.counters[type.index][candidate.counter] ?? ItemCounters())
          != candidate.counters
        {
          Issue.record("\(type) candidate's copy differs from its counter: \(context)")
        }
      }
    }

    @Test func shuffledEventsGiveTheSameStateAsSortedOnes() throws {
      let seed = UInt64.random(in: 0...UInt64.max)
      let events = Self.randomEvents(seed: seed, count: 5_000)
      let sorted = makeTrending()
      try sorted.record(contentsOf: events.sorted { $0.time < $1.time })
      let shuffled = makeTrending()
      var random = SplitMix64(seed: seed)
      try shuffled.record(contentsOf: events.shuffled(using: &random))
      let (a, b) = (try sorted.stateCopy, try shuffled.stateCopy)
      if a != b { print("DIFF", a.differences(from: b)) }
      #expect(a == b, "seed \(seed)")
    }

    @Test func retractingABotRestoresTheListsExactly() throws {
      let seed = UInt64.random(in: 0...UInt64.max)
      let events = Self.randomEvents(seed: seed, count: 4_000)
      let clean = makeTrending()
      try clean.record(contentsOf: events)

      var bot: [ContentEvent] = []
      for number in 0..<3_000 {
        let time = clock.now - Double(number % 1_800)
        bot.append(
          ContentEvent(.view, video: "v\(1 + number % 5)", user: "bot", at: time, region: "US"))
        if number % 100 == 0 {
          bot.append(
            ContentEvent(
              .post, video: "botpost\(number)", user: "bot", at: time, hashtags: ["cooking"],
              sound: "s2"))
        }
      }
      let attacked = makeTrending()
      var random = SplitMix64(seed: seed)
      try attacked.record(contentsOf: (events + bot).shuffled(using: &random))
      #expect(try attacked.stateCopy != clean.stateCopy)
      #expect(attacked.retract(user: "bot") > 0)
      let (a, b) = (try attacked.stateCopy, try clean.stateCopy)
      if a != b { print("DIFF", a.differences(from: b)) }
      #expect(a == b, "seed \(seed)")
      #expect(try pages(attacked) == pages(clean), "seed \(seed)")
    }

    @Test func saveReopenAndRecordMoreEqualsRecordingAllAtOnce() throws {
      let seed = UInt64.random(in: 0...UInt64.max)
      let events = Self.randomEvents(seed: seed, count: 6_000).sorted { $0.time < $1.time }
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("trending-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: directory) }

      let first = makeTrending()
      try first.record(contentsOf: events.prefix(3_500))
      try first.save(to: directory)
      let reopened = try TrendingContent.open(
        at: directory, index: index, configuration: TrendingFixtures.configuration,
        clock: clock.function)
      #expect(try reopened.stateCopy == first.stateCopy)
      try reopened.record(contentsOf: events.dropFirst(3_500))

      let once = makeTrending()
      try once.record(contentsOf: events)
      #expect(try reopened.stateCopy == once.stateCopy, "seed \(seed)")
      #expect(try pages(reopened) == pages(once), "seed \(seed)")
    }

    @Test func aDamagedOrForeignStateFileIsReportedNotTrusted() throws {
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("trending-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: directory) }
      let trending = makeTrending()
      try trending.record(contentsOf: Self.randomEvents(seed: 7, count: 500))
      try trending.save(to: directory)
      let url = directory.appendingPathComponent("trending.dstrend")
      let good = try [UInt8](Data(contentsOf: url))
      var damaged = [Array(good.prefix(good.count / 2)), Array("not a state".utf8)]
      var flipped = good
      flipped[good.count / 2] ^= 0x40
      damaged.append(flipped)
      for bytes in damaged {
        try Data(bytes).write(to: url)
        do {
          _ = try TrendingContent.open(
            at: directory, index: index, configuration: TrendingFixtures.configuration)
          Issue.record("a damaged state file opened")
        } catch {
          #expect(error.code == .corruptIndex)
        }
      }
      try Data(good).write(to: url)
      var other = TrendingFixtures.configuration
      other.videoWindows = .init(shortHalfLife: 1_800, longHalfLife: 86_400)
      #expect(throws: SearchError.self) {
        _ = try TrendingContent.open(at: directory, index: self.index, configuration: other)
      }
    }

    /// A file whose checksum is right but whose first journal entry has the empty-slot key,
    /// or a time out of range, is refused rather than stored in the tables.
    @Test func aStateFileWithImpossibleEntriesIsRefused() throws {
      let trending = makeTrending()
      try trending.record(contentsOf: Self.randomEvents(seed: 11, count: 200))
      let good = try trending.stateCopy.encoded()
      // After the 16-byte header: 8 half-lives, the retention, 9 times, the newest time and
      // the entry count, 8 bytes each; then the first entry's item, and its time 46 bytes on.
      let firstEntry = 16 + 8 * (8 + 1 + 9 + 1 + 1)
      func patched(at offset: Int, with value: Int64) -> [UInt8] {
        var bytes = good
        withUnsafeBytes(of: value.littleEndian) {
          bytes.replaceSubrange(offset..<(offset + 8), with: $0)
        }
        let checksum = bytes[16..<(bytes.count - 20)].withUnsafeBytes { CRC32C.checksum($0) }
        withUnsafeBytes(of: checksum.littleEndian) {
          bytes.replaceSubrange((bytes.count - 12)..<(bytes.count - 8), with: $0)
        }
        return bytes
      }
      let configuration = TrendingFixtures.configuration
      let unchanged = try TrendingState(decoding: good, configuration: configuration)
      #expect(unchanged == (try trending.stateCopy))
      // The entry's item, its time, and its span (16 bytes on) past 32 bits either way.
      let impossible = [
        patched(at: firstEntry, with: 0), patched(at: firstEntry + 46, with: -5),
        patched(at: firstEntry + 16, with: 1 << 40), patched(at: firstEntry + 16, with: .min),
      ]
      for bytes in impossible {
        do {
          _ = try TrendingState(decoding: bytes, configuration: configuration)
          Issue.record("a state file with an impossible entry opened")
        } catch {
          #expect(error.code == .corruptIndex)
          #expect(error.message.contains("journal"))
        }
      }
    }

    @Test func landmarkMovesKeepCountsExact() throws {
      // Views one day apart cross an epoch (16 short half-lives): the counts read the same
      // as the direct sum of 2^(-age / halfLife).
      let trending = makeTrending()
      let now = clock.now
      var expectedShort = 0.0
      var expectedLong = 0.0
      for hoursAgo in stride(from: 60, through: 0, by: -3) {
        let time = now - Double(hoursAgo) * 3600
        try trending.record(
          contentsOf: TrendingFixtures.views(
            of: "v9", count: 4, over: 0, endingAt: time, userPrefix: "h\(hoursAgo)-"))
        expectedShort += 4 * pow(2, -Double(hoursAgo))
        expectedLong += 4 * pow(2, -Double(hoursAgo) / 24)
      }
      let explanation = try #require(try trending.explain(.video, id: "v9"))
      #expect(abs(explanation.observed - expectedShort) < 1e-3)
      #expect(abs(explanation.longCount - expectedLong) < 1e-3)
    }
  }
}

extension TrendingState {
  /// Where two states differ, for failure messages.
  func differences(from other: TrendingState) -> [String] {
    var found: [String] = []
    if shortLandmarks != other.shortLandmarks || longLandmarks != other.longLandmarks {
      found.append("landmarks differ")
    }
    if newestTime != other.newestTime {
      found.append("newest \(newestTime) vs \(other.newestTime)")
    }
    if journal != other.journal {
      let mine = Set(journal.map(\.key))
      let theirs = Set(other.journal.map(\.key))
      found.append(
        "journal keys only here \(mine.subtracting(theirs).count), only there \(theirs.subtracting(mine).count)"
      )
      for (key, entry) in journal where other.journal[key] != nil && other.journal[key] != entry {
        found.append("entry \(entry) vs \(other.journal[key]!)")
        break
      }
    }
    for index in 0..<4 where counters[index] != other.counters[index] {
      let mine = Set(counters[index].keys)
      let theirs = Set(other.counters[index].keys)
      found.append(
        "counters[\(index)] only here \(mine.subtracting(theirs).count), only there \(theirs.subtracting(mine).count)"
      )
      for (key, item) in counters[index]
      where other.counters[index][key] != nil && other.counters[index][key] != item {
        found.append("counter \(item) vs \(other.counters[index][key]!)")
        break
      }
    }
    if postedVideos != other.postedVideos { found.append("posted differ") }
    return found
  }
}
