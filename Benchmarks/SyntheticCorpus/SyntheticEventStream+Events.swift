import DiscoverSearch
import Foundation

/// Making the events of one simulated minute: the background and the active bursts,
/// interleaved, at times spread over the minute.
extension SyntheticEventStream {
  /// The shares of background events: views 90%, likes 6%, shares 2%, posts 2%, as running
  /// thresholds on one uniform draw.
  static let backgroundViewShare = 0.90
  static let backgroundLikeThreshold = 0.96
  static let backgroundShareThreshold = 0.98
  /// Within a video riser: views 90%, likes 7%, shares 3% (a video that takes off is shared
  /// a little more than the background's).
  static let riserViewShare = 0.90
  static let riserLikeThreshold = 0.97
  /// The share of a wave's events that are new posts; the rest view the wave's videos.
  static let wavePostShare = 0.3
  /// A wave's viewers pick among its most recent posts, at most this many.
  static let waveRecentVideoCount = 32
  /// Hashtags per post: 1, 2, 3 or 4 with these weights.
  static let hashtagCountThresholds = [0.35, 0.65, 0.85]
  /// The share of posts with a sound, and with an effect.
  static let postSoundShare = 0.8
  static let postEffectShare = 0.3
  /// The share of hashtags a post writes in another case than the document's (and, for a
  /// hashtag wave's own tag, 30%).
  static let retypedHashtagShare = 0.2
  static let retypedWaveHashtagShare = 0.3
  /// How much the traffic swings over a day: a sine of this relative amplitude.
  static let dailySwing = 0.2

  /// Starts the next simulated minute: how many events it holds, from which sources.
  ///
  /// The minute's events are the background's share of it plus each active burst's count.
  /// Event `i` of `n` falls in the `i`-th of `n` equal parts of the minute (at a random point
  /// of it), so times come out sorted without sorting; ``makeNextEvent()`` draws its source
  /// without replacement from the remaining counts, so the sources interleave and each gets
  /// exactly its count.
  mutating func beginMinute() {
    let minute = nextMinute
    precondition(minute < totalMinutes, "the plan's minutes hold fewer than eventCount events")
    nextMinute += 1
    backgroundLeft =
      backgroundCount(throughMinute: minute + 1) - backgroundCount(throughMinute: minute)
    activeBursts.removeAll(keepingCapacity: true)
    activeRemaining.removeAll(keepingCapacity: true)
    burstLeft = 0
    for (index, burst) in bursts.enumerated()
    where burst.startMinute <= minute && minute < burst.endMinute {
      let count = burst.minuteCounts[minute - burst.startMinute]
      guard count > 0 else { continue }
      activeBursts.append(index)
      activeRemaining.append(count)
      burstLeft += count
    }
    minuteEventCount = backgroundLeft + burstLeft
    minuteStart = startSeconds + Double(minute) * 60
    slot = 0
  }

  /// The event at the next place of the current minute.
  ///
  /// One in a hundred is late: dated back by up to 10 minutes from its place in emission
  /// order, but never before its burst (or the stream) starts, so a burst's events all fall
  /// in its own window.
  mutating func makeNextEvent() -> ContentEvent {
    var seconds =
      minuteStart + (Double(slot) + generator.nextUnit()) * 60 / Double(minuteEventCount)
    slot += 1
    var event: ContentEvent
    let earliest: TimeInterval
    if burstLeft == 0
      || (backgroundLeft > 0
        && generator.nextInt(below: backgroundLeft + burstLeft) < backgroundLeft)
    {
      backgroundLeft -= 1
      event = makeBackgroundEvent(at: Date(timeIntervalSinceReferenceDate: seconds))
      earliest = startSeconds
    } else {
      var draw = activeBursts.count == 1 ? 0 : generator.nextInt(below: burstLeft)
      var active = 0
      while draw >= activeRemaining[active] {
        draw -= activeRemaining[active]
        active += 1
      }
      activeRemaining[active] -= 1
      burstLeft -= 1
      let burst = activeBursts[active]
      event = makeBurstEvent(burst: burst, at: Date(timeIntervalSinceReferenceDate: seconds))
      earliest = startSeconds + Double(bursts[burst].startMinute) * 60
    }
    if generator.nextUnit() < Self.lateShare {
      seconds -= generator.nextUnit() * Swift.min(Self.maximumDelay, seconds - earliest)
      event.time = Date(timeIntervalSinceReferenceDate: seconds)
    }
    return event
  }

  /// Background events in the minutes before `minute`: the background total spread in
  /// proportion to `1 + a sin(2π t / day)`, whose integral is
  /// `t + a day / 2π (1 - cos(2π t / day))`, rounded so that the minutes sum exactly.
  func backgroundCount(throughMinute minute: Int) -> Int {
    guard minute < totalMinutes else { return backgroundEventCount }
    func weight(_ minute: Int) -> Double {
      let day = Double(Self.minutesPerDay)
      let angle = 2 * Double.pi * Double(minute) / day
      return Double(minute) + Self.dailySwing * day / (2 * Double.pi) * (1 - cos(angle))
    }
    let share = weight(minute) / weight(totalMinutes)
    return Int((Double(backgroundEventCount) * share).rounded())
  }

