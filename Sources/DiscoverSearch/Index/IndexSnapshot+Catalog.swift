import Foundation

/// The catalog: what the trending lists need to know about an index's documents, read from
/// the snapshot's columns (``CatalogVideo``, ``CatalogHashtag``, ``CatalogSound``,
/// ``CatalogEffect``).
///
/// Positions run over `0..<count` of each kind in the snapshot's own order (most popular
/// first for videos, hashtags and sounds, the order they were added for effects), which is
/// the same for a built index and the one saved from it and opened again.
extension IndexSnapshot {
  /// The number of videos.
  package var catalogVideoCount: Int { partition(.video).documentCount }
  /// The number of hashtag documents.
  package var catalogHashtagCount: Int { partition(.hashtag).documentCount }
  /// The number of sounds.
  package var catalogSoundCount: Int { partition(.sound).documentCount }
  /// The number of effects.
  package var catalogEffectCount: Int { effects.count }

  /// The video at `position`: its card, and the hashtags, sound and effect it uses.
  ///
  /// The hashtags are folded as ``Analyzer/fold(_:)`` folds text, without `#`, empty and
  /// repeated ones left out, in the order the video wrote them. The creator, sound and effect
  /// are the ids the video named, whether or not the index holds a document of that id.
  ///
  /// - Precondition: `position` is in `0..<catalogVideoCount`.
  /// - Complexity: O(n) in the length of the video's hashtags; a tag of plain ASCII letters
  ///   and digits is folded without the analyzer.
  package func catalogVideo(at position: Int) -> CatalogVideo {
    catalogVideo(at: position, includingUses: true)
  }

  /// The video at `position`, with its hashtags, sound and effect left out unless
  /// `includingUses`: a list's card needs none of them, and folding the hashtags is most of
  /// the cost.
  package func catalogVideo(at position: Int, includingUses: Bool) -> CatalogVideo {
    precondition(
      (0..<catalogVideoCount).contains(position),
      "catalog video \(position) is outside 0..<\(catalogVideoCount)")
    let partition = self.partition(.video)
    let id = partition.ids.string(at: position)
    let creator = videos.creators[position]
    var creatorID = creator == UInt32.max ? nil : self.partition(.user).ids.string(at: Int(creator))
    var soundID: String?
    var effectID: String?
    if includingUses {
      let sound = videos.sounds[position]
      soundID = sound == UInt32.max ? nil : self.partition(.sound).ids.string(at: Int(sound))
      effectID = videos.effect(ofVideo: position).map(effects.ids.string(at:))
    }
    for reference in videos.unresolvedReferences(of: UInt32(position)) {
      switch reference.kind {
      case .creator: creatorID = reference.id
      case .sound: soundID = includingUses ? reference.id : nil
      case .effect: effectID = includingUses ? reference.id : nil
      }
    }
    return CatalogVideo(
      id: id, title: partition.titles.string(at: position),
      thumbnailURL: videos.thumbnails.url(at: position, id: id),
      createdAt: videos.createdAt[position].map { Date(timeIntervalSince1970: TimeInterval($0)) },
      viewCount: videos.viewCounts[position], creator: creatorID,
      hashtags: includingUses ? foldedHashtags(ofVideo: position) : [], sound: soundID,
      effect: effectID)
  }

  /// The hashtag document at `position`. An empty description reads as `nil`, as empty
  /// artists and display names do.
  ///
  /// - Precondition: `position` is in `0..<catalogHashtagCount`.
  package func catalogHashtag(at position: Int) -> CatalogHashtag {
    precondition(
      (0..<catalogHashtagCount).contains(position),
      "catalog hashtag \(position) is outside 0..<\(catalogHashtagCount)")
    let partition = self.partition(.hashtag)
    let description = hashtags.descriptions.string(at: position)
    return CatalogHashtag(
      id: partition.ids.string(at: position), name: partition.titles.string(at: position),
      description: description.isEmpty ? nil : description,
      viewCount: hashtags.viewCounts[position], videoCount: hashtags.videoCounts[position])
  }

  /// The sound at `position`. An empty artist reads as `nil`, as in search results.
  ///
  /// - Precondition: `position` is in `0..<catalogSoundCount`.
  package func catalogSound(at position: Int) -> CatalogSound {
    precondition(
      (0..<catalogSoundCount).contains(position),
      "catalog sound \(position) is outside 0..<\(catalogSoundCount)")
    let partition = self.partition(.sound)
    let artist = sounds.artists.string(at: position)
    return CatalogSound(
      id: partition.ids.string(at: position), title: partition.titles.string(at: position),
      artist: artist.isEmpty ? nil : artist, videoCount: sounds.videoCounts[position])
  }

  /// The effect at `position`, in the order effects were added.
  ///
  /// - Precondition: `position` is in `0..<catalogEffectCount`.
  package func catalogEffect(at position: Int) -> CatalogEffect {
    precondition(
      (0..<catalogEffectCount).contains(position),
      "catalog effect \(position) is outside 0..<\(catalogEffectCount)")
    let id = effects.ids.string(at: position)
    return CatalogEffect(
      id: id, name: effects.names.string(at: position),
      thumbnailURL: effects.thumbnails.url(at: position, id: id),
      useCount: effects.useCounts[position])
  }

