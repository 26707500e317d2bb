/// Finds a document by its id.
///
/// An open-addressing hash table (linear probing, load factor at most 1/2) of document
/// locations whose keys are the ids already stored in each type's id column, so no id is
/// stored twice: a lookup hashes the id, then compares it with the id of each location it
/// probes.
struct DocumentIDIndex: Sendable {
  /// Locations (type in the top 2 bits, document below), `empty` for free slots. The
  /// capacity is a power of two.
  let slots: Column<UInt32>

  /// A free slot. No document has this location: types hold fewer than 2^30 - 1 documents.
  static let empty = UInt32.max

  /// Indexes every document of `partitions`.
  ///
  /// - Complexity: O(n) in the total length of the ids.
  init(partitions: [TypePartition]) {
    let total = partitions.reduce(0) { $0 + $1.documentCount }
    var capacity = 16
    while capacity < total * 2 { capacity <<= 1 }
    var slots = [UInt32](repeating: DocumentIDIndex.empty, count: capacity)
    let mask = capacity - 1
    for partition in partitions {
      for document in 0..<partition.documentCount {
        let id = partition.ids.utf8(at: document)
        var slot = ByteStringTable.hash(UnsafeRawBufferPointer(id)) & mask
        while slots[slot] != DocumentIDIndex.empty { slot = (slot + 1) & mask }
        slots[slot] = UInt32(partition.type.index) << 30 | UInt32(document)
      }
    }
    self.slots = Column(slots)
  }

  /// Restores saved slots.
  init(slots: Column<UInt32>) {
    self.slots = slots
  }

  /// The location of the document with id `id`, if there is one.
  ///
  /// - Complexity: O(length of `id`) expected.
  func location(of id: UnsafeBufferPointer<UInt8>, in partitions: [TypePartition]) -> (
    type: SearchResultType, document: DocID
  )? {
    guard slots.count > 0 else { return nil }
    let mask = slots.count - 1
    var slot = ByteStringTable.hash(UnsafeRawBufferPointer(id)) & mask
    var probes = 0
    while probes < slots.count {
      let location = slots[slot]
      if location == DocumentIDIndex.empty { return nil }
      let type = Int(location >> 30)
      let document = Int(location & ((1 << 30) - 1))
      if type < partitions.count && document < partitions[type].documentCount
        && partitions[type].ids.utf8(at: document).elementsEqual(id)
      {
        return (SearchResultType.allCases[type], DocID(UInt32(document)))
      }
      slot = (slot + 1) & mask
      probes += 1
    }
    return nil
  }

  var byteCount: Int { slots.byteCount }
}
