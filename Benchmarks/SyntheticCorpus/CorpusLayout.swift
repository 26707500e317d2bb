/// Where each type of document sits in the stream, computable for any position in O(1).
///
/// The stream repeats a block of ``blockLength`` slots holding ``documentsPerBlock`` of each
/// type: 85 videos, 8 users, 5 hashtags and 2 sounds per hundred. The block opens with a user
/// and a sound, so that the first video already has a creator and a sound to point at; the
/// other slots are spread by largest deficit (each slot goes to the type furthest behind its
/// share), so users, hashtags and sounds are interleaved with the videos all along the stream.
struct CorpusLayout: Sendable {
  /// Slots in one repeating block.
  static let blockLength = 100

  /// Documents of each type per block, indexed by ``SearchResultType/index``
  /// (video, user, hashtag, sound).
  static let documentsPerBlock = [85, 8, 5, 2]

  /// The type of each slot of the block, by ``SearchResultType/index``.
  private let slotTypes: [UInt8]
  /// For each slot, how many documents of each type come before it in the block
  /// (`4 * slot + typeIndex`).
  private let countsBeforeSlot: [Int32]

  init() {
    var remaining = Self.documentsPerBlock
    var emitted = [0, 0, 0, 0]
    var types: [UInt8] = []
    // Open with a user (index 1) and a sound (index 3).
    for opening in [1, 3] {
      types.append(UInt8(opening))
      remaining[opening] -= 1
      emitted[opening] += 1
    }
    let targets = Self.documentsPerBlock.map { Double($0) / Double(Self.blockLength) }
    while types.count < Self.blockLength {
      let position = Double(types.count + 1)
      var best = -1
      var bestDeficit = -Double.infinity
      for type in 0..<4 where remaining[type] > 0 {
        let deficit = targets[type] * position - Double(emitted[type])
        if deficit > bestDeficit {
          bestDeficit = deficit
          best = type
        }
      }
      types.append(UInt8(best))
      remaining[best] -= 1
      emitted[best] += 1
    }
    var counts: [Int32] = []
    var running: [Int32] = [0, 0, 0, 0]
    for type in types {
      counts.append(contentsOf: running)
      running[Int(type)] += 1
    }
    self.slotTypes = types
    self.countsBeforeSlot = counts
  }

  /// The type index and the 0-based ordinal among documents of that type at `position`.
  func slot(at position: Int) -> (typeIndex: Int, ordinal: Int) {
    let (block, slot) = position.quotientAndRemainder(dividingBy: Self.blockLength)
    let typeIndex = Int(slotTypes[slot])
    let ordinal =
      block * Self.documentsPerBlock[typeIndex] + Int(countsBeforeSlot[slot * 4 + typeIndex])
    return (typeIndex, ordinal)
  }

  /// How many documents of the type at `typeIndex` come before `position` in the stream.
  func count(ofType typeIndex: Int, before position: Int) -> Int {
    let (block, slot) = position.quotientAndRemainder(dividingBy: Self.blockLength)
    return block * Self.documentsPerBlock[typeIndex] + Int(countsBeforeSlot[slot * 4 + typeIndex])
  }
}
