import FetchHistory
import FoundationEssentials

/// The one place an error becomes the sentence the user reads after
/// `error: ` (`FetchHistoryCommand.finish` prints it, made safe for a
/// terminal).
///
/// The commands throw typed errors that keep their cause (a path, errno, the
/// library's error); this turns each into words. The library's own errors
/// (`HistoryError`, `IDPrefixError`, `PostgresHistoryError`, …) already say themselves.
///
///     ErrorSentence.describe(InputFileError.isDirectory(path: "/tmp"))
///     // "cannot read /tmp: it is a directory"
enum ErrorSentence {
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as DatabaseFileError: describe(error)
        case let error as InputFileError: describe(error)
        case let error as OutputError: describe(error)
        case let error as ImportCommand.Refusal: describe(error)
        case let error as CompanionError: describe(error)
        case let error as HistoryWatch.Failure: describe(error)
        case let error as ReplayError: describe(error)
        default: String(describing: error)
        }
    }

    private static func describe(_ error: DatabaseFileError) -> String {
        switch error.shown {
        case .homeNotSet:
            "HOME is not set, so there is no default database; pass --database PATH"
        case .noHistoryToRead(let path):
            "no history at \(path); check the path, or record one there with `fetch-history fetch --database \(ShellWord.quoted(path))`"
        case .noHistoryToChange(let path, let verb):
            "no history at \(path); nothing to \(verb)"
        case .readOnlyToChange(let path):
            "\(path) is read-only, so nothing can be deleted from it; nothing was deleted"
        case .cannotCreateFolder(let folder, let failure):
            "cannot create the folder \(folder) for the history: \(failure.reason)"
        case .serverNotForCommand(let command) where command == "replay":
            "replay works on a local file: pull the session first (fetch-history pull --from URL --since …), then replay it from the file"
        case .serverNotForCommand(let command):
            "\(command) records into a local file: record into one, then send it to the server with fetch-history push --to URL"
        }
    }

    private static func describe(_ error: InputFileError) -> String {
        switch error {
        case .cannotOpen(let path, let failure): "cannot read \(path): \(failure.reason)"
        case .isDirectory(let path): "cannot read \(path): it is a directory"
        }
    }

    private static func describe(_ error: OutputError) -> String {
        switch error {
        case .cannotWrite(let target, let failure): "cannot write \(target): \(failure.reason)"
        case .isTheHistory(let target): "will not write \(target): it is the history being read; choose another --output"
        }
    }

    private static func describe(_ error: ImportCommand.Refusal) -> String {
        switch error {
        case .invalid(let input, let error): "\(input): \(error); nothing was imported"
        case .unreadable(let input, let error): "cannot read \(input): \(error); nothing was imported"
        }
    }

    private static func describe(_ error: CompanionError) -> String {
        switch error {
        case .missing(let name, let path, let folder, let arguments, let purpose):
            missingCompanion(name, at: path, in: folder, arguments: arguments, purpose: purpose)
        case .cannotStart(let path, let failure, let purpose):
            "\(purpose.phrase) needs \(path), which could not be started: \(failure.reason)"
        }
    }

    /// What to do when the companion is not beside this program. `swift run
    /// fetch-history` builds fetch-history alone, so from a SwiftPM build
    /// folder the exact command that works is the same one run through the
    /// companion. Secrets in a URL argument are shown as `***`, as everywhere
    /// (`DatabaseArgument.shown`).
    private static func missingCompanion(
        _ name: String, at path: String, in folder: String, arguments: [String], purpose: Companion.Purpose
    ) -> String {
        let missing = "\(purpose.phrase) needs \(name) beside this program, at \(path), and it is not there"
        guard folder.contains("/.build/") else {
            return missing + " (`swift build -c release` builds all three programs; install them together)"
        }
        let command = (["swift", "run", name] + arguments.map(DatabaseArgument.shown)).map(ShellWord.quoted).joined(separator: " ")
        return missing + "; `swift run` built only this program, so run `\(command)` (or `swift build` first)"
    }

    private static func describe(_ error: HistoryWatch.Failure) -> String {
        switch error {
        case .cannotTrapSignals(let failure): "cannot wait for Ctrl-C: \(failure.reason)"
        case .cannotWatch(let path, let failure): "cannot watch \(path) for new fetches: \(failure.reason)"
        case .cannotWait(let failure): "cannot wait for new fetches: \(failure.reason)"
        case .cannotReadChanges(let failure): "cannot read changes to the history's folder: \(failure.reason)"
        }
    }

    private static func describe(_ error: ReplayError) -> String {
        switch error {
        case .noSessions:
            "the history has no sessions to replay"
        case .notReplayable(let session, let error):
            "session \(session.lowercased.prefix(8)) cannot be replayed: \(error)"
        case .secretsNotRecorded:
            "the session's URL had secrets, which were never recorded, so it cannot be fetched again; record a new session instead"
        case .notFetchableLive(let source):
            "the source '\(source)' cannot be fetched live"
        }
    }
}
