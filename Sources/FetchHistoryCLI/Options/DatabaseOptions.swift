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
        name: [.customShort("d", allowingJoined: true), .long],
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
        // A URL that names no history is refused before anything is opened.
        _ = try named()
    }

    /// The history `--database`, else FETCH_HISTORY_DB, names; nil when
    /// neither does.
    func named(environment: (String) -> String? = Environment.variable) throws(ValidationError) -> DatabaseArgument? {
        if let database { return try DatabaseArgument(database, option: "--database") }
        guard let variable = environment("FETCH_HISTORY_DB"), !variable.isEmpty else { return nil }
        return try DatabaseArgument(variable, option: "FETCH_HISTORY_DB")
    }

    /// The history from the option, the environment, or the XDG default.
    func location(environment: (String) -> String? = Environment.variable) throws -> DatabaseArgument {
        switch try named(environment: environment) {
        case .file(let path)?: return .file(Self.expandTilde(path, environment: environment))
        case .server(let url)?: return .server(url)
        case nil: break
        }
        // The XDG spec ignores relative values of XDG_DATA_HOME.
        if let dataHome = environment("XDG_DATA_HOME"), dataHome.hasPrefix("/") {
            return .file(dataHome + "/fetch-history/history.sqlite")
        }
        guard let home = environment("HOME"), !home.isEmpty else {
            throw DatabaseFileError.homeNotSet
        }
        return .file(home + "/.local/share/fetch-history/history.sqlite")
    }

    /// The history's file; a server is refused: `command` records into, or
    /// replays from, a local file only.
    func path(for command: String, environment: (String) -> String? = Environment.variable) throws -> String {
        switch try location(environment: environment) {
        case .file(let path): return path
        case .server: throw DatabaseFileError.serverNotForCommand(command)
        }
    }

    /// Runs `body` on the history, opened for reading: a file or a server.
    /// Reading never creates a database. A missing file named by
    /// `--database` or FETCH_HISTORY_DB is an error; the default file not
    /// made yet is a first run: `body` reads an empty history, and standard
    /// error gets one hint.
    @MainActor func reading<T>(_ body: (any HistoryReader) async throws -> T) async throws -> T {
        switch try location() {
        case .file(let path) where isFirstRun(path):
            Self.removeUnfinishedBuild(besides: path)
            StandardError.write("no history yet (it will be at \(DatabaseArgument.shown(path))); record the first fetch with `fetch-history fetch`\n")
            return try await body(try HistoryStore.inMemory().onCallersThread)
        case .file(let path): return try await body(try Self.openStoreForReading(path).onCallersThread)
        case .server(let url): return try await Self.withTeam(url, body)
        }
    }

    /// Whether `path` is the default history's file, not made yet: neither
    /// `--database` nor FETCH_HISTORY_DB names one.
    func isFirstRun(_ path: String, environment: (String) -> String? = Environment.variable) -> Bool {
        database == nil && (environment("FETCH_HISTORY_DB") ?? "").isEmpty && !FileManager.default.fileExists(atPath: path)
    }

    /// Whether this run reads the default history before it was made (see `reading`).
    /// The history's file, when it is one (not a server).
    var filePath: String? {
        guard case .file(let path)? = try? location() else { return nil }
        return path
    }

    var isFirstRun: Bool {
        guard case .file(let path)? = try? location() else { return false }
        return isFirstRun(path)
    }

    /// Runs `body` on the history, opened for adding fetches (`import`): a
    /// file, made if it is missing, or a server.
    @MainActor func adding<T>(_ body: (any HistoryWriter) async throws -> T) async throws -> T {
        switch try location() {
        case .file(let path): return try await body(try Self.openForWriting(path).onCallersThread)
        case .server(let url): return try await Self.withTeam(url, body)
        }
    }

    /// The team history at `url`, connected for `body` and let go after it.
    @MainActor static func withTeam<T>(_ url: String, _ body: (any TeamHistory & ChangeAnnouncer) async throws -> T) async throws -> T {
        let team = try await FetchHistoryCommand.teams.open(url)
        do {
            let result = try await body(team)
            await team.close()
            return result
        } catch {
            await team.close()
            throw error
        }
    }

    /// Opens the history's file for reading (`replay`, which reads a local
    /// file only). A missing file is an error.
    func openStoreForReading(for command: String) throws -> HistoryStore {
        try Self.openStoreForReading(path(for: command))
    }

    private static func openStoreForReading(_ path: String) throws -> HistoryStore {
        removeUnfinishedBuild(besides: path)
        do {
            // A history of an older schema is upgraded by the first reader
            // that can write it (the library's policy).
            return try HistoryStore.openForReading(path: path)
        } catch .cannotOpen(_, reason: .missing) {
            throw DatabaseFileError.noHistoryToRead(path: path)
        }
    }

    /// Opens the history's file for writing, creating its folder (mode
    /// 0700) and file (mode 0600) if they are missing; a server is refused
    /// (`command` records into a local file).
    func openForWriting(for command: String) throws -> HistoryStore {
        try Self.openForWriting(path(for: command))
    }

    private static func openForWriting(_ path: String) throws -> HistoryStore {
        removeUnfinishedBuild(besides: path)
        let folder = path.folderAndName.folder
        if !folder.isEmpty { try createFolder(folder) }
        return try HistoryStore(path: path, access: .create)
    }

    /// Runs `body` in a write transaction on the history's file built anew
    /// (`HistoryStore.buildingNew`: `import`, `pull`), its folder made if
    /// missing; nil, touching nothing, when the history is a server, or a
    /// file that holds something or is open.
    @MainActor func buildingNew<T>(_ body: (Database) throws -> T) throws -> T? {
        guard case .file(let path) = try location() else { return nil }
        try Self.prepareToBuild(path)
        return try HistoryStore.buildingNew(at: path, body)
    }

    /// Pulls from `team` into the history's file built anew
    /// (`HistoryStore.pullingNew`); nil, pulling nothing, when it holds
    /// something or is open. `read` is called for each fetch read.
    @MainActor func pullingNew(
        from team: some TeamHistory, matching filter: HistoryFilter, read: @escaping @Sendable () -> Void
    ) async throws -> TransferSummary? {
        let path = try path(for: "pull")
        try Self.prepareToBuild(path)
        return try await HistoryStore.pullingNew(at: path, from: team, matching: filter, read: read)
    }

    /// Before a history is built at `path`: its folder, and what a stopped build left, gone (and said).
    private static func prepareToBuild(_ path: String) throws {
        removeUnfinishedBuild(besides: path)
        let folder = path.folderAndName.folder
        if !folder.isEmpty { try createFolder(folder) }
    }

    /// Removes what an import or pull that was stopped left beside the
    /// history, and says so.
    private static func removeUnfinishedBuild(besides path: String) {
        guard let removed = HistoryStore.removeUnfinishedBuild(besides: path) else { return }
        StandardError.write("removed \(DatabaseArgument.shown(removed)), left by an import or pull that did not finish\n")
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
