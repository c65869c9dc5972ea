import FetchHistory
import FoundationEssentials
import Glibc

/// Where the commands get the HTTP source from.
///
/// URLSession on Linux brings libcurl and some thirty shared libraries with
/// it, and loading them took most of every `list`. So `fetch-history`
/// leaves them out, and a command that fetches over HTTP re-runs, with the
/// same arguments, in `fetch-history-http`: the same commands with the HTTP
/// source linked in (the way git hands https remotes to git-remote-https).
public enum HTTPClientProvider: Sendable {
    /// The HTTP source is linked into this binary.
    case linked(@Sendable (URL) -> any APIClient)
    /// The HTTP source is in the executable of this name, beside this one.
    case companion(executable: String)

    /// A client for `url`; for `.companion`, the companion takes over this
    /// process and this never returns (it throws when the companion cannot
    /// be started).
    func client(for url: URL) throws -> any APIClient {
        switch self {
        case .linked(let makeClient):
            return makeClient(url)
        case .companion(let name):
            let path = Self.folderOfThisExecutable() + "/" + name
            var arguments: [UnsafeMutablePointer<CChar>?] = ([path] + CommandLine.arguments.dropFirst()).map { strdup($0) }
            arguments.append(nil)
            execv(path, arguments)
            guard errno != ENOENT else {
                throw CLIError(
                    "fetching over HTTP needs \(name) beside this program, at \(path), and it is not there "
                        + "(`swift build -c release` builds both; install them together)"
                )
            }
            throw CLIError("fetching over HTTP needs \(path), which could not be started: \(String(cString: strerror(errno)))")
        }
    }

    private static func folderOfThisExecutable() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let path = count > 0
            ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : CommandLine.arguments[0]
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }
}