  /// One background event: a view, like or share of a corpus video by a pool user, or a post.
  mutating func makeBackgroundEvent(at time: Date) -> ContentEvent {
    let roll = generator.nextUnit()
    guard roll < Self.backgroundShareThreshold else { return makePost(at: time) }
    let kind: ContentEvent.Kind =
      roll < Self.backgroundViewShare
      ? .view : roll < Self.backgroundLikeThreshold ? .like : .share
    let video = videoSampler.sample(using: &generator)
    let user = eventUserSampler.sample(using: &generator)
    return ContentEvent(
      kind, video: videoIDs[video], user: eventUserIDs[user], at: time,
      region: Self.regions[Int(eventUserRegions[user])])
  }

  /// One event of the burst at `index` of ``bursts``.
  mutating func makeBurstEvent(burst index: Int, at time: Date) -> ContentEvent {
    switch bursts[index].source {
    case .video(let id):
      let roll = generator.nextUnit()
      let kind: ContentEvent.Kind =
        roll < Self.riserViewShare ? .view : roll < Self.riserLikeThreshold ? .like : .share
      return makeDistinctUserEvent(kind, video: id, at: time)
    case .bots(let videoID, let userIDs, let regions):
      let bot = generator.nextInt(below: userIDs.count)
      return ContentEvent(.view, video: videoID, user: userIDs[bot], at: time, region: regions[bot])
    case .hashtagWave(let name):
      return makeWaveEvent(burst: index, at: time, hashtag: name)
    case .soundWave(let id):
      return makeWaveEvent(burst: index, at: time, sound: id)
    case .effectWave(let id):
      return makeWaveEvent(burst: index, at: time, effect: id)
    }
  }

  /// An event by a user drawn uniformly from the pool, so that a burst's events come from many
  /// distinct users (unlike the background's Zipf-active ones).
  private mutating func makeDistinctUserEvent(
    _ kind: ContentEvent.Kind, video: String, at time: Date
  ) -> ContentEvent {
    let user = generator.nextInt(below: eventUserCount)
    return ContentEvent(
      kind, video: video, user: eventUserIDs[user], at: time,
      region: Self.regions[Int(eventUserRegions[user])])
  }

  /// One event of a wave: a new post using the wave's hashtag, sound or effect (always the
  /// wave's first event), or else a view (sometimes a like) of one of its recent posts.
  private mutating func makeWaveEvent(
    burst index: Int, at time: Date, hashtag: String? = nil, sound: String? = nil,
    effect: String? = nil
  ) -> ContentEvent {
    let recent = waveVideos[index]
    if recent.isEmpty || generator.nextUnit() < Self.wavePostShare {
      let post = makePost(at: time, waveHashtag: hashtag, waveSound: sound, waveEffect: effect)
      if recent.count == Self.waveRecentVideoCount { waveVideos[index].removeFirst() }
      waveVideos[index].append(post.videoID)
      return post
    }
    let video = recent[generator.nextInt(below: recent.count)]
    let kind: ContentEvent.Kind = generator.nextUnit() < Self.riserViewShare ? .view : .like
    return makeDistinctUserEvent(kind, video: video, at: time)
  }

  /// A post of a new video (`ev1`, ...) by a corpus creator: 1 to 4 corpus hashtags (or the
  /// wave's tag and up to two more), a sound 80% of the time, an effect 30% of the time, or
  /// the wave's.
  mutating func makePost(
    at time: Date, waveHashtag: String? = nil, waveSound: String? = nil,
    waveEffect: String? = nil
  ) -> ContentEvent {
    let id = makePostID()
    let creator = creatorIDs[generator.nextInt(below: creatorIDs.count)]
    var hashtags: [String] = []
    if let waveHashtag {
      hashtags.append(
        generator.nextUnit() < Self.retypedWaveHashtagShare
          ? Self.caseVariant(of: waveHashtag, choice: generator.nextInt(below: 3))
          : waveHashtag)
    }
    appendDrawnHashtags(to: &hashtags, upTo: waveHashtag == nil ? 4 : 3)
    var sound = waveSound
    if sound == nil, let soundSampler, generator.nextUnit() < Self.postSoundShare {
      sound = soundIDs[soundSampler.sample(using: &generator)]
    }
    var effect = waveEffect
    if effect == nil, generator.nextUnit() < Self.postEffectShare {
      effect = effectIDs[effectSampler.sample(using: &generator)]
    }
    let region = eventUserRegions[generator.nextInt(below: eventUserRegions.count)]
    return ContentEvent(
      .post, video: id, user: creator, at: time, region: Self.regions[Int(region)],
      hashtags: hashtags, sound: sound, effect: effect)
  }

  /// Appends Zipf-drawn corpus hashtags to `hashtags` until it holds 1 to `limit` of them
  /// (fewer when draws repeat): the first `limit - 1` counts of the 35/30/20/15 split.
  private mutating func appendDrawnHashtags(to hashtags: inout [String], upTo limit: Int) {
    guard let hashtagSampler else { return }
    let roll = generator.nextUnit()
    var wanted = 1
    for threshold in Self.hashtagCountThresholds where roll >= threshold { wanted += 1 }
    // A wave's post already has its tag: it draws 0 to limit - 1 more.
    if hashtags.count > 0 { wanted -= 1 }
    wanted = Swift.min(wanted, limit - hashtags.count)
    for _ in 0..<Swift.max(0, wanted) {
      let name = hashtagNames[hashtagSampler.sample(using: &generator)]
      guard !hashtags.contains(where: { $0.lowercased() == name.lowercased() }) else { continue }
      hashtags.append(
        generator.nextUnit() < Self.retypedHashtagShare
          ? Self.caseVariant(of: name, choice: generator.nextInt(below: 3)) : name)
    }
  }
}
