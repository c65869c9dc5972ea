#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A folder only its owner may enter (mode 0700), such as the history's.
enum PrivateFolder {
    /// Creates `folder` and any missing parents, each mode 0700; folders
    /// that exist already are left as they are.
    static func create(_ folder: String) throws(SystemError) {
        var path = folder.hasPrefix("/") ? "" : "."
        for component in folder.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o700) != 0, errno != EEXIST {
                throw SystemError.ofLastCall
            }
        }
    }
}
