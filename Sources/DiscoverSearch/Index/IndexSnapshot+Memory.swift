extension DiscoverIndex {
  /// The bytes each part of the index holds, largest first, for tuning memory.
  package var memoryBreakdown: [(part: String, bytes: Int)] {
    snapshot.memoryBreakdown.sorted { $0.bytes > $1.bytes }
  }
}

extension IndexSnapshot {
  var memoryBreakdown: [(part: String, bytes: Int)] {
    var parts: [(String, Int)] = [
      ("term dictionary", terms.memoryBytes),
      ("video columns", videos.byteCount),
      ("user columns", users.byteCount),
      ("hashtag and sound columns", hashtags.byteCount + sounds.byteCount),
      ("effect columns", effects.byteCount),
      ("suggestion dictionaries", suggestionCache.byteCount),
      ("exact name filters", exactNames.byteCount),
    ]
    for partition in partitions {
      let name = partition.type.rawValue
      let postings = partition.postings
      parts += [
        ("\(name) posting blocks", postings.bytes.byteCount),
        ("\(name) positions", postings.positions.byteCount),
        (
          "\(name) bitmaps and ranks", postings.bitmaps.byteCount + postings.rankDirectory.byteCount
        ),
        (
          "\(name) impact orders",
          postings.impactDocuments.byteCount + postings.impactValues.byteCount
            + postings.impactStarts.byteCount
        ),
        (
          "\(name) list and block tables",
          postings.termPresence.byteCount + postings.termRanks.byteCount + postings.lists.byteCount
            + postings.listFieldMaxima.byteCount + postings.blockLastDocuments.byteCount
            + postings.blockDataOffsets.byteCount + postings.blockPositionOffsets.byteCount
            + postings.blockFieldMaxima.byteCount
        ),
        ("\(name) norms", partition.norms.byteCount),
        ("\(name) ids and titles", partition.ids.byteCount + partition.titles.byteCount),
      ]
    }
    return parts
  }
}
