import Foundation
import Testing

@testable import DiscoverSearch

@Suite struct IntegerColumnTests {
  @Test(arguments: [
    ([0, 1, 255], 1), ([0, 256], 2), ([70_000], 4), ([5_000_000_000, 0], 8), ([Int](), 1),
  ])
  func packsIntoTheNarrowestWidth(values: [Int], width: Int) {
    let column = IntegerColumn(values)
    #expect(column.width == width)
    #expect((0..<column.count).map { column[$0] } == values)
  }

  @Test func datesKeepUnknownsAndSpanCenturies() {
    let seconds: [Int64?] = [nil, 1_700_000_000, -2_000_000_000, nil, 4_000_000_000]
    let column = DateColumn(seconds)
    #expect((0..<column.count).map { column[$0] } == seconds)
    #expect(DateColumn([nil, nil])[1] == nil)
  }

  @Test func writerDatesAreReorderedAndTheirMarkerReadsAsUnknown() {
    let missing = Int64.min
    let seconds: [Int64] = [missing, 1_700_000_000, -2_000_000_000, missing, 4_000_000_000]
    let order: [UInt32] = [4, 3, 1, 0, 2]
    let column = DateColumn(seconds: seconds, missing: missing, order: order)
    #expect(
      (0..<column.count).map { column[$0] } == [
        4_000_000_000, nil, 1_700_000_000, nil, -2_000_000_000,
      ])
    #expect(column.base == -2_000_000_000)
    let unknown = DateColumn(seconds: [missing, missing], missing: missing, order: [1, 0])
    #expect(unknown[0] == nil && unknown[1] == nil)
  }
}

@Suite struct VideoDateTests {
  @Test func videosWithoutDatesAreIndexedAndReportNoDate() throws {
    let index = try DiscoverIndex.build(from: [
      .video(Video(id: "v1", title: "sunset timelapse")),
      .video(
        Video(
          id: "v2", title: "sunset drive", createdAt: Date(timeIntervalSince1970: 1_750_000_000))),
    ])
    let response = try index.search("sunset", in: .videos)
    let dates = response.results.map { result -> Date? in
      if case .video(let metadata) = result.metadata { return metadata.createdAt }
      return nil
    }
    #expect(dates.contains(nil))
    #expect(dates.contains(Date(timeIntervalSince1970: 1_750_000_000)))
  }

  @Test(arguments: [Double.infinity, -Double.infinity, 1e300])
  func absurdDatesAreRejectedWithATypedError(seconds: Double) {
    var writer = IndexWriter()
    #expect {
      try writer.add(Video(id: "v1", title: "x", createdAt: Date(timeIntervalSince1970: seconds)))
    } throws: { error in
      (error as? SearchError)?.code == .invalidDocument
    }
    #expect(writer.documentCount == 0)
  }
}

@Suite struct URLColumnTests {
  /// Builds a column of `entries` in order and expects each URL back as given.
  private func expectRoundTrip(_ entries: [(url: String?, id: String)]) {
    var builder = URLColumnBuilder()
    for entry in entries { builder.append(entry.url, id: entry.id) }
    let column = builder.build()
    for (index, entry) in entries.enumerated() {
      #expect(column.url(at: index, id: entry.id) == entry.url, "\(index)")
    }
  }

  /// Templated, literal and missing URLs come back as given, with ids of every length and
  /// outside ASCII.
  @Test func everyURLComesBackAsGiven() {
    expectRoundTrip(
      (0..<500).map { number in
        let id =
          number % 7 == 0
          ? "vidéo-\(number)-✓" : "v\(String(repeating: "x", count: number % 40))\(number)"
        let url: String? =
          switch number % 5 {
          case 0: nil
          case 1: "https://img.example.com/\(id)/hq.jpg"
          case 2: "https://cdn.example.org/t/\(id)"
          case 3: "\(id).png"
          default: "https://other.example.net/static/\(number * 31).jpg"
          }
        return (url, id)
      })
  }

  /// Runs of URLs with one template (compared with the previous URL's in place), broken by
  /// URLs that differ from it only just before or after the id, or hold the id twice.
  @Test func runsOfOneTemplateComeBackAsGiven() {
    expectRoundTrip(
      (0..<300).map { number in
        let id = number % 11 == 0 ? "jpg" : "v\(number)"
        let url: String =
          switch number % 13 {
          case 3: "https://cdn.example.com/t/\(id).jpeg"
          case 4: "https://cdn.example.com/u/\(id).jpg"
          case 5: "https://cdn.example.com/t/\(id)/\(id).jpg"
          default: "https://cdn.example.com/t/\(id).jpg"
          }
        return (url, id)
      })
  }
}
