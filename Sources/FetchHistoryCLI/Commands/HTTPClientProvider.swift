import FetchHistory
import FoundationEssentials

/// Where the commands get the HTTP source from.
///
/// The HTTP source brings SwiftNIO and Foundation with it (URLSession, on
/// Linux, brought libcurl and some thirty shared libraries, whose loading
/// took most of every `list`). So `fetch-history` leaves the network out,
/// and a command that fetches over HTTP re-runs, with the same arguments,
/// in `fetch-history-http`: the same commands with the network linked in
/// (the way git hands https remotes to git-remote-https).
package enum HTTPClientProvider: Sendable {
    /// The HTTP source is linked into this binary: a client for a URL,
    /// keeping that many bytes of a failed answer's body.
    case linked(@Sendable (_ url: URL, _ keptBodyBytes: Int) -> any APIClient)
    /// The HTTP source is in the executable of this name, beside this one.
    case companion(executable: String)

    /// A client for `url` that keeps `keptBodyBytes` of a failed answer's
    /// body; for `.companion`, the companion takes over this process (and
    /// parses the same arguments again) and this never returns (it throws
    /// when the companion cannot be started).
    func client(for url: URL, keepingBody keptBodyBytes: Int) throws -> any APIClient {
        switch self {
        case .linked(let makeClient): makeClient(url, keptBodyBytes)
        case .companion(let name): try Companion.takeOver(name, for: .http)
        }
    }
}

/// Where the commands get a team's history on a server from: PostgreSQL's
/// driver brings SwiftNIO and all of Foundation, so `fetch-history` leaves
/// it out and a command on a `postgres://` URL re-runs in a companion of its
/// own, `fetch-history-postgres` (not `fetch-history-http`: an HTTP fetch
/// would start twice as slowly with the driver's Foundation in its binary).
package enum TeamHistoryProvider: Sendable {
    /// The driver is linked into this binary: connects to `url`.
    case linked(@Sendable (_ url: String) async throws -> any TeamHistory & ChangeAnnouncer)
    /// The driver is in the executable of this name, beside this one.
    case companion(executable: String)

    /// The team history at `url`, connected; for `.companion`, the
    /// companion takes over this process and this never returns.
    func open(_ url: String) async throws -> any TeamHistory & ChangeAnnouncer {
        switch self {
        case .linked(let connect): try await connect(url)
        case .companion(let name): try Companion.takeOver(name, for: .teamHistory)
        }
    }
}

/// Where `push` gets a collector of OpenTelemetry spans from: sending
/// them takes the HTTP client, so, as for HTTP fetches, `fetch-history`
/// leaves it out and a push to an http(s) URL re-runs in the companion.
package enum SpanCollectorProvider: Sendable {
    /// The HTTP client is linked into this binary: the collector at an
    /// endpoint, given spans of this version of fetch-history.
    case linked(@Sendable (OTLPEndpoint, _ scopeVersion: String) -> any PushDestination)
    /// The HTTP client is in the executable of this name, beside this one.
    case companion(executable: String)

    /// The collector at `endpoint`; for `.companion`, the companion takes
    /// over this process and this never returns.
    func collector(at endpoint: OTLPEndpoint) throws -> any PushDestination {
        switch self {
        case .linked(let collector): collector(endpoint, FetchHistoryCommand.version)
        case .companion(let name): try Companion.takeOver(name, for: .spanCollector)
        }
    }
}

/// A program beside this one with part of the network linked in.
enum Companion {
    /// What the companion is needed for, as its errors say it.
    enum Purpose: Sendable {
        case http
        case teamHistory
        case spanCollector

        var phrase: String {
            switch self {
            case .http: "fetching over HTTP"
            case .teamHistory: "a team history on a server"
            case .spanCollector: "pushing spans to a collector"
            }
        }
    }

    /// Replaces this process with the companion `name`, given the same
    /// arguments; throws when it cannot.
    static func takeOver(_ name: String, for purpose: Purpose) throws -> Never {
        let folder = ThisProcess.executableFolder
        let path = folder + "/" + name
        let arguments = Array(CommandLine.arguments.dropFirst())
        do throws(SystemError) {
            try ThisProcess.replace(withProgramAt: path, arguments: arguments)
        } catch where error.isNoSuchFile {
            throw CompanionError.missing(name: name, path: path, folder: folder, arguments: arguments, purpose: purpose)
        } catch {
            throw CompanionError.cannotStart(path: path, error, purpose: purpose)
        }
    }
}

/// Why the companion program could not take over.
enum CompanionError: Error {
    /// There is no program `name` at `path`, in this one's `folder`;
    /// `arguments` are the ones it would have been given.
    case missing(name: String, path: String, folder: String, arguments: [String], purpose: Companion.Purpose)
    /// The program at `path` is there but could not be started.
    case cannotStart(path: String, SystemError, purpose: Companion.Purpose)
}
