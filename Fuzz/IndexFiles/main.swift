// libFuzzer target `index-files`: see FuzzTargets.indexFiles(_:in:).
/// The directory every input is written to.
let directory = FuzzDirectory("index-files")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIndexFiles(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  runFuzzTarget(data, size) { FuzzTargets.indexFiles($0, in: directory) }
}

/// `DISCOVER_FUZZ_WRITE_SEEDS=DIR` writes two seeds per file of the template directory: the
/// file as it is, opened with standard verification; and with checksums fixed, full
/// verification, a writer, completions and `verify(at:)`.
@_cdecl("LLVMFuzzerInitialize")
public func initializeIndexFiles(
  _ argc: UnsafeMutablePointer<Int32>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  writeSeedsIfAsked {
    FuzzSamples.indexFiles.enumerated().flatMap { index, file in
      [
        ("\(file.name)-standard", [UInt8(index), 0x00] + file.bytes),
        ("\(file.name)-full-fixed", [UInt8(index), 0x7B] + file.bytes),
      ]
    }
  }
  return 0
}
