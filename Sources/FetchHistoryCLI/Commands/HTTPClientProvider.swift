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
                throw CLIError(Self.missingCompanion(name, at: path, in: folder, arguments: arguments))
            } catch {
                throw CLIError("fetching over HTTP needs \(path), which could not be started: \(error.reason)")
            }
        }
    }

    /// What to do when the companion is not beside this program. `swift run
    /// fetch-history` builds fetch-history alone, so from a SwiftPM build
    /// folder the exact command that works is the same one run through the
    /// companion. Secrets in a URL argument are shown as `***`, as everywhere.
    static func missingCompanion(_ name: String, at path: String, in folder: String, arguments: [String]) -> String {
        let missing = "fetching over HTTP needs \(name) beside this program, at \(path), and it is not there"
        guard folder.contains("/.build/") else {
            return missing + " (`swift build -c release` builds both; install them together)"
        }
        let shown = arguments.map { argument in
            guard argument.contains("://"), let url = URL(string: argument) else { return argument }
            return RedactedURL(url).description
        }
        let command = (["swift", "run", name] + shown).map(ShellWord.quoted).joined(separator: " ")
        return missing + "; `swift run` built only this program, so run `\(command)` (or `swift build` first)"
    }
}
