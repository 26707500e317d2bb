// libFuzzer target `cursors`: see FuzzTargets.cursors(_:).
@testable import DiscoverSearch

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCursors(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  runFuzzTarget(data, size, FuzzTargets.cursors)
}

/// `DISCOVER_FUZZ_WRITE_SEEDS=DIR` writes real cursors: of the sample searches' second pages
/// and of the trending lists, as tokens (modes 0 and 2) and as the fields modes 1 and 3 build
/// on.
@_cdecl("LLVMFuzzerInitialize")
public func initializeCursors(
  _ argc: UnsafeMutablePointer<Int32>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  writeSeedsIfAsked {
    var seeds: [(name: String, bytes: [UInt8])] = []
    for (queryIndex, query) in FuzzTargets.cursorQueries.enumerated() {
      for (tabIndex, tab) in SearchTab.allCases.enumerated() {
        guard let page = try? FuzzSamples.index.search(query, in: tab, limit: 1),
          let token = page.nextCursor?.token, let bytes = Base64URL.decode(token)
        else { continue }
        let options = UInt8(tabIndex) | UInt8(queryIndex << 3)
        seeds.append(("search-\(queryIndex)-\(tab)", [0, options] + Array(token.utf8)))
        seeds.append(("search-fields-\(queryIndex)-\(tab)", [1, options] + bytes.dropFirst(9)))
      }
    }
    for (typeIndex, type) in ContentType.allCases.enumerated() {
      for region in [nil, "US"] {
        guard let page = try? FuzzSamples.trending.list(type, region: region, limit: 1),
          let token = page.nextCursor?.token, let bytes = Base64URL.decode(token)
        else { continue }
        let options = UInt8(typeIndex) | (region == nil ? 0 : 4)
        let name = "trending-\(type)-\(region ?? "all")"
        seeds.append((name, [2, options] + Array(token.utf8)))
        seeds.append((name + "-fields", [3, options] + bytes.dropFirst(1)))
      }
    }
    return seeds
  }
  return 0
}
