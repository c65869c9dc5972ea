// `TestClock` and `ImmediateClock` come with the kit: a test that imports
// FetchHistoryTesting steps time without another dependency.
@_exported import Clocks
