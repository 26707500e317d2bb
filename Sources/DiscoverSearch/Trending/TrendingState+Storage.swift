import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The trending state file kept in an index directory, `trending.dstrend`.
///
/// ```
/// [magic "DSTREND\0": 8] [format version: UInt32] [0: UInt32]
/// [payload: windows, retention, landmarks, newest time, journal entries,
///  lifetime counters per type, posts, use views; integers little-endian]
/// [payload length: UInt64] [CRC-32C of the payload: UInt32] [magic "DSTREND\0": 8]
/// ```
///
/// Only what cannot be recomputed is saved: the journal, the lifetime totals and the
/// posts. The decayed sums, sketches and candidates are rebuilt from them on open, so a
/// reopened state equals the saved one bit for bit.
enum TrendingFile {
  static let magic: [UInt8] = Array("DSTREND\u{0}".utf8)
  static let formatVersion: UInt32 = 2
  /// The file's name inside the index directory.
  static let fileName = "trending.dstrend"
}

extension TrendingState {
  /// The state as the bytes of a trending file.
  func encoded() -> [UInt8] {
    var payload = ByteWriter()
    for type in ContentType.allCases {
      let windows = configuration.windows(for: type)
      payload.append(Int64(windows.shortHalfLife))
      payload.append(Int64(windows.longHalfLife))
    }
    payload.append(configuration.retentionHalfLives.bitPattern)
    for time in shortLandmarks + longLandmarks + [firstTime] { payload.append(time ?? .min) }
    payload.append(newestTime)
    payload.append(UInt64(journal.count))
    // Sorted, so that equal states give equal files.
    for (key, entry) in journal.sorted(by: { Self.precedes($0.key, $1.key) }) {
      payload.append(key.item.rawValue)
      payload.append(key.actor.rawValue)
      payload.append(key.bucket)
      payload.append(key.region)
      payload.append(UInt8(entry.type.index))
      payload.append(entry.weight)
      payload.append(entry.views)
      payload.append(entry.user.rawValue)
      payload.append(entry.time)
      payload.append(entry.lastTime)
    }
    for type in ContentType.allCases {
      let lifetime = counters[type.index].filter {
        $0.value.views > 0 || $0.value.lifetimeActors > 0
      }
      payload.append(UInt64(lifetime.count))
      for (key, item) in lifetime.sorted(by: { $0.key < $1.key }) {
        payload.append(key.rawValue)
        payload.append(item.views)
        payload.append(item.lifetimeActors)
      }
    }
    payload.append(UInt64(postedVideos.count))
    for (video, posted) in postedVideos.sorted(by: { $0.key < $1.key }) {
      payload.append(video.rawValue)
      payload.append(posted.creator.rawValue)
      payload.append(posted.time)
      payload.append(UInt8((posted.sound == nil ? 0 : 1) | (posted.effect == nil ? 0 : 2)))
      payload.append(posted.sound?.rawValue ?? 0)
      payload.append(posted.effect?.rawValue ?? 0)
      payload.append(UInt32(posted.hashtags.count))
      for hashtag in posted.hashtags { payload.append(hashtag.rawValue) }
    }
    let useViews = useViews.folded
    payload.append(UInt64(useViews.count))
    for (item, views) in useViews.sorted(by: { $0.key < $1.key }) {
      payload.append(item.rawValue)
      payload.append(views)
    }
    var file = ByteWriter()
    file.bytes = TrendingFile.magic
    file.append(TrendingFile.formatVersion)
    file.append(UInt32(0))
    file.bytes += payload.bytes
    file.append(UInt64(payload.bytes.count))
    file.append(payload.bytes.withUnsafeBytes { CRC32C.checksum($0) })
    file.bytes += TrendingFile.magic
    return file.bytes
  }

  private static func precedes(_ a: JournalKey, _ b: JournalKey) -> Bool {
    (a.item.rawValue, a.actor.rawValue, a.bucket, a.region)
      < (b.item.rawValue, b.actor.rawValue, b.bucket, b.region)
  }

