import FetchHistoryModel
import Glibc

/// The input of an import could not be read (`read(2)` failed).
public struct InputReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `errno` of the failure.
    public var code: Int32

    public var description: String { String(cString: strerror(code)) }
}
