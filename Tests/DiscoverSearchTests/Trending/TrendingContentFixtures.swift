import Foundation

@testable import DiscoverSearch

/// A small hand-made index and helpers that write events, for the trending content suites.
enum TrendingFixtures {
  static let start = AnalyticsFixtures.start
  static let hour: TimeInterval = 3600
  static let day: TimeInterval = 86400

  /// Videos v1...v20: odd ones use #DanceChallenge and sound s1, even ones #Cooking and s2;
  /// v1...v5 use effect e1. Hashtag documents h1 (dancechallenge) and h2 (cooking).
  static let documents: [Document] = {
    var documents: [Document] = [
      .hashtag(
        Hashtag(id: "h1", name: "dancechallenge", description: "Show your moves", viewCount: 900)),
      .hashtag(Hashtag(id: "h2", name: "cooking", viewCount: 50)),
      .sound(Sound(id: "s1", title: "Beat One", artist: "DJ A", videoCount: 10)),
      .sound(Sound(id: "s2", title: "Kitchen Song", videoCount: 3)),
      .effect(
        Effect(id: "e1", name: "Green Screen", thumbnailURL: "https://e/1.jpg", useCount: 40)),
      .effect(Effect(id: "e2", name: "Sparkle", useCount: 2)),
      .user(User(id: "u1", username: "creator_one")),
    ]
    for number in 1...20 {
      let odd = number % 2 == 1
      documents.append(
        .video(
          Video(
            id: "v\(number)", title: "Video number \(number)",
            hashtags: odd ? ["DanceChallenge"] : ["Cooking"], creator: "u1",
            sound: odd ? "s1" : "s2", effect: number <= 5 ? "e1" : nil,
            viewCount: 1_000 * number, createdAt: start - day,
            thumbnailURL: "https://t/\(number).jpg")))
    }
    return documents
  }()

  static func makeIndex() throws -> DiscoverIndex {
    try DiscoverIndex.build(from: documents)
  }

  /// A configuration whose lists refresh on every call, for tests that list, record, list.
  static var configuration: TrendingConfiguration {
    var configuration = TrendingConfiguration()
    configuration.refreshInterval = 0
    return configuration
  }

  /// One view two weeks before `start`: a state that has been recording that long, so that
  /// items can rise against their own past (a state that just started sees every item as
  /// new, and none rising).
  static func age(_ trending: TrendingContent) throws {
    try trending.record(ContentEvent(.view, video: "v20", user: "elder", at: start - 14 * day))
  }

  /// `count` views of `video`, one per distinct user (`prefix0`, `prefix1`, ...), evenly
  /// spread over `interval` seconds ending at `end`.
  static func views(
    of video: String, count: Int, over interval: TimeInterval, endingAt end: Date,
    userPrefix: String, region: String? = nil
  ) -> [ContentEvent] {
    (0..<count).map { number in
      let offset = count == 1 ? 0 : interval * Double(count - 1 - number) / Double(count - 1)
      return ContentEvent(
        .view, video: video, user: "\(userPrefix)\(number)", at: end - offset, region: region)
    }
  }

  /// A steady stream: `perHour` distinct users view `video` every hour for `hours` hours up
  /// to `end` (users cycle through `distinctUsers`).
  static func steadyViews(
    of video: String, perHour: Int, hours: Int, endingAt end: Date, distinctUsers: Int,
    userPrefix: String
  ) -> [ContentEvent] {
    var events: [ContentEvent] = []
    for hour in 0..<hours {
      for number in 0..<perHour {
        let time = end - Double(hours - hour) * Self.hour + Double(number) * 3600 / Double(perHour)
        let user = "\(userPrefix)\((hour * perHour + number) % distinctUsers)"
        events.append(ContentEvent(.view, video: video, user: user, at: time))
      }
    }
    return events
  }
}
