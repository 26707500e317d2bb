import DiscoverSearch
import Dispatch

/// Parallel batch generation: the one place where the corpus writes through a pointer.
extension SyntheticCorpus {
  /// The documents at `positions`, made by up to `threads` threads.
  func makeBatch(_ positions: Range<Int>, threads: Int) -> [Document] {
    // Below about a thousand documents per thread, dispatch costs more than it saves.
    let parts = Swift.min(threads, positions.count / 1_024)
    guard parts > 1 else { return documents(in: positions) }
    return [Document](unsafeUninitializedCapacity: positions.count) { buffer, initializedCount in
      guard let base = buffer.baseAddress else { return }
      let slots = DisjointSlots(base: base)
      DispatchQueue.concurrentPerform(iterations: parts) { part in
        let lower = positions.count * part / parts
        let upper = positions.count * (part + 1) / parts
        var scratch: [UInt8] = []
        scratch.reserveCapacity(512)
        for offset in lower..<upper {
          let document = document(at: positions.lowerBound + offset, scratch: &scratch)
          slots.initialize(offset, to: document)
        }
      }
      initializedCount = positions.count
    }
  }
}

/// Uninitialized storage for documents that several threads initialize at once, each at its
/// own indexes.
///
/// `@unchecked Sendable` is sound under this invariant, which
/// ``SyntheticCorpus/makeBatch(_:threads:)`` keeps: every index is initialized by exactly one
/// thread, no index is read until `DispatchQueue.concurrentPerform` has returned (which orders
/// all the writes before the caller's next step), and the storage outlives that call.
private struct DisjointSlots: @unchecked Sendable {
  /// The first slot.
  let base: UnsafeMutablePointer<Document>

  /// Initializes the uninitialized slot at `index`.
  func initialize(_ index: Int, to document: Document) {
    (base + index).initialize(to: document)
  }
}
