import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Segments that background merges wrote into an index's directory and no commit names
/// yet (Lucene's merges likewise write their segment before a commit names it): the next
/// commit names their files instead of writing the segments again, and the commits'
/// cleanups keep them. Names are taken before the files are written, so a cleanup that
/// lists the directory and then reads ``names`` never removes a file being written.
final class MergedSegmentFiles: Sendable {
  private struct State {
    /// Names taken for files being written, or written.
    var names: Set<String> = []
    /// The segments written, by lineage.
    var segments: [UInt64: IndexManifest.Segment] = [:]
  }

  private let state = Lock(State())

  /// Every name taken, for the cleanups to keep.
  var names: Set<String> { state.withLock { $0.names } }

  /// The segments written, by lineage, for the next commit to name.
  var segments: [UInt64: IndexManifest.Segment] { state.withLock { $0.segments } }

  /// Writes `segment` (a merge's result, its documents in memory) into `directory` under new
  /// names, and keeps it for the next commit. A failure (a full disk) leaves nothing behind:
  /// the commit then writes the segment itself.
  func write(_ segment: IndexSnapshot, into directory: URL) {
    guard case .memory(let documents) = segment.documents.value else { return }
    let stem = state.withLock { state -> String in
      var stem: String
      repeat {
        stem = "merge-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
      } while state.names.contains("segment-\(stem).dsearch")
        || access(directory.appendingPathComponent("segment-\(stem).dsearch").path, F_OK) == 0
      state.names.formUnion(["segment-\(stem).dsearch", "documents-\(stem).docs"])
      return stem
    }
    let segmentName = "segment-\(stem).dsearch"
    let path = directory.appendingPathComponent(segmentName).path
    do {
      let size = try IndexDirectory.writeSegment(segment, to: path, in: directory)
      let file = try DocumentFile.write(documents, name: "documents-\(stem).docs", in: directory)
      var entry = IndexManifest.Segment(file: segmentName, bytes: size)
      entry.documents = IndexManifest.CheckedFile(file)
      state.withLock { $0.segments[segment.lineage] = entry }
    } catch {
      unlink(path)
      state.withLock { $0.names.subtract([segmentName, "documents-\(stem).docs"]) }
    }
  }

  /// Forgets the segments of `committed` (a commit names them now) and those not in
  /// `published` (merged again, or replaced by a build: their files go at the next
  /// cleanup).
  func forget(committed: Set<UInt64>, keepingOnly published: Set<UInt64>) {
    state.withLock { state in
      for (lineage, entry) in state.segments
      where committed.contains(lineage) || !published.contains(lineage) {
        state.segments[lineage] = nil
        state.names.subtract(entry.files.map(\.name))
      }
    }
  }
}