  /// The video's hashtags folded, without `#`, empty and repeated ones left out, in order.
  private func foldedHashtags(ofVideo position: Int) -> [String] {
    var folded: [String] = []
    // A linear search is cheapest for the few tags a video has; a set past that, so that a
    // video with thousands of tags does not cost their square.
    var seen: Set<String> = []
    videos.hashtags.forEachString(inListAt: position) { bytes in
      guard let tag = CatalogTagFolding.fold(bytes) else { return }
      if folded.count < CatalogTagFolding.linearSearchLimit {
        guard !folded.contains(tag) else { return }
      } else {
        if seen.isEmpty { seen = Set(folded) }
        guard seen.insert(tag).inserted else { return }
      }
      folded.append(tag)
    }
    return folded
  }
}

/// Folds a hashtag as written (`#DanceChallenge`) into its catalog form (`dancechallenge`).
enum CatalogTagFolding {
  /// Up to this many tags, repeats are found by a linear search.
  static let linearSearchLimit = 16

  /// The tag's bytes folded as ``Analyzer/fold(_:)`` folds them, with every `#` removed;
  /// `nil` when nothing is left (an empty tag, `#`, punctuation, a word the analyzer drops).
  ///
  /// A tag of 1 to `Tokenizer.maximumTokenBytes` ASCII letters and digits (most tags) is
  /// one word to the analyzer, which only lowercases it: that case is done here directly,
  /// without the analyzer's buffers (the catalog tests check that both agree).
  ///
  /// - Complexity: O(n) in the tag's length.
  static func fold(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    if let lowercased = lowercasedIfPlainASCII(bytes) { return lowercased }
    var text = Substring(String(decoding: bytes, as: UTF8.self))
    // A leading `#` (or a full-width `＃`) would make the analyzer keep the tag as a tag,
    // `#dancechallenge`; the tag's body is what the catalog keys on.
    while let first = text.first, first == "#" || first == "\u{FF03}" { text.removeFirst() }
    var folded = Analyzer.fold(String(text))
    if folded.contains("#") { folded.removeAll { $0 == "#" } }
    return folded.isEmpty ? nil : folded
  }

  /// The bytes lowercased, when they are 1 to 64 ASCII letters and digits; else `nil`.
  private static func lowercasedIfPlainASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    guard !bytes.isEmpty, bytes.count <= Tokenizer.maximumTokenBytes else { return nil }
    var hasUppercase = false
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): break
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): hasUppercase = true
      default: return nil
      }
    }
    guard hasUppercase else { return String(decoding: bytes, as: UTF8.self) }
    return String(unsafeUninitializedCapacity: bytes.count) { buffer in
      for (index, byte) in bytes.enumerated() {
        let isUppercase = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
        buffer[index] = isUppercase ? byte | 0x20 : byte
      }
      return bytes.count
    }
  }
}

extension DiscoverIndex {
  /// The number of effects the index holds.
  ///
  /// Effects are stored for the trending lists and not searched, so ``documentCount`` and
  /// ``documentCount(of:)`` do not count them. Deleted effects are left out.
  public var effectCount: Int {
    let segments = self.segments
    return segments.liveCount
      - SearchResultType.allCases.reduce(0) { $0 + segments.liveDocumentCount(of: $1) }
  }
}

/// The catalog of every segment: positions run over the segments one after the other, as
/// ``SegmentSet`` numbers documents (effects, which have no type, in the same way).
extension SegmentSet {
  package var catalogVideoCount: Int { documentCount(of: .video) }
  package var catalogHashtagCount: Int { documentCount(of: .hashtag) }
  package var catalogSoundCount: Int { documentCount(of: .sound) }
  package var catalogEffectCount: Int { Int(effectStarts.last!) }

  /// ``IndexSnapshot/catalogVideo(at:)`` of the segment holding `position`.
  package func catalogVideo(at position: Int) -> CatalogVideo {
    catalogVideo(at: position, includingUses: true)
  }

  /// ``IndexSnapshot/catalogVideo(at:includingUses:)`` of the segment holding `position`.
  package func catalogVideo(at position: Int, includingUses: Bool) -> CatalogVideo {
    let (segment, local) = locate(UInt32(position), of: .video)
    return segment.catalogVideo(at: Int(local), includingUses: includingUses)
  }

  /// ``IndexSnapshot/catalogHashtag(at:)`` of the segment holding `position`.
  package func catalogHashtag(at position: Int) -> CatalogHashtag {
    let (segment, local) = locate(UInt32(position), of: .hashtag)
    return segment.catalogHashtag(at: Int(local))
  }

  /// ``IndexSnapshot/catalogSound(at:)`` of the segment holding `position`.
  package func catalogSound(at position: Int) -> CatalogSound {
    let (segment, local) = locate(UInt32(position), of: .sound)
    return segment.catalogSound(at: Int(local))
  }

  /// ``IndexSnapshot/catalogEffect(at:)`` of the segment holding `position`.
  package func catalogEffect(at position: Int) -> CatalogEffect {
    let (segment, local) = effectPosition(of: position)
    return segments[segment].catalogEffect(at: Int(local))
  }

  /// The id column of `type`'s documents at `position` and the position in it.
  func idColumn(_ type: ContentType, at position: Int) -> (ids: StringColumn, position: Int) {
    let kind: SearchResultType
    switch type {
    case .video: kind = .video
    case .hashtag: kind = .hashtag
    case .sound: kind = .sound
    case .effect:
      let (segment, local) = effectPosition(of: position)
      return (segments[segment].effects.ids, Int(local))
    }
    let (segment, local) = locate(UInt32(position), of: kind)
    return (segment.partition(kind).ids, Int(local))
  }
}
