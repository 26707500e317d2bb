// libFuzzer target `query`: see FuzzTargets.query(_:) for the input's layout and the checks.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQuery(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  runFuzzTarget(data, size, FuzzTargets.query)
}
