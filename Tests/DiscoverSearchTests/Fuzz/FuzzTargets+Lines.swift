import Foundation

@testable import DiscoverSearch

extension FuzzTargets {
  /// The line reader's chunk sizes, down to one byte.
  static let chunkSizes = [1, 2, 3, 7, 16, 64, 4096, JSONLinesReader.defaultChunkSize]
  /// Small limits reach the handling of over-long lines.
  static let maximumLineLengths = [1, 40, 300, 1 << 16]

  /// `corpus-lines`: corpus files (contract 1) and counts files, line by line.
  ///
  /// Input: [chunk size] [options] then the file's bytes. Options: bit 0 the skip policy,
  /// bits 1-2 the longest line allowed, bit 3 counts lines instead of corpus lines, bits 4
  /// and 5 together build and search an index of the documents (when at most six). Checks
  /// that every line is accounted for, that the stop policy throws instead of reporting, and
  /// that a document comes back equal from its own `jsonLine` (no data is lost).
  static func corpusLines(_ bytes: [UInt8]) -> [String] {
    var findings = FuzzFindings()
    var input = FuzzInput(bytes)
    let chunkSize = chunkSizes[Int(input.byte()) % chunkSizes.count]
    let options = input.byte()
    let policy: CorpusErrorPolicy = options & 1 != 0 ? .skip : .stop
    let maximumLineLength = maximumLineLengths[Int(options >> 1) & 3]
    let text = input.rest()
    if options & 0x08 != 0 {
      countLines(text, chunkSize: chunkSize, maximumLineLength: maximumLineLength, &findings)
      return findings.problems
    }

    var documents: [Document] = []
    var lost: [String] = []
    let loaded = findings.expectTypedErrors("loading a corpus") {
      try CorpusLoader.forEachDocument(
        inJSONLines: text, policy: policy, chunkSize: chunkSize,
        maximumLineLength: maximumLineLength
      ) { document in
        documents.append(document)
        let line = document.jsonLine
        if (try? Document(jsonLine: line)) != document { lost.append(line) }
      }
    }
    for line in lost {
      findings.fail("\(line) does not decode to the document it was written from")
    }
    if case .success(let report) = loaded {
      if report.lineCount != report.documentCount + report.blankLineCount + report.issueCount {
        findings.fail("corpus lines unaccounted for: \(report)")
      }
      if policy == .stop, report.issueCount != 0 {
        findings.fail("the stop policy reported issues instead of throwing: \(report.issues)")
      }
    }
    // The public one-line decoder, on lines short enough for every limit.
    if maximumLineLength == 1 << 16 {
      for line in text.split(separator: 0x0A).prefix(8) {
        findings.expectTypedErrors("decoding one line") {
          try Document(jsonLine: String(decoding: line, as: UTF8.self))
        }
      }
    }
    if options & 0x30 == 0x30, !documents.isEmpty, documents.count <= 6 {
      let built = findings.expectTypedErrors("building an index of the documents") {
        try DiscoverIndex.build(from: documents)
      }
      if case .success(let index) = built {
        let searchable = documents.filter { $0.kind != .effect }.count
        if index.documentCount != searchable {
          findings.fail(
            "\(searchable) searchable documents gave an index of \(index.documentCount)")
        }
        let query = String(documents[0].id.prefix(12))
        findings.expectTypedErrors("searching the index") {
          try index.search(query, in: .top, limit: 5)
        }
        findings.expectTypedErrors("completing in the index") {
          try index.suggestions(forPrefix: String(query.prefix(3)), limit: 5)
        }
      }
    }
    return findings.problems
  }

