// The product people import: every layer's public API under one name, as
// `import FetchHistory` always offered it. Each layer is also a module of
// its own (see CONTRIBUTING.md, "Layout"), so the compiler keeps them apart.
@_exported import FetchHistoryInterchange
@_exported import FetchHistoryModel
@_exported import FetchHistoryReplay
@_exported import FetchHistoryReport
// The store's statements, for the benchmarks' raw C and GRDB runs.
@_spi(Benchmarks) @_exported import FetchHistoryStore
// A fetch's span, for the benchmark of its cost without a tracer.
@_spi(Benchmarks) @_exported import FetchHistoryViewState