  /// Reads a trending file's bytes, checking everything before trusting it.
  ///
  /// - Throws: ``SearchError/Code/corruptIndex`` for a damaged, truncated or foreign file;
  ///   ``SearchError/Code/invalidArgument`` when it was recorded with other windows.
  init(decoding bytes: [UInt8], configuration: TrendingConfiguration) throws(SearchError) {
    let damaged = { (reason: String) in
      SearchError(
        .corruptIndex,
        "the trending state file is damaged (\(reason)); delete \(TrendingFile.fileName) to start trending over, or record the events again"
      )
    }
    let trailer = 20
    guard bytes.count >= 16 + trailer, Array(bytes[0..<8]) == TrendingFile.magic,
      Array(bytes[(bytes.count - 8)...]) == TrendingFile.magic
    else { throw damaged("not a DiscoverSearch trending file, or cut short") }
    var header = ByteReader(bytes[8..<16])
    let version = try header.read(UInt32.self, or: damaged("no version"))
    guard version == TrendingFile.formatVersion else {
      throw damaged("format version \(version), this build reads \(TrendingFile.formatVersion)")
    }
    var footer = ByteReader(bytes[(bytes.count - trailer)..<(bytes.count - 8)])
    let length = try footer.read(UInt64.self, or: damaged("no length"))
    let checksum = try footer.read(UInt32.self, or: damaged("no checksum"))
    guard length == UInt64(bytes.count - 16 - trailer) else { throw damaged("wrong length") }
    let payload = bytes[16..<(bytes.count - trailer)]
    guard payload.withUnsafeBytes({ CRC32C.checksum($0) }) == checksum else {
      throw damaged("checksum mismatch")
    }
    self.init(configuration: configuration)
    var reader = ByteReader(payload)
    try readWindows(&reader, damaged: damaged)
    try readContents(&reader, damaged: damaged)
    guard reader.isAtEnd else { throw damaged("bytes after the posts") }
    rebuildDerived(types: Set(ContentType.allCases))
  }

  private func readWindows(_ reader: inout ByteReader, damaged: (String) -> SearchError)
    throws(SearchError)
  {
    for type in ContentType.allCases {
      let windows = configuration.windows(for: type)
      let short = try reader.read(Int64.self, or: damaged("no windows"))
      let long = try reader.read(Int64.self, or: damaged("no windows"))
      guard short == Int64(windows.shortHalfLife), long == Int64(windows.longHalfLife) else {
        throw SearchError(
          .invalidArgument,
          "the trending state was recorded with \(type.rawValue) half-lives of \(short) s and \(long) s, not \(Int64(windows.shortHalfLife)) s and \(Int64(windows.longHalfLife)) s; open it with the configuration it was recorded with"
        )
      }
    }
    let retention = try reader.read(UInt64.self, or: damaged("no retention"))
    guard retention == configuration.retentionHalfLives.bitPattern else {
      throw SearchError(
        .invalidArgument,
        "the trending state was recorded with a retention of \(Double(bitPattern: retention)) half-lives, not \(configuration.retentionHalfLives)"
      )
    }
  }

