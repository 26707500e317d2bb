// swift-tools-version:6.0
// DiscoverSearch: a search engine for the Discover page of a short-video app, in pure Swift.
// Licensed under the Apache License, Version 2.0 (see LICENSE); the embedded corpus under
// corpus/ keeps its own BSD-2-Clause notice (corpus/LICENSE-youtube_trending.txt).
import PackageDescription

let package = Package(
  name: "DiscoverSearch",
  products: [
    .library(name: "DiscoverSearch", targets: ["DiscoverSearch"]),
    .library(name: "DiscoverService", targets: ["DiscoverService"]),
    .executable(name: "discover", targets: ["discover"]),
    .executable(name: "discover-bench", targets: ["discover-bench"]),
  ],
  targets: [
    // A thin C shim over the system ICU. Its public header uses plain C types only:
    // importing ICU's own headers into Swift clashes with Foundation's private ICU copy.
    .target(
      name: "CICU",
      path: "Sources/CICU",
      linkerSettings: [.linkedLibrary("icuuc"), .linkedLibrary("icui18n")]
    ),
    // A thin C shim over the system SQLite (libsqlite3), for the query analytics store.
    .target(
      name: "CSQLite",
      path: "Sources/CSQLite",
      linkerSettings: [.linkedLibrary("sqlite3")]
    ),
    // A cache prefetch hint (`__builtin_prefetch`) as a static inline C function.
    .target(
      name: "CPrefetch",
      path: "Sources/CPrefetch"
    ),
    // CRC-32C with the processor's instruction, chosen at run time.
    .target(
      name: "CCRC32C",
      path: "Sources/CCRC32C"
    ),
    // Happens-before annotations for the thread sanitizer, no-ops without it.
    .target(
      name: "CSanitizer",
      path: "Sources/CSanitizer"
    ),
    .target(
      name: "DiscoverSearch",
      dependencies: ["CCRC32C", "CICU", "CPrefetch", "CSanitizer", "CSQLite"],
      path: "Sources/DiscoverSearch"
    ),
    // What a service puts between its handlers and the index: rate limits, result caches,
    // debouncing and budgets, so that the core never learns about callers.
    .target(
      name: "DiscoverService",
      dependencies: ["DiscoverSearch", "CSanitizer"],
      path: "Sources/DiscoverService"
    ),
    // The CLI's logic, a library so that tests can run its commands in-process.
    .target(
      name: "DiscoverCLI",
      dependencies: ["DiscoverSearch"],
      path: "Sources/DiscoverCLI"
    ),
    .executableTarget(
      name: "discover",
      dependencies: ["DiscoverCLI"],
      path: "Sources/discover"
    ),
    .target(
      name: "SyntheticCorpus",
      dependencies: ["DiscoverSearch"],
      path: "Benchmarks/SyntheticCorpus"
    ),
    .executableTarget(
      name: "discover-bench",
      // DiscoverCLI for the progress line and the number formatting the CLI prints.
      dependencies: ["DiscoverSearch", "DiscoverService", "DiscoverCLI", "SyntheticCorpus"],
      path: "Benchmarks/discover-bench"
    ),
    .testTarget(
      name: "DiscoverSearchTests",
      dependencies: ["DiscoverSearch", "DiscoverService", "DiscoverCLI", "SyntheticCorpus"],
      path: "Tests/DiscoverSearchTests"
    ),
  ],
  swiftLanguageModes: [.v6]
)
