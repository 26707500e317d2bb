import Testing
@testable import DiscoverSearch
@Test func smoke() { #expect(1 == 1) }