  private mutating func readContents(
    _ reader: inout ByteReader, damaged: (String) -> SearchError
  ) throws(SearchError) {
    for index in shortLandmarks.indices {
      let landmark = try reader.read(Int64.self, or: damaged("no landmarks"))
      shortLandmarks[index] = landmark == .min ? nil : landmark
    }
    for index in longLandmarks.indices {
      let landmark = try reader.read(Int64.self, or: damaged("no landmarks"))
      longLandmarks[index] = landmark == .min ? nil : landmark
    }
    let first = try reader.read(Int64.self, or: damaged("no first time"))
    firstTime = first == .min ? nil : first
    newestTime = try reader.read(Int64.self, or: damaged("no newest time"))
    let entryCount = try reader.count(of: 61, or: damaged("bad journal length"))
    for _ in 0..<entryCount {
      let item = ContentKey(rawValue: try reader.read(UInt64.self, or: damaged("journal")))
      let actor = ContentKey(rawValue: try reader.read(UInt64.self, or: damaged("journal")))
      let bucket = try reader.read(Int64.self, or: damaged("journal"))
      let region = try reader.read(UInt64.self, or: damaged("journal"))
      guard JournalKey.isValidBucket(bucket) else {
        throw damaged("a journal entry's span out of range")
      }
      let key = JournalKey(item: item, actor: actor, bucket: bucket, region: region)
      let typeIndex = Int(try reader.read(UInt8.self, or: damaged("journal")))
      let weight = try reader.read(UInt8.self, or: damaged("journal"))
      guard typeIndex < 4, (1...3).contains(weight) else { throw damaged("a bad journal entry") }
      let entry = JournalEntry(
        type: ContentType.allCases[typeIndex], user: ContentKey(rawValue: 0), time: 0,
        lastTime: 0, weight: weight, views: try reader.read(UInt32.self, or: damaged("journal")))
      var complete = entry
      complete.user = ContentKey(rawValue: try reader.read(UInt64.self, or: damaged("journal")))
      let time = try reader.read(Int64.self, or: damaged("journal"))
      let lastTime = try reader.read(Int64.self, or: damaged("journal"))
      guard 0 <= time, time <= lastTime, lastTime <= TrendingState.latestSeconds else {
        throw damaged("a journal entry's time out of range")
      }
      complete.time = time
      complete.lastTime = lastTime
      guard key.item.isValid else { throw damaged("a journal entry without an item") }
      guard longLandmarks[typeIndex] != nil, shortLandmarks[typeIndex] != nil,
        complete.time <= complete.lastTime,
        complete.lastTime <= newestTime
      else {
        throw damaged("a journal entry after the newest time")
      }
      journal[key] = complete
    }
    for type in ContentType.allCases {
      let count = try reader.count(of: 16, or: damaged("bad counter length"))
      for _ in 0..<count {
        let key = ContentKey(rawValue: try reader.read(UInt64.self, or: damaged("counters")))
        guard key.isValid else { throw damaged("a counter without a key") }
        var item = ItemCounters()
        item.views = try reader.read(UInt32.self, or: damaged("counters"))
        item.lifetimeActors = try reader.read(UInt32.self, or: damaged("counters"))
        counters[type.index][key] = item
      }
    }
    let postCount = try reader.count(of: 45, or: damaged("bad post length"))
    for _ in 0..<postCount {
      let video = ContentKey(rawValue: try reader.read(UInt64.self, or: damaged("posts")))
      let creator = ContentKey(rawValue: try reader.read(UInt64.self, or: damaged("posts")))
      let time = try reader.read(Int64.self, or: damaged("posts"))
      let flags = try reader.read(UInt8.self, or: damaged("posts"))
      let sound = try reader.read(UInt64.self, or: damaged("posts"))
      let effect = try reader.read(UInt64.self, or: damaged("posts"))
      let hashtagCount = try reader.count(of: 8, or: damaged("bad post hashtags"), width: 4)
      var hashtags: [ContentKey] = []
      for _ in 0..<hashtagCount {
        hashtags.append(ContentKey(rawValue: try reader.read(UInt64.self, or: damaged("posts"))))
      }
      postedVideos[video] = PostedVideo(
        hashtags: hashtags, sound: flags & 1 != 0 ? ContentKey(rawValue: sound) : nil,
        effect: flags & 2 != 0 ? ContentKey(rawValue: effect) : nil, creator: creator, time: time)
    }
    let viewCount = try reader.count(of: 16, or: damaged("bad use views length"))
    useViews.reserveCapacity(viewCount)
    for _ in 0..<viewCount {
      let item = ContentKey(rawValue: try reader.read(UInt64.self, or: damaged("use views")))
      guard item.isValid else { throw damaged("use views without an item") }
      useViews.add(try reader.read(UInt64.self, or: damaged("use views")), to: item)
    }
  }
}

/// Little-endian integers appended to a byte array.
struct ByteWriter {
  var bytes: [UInt8] = []

  mutating func append<T: FixedWidthInteger>(_ value: T) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }
}

/// Little-endian integers read from bytes, every read bounds-checked.
struct ByteReader {
  private let bytes: ArraySlice<UInt8>
  private var offset: Int

  init(_ bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    offset = bytes.startIndex
  }

  var isAtEnd: Bool { offset == bytes.endIndex }

  mutating func read<T: FixedWidthInteger>(_ type: T.Type, or error: @autoclosure () -> SearchError)
    throws(SearchError) -> T
  {
    let size = MemoryLayout<T>.size
    guard bytes.endIndex - offset >= size else { throw error() }
    var value: T = 0
    for index in 0..<size { value |= T(bytes[offset + index]) << (8 * index) }
    offset += size
    return value
  }

  /// A count of records of at least `recordSize` bytes, checked against what is left.
  mutating func count(
    of recordSize: Int, or error: @autoclosure () -> SearchError, width: Int = 8
  ) throws(SearchError) -> Int {
    let raw: UInt64 =
      width == 4 ? UInt64(try read(UInt32.self, or: error())) : try read(UInt64.self, or: error())
    guard raw <= UInt64(bytes.endIndex - offset) / UInt64(recordSize) else { throw error() }
    return Int(raw)
  }
}

extension TrendingContent {
  /// The name of the trending state file inside an index directory.
  public static let stateFileName = TrendingFile.fileName

  /// Saves the trending state into `directory` (an index directory, created if needed),
  /// atomically: written to a temporary file, flushed, renamed over
  /// `trending.dstrend`, and the directory flushed, so a crash leaves the old file or the
  /// new one.
  ///
  /// - Throws: ``SearchError/Code/io`` when it cannot be written.
  /// - Complexity: O(n log n) in the journal (entries are written sorted).
  public func save(to directory: URL) throws(SearchError) {
    let bytes = try store.withState { state throws(SearchError) in state.encoded() }
    try AtomicFile.write(bytes, to: directory.appendingPathComponent(TrendingFile.fileName))
  }

