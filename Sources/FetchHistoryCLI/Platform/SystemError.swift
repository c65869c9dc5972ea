#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A call into the C library that failed, as `errno` said after it.
///
/// Kept as the number, so a caller can tell cases apart (`isNoSuchFile`);
/// `reason` is the C library's own sentence for it, which error lines show
/// as it is: "No such file or directory".
struct SystemError: Error, Equatable {
    var code: Int32

    /// The error of the call that has just failed: read before anything
    /// else can change `errno`.
    static var ofLastCall: SystemError { SystemError(code: errno) }

    /// strerror's words for `code`.
    var reason: String { String(cString: strerror(code)) }

    /// ENOENT: a file or folder named in the call does not exist.
    var isNoSuchFile: Bool { code == ENOENT }
}
