extension Evaluation {
  /// Any term, documents matching more terms first; every posting is visited.
  mutating func runDisjunction() {
    let groupCount = groupStarts.count - 1
    while true {
      var document = PostingCursor.end
      for cursor in cursors { document = min(document, cursor.document) }
      if document == PostingCursor.end { break }
      var coverage: UInt8 = 0
      var total: Float = 0
      for group in 0..<groupCount {
        var isPresent = false
        for index in groupStarts[group]..<groupStarts[group + 1]
        where cursors[index].document == document {
          isPresent = true
        }
        if isPresent {
          coverage += 1
          total += score(group: group, document: document)
        }
      }
      if phrases.isEmpty || phrasesHold(in: document) {
        count += 1
        if limit > 0 { offer(text: total, document: document, coverage: coverage) }
      }
      for index in cursors.indices where cursors[index].document == document {
        cursors[index].next()
      }
    }
  }
}
