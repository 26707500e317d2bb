/// The one error type DiscoverSearch throws at its public boundary.
///
/// Every error carries a ``code`` to branch on, a ``message`` that says what to fix, and the
/// underlying error when another layer (the file system, SQLite) failed. Codes separate the
/// caller's mistakes (``Code/invalidDocument``, ``Code/invalidQuery``,
/// ``Code/invalidArgument``) from problems inside the engine's own inputs and outputs
/// (``Code/corruptIndex``, ``Code/io``). No hits is never an error: it is an empty response.
public struct SearchError: Error, Sendable, CustomStringConvertible {
  /// What kind of failure this is.
  ///
  /// A struct wrapping a private enum, so that adding a code later breaks no caller's `switch`.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private enum Value: Hashable, Sendable {
      case invalidDocument
      case invalidQuery
      case invalidArgument
      case corruptIndex
      case io
      case indexLocked
      case documentNotFound
      case rateLimited
      case `internal`
    }
    private let value: Value
    private init(_ value: Value) { self.value = value }

    /// A corpus line or document is malformed or breaks a rule (missing id, negative count).
    public static let invalidDocument = Code(.invalidDocument)
    /// A query cannot be run (for example a cursor that belongs to another query).
    public static let invalidQuery = Code(.invalidQuery)
    /// An argument from outside (a command-line flag, a file path) is not usable.
    public static let invalidArgument = Code(.invalidArgument)
    /// An index file is damaged, truncated or of an unknown version.
    public static let corruptIndex = Code(.corruptIndex)
    /// Reading or writing a file failed.
    public static let io = Code(.io)
    /// Another writer holds the index directory's lock: one writer per directory, in this
    /// process or another.
    public static let indexLocked = Code(.indexLocked)
    /// A change names a document the index does not hold (counts for an unknown id).
    public static let documentNotFound = Code(.documentNotFound)
    /// A caller sent more requests than its rate limit allows.
    public static let rateLimited = Code(.rateLimited)
    /// A broken invariant inside the engine; please report it.
    public static let `internal` = Code(.internal)

    /// The code's stable name, for programs: `invalidDocument`, `invalidQuery`,
    /// `invalidArgument`, `corruptIndex`, `io`, `indexLocked`, `documentNotFound`, `rateLimited` or `internal`, as spelled in
    /// this API. A service can send it in an error response; it never changes for a code.
    public var name: String {
      switch value {
      case .invalidDocument: "invalidDocument"
      case .invalidQuery: "invalidQuery"
      case .invalidArgument: "invalidArgument"
      case .corruptIndex: "corruptIndex"
      case .io: "io"
      case .indexLocked: "indexLocked"
      case .documentNotFound: "documentNotFound"
      case .rateLimited: "rateLimited"
      case .internal: "internal"
      }
    }

    public var description: String {
      switch value {
      case .invalidDocument: "invalid document"
      case .invalidQuery: "invalid query"
      case .invalidArgument: "invalid argument"
      case .corruptIndex: "corrupt index"
      case .io: "I/O error"
      case .indexLocked: "index locked"
      case .documentNotFound: "document not found"
      case .rateLimited: "rate limited"
      case .internal: "internal error"
      }
    }
  }

  /// What kind of failure this is.
  public var code: Code
  /// What went wrong and how to fix it, for a person to read.
  public var message: String
  /// The error from a lower layer that caused this one, if any.
  public var underlying: (any Error & Sendable)?
  /// For ``Code/rateLimited``: how long to wait before the request would be admitted (an
  /// HTTP `Retry-After`); `nil` otherwise.
  public var retryAfter: Duration?

  /// Creates an error.
  public init(_ code: Code, _ message: String, underlying: (any Error & Sendable)? = nil) {
    self.code = code
    self.message = message
    self.underlying = underlying
  }

  /// A ``Code/rateLimited`` error: the request may be sent again after `retryAfter`.
  public static func rateLimited(_ message: String, retryAfter: Duration) -> SearchError {
    var error = SearchError(.rateLimited, message)
    error.retryAfter = retryAfter
    return error
  }

  public var description: String {
    if let underlying {
      return "\(code): \(message) (\(underlying))"
    }
    return "\(code): \(message)"
  }
}