  /// Opens the trending state saved in `directory`, or an empty one when there is none.
  ///
  /// - Parameters:
  ///   - directory: The index directory.
  ///   - index: The index whose documents the lists show.
  ///   - configuration: Must have the windows the state was recorded with.
  ///   - clock: Gives "now".
  /// - Throws: ``SearchError/Code/corruptIndex`` for a damaged file,
  ///   ``SearchError/Code/invalidArgument`` for one recorded with other windows,
  ///   ``SearchError/Code/io`` when it cannot be read.
  /// - Complexity: O(n) in the journal.
  public static func open(
    at directory: URL, index: DiscoverIndex?,
    configuration: TrendingConfiguration = TrendingConfiguration(),
    clock: @escaping @Sendable () -> Date = { Date() }
  ) throws(SearchError) -> TrendingContent {
    let url = directory.appendingPathComponent(TrendingFile.fileName)
    guard FileManager.default.fileExists(atPath: url.path) else {
      return TrendingContent(index: index, configuration: configuration, clock: clock)
    }
    // A file larger than the machine's memory cannot be a state this machine saved, and
    // reading it would not end (a sparse file of any size costs nothing to make).
    let bytes = try RegularFile.read(
      url.path, maximumBytes: Int(clamping: ProcessInfo.processInfo.physicalMemory),
      advice: "delete \(TrendingFile.fileName) to start trending over")
    let state = try TrendingState(decoding: bytes, configuration: configuration)
    return TrendingContent(index: index, store: InMemoryTrendingStore(state: state), clock: clock)
  }
}

/// Writes a file so that a crash leaves the old contents or the new, never a mix; the index
/// file, written section by section, shares its last step, ``moveIntoPlace(_:at:in:what:)``.
enum AtomicFile {
  static func write(_ bytes: [UInt8], to url: URL) throws(SearchError) {
    let directory = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw SearchError(.io, "cannot create \(directory.path): \(error.localizedDescription)")
    }
    removeAbandonedTemporaries(of: url.path, in: directory)
    let temporary = temporaryPath(for: url.path)
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else {
      throw SearchError(.io, "cannot create \(temporary): \(String(cString: strerror(errno)))")
    }
    var written = 0
    let failure: String? = bytes.withUnsafeBytes { raw in
      while written < raw.count {
        let result = Glibc.write(descriptor, raw.baseAddress! + written, raw.count - written)
        if result < 0 {
          if errno == EINTR { continue }
          return String(cString: strerror(errno))
        }
        written += result
      }
      return fsync(descriptor) == 0 ? nil : String(cString: strerror(errno))
    }
    close(descriptor)
    if let failure {
      unlink(temporary)
      throw SearchError(.io, "cannot write \(url.path): \(failure)")
    }
    try moveIntoPlace(
      temporary, at: url.path, in: directory, what: "the new \(url.lastPathComponent)")
  }

  /// A temporary name for a new version of `finalPath`, unique per write: the writer's
  /// process id, so that an abandoned one can be told from one being written, and a random
  /// number, so that two writes in one process never share it.
  static func temporaryPath(for finalPath: String) -> String {
    finalPath + temporaryMarker + "\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
  }

  private static let temporaryMarker = ".tmp-"

  /// Removes the temporary files of `finalPath` left by writers that died before renaming
  /// them (a process id no process has any more); those of live processes are theirs.
  static func removeAbandonedTemporaries(of finalPath: String, in directory: URL) {
    let prefix = (finalPath as NSString).lastPathComponent + temporaryMarker
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
    else { return }
    for name in names where name.hasPrefix(prefix) {
      guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }), pid > 0,
        kill(pid, 0) != 0, errno == ESRCH
      else { continue }
      unlink(directory.appendingPathComponent(name).path)
    }
  }

  /// Renames a flushed temporary file over `finalPath`, then flushes the directory entry so
  /// that the rename itself survives a crash; the temporary file is removed on failure.
  static func moveIntoPlace(
    _ temporary: String, at finalPath: String, in directory: URL, what: String
  ) throws(SearchError) {
    guard rename(temporary, finalPath) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw SearchError(.io, "cannot move \(what) into place at \(finalPath): \(reason)")
    }
    let directoryDescriptor = open(directory.path, O_RDONLY)
    if directoryDescriptor >= 0 {
      fsync(directoryDescriptor)
      close(directoryDescriptor)
    }
  }
}
