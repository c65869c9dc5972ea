/// The store's SQL, outside `Migrations/`: each statement is declared in
/// the file of the code that runs it (`Database+Recording.swift` holds
/// recording's, `Database+Retention.swift` pruning's, …), every value bound.
///
/// The statements that record and import are also open to the benchmarks
/// (`@_spi(Benchmarks) import FetchHistory`), so their raw C and GRDB
/// engines run exactly this SQL: not a copy that could drift.
@_spi(Benchmarks)
public enum HistorySQL {}