  /// A counts file (`discover counts`): each line decoded as a ``CountUpdate``, the first
  /// ones applied to a writer of the sample documents.
  private static func countLines(
    _ bytes: [UInt8], chunkSize: Int, maximumLineLength: Int, _ findings: inout FuzzFindings
  ) {
    var updates: [CountUpdate] = []
    var lines: [String] = []
    findings.expectTypedErrors("reading counts lines") {
      try JSONLinesReader.forEachLine(
        in: bytes, chunkSize: chunkSize, maximumLineLength: maximumLineLength
      ) { _, line in
        guard case .text(let text) = line else { return }
        if let update = try? CountUpdate.decode(text) { updates.append(update) }
        lines.append(String(decoding: text, as: UTF8.self))
      }
    }
    for line in lines.prefix(8) {
      findings.expectTypedErrors("decoding a counts line") { try CountUpdate(jsonLine: line) }
    }
    guard !updates.isEmpty else { return }
    var writer = IndexWriter()
    findings.expectTypedErrors("adding the sample documents") {
      try writer.add(contentsOf: FuzzSamples.documents.prefix(24))
    }
    for update in updates.prefix(8) {
      findings.expectTypedErrors("applying a count update") { try writer.updateCounts(update) }
    }
  }

  /// `event-lines`: event files (contract 5), then trending content.
  ///
  /// Input: [options] then the file's bytes. Options: bit 0 the skip policy, bit 1 saves the
  /// trending state and reads it back, bit 2 updates a writer's counts from the events, bits
  /// 4-5 the list read. The events read are recorded into trending content over the sample
  /// documents, whose list of that type (in the first event's region and everywhere) is read,
  /// paged and explained. Checks that every line is accounted for and that a saved state reads
  /// back equal.
  static func eventLines(_ bytes: [UInt8]) -> [String] {
    var findings = FuzzFindings()
    var input = FuzzInput(bytes)
    let options = input.byte()
    let policy: CorpusErrorPolicy = options & 1 != 0 ? .skip : .stop
    var events: [ContentEvent] = []
    let loaded = findings.expectTypedErrors("loading events") {
      try ContentEventLoader.forEachEvent(inJSONLines: input.rest(), policy: policy) {
        if events.count < 64 { events.append($0) }
      }
    }
    if case .success(let report) = loaded {
      if report.lineCount != report.eventCount + report.blankLineCount + report.issueCount {
        findings.fail("event lines unaccounted for: \(report)")
      }
      if policy == .stop, report.issueCount != 0 {
        findings.fail("the stop policy reported issues instead of throwing: \(report.issues)")
      }
    }
    guard let first = events.first else { return findings.problems }

    let trending = TrendingContent(index: FuzzSamples.smallIndex, clock: { FuzzSamples.now })
    for event in events {
      findings.expectTypedErrors("recording an event") { try trending.record(event) }
    }
    let type = ContentType.allCases[Int(options >> 4) & 3]
    for region in [nil, first.region] {
      readList(of: trending, type, region: region, &findings)
    }
    findings.expectTypedErrors("explaining a trending video") {
      try trending.explain(.video, id: first.videoID, region: first.region)
    }
    if options & 0x02 != 0 {
      let saved = findings.expectTypedErrors("encoding the trending state") {
        try trending.store.withState { state throws(SearchError) in (state, state.encoded()) }
      }
      if case .success(let (state, encoded)) = saved {
        let decoded = findings.expectTypedErrors("decoding the trending state") {
          try TrendingState(decoding: encoded, configuration: trending.configuration)
        }
        if case .success(let again) = decoded, again != state {
          findings.fail("the trending state does not read back equal")
        }
      }
    }
    if options & 0x04 != 0 {
      var writer = IndexWriter()
      findings.expectTypedErrors("adding the sample documents") {
        try writer.add(contentsOf: FuzzSamples.documents.prefix(24))
      }
      _ = writer.updateCounts(from: events)
    }
    return findings.problems
  }

  /// Reads a trending list and its next page.
  private static func readList(
    of trending: TrendingContent, _ type: ContentType, region: String?,
    _ findings: inout FuzzFindings
  ) {
    let page = findings.expectTypedErrors("listing trending \(type)") {
      try trending.list(type, region: region, limit: 5)
    }
    guard case .success(let page) = page else { return }
    if page.items.count > 5 { findings.fail("\(page.items.count) trending items for a limit of 5") }
    for item in page.items where !item.score.isFinite {
      findings.fail("trending score \(item.score) for \(item.id)")
    }
    if let cursor = page.nextCursor {
      findings.expectTypedErrors("paging trending \(type)") {
        try trending.list(
          type, region: region, limit: 5, after: try TrendingCursor(token: cursor.token))
      }
    }
  }
}
