import Foundation
import Testing

@testable import DiscoverCLI

/// What one in-process run of `discover` returned and wrote.
struct CLIRun {
  var status: Int32
  var output: String
  var errors: String
}

/// Helpers shared by the CLI tests: running commands in-process, temporary directories, and
/// a small corpus of every document type.
enum CLITestSupport {
  /// Runs `discover` with `arguments`, capturing both streams.
  static func run(_ arguments: [String], errorsAreTerminal: Bool = false) -> CLIRun {
    let output = TextBuffer()
    let errors = TextBuffer(isTerminal: errorsAreTerminal)
    let status = DiscoverCLI.run(arguments: arguments, output: output, errorOutput: errors)
    return CLIRun(status: status, output: output.text, errors: errors.text)
  }

  /// Calls `body` with a new empty directory, removed afterwards.
  static func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("discover-cli-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
  }

  /// Seven documents of all four types; "dance" matches a user, a sound, a hashtag and two
  /// videos.
  static let corpusLines = [
    #"{"type":"user","id":"u1","username":"dance_queen","displayName":"Dance Queen","bio":"I dance every day","followerCount":1200,"verified":true}"#,
    #"{"type":"user","id":"u2","username":"chef_mike","displayName":"Mike Cooks","bio":"pasta and more","followerCount":50}"#,
    #"{"type":"sound","id":"s1","title":"Dance Monkey","artist":"Tones and I","videoCount":2}"#,
    #"{"type":"hashtag","id":"h1","name":"dancechallenge","description":"dance challenge videos","viewCount":900000,"videoCount":2}"#,
    #"{"type":"video","id":"v1","title":"Dance challenge in Tokyo","description":"street dance","hashtags":["dancechallenge","fyp"],"creator":"u1","sound":"s1","viewCount":150000,"likeCount":9000,"createdAt":"2026-10-01T12:00:00Z","thumbnailURL":"https://example.com/v1.jpg"}"#,
    #"{"type":"video","id":"v2","title":"Easy pasta recipe","hashtags":["food"],"creator":"u2","viewCount":3000,"likeCount":100,"createdAt":"2026-09-20T08:30:00Z"}"#,
    #"{"type":"video","id":"v3","title":"Dance tutorial for beginners","hashtags":["dance"],"creator":"u1","sound":"s1","viewCount":42000,"likeCount":2100}"#,
  ]

  /// Writes `lines` as a JSON Lines file named `name` in `directory`.
  @discardableResult
  static func write(_ lines: [String], named name: String, in directory: URL) throws -> URL {
    let url = directory.appendingPathComponent(name)
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
    return url
  }

  /// Writes the small corpus into `directory` and indexes it into `directory/index`.
  ///
  /// - Returns: the index directory's path.
  static func makeIndex(in directory: URL) throws -> String {
    let corpus = try write(corpusLines, named: "corpus.jsonl", in: directory)
    let indexPath = directory.appendingPathComponent("index").path
    let result = run(["index", corpus.path, "--out", indexPath])
    try #require(result.status == 0, "indexing failed: \(result.errors)")
    return indexPath
  }

  /// Parses `text` as one JSON object.
  static func jsonObject(_ text: String) throws -> [String: Any] {
    let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(value as? [String: Any], "not a JSON object: \(text)")
  }

  /// The usage error `arguments` produce, or `nil` when they parse.
  static func usageError(_ arguments: [String]) -> CommandError? {
    do {
      _ = try DiscoverCommand.parse(arguments)
      return nil
    } catch {
      return error
    }
  }
}
