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
