import DiscoverCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// `discover`: see DiscoverCLI for the commands; this file only connects the process to them.
let status = DiscoverCLI.run(
  arguments: Array(CommandLine.arguments.dropFirst()),
  output: FileDescriptorSink.standardOutput(),
  errorOutput: FileDescriptorSink.standardError())
exit(status)
