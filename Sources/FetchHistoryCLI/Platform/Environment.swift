#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The variables of this process's environment: the one place the
/// commands read them.
enum Environment {
    /// The value of `name`, or nil when it is unset.
    ///
    /// Read with getenv: building ProcessInfo's whole dictionary costs more
    /// than a `list`'s query.
    static func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
