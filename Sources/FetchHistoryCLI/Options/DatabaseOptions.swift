import ArgumentParser
import FetchHistory
import FoundationEssentials

/// The options every command takes, before or after its name
/// (`FetchHistoryCommand.arguments` moves them after it): `--database`, and
/// where the history lives when it is not given; `--color`.
struct DatabaseOptions: ParsableArguments {
    /// The options, with their values, that may come before the command's name.
    static let globalOptions: Set<String> = ["-d", "--database", "--color"]

    @Option(
        name: [.customShort("d"), .long],
        help: ArgumentHelp(
            "The history database file.",
            discussion: "Default: $FETCH_HISTORY_DB, else $XDG_DATA_HOME/fetch-history/history.sqlite, else ~/.local/share/fetch-history/history.sqlite.",
            valueName: "path"
        ),
        completion: .file()
    )
    var database: String?

    @Option(
        help: ArgumentHelp(
            "Colour the outcomes: auto (on a terminal, unless TERM=dumb or NO_COLOR is set), always or never.",
            valueName: "when"
        )
    )
    var color = ColorChoice.auto

    func validate() throws {
        // An empty value is usually an unset variable (`-d "$DB"`): refuse it
        // rather than silently writing to the default database.
        if database?.isEmpty == true { throw ValidationError("--database is empty; give the database file's path") }
    }

    /// The database path from the option, the environment, or the XDG default.
    func path(environment: (String) -> String? = Environment.variable) throws -> String {
        if let database { return Self.expandTilde(database, environment: environment) }
        if let path = environment("FETCH_HISTORY_DB"), !path.isEmpty { return Self.expandTilde(path, environment: environment) }
        // The XDG spec ignores relative values of XDG_DATA_HOME.
        if let dataHome = environment("XDG_DATA_HOME"), dataHome.hasPrefix("/") {
            return dataHome + "/fetch-history/history.sqlite"
        }
        guard let home = environment("HOME"), !home.isEmpty else {
            throw DatabaseFileError.homeNotSet
        }
        return home + "/.local/share/fetch-history/history.sqlite"
    }

    /// Opens the history for reading. A missing file is an error: reading
    /// never creates a database.
    func openForReading() throws -> any HistoryReader {
        try openStoreForReading().onCallersThread
    }

    /// Opens the history's file for reading (`replay`, which reads a local
    /// file only). A missing file is an error.
    func openStoreForReading() throws -> HistoryStore {
        let path = try path()
        do {
            // A history of an older schema is upgraded by the first reader
            // that can write it (the library's policy).
            return try HistoryStore.openForReading(path: path)
        } catch .cannotOpen(_, reason: .missing) {
            throw DatabaseFileError.noHistoryToRead(path: path)
        }
    }

    /// Opens the history for writing, creating its folder (mode 0700) and
    /// file (mode 0600) if they are missing.
    func openForWriting() throws -> HistoryStore {
        let path = try path()
        let folder = path.folderAndName.folder
        if !folder.isEmpty { try Self.createFolder(folder) }
        return try HistoryStore(path: path, access: .create)
    }

    private static func expandTilde(_ path: String, environment: (String) -> String?) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = environment("HOME") else { return path }
        return home + path.dropFirst()
    }

    /// Creates `folder` and any missing parents, mode 0700.
    private static func createFolder(_ folder: String) throws {
        do throws(SystemError) {
            try PrivateFolder.create(folder)
        } catch {
            throw DatabaseFileError.cannotCreateFolder(folder, error)
        }
    }
}
