// A test that imports FetchHistoryTesting gets what it tests with: the
// library itself (its ManualClock, view state and stores), as XCTVapor
// brings Vapor, and swift-clocks' TestClock and ImmediateClock.
@_exported import Clocks
@_exported import FetchHistory
