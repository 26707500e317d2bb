import DiscoverSearch
import Testing

@Suite("SearchError")
struct SearchErrorTests {
  @Test(arguments: [
    (SearchError.Code.invalidDocument, "invalidDocument"),
    (.invalidQuery, "invalidQuery"), (.invalidArgument, "invalidArgument"),
    (.corruptIndex, "corruptIndex"), (.io, "io"), (.rateLimited, "rateLimited"),
    (.internal, "internal"),
  ])
  func codeNamesAreStableAndDistinctFromTheDescription(_ code: SearchError.Code, _ name: String) {
    #expect(code.name == name)
    #expect(code.description != name)
  }
}
