@_spi(Benchmarks) import FetchHistory
import GRDB

/// A fetched value as the store keeps it, for the GRDB engines: an integer
/// as an integer, anything else as its JSON text.
extension FetchValue: @retroactive SQLExpressible, @retroactive StatementBinding, @retroactive DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        integer.map { Int64($0).databaseValue } ?? json.databaseValue
    }

    /// Only integers are read back here (the benchmarks never read values).
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FetchValue? {
        Int.fromDatabaseValue(dbValue).map { FetchValue($0) }
    }
}
