import DiscoverSearch
import Foundation

/// The command line of `discover-bench` (README.md, "Benchmark").
struct BenchmarkOptions {
  /// A corpus file to index instead of the embedded one.
  var corpus: URL?
  /// A query file (JSON Lines of searches and completions) to run instead of the generated mix.
  var queries: URL?
  /// Index a synthetic corpus of this many documents.
  var documentCount: Int?
  var seed: UInt64 = 1
  var writeCorpus: URL?
  var writeQueries: URL?
  var json: URL?
  /// How many search queries the generated mix has.
  var queryCount = 2_000
  /// How many completion requests the generated mix has.
  var suggestCount = 1_000
  /// Timed passes over the queries after the warm-up; each query's median is kept.
  var passes = 3
  /// Whether to compare every query's counts with the reference evaluation.
  var verifies = true
  /// How many of the slowest queries to list after the run.
  var slowestCount = 0
  /// Whether to print what each part of the index holds in memory.
  var showsMemory = false
  /// Synthetic trending events to record and judge (`--events N`); `nil` for none.
  var eventCount: Int?
  /// Whether to time the index as a service starts it (`--live`).
  var measuresLive = false
  /// Whether to measure the service layer (`--service`).
  var measuresService = false

  static let usage = """
    usage: discover-bench [--corpus FILE | --docs N [--seed S]] [--queries FILE]
                          [--write-corpus FILE] [--write-queries FILE] [--json FILE]
                          [--query-count N] [--suggest-count N] [--passes N] [--no-verify]
                          [--slowest N] [--memory] [--events N] [--live] [--service]

    With no arguments, indexes the embedded corpus (corpus/youtube_trending.jsonl) and runs
    its generated query mix (searches and completions), printing a table.
      --corpus FILE         index a corpus file (JSON Lines, see README)
      --docs N --seed S     index a synthetic corpus of N documents made with seed S
      --queries FILE        run these queries (JSON Lines of search and suggest
                            lines) instead of the mix
      --write-corpus FILE   write the corpus indexed
      --write-queries FILE  write the queries run
      --json FILE           write the results as JSON
      --query-count N       search queries in the generated mix (default 2000)
      --suggest-count N     suggest queries in the generated mix (default 1000; 0 for none)
      --passes N            timed passes over the queries (default 3; medians are kept)
      --no-verify           skip checking every answer (reference counts, completions)
      --slowest N           list the N slowest search and suggest queries with their
                            median latency
      --memory              print what each part of the index holds in memory
      --events N            record N synthetic trending events over three simulated days
                            on the corpus (Zipf views, planted risers, bot bursts) and
                            judge the lists against what was planted
      --live                time opening the saved index to its first search, and the
                            first completion after an open (median of 5 opens)
      --service             time searches on one and two threads, rate limiter checks
                            with 1,000,000 clients, and the result cache on a Zipf
                            stream of the queries

    DISCOVER_BENCH_DUMP=FILE writes each search query's median µs (blended, text-only), tab
    and text; DISCOVER_BENCH_SUGGEST_DUMP=FILE each suggest query's median µs (typo
    tolerance on, off) and text, one per line, tab-separated. With --events,
    DISCOVER_BENCH_TRENDING_DEBUG=1 prints each missed riser and flagged steady hit with its
    O, E and z.
    """

  /// Parses the arguments.
  ///
  /// - Throws: ``SearchError/Code/invalidArgument`` with a message naming the bad flag.
  static func parse(_ arguments: [String]) throws -> BenchmarkOptions {
    var options = BenchmarkOptions()
    var index = 0
    func value(_ flag: String) throws -> String {
      index += 1
      guard index < arguments.count, !arguments[index].hasPrefix("--") else {
        throw SearchError(.invalidArgument, "\(flag) needs a value")
      }
      return arguments[index]
    }
    func integer(_ flag: String, minimum: Int) throws -> Int {
      let text = try value(flag)
      guard let number = Int(text.replacingOccurrences(of: "_", with: "")), number >= minimum else {
        throw SearchError(
          .invalidArgument, "\(flag) takes a whole number of at least \(minimum), not \"\(text)\"")
      }
      return number
    }
    while index < arguments.count {
      let flag = arguments[index]
      switch flag {
      case "--corpus": options.corpus = URL(fileURLWithPath: try value(flag))
      case "--queries": options.queries = URL(fileURLWithPath: try value(flag))
      case "--docs": options.documentCount = try integer(flag, minimum: 1)
      case "--seed":
        let text = try value(flag)
        guard let seed = UInt64(text) else {
          throw SearchError(
            .invalidArgument, "--seed takes a non-negative whole number, not \"\(text)\"")
        }
        options.seed = seed
      case "--write-corpus": options.writeCorpus = URL(fileURLWithPath: try value(flag))
      case "--write-queries": options.writeQueries = URL(fileURLWithPath: try value(flag))
      case "--json": options.json = URL(fileURLWithPath: try value(flag))
      case "--query-count": options.queryCount = try integer(flag, minimum: 1)
      case "--suggest-count": options.suggestCount = try integer(flag, minimum: 0)
      case "--passes": options.passes = try integer(flag, minimum: 1)
      case "--no-verify": options.verifies = false
      case "--slowest": options.slowestCount = try integer(flag, minimum: 1)
      case "--memory": options.showsMemory = true
      case "--events": options.eventCount = try integer(flag, minimum: 1)
      case "--live": options.measuresLive = true
      case "--service": options.measuresService = true
      case "--help", "-h":
        print(usage)
        exit(0)
      default:
        throw SearchError(.invalidArgument, "unknown argument \"\(flag)\"")
      }
      index += 1
    }
    if options.corpus != nil && options.documentCount != nil {
      throw SearchError(.invalidArgument, "--corpus and --docs are alternatives; pass one")
    }
    if let count = options.documentCount, count > 500_000_000 {
      throw SearchError(.invalidArgument, "--docs is at most 500,000,000")
    }
    return options
  }

  /// The embedded default corpus, found next to this package's sources.
  static var embeddedCorpus: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("corpus/youtube_trending.jsonl")
  }
}
