import FetchHistory
import FoundationEssentials

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
            let folder = ThisProcess.executableFolder
            let path = folder + "/" + name
            let arguments = Array(CommandLine.arguments.dropFirst())
            do throws(SystemError) {
                try ThisProcess.replace(withProgramAt: path, arguments: arguments)
            } catch where error.isNoSuchFile {
                throw CompanionError.missing(name: name, path: path, folder: folder, arguments: arguments)
            } catch {
                throw CompanionError.cannotStart(path: path, error)
            }
        }
    }
}

/// Why the HTTP source's companion program could not take over.
enum CompanionError: Error {
    /// There is no program `name` at `path`, in this one's `folder`;
    /// `arguments` are the ones it would have been given.
    case missing(name: String, path: String, folder: String, arguments: [String])
    /// The program at `path` is there but could not be started.
    case cannotStart(path: String, SystemError)
}
