import FoundationEssentials
import Glibc

/// Why an import file was refused, and where.
public struct ImportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// 1-based line and column of the problem in the input.
    public var line: Int
    public var column: Int
    /// 1-based number of the record the problem is in, if it is in one.
    public var record: Int?
    public var message: String

    public var description: String {
        let place = "line \(line), column \(column)"
        return record.map { "record \($0) (\(place)): \(message)" } ?? "\(place): \(message)"
    }
}

/// The input of an import could not be read (`read(2)` failed).
public struct InputReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `errno` of the failure.
    public var code: Int32

    public var description: String { String(cString: strerror(code)) }
}

/// An import was handed a fetch whose id an earlier fetch of the same
/// import already used. `FetchRecordReader` reports it with the position of
/// the second record.
public struct RepeatedFetchID: Error, Equatable, Sendable {
    public var id: UUID
    /// 1-based number of the fetch that used the id first.
    public var firstRecord: Int
}
