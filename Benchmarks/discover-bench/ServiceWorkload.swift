import DiscoverCLI
import DiscoverSearch
import DiscoverService
import Foundation
import Synchronization
import SyntheticCorpus

/// DESIGN contract 3's `service` section: what the index serves on one and two threads, how
/// fast the rate limiter decides with a million clients, and what the result cache saves on
/// a query stream that repeats as real traffic does.
struct ServiceWorkload {
  let index: DiscoverIndex
  let queries: [QuerySpec]
  var progress: ProgressLine?

  struct Result {
    /// Searches per second, one thread and two.
    var searchQPS1: Double
    var searchQPS2: Double
    var limiterChecksPerSecond: Double
    /// Live keys when the limiter was timed.
    var limiterKeys: Int
    var cacheHitP50Micros: Double
    /// Hits over requests on the Zipf stream.
    var cacheHitRatio: Double
    var cacheRequests: Int
  }

  /// Passes over the queries per throughput run, after one warm-up pass.
  static let throughputPasses = 3

  func run() throws -> Result {
    progress?.update("Service: search throughput, one thread")
    try forEachQuery(threads: 1, passes: 1)
    let qps1 = try throughput(threads: 1)
    progress?.update("Service: search throughput, two threads")
    let qps2 = try throughput(threads: 2)
    progress?.update("Service: rate limiter, 1,000,000 clients")
    let limiter = Self.limiterThroughput(keys: 1_000_000)
    progress?.update("Service: result cache on a Zipf stream of the queries")
    let cache = try cacheOnZipfStream()
    return Result(
      searchQPS1: qps1, searchQPS2: qps2, limiterChecksPerSecond: limiter,
      limiterKeys: 1_000_000, cacheHitP50Micros: cache.hitP50, cacheHitRatio: cache.ratio,
      cacheRequests: cache.requests)
  }

  /// Searches per second with `threads` threads, each running every query
  /// ``throughputPasses`` times, its own order.
  private func throughput(threads: Int) throws -> Double {
    let start = Measurement.now()
    try forEachQuery(threads: threads, passes: Self.throughputPasses)
    let seconds = Double(Measurement.now() - start) / 1e9
    return Double(threads * Self.throughputPasses * queries.count) / max(seconds, 1e-9)
  }

  /// Runs the queries `passes` times on each of `threads` threads at once; the threads
  /// start at different queries so that they do not search the same one together.
  private func forEachQuery(threads: Int, passes: Int) throws {
    let failure = Mutex<(any Error)?>(nil)
    let index = self.index
    let queries = self.queries
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      let offset = thread * queries.count / max(threads, 1)
      for pass in 0..<passes {
        for step in queries.indices {
          let query = queries[(offset + step + pass) % queries.count]
          do {
            _ = try index.search(
              query.text, in: query.tab, limit: query.limit, matching: query.matching)
          } catch {
            failure.withLock { $0 = error }
            return
          }
        }
      }
    }
    if let error = failure.withLock({ $0 }) { throw error }
  }

  /// Rate limiter checks per second on one thread, with `keys` clients live: each client
  /// charged once first, then checks of clients spread over the whole table (a stride
  /// coprime to the key count), at instants a microsecond apart.
  static func limiterThroughput(keys: Int) -> Double {
    let limiter = RateLimiter(limits: .standard, maximumKeys: 4 * keys)
    let clients = (0..<keys).map { ClientKey("client-\($0)") }
    var instant = RateLimiter.Instant(nanoseconds: 1_000_000_000)
    for client in clients { _ = limiter.check(client, for: .search, at: instant) }
    let checks = 10_000_000
    // 1,000,003 is prime, so the stride visits every client before repeating one.
    let stride = 1_000_003 % keys == 0 ? 1 : 1_000_003
    var position = 0
    var allowed = 0
    let start = Measurement.now()
    for _ in 0..<checks {
      position += stride
      if position >= keys { position %= keys }
      instant.nanoseconds += 1_000
      if limiter.check(clients[position], for: .search, at: instant).isAllowed { allowed += 1 }
    }
    let seconds = Double(Measurement.now() - start) / 1e9
    precondition(allowed > 0 && limiter.keyCount >= keys, "the limiter lost its clients")
    return Double(checks) / max(seconds, 1e-9)
  }

  /// The result cache on a stream of searches drawn from the queries by Zipf's law
  /// (`P(rank k) ∝ 1/k`, Zipf 1949; search logs follow it closely: Xie and O'Hallaron,
  /// "Locality in search engine queries and its implications for caching", INFOCOM 2002),
  /// through a cache of the service's default size: the hit ratio over the stream, and the
  /// p50 of a hit (the key hashed, looked up and the answer returned).
  private func cacheOnZipfStream() throws -> (hitP50: Double, ratio: Double, requests: Int) {
    let cache = ResultCache<SearchRequest, SearchResponse>(
      maximumBytes: SearchService.Configuration().searchCacheBytes,
      timeToLive: .seconds(60), cost: { _ in 4_096 })
    let origin = Date(timeIntervalSince1970: 1_800_000_000)
    let requests = queries.map { query in
      var request = SearchRequest(query.text, in: query.tab, limit: query.limit)
      request.ranking.recency.origin = origin
      return request
    }
    // Cumulative Zipf weights over the queries in a shuffled order, so that the popular
    // ones are not the generator's first.
    var generator = SplitMix64(seed: 7)
    let order = requests.indices.shuffled(using: &generator)
    var cumulative: [Double] = []
    var sum = 0.0
    for rank in order.indices {
      sum += 1 / Double(rank + 1)
      cumulative.append(sum)
    }
    let count = max(20 * requests.count, 10_000)
    var hitNanoseconds: [Double] = []
    hitNanoseconds.reserveCapacity(count)
    let generation = index.generation
    for _ in 0..<count {
      let draw = Double(generator.next() >> 11) / Double(1 << 53) * sum
      var low = 0
      var high = cumulative.count - 1
      while low < high {
        let middle = (low + high) / 2
        if cumulative[middle] < draw { low = middle + 1 } else { high = middle }
      }
      let request = requests[order[low]]
      let start = Measurement.now()
      let hit = cache.lookup(request, generation: generation)
      let elapsed = Measurement.now() - start
      if hit != nil {
        hitNanoseconds.append(Double(elapsed))
      } else {
        cache.insert(try index.search(request), for: request, generation: generation)
      }
    }
    let statistics = cache.statistics
    return (
      Measurement.percentile(hitNanoseconds.sorted(), 0.5) / 1e3, statistics.hitRatio, count
    )
  }
}
