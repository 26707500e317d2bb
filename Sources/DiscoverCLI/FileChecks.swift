import DiscoverSearch
import Foundation

/// Checks of the paths a command reads and writes, with messages that say what to fix.
enum FileChecks {
  /// What is at `path`.
  enum Entry {
    case missing
    case file
    case directory
  }

  /// What is at `path`, following symbolic links.
  static func entry(at path: String) -> Entry {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return .missing
    }
    return isDirectory.boolValue ? .directory : .file
  }

  /// Throws unless `path` is an existing file; `role` names it in messages ("corpus file").
  static func requireFile(_ path: String, role: String, hints: [String] = []) throws(CommandError) {
    switch entry(at: path) {
    case .file:
      return
    case .missing:
      throw CommandError.failure("\(role) not found: \(path)", hints: hints)
    case .directory:
      throw CommandError.failure(
        "\(path) is a directory; give the path of the \(role)", hints: hints)
    }
  }

  /// Opens the index saved in `directory`, turning the library's errors into messages that
  /// say how to get a usable index.
  ///
  /// - Throws: ``CommandError`` of kind ``CommandError/Kind/failure`` when the directory is
  ///   missing, holds no index, or holds a damaged one.
  static func openIndex(at directory: String) throws(CommandError) -> DiscoverIndex {
    let rebuild =
      "Build it with: discover index CORPUS.jsonl --out \(TextFormatting.shellQuoted(directory))"
    switch entry(at: directory) {
    case .missing:
      throw CommandError.failure("no index directory at \(directory)", hints: [rebuild])
    case .file:
      throw CommandError.failure(
        "\(directory) is a file; --index takes the directory that discover index wrote",
        hints: [rebuild])
    case .directory:
      break
    }
    do {
      return try DiscoverIndex.open(at: URL(fileURLWithPath: directory, isDirectory: true))
    } catch let error as SearchError where error.code == .corruptIndex {
      throw CommandError(
        error, context: "the index in \(directory) is damaged or was written by another version",
        hints: [
          "Rebuild it with: discover index CORPUS.jsonl --out \(TextFormatting.shellQuoted(directory))"
        ])
    } catch let error as SearchError {
      throw CommandError(error, context: "cannot read the index in \(directory)", hints: [rebuild])
    } catch {
      throw CommandError.failure(
        "cannot open the index in \(directory): \(error)", hints: [rebuild])
    }
  }
}
