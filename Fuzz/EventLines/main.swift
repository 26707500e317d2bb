// libFuzzer target `event-lines`: see FuzzTargets.eventLines(_:).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEventLines(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  runFuzzTarget(data, size, FuzzTargets.eventLines)
}
