import FoundationEssentials
import FetchHistoryModel

/// The store's ids as the store makes and writes them, for the benchmark
/// harness, whose raw C and GRDB engines must bind the same text the store
/// binds. The UUID extensions behind them are `package`, kept out of users'
/// namespace; another package reaches them only through this SPI.
@_spi(Benchmarks) public enum BenchmarkIDs {
    /// A new id, ordered by time as the store's recorder makes them.
    public static func timeOrdered() -> UUID { UUID.timeOrdered() }

    /// `id` as the history stores it: lower-case.
    public static func text(of id: UUID) -> String { id.lowercased }
}
