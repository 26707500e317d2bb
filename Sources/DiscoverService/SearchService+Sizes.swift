import DiscoverSearch

// What the caches count as each answer's and key's bytes: the UTF-8 of their strings plus a
// fixed share per value for the fields, arrays and object headers around them. An estimate
// within a small factor is enough for a byte bound; walking every field exactly would cost
// more than the answer is worth.

extension SearchResponse {
  /// About the bytes this response holds: each result's strings and highlights plus 256
  /// bytes for its fixed fields and metadata (measured with `MemoryLayout` of
  /// `SearchResult` and its metadata enum, rounded up).
  var approximateBytes: Int {
    var bytes = 256 + query.utf8.count + (nextCursor?.token.utf8.count ?? 0)
    for result in results {
      bytes += 256 + result.id.utf8.count + result.title.utf8.count
      bytes += (result.subtitle?.utf8.count ?? 0) + (result.thumbnailURL?.utf8.count ?? 0)
      bytes += result.highlights.count * 16
    }
    return bytes
  }
}

extension SearchRequest {
  /// The bytes of the request's strings beyond its inline size.
  var approximateBytes: Int {
    text.utf8.count + (cursor?.token.utf8.count ?? 0)
  }
}

extension TrendingPage {
  /// About the bytes this page holds: each item's strings plus 192 bytes for its fixed
  /// fields and details.
  var approximateBytes: Int {
    var bytes = 128
    for item in items {
      bytes += 192 + item.id.utf8.count + item.title.utf8.count
      bytes += (item.thumbnailURL?.utf8.count ?? 0)
      bytes += item.featuredVideoIDs.reduce(0) { $0 + 16 + $1.utf8.count }
    }
    return bytes
  }
}
