import FetchHistoryModel
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The input of an import could not be read (`read(2)` failed).
public struct InputReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `errno` of the failure.
    public var code: Int32

    public var description: String { String(cString: strerror(code)) }
}
