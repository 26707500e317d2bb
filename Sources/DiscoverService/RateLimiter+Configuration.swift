import DiscoverSearch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A sustained rate and a burst: how many requests of one kind a client may make.
///
/// A client that has been idle may send ``burst`` requests at once; after that, one request
/// every 1 / ``requestsPerSecond`` seconds (the ``interval``). Over a long time *t* a client
/// asking without pause is admitted `burst + requestsPerSecond × t` requests.
///
/// **Values.** ``requestsPerSecond`` must be finite, above 0 and at most 10⁹, ``burst`` at
/// least 1, and a whole burst must refill within ten years (`burst / requestsPerSecond` at
/// most 315,360,000 seconds), which keeps every time the limiter computes within 64-bit
/// nanoseconds. ``init(requestsPerSecond:burst:)`` traps on other values, a programmer's
/// mistake; ``init(validatingRequestsPerSecond:burst:)`` throws instead, for values read from
/// a configuration file. The interval is rounded to the nearest nanosecond, so rates above a
/// few million per second are approximate.
public struct RateLimit: Hashable, Sendable, CustomStringConvertible {
  /// The sustained rate: requests admitted per second once a burst is spent.
  public let requestsPerSecond: Double
  /// The most requests admitted at once after an idle period; at least 1.
  public let burst: Int
  /// The interval between requests at the sustained rate, in nanoseconds; at least 1.
  let intervalNanoseconds: Int64

  /// The longest time a whole burst may take to refill: ten years, in seconds.
  static let maximumRefillSeconds = 315_360_000.0

  /// A rate limit of `requestsPerSecond` with bursts of up to `burst` requests.
  ///
  /// - Precondition: `requestsPerSecond` is finite, above 0 and at most 10⁹; `burst` is at
  ///   least 1; `burst / requestsPerSecond` is at most ten years in seconds.
  public init(requestsPerSecond: Double, burst: Int) {
    if let problem = Self.problem(requestsPerSecond: requestsPerSecond, burst: burst) {
      preconditionFailure(problem)
    }
    self.init(unchecked: requestsPerSecond, burst: burst)
  }

  /// A rate limit from values that may be wrong, such as a configuration file's.
  ///
  /// - Throws: ``SearchError`` with code ``SearchError/Code/invalidArgument`` and a message
  ///   naming the value to fix, when `requestsPerSecond` is not finite, not above 0 or above
  ///   10⁹, `burst` is below 1, or a burst would take more than ten years to refill.
  public init(validatingRequestsPerSecond requestsPerSecond: Double, burst: Int)
    throws(SearchError)
  {
    if let problem = Self.problem(requestsPerSecond: requestsPerSecond, burst: burst) {
      throw SearchError(.invalidArgument, problem)
    }
    self.init(unchecked: requestsPerSecond, burst: burst)
  }

  private init(unchecked requestsPerSecond: Double, burst: Int) {
    self.requestsPerSecond = requestsPerSecond
    self.burst = burst
    intervalNanoseconds = max(1, Int64((1e9 / requestsPerSecond).rounded()))
  }

  /// What is wrong with the values, as a message that says how to fix them, or `nil`.
  private static func problem(requestsPerSecond: Double, burst: Int) -> String? {
    guard requestsPerSecond.isFinite && requestsPerSecond > 0 && requestsPerSecond <= 1e9 else {
      return "a rate limit's requests per second must be a number above 0 and at most "
        + "1000000000; got \(requestsPerSecond)"
    }
    guard burst >= 1 else {
      return "a rate limit's burst must be at least 1 request; got \(burst)"
    }
    guard Double(burst) / requestsPerSecond <= maximumRefillSeconds else {
      return "a rate limit's burst of \(burst) would take more than ten years to refill at "
        + "\(requestsPerSecond) per second; lower the burst or raise the rate"
    }
    return nil
  }

  /// The time between requests at the sustained rate, to the nanosecond.
  public var interval: Duration { .nanoseconds(intervalNanoseconds) }

  /// "10 per second, bursts of 20".
  public var description: String {
    "\(Self.format(requestsPerSecond)) per second, bursts of \(burst)"
  }

  /// A rate as a person writes it: `10`, not `10.0`.
  static func format(_ rate: Double) -> String {
    rate == rate.rounded() && abs(rate) < 1e15 ? String(Int64(rate)) : String(rate)
  }
}

extension RateLimiter {
  /// A kind of request with its own budget: searches, completions and trending lists.
  ///
  /// A struct wrapping a private enum, as ``SearchError/Code`` does, so that adding an
  /// operation later breaks no caller's `switch`.
  public struct Operation: Hashable, Sendable, CustomStringConvertible {
    fileprivate enum Value: Int, CaseIterable {
      case search
      case completion
      case trending
    }
    fileprivate let value: Value

