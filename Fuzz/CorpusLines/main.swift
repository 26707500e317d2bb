// libFuzzer target `corpus-lines`: see FuzzTargets.corpusLines(_:).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCorpusLines(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  runFuzzTarget(data, size, FuzzTargets.corpusLines)
}
