// libFuzzer target `arguments`: see FuzzTargets.arguments(_:).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArguments(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  runFuzzTarget(data, size, FuzzTargets.arguments)
}
