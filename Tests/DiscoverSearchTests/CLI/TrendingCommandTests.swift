import Foundation
import Testing

@testable import DiscoverCLI

@Suite("discover events and discover trending videos|hashtags|sounds|effects")
struct TrendingCommandTests {
  static let now = "2026-12-01T11:00:00Z"

  /// Ten users view v1 and two view v2; six creators post new videos with #dancechallenge,
  /// sound s1 and an effect the index does not hold.
  static var eventLines: [String] {
    // A view two weeks earlier: the state has a past, against which items can rise.
    var lines = [#"{"kind":"view","video":"v3","user":"elder","at":"2026-11-17T10:00:00Z"}"#]
    for user in 0..<10 {
      lines.append(
        #"{"kind":"view","video":"v1","user":"u\#(user)","at":"2026-12-01T10:5\#(user % 10):00Z","region":"US"}"#
      )
    }
    lines.append(#"{"kind":"like","video":"v2","user":"a","at":"2026-12-01T10:50:00Z"}"#)
    lines.append(#"{"kind":"share","video":"v2","user":"b","at":"2026-12-01T10:50:00Z"}"#)
    for creator in 0..<6 {
      lines.append(
        #"{"kind":"post","video":"n\#(creator)","user":"c\#(creator)","at":"2026-12-01T10:40:00Z","hashtags":["DanceChallenge"],"sound":"s1","effect":"fx9","extra":1}"#
      )
    }
    return lines
  }

  @Test func eventsThenTrendingListsInContractFourShape() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let events = try CLITestSupport.write(Self.eventLines, named: "events.jsonl", in: directory)
      let recorded = CLITestSupport.run([
        "events", events.path, "--index", index, "--now", Self.now, "--json",
      ])
      #expect(recorded.status == 0, "\(recorded.errors)")
      let report = try CLITestSupport.jsonObject(recorded.output)
      #expect(report["events"] as? Int == 19)
      #expect(report["badLines"] as? Int == 0)

      let videos = CLITestSupport.run([
        "trending", "videos", "--index", index, "--now", Self.now, "--json",
      ])
      let videoList = try CLITestSupport.jsonObject(videos.output)
      #expect(videoList["list"] as? String == "videos")
      let items = try #require(videoList["items"] as? [[String: Any]])
      #expect(items.map { $0["id"] as? String } == ["v1"])
      #expect(items.first?["type"] as? String == "video")
      #expect(items.first?["rising"] as? Bool == true)
      #expect(items.first?["viewCount"] as? Int == 150_010)
      #expect(items.first?["thumbnailURL"] as? String == "https://example.com/v1.jpg")
      #expect(items.first?["createdAt"] as? String == "2026-10-01T12:00:00Z")
      #expect(videoList["nextCursor"] is NSNull)

      let hashtags = try CLITestSupport.jsonObject(
        CLITestSupport.run(["trending", "hashtags", "--index", index, "--now", Self.now, "--json"])
          .output)
      let hashtag = try #require((hashtags["items"] as? [[String: Any]])?.first)
      #expect(hashtag["title"] as? String == "dancechallenge")
      #expect(hashtag["participants"] as? Int == 6)
      #expect(hashtag["featured"] as? [String] == ["v1"])

      let sounds = try CLITestSupport.jsonObject(
        CLITestSupport.run(["trending", "sounds", "--index", index, "--now", Self.now, "--json"])
          .output)
      let sound = try #require((sounds["items"] as? [[String: Any]])?.first)
      #expect(sound["id"] as? String == "s1")
      #expect((sound["videoCount"] as? Int ?? 0) >= 6)
      #expect(sound["growth"] is Double)

      // The effect is not in the index: counted, not listed.
      let effects = try CLITestSupport.jsonObject(
        CLITestSupport.run(["trending", "effects", "--index", index, "--now", Self.now, "--json"])
          .output)
      #expect((effects["items"] as? [Any])?.isEmpty == true)

      let regional = CLITestSupport.run([
        "trending", "videos", "--index", index, "--now", Self.now, "--region", "US", "--explain",
      ])
      #expect(regional.output.contains("Trending videos in US: 1"))
      #expect(regional.output.contains("z = (O - E) / sqrt(E + 4)"))
    }
  }

  @Test func recordingTwiceAddsUpAndBadLinesAreNumbered() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let lines =
        Self.eventLines + [
          #"{"kind":"watch","video":"v1","user":"u","at":"2026-12-01T10:00:00Z"}"#,
          #"{"kind":"view","video":"v1","user":"u","at":"yesterday"}"#,
          #"{"kind":"view","user":"u","at":"2026-12-01T10:00:00Z"}"#,
          #"{"kind":"view","video":7,"user":"u","at":"2026-12-01T10:00:00Z"}"#,
          #"{"kind":"view","video":"v1","user":"u","at":"99999-12-01T10:00:00Z"}"#,
          "not json",
        ]
      var bytes = Data((lines.joined(separator: "\n") + "\n").utf8)
      bytes.append(contentsOf: [0x7B, 0x22, 0xFF, 0x22, 0x7D, 0x0A])
      let url = directory.appendingPathComponent("bad.jsonl")
      try bytes.write(to: url)

      let stopped = CLITestSupport.run(["events", url.path, "--index", index, "--now", Self.now])
      #expect(stopped.status == 1)
      #expect(stopped.errors.contains("line 20: unknown kind \"watch\""))
      #expect(stopped.errors.contains("Nothing was recorded"))
      let path = directory.appendingPathComponent("index/trending.dstrend").path
      #expect(!FileManager.default.fileExists(atPath: path))

      let skipped = CLITestSupport.run([
        "events", url.path, "--index", index, "--now", Self.now, "--skip-bad-lines", "--json",
      ])
      #expect(skipped.status == 0)
      let report = try CLITestSupport.jsonObject(skipped.output)
      #expect(report["events"] as? Int == 19)
      #expect(report["badLines"] as? Int == 7)
      for line in 20...24 {
        #expect(skipped.errors.contains("line \(line):"))
      }
      #expect(skipped.errors.contains("2 more bad lines skipped"))

      // Recording the valid lines again adds views but no new users.
      let events = try CLITestSupport.write(Self.eventLines, named: "events.jsonl", in: directory)
      #expect(
        CLITestSupport.run(["events", events.path, "--index", index, "--now", Self.now]).status == 0
      )
      let videos = try CLITestSupport.jsonObject(
        CLITestSupport.run(["trending", "videos", "--index", index, "--now", Self.now, "--json"])
          .output)
      let first = try #require((videos["items"] as? [[String: Any]])?.first)
      #expect(first["viewCount"] as? Int == 150_020)
      // Past 8 users the sketch estimates (±41%); it never reports fewer than it holds.
      #expect((first["distinctUsers"] as? Int ?? 0) >= 8)
    }
  }

  @Test func aCursorOfAnotherListIsRefusedAndADamagedStateIsReported() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let refused = CLITestSupport.run([
        "trending", "videos", "--index", index, "--after", "garbage", "--json",
      ])
      #expect(refused.status == 1)
      #expect(refused.errors.contains("\"error\""))
      try Data("damaged".utf8).write(
        to: URL(fileURLWithPath: index).appendingPathComponent("trending.dstrend"))
      let damaged = CLITestSupport.run(["trending", "videos", "--index", index])
      #expect(damaged.status == 1)
      #expect(damaged.errors.contains("trending state is damaged"))
      #expect(damaged.errors.contains("rm -f"))
    }
  }
}
