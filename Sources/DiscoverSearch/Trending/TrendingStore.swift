import Synchronization

/// Where the trending state of ``TrendingContent`` lives.
///
/// A store gives exclusive access to one ``TrendingState`` at a time. The in-process
/// ``InMemoryTrendingStore`` is the default; a store shared between service instances (on
/// Redis, say) conforms by loading, changing and saving the state under its own lock, or by
/// keeping one state per instance and combining them with ``TrendingContent/merge(_:)``,
/// which is exact.
public protocol TrendingStore: AnyObject, Sendable {
  /// The configuration the state was made with.
  var configuration: TrendingConfiguration { get }

  /// Runs `body` with exclusive access to the state and returns its result.
  func withState<Result>(
    _ body: (inout TrendingState) throws(SearchError) -> Result
  ) throws(SearchError) -> Result
}

/// The default ``TrendingStore``: the state in this process's memory, behind a mutex.
public final class InMemoryTrendingStore: TrendingStore {
  /// The configuration the state was made with.
  public let configuration: TrendingConfiguration
  private let state: Lock<TrendingState>

  /// Creates an empty store.
  public init(configuration: TrendingConfiguration = TrendingConfiguration()) {
    self.configuration = configuration
    state = Lock(TrendingState(configuration: configuration))
  }

  /// Creates a store holding `state`.
  init(state: TrendingState) {
    configuration = state.configuration
    self.state = Lock(state)
  }

  /// Runs `body` with the state under the store's mutex.
  public func withState<Result>(
    _ body: (inout TrendingState) throws(SearchError) -> Result
  ) throws(SearchError) -> Result {
    try state.withLock { state throws(SearchError) in try body(&state) }
  }
}
