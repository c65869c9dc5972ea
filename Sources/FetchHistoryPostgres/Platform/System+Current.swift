#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FoundationEssentials

extension PostgresConnectionSettings.System {
    /// This process's environment, files and user.
    package static var current: Self {
        Self(
            environment: { name in getenv(name).map { String(cString: $0) } },
            passwordFile: { path in
                // libpq ignores a password file others may read.
                var info = stat()
                guard stat(path, &info) == 0, info.st_mode & 0o077 == 0 else { return nil }
                return FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
            },
            userName: {
                guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return nil }
                return String(cString: name)
            }
        )
    }
}
