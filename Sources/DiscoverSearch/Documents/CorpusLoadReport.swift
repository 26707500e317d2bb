/// What ``CorpusLoader`` read from a corpus: documents per type, and the lines it could not use.
///
/// Every line is accounted for: `lineCount == documentCount + skippedLineCount`, where skipped
/// lines are blank lines (ignored silently) plus bad lines (each one an issue).
public struct CorpusLoadReport: Sendable, Hashable {
  /// How many issues ``issues`` keeps; ``issueCount`` counts them all.
  public static let maximumKeptIssues = 1_000

  /// Lines read, including blank and bad ones.
  public internal(set) var lineCount = 0
  /// Documents delivered, of every type, effects included.
  public internal(set) var documentCount = 0
  /// Lines holding only whitespace, skipped without an issue.
  public internal(set) var blankLineCount = 0
  /// Bad lines, each skipped (under ``CorpusErrorPolicy/skip``) and reported once.
  public internal(set) var issueCount = 0
  /// The first ``maximumKeptIssues`` issues, in line order.
  public internal(set) var issues: [CorpusIssue] = []
  /// Documents delivered per kind, indexed by `DocumentKind.index` (effects last).
  private var countsByKind = [0, 0, 0, 0, 0]

  /// Creates an empty report.
  public init() {}

  /// Lines that produced no document: blank lines plus bad lines.
  public var skippedLineCount: Int { blankLineCount + issueCount }

  /// How many documents of `type` were delivered.
  public func documentCount(of type: SearchResultType) -> Int {
    countsByKind[type.index]
  }

  /// How many effects were delivered (effects have no ``SearchResultType``).
  public var effectCount: Int { countsByKind[DocumentKind.effect.index] }

  mutating func recordDocument(of kind: DocumentKind) {
    documentCount += 1
    countsByKind[kind.index] += 1
  }

  mutating func record(_ issue: CorpusIssue) {
    issueCount += 1
    if issues.count < Self.maximumKeptIssues { issues.append(issue) }
  }
}