    fileprivate init(_ value: Value) { self.value = value }

    /// A search: a submitted query and its result pages.
    public static let search = Operation(.search)
    /// A completion (suggestions for a prefix): fires once per keystroke.
    public static let completion = Operation(.completion)
    /// A trending list (videos, hashtags, sounds).
    public static let trending = Operation(.trending)

    /// Every operation, in a fixed order.
    public static let allCases: [Operation] = Value.allCases.map(Operation.init)

    /// The operation's position in ``allCases``: where the limiter keeps its budget.
    var index: Int { value.rawValue }

    /// The operation's name, for logs and messages: `search`, `completion` or `trending`.
    public var description: String {
      switch value {
      case .search: "search"
      case .completion: "completion"
      case .trending: "trending"
      }
    }
  }

  /// A ``RateLimit`` for each ``Operation``.
  public struct Limits: Hashable, Sendable {
    /// The limit on searches.
    public var search: RateLimit
    /// The limit on completions.
    public var completion: RateLimit
    /// The limit on trending lists.
    public var trending: RateLimit

    /// Limits for each operation.
    public init(search: RateLimit, completion: RateLimit, trending: RateLimit) {
      self.search = search
      self.completion = completion
      self.trending = trending
    }

    /// The limit on `operation`.
    public subscript(operation: Operation) -> RateLimit {
      get {
        switch operation.value {
        case .search: search
        case .completion: completion
        case .trending: trending
        }
      }
      set {
        switch operation.value {
        case .search: search = newValue
        case .completion: completion = newValue
        case .trending: trending = newValue
        }
      }
    }

    /// Limits for one person at a keyboard, generous enough never to stop one.
    ///
    /// - Searches: 10 per second, bursts of 20. A person submits a query every few seconds;
    ///   paging and filter changes add a few more.
    /// - Completions: 30 per second, bursts of 60. One fires per keystroke, and a fast typist
    ///   makes about 10 keystrokes a second (120 words a minute); the rest is room for
    ///   deletions, several tabs and retries, and a burst covers a long query typed at once.
    /// - Trending lists: 2 per second, bursts of 10. A Discover page loads a few lists per
    ///   visit, then refreshes now and then.
    public static let standard = Limits(
      search: RateLimit(requestsPerSecond: 10, burst: 20),
      completion: RateLimit(requestsPerSecond: 30, burst: 60),
      trending: RateLimit(requestsPerSecond: 2, burst: 10))
  }

  /// A moment on the limiter's clock: nanoseconds since an arbitrary origin.
  ///
  /// Only differences matter, so a test may start its clock at zero; instants must stay
  /// within about 100 years of the origin. ``now`` reads the system's monotonic clock.
  public struct Instant: InstantProtocol, CustomStringConvertible {
    /// Nanoseconds since the clock's origin.
    public var nanoseconds: Int64

    /// The instant `nanoseconds` after the clock's origin.
    public init(nanoseconds: Int64) {
      self.nanoseconds = nanoseconds
    }

    /// The current instant on the system's monotonic clock, which never goes backward.
    ///
    /// The limiter's default clock. It reads `CLOCK_MONOTONIC` directly, about 25 ns:
    /// `ContinuousClock.now` and the 128-bit division that turns its `Duration` into
    /// nanoseconds take several times longer than a check. Reading a clock also stops the
    /// processor from overlapping one check's memory access with the next, so a loop of checks
    /// goes fastest with one instant read per batch, or the time a request arrived.
    public static var now: Instant {
      var time = timespec()
      clock_gettime(CLOCK_MONOTONIC, &time)
      return Instant(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }

    /// The instant `duration` after this one (before, for a negative duration), rounded
    /// toward zero to the nanosecond.
    public func advanced(by duration: Duration) -> Instant {
      Instant(nanoseconds: nanoseconds + Self.nanoseconds(in: duration))
    }

    /// The time from this instant to `other`.
    public func duration(to other: Instant) -> Duration {
      .nanoseconds(other.nanoseconds - nanoseconds)
    }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.nanoseconds < rhs.nanoseconds
    }

    /// The nanoseconds since the origin: `1500000000 ns`.
    public var description: String { "\(nanoseconds) ns" }

    /// `duration` in whole nanoseconds, rounded toward zero.
    static func nanoseconds(in duration: Duration) -> Int64 {
      let (seconds, attoseconds) = duration.components
      return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
  }
}
