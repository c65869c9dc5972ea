import ArgumentParser
import FetchHistory

// Completion of values from the history itself: fetch ids after `show` and
// `delete`, session ids after `replay` and `--session`, recorded sources
// after `--source`. The scripts of `--generate-completion-script` run
// `fetch-history ---completion …` with the words typed so far on each Tab
// (argument-parser's `CompletionKind.custom`), and print what it answers.

extension CompletionKind {
    /// The ids of the newest fetches that start with what was typed.
    static var fetchIDs: CompletionKind {
        .custom { words, _, typed in HistoryCompletion(words: words).fetchIDs(startingWith: typed) }
    }

    /// The ids of the newest sessions that start with what was typed.
    static var sessionIDs: CompletionKind {
        .custom { words, _, typed in HistoryCompletion(words: words).sessionIDs(startingWith: typed) }
    }

    /// The recorded sources that start with what was typed.
    static var sources: CompletionKind {
        .custom { words, _, typed in HistoryCompletion(words: words).sources(startingWith: typed) }
    }
}

/// The candidates for one Tab, read from the history the command line names:
/// the last `-d`/`--database` among `words`, else where every command looks
/// (`$FETCH_HISTORY_DB`, then the XDG default).
///
/// The file is opened read-only and only if it exists. A missing or
/// unreadable file, a file of another schema, a server's URL, anything that
/// goes wrong: no candidates and not a word on standard error, which would
/// land in the middle of the line being typed. A Tab never creates a
/// history, never upgrades one, and never connects to a server.
struct HistoryCompletion {
    /// How many ids are offered: the newest, as many as `list` shows.
    static let idLimit = 20
    /// How many sources are offered, in byte order.
    static let sourceLimit = 100

    /// Every word of the command line, as the shell has it (quotes and all).
    var words: [String]

    func fetchIDs(startingWith typed: String) -> [String] {
        let fetches = read { try $0.fetches(idStartingWith: ShellWord.unquoted(typed).lowercased(), limit: Self.idLimit) }
        return fetches.compactMap { fetch in
            candidate(
                fetch.id.lowercased,
                description: "\(fetch.status.rawValue)  \(fetch.startedAt.localDescription())  \(fetch.source)"
            )
        }
    }

    func sessionIDs(startingWith typed: String) -> [String] {
        let sessions = read { try $0.sessions(idStartingWith: ShellWord.unquoted(typed).lowercased(), limit: Self.idLimit) }
        return sessions.compactMap { session in
            candidate(session.id.lowercased, description: "\(session.startedAt.localDescription())  \(session.source)")
        }
    }

    func sources(startingWith typed: String) -> [String] {
        read { try $0.sources(startingWith: ShellWord.unquoted(typed), limit: Self.sourceLimit) }
            .compactMap { candidate($0, description: nil) }
    }

    /// What `body` reads from the history, or nothing.
    private func read<T>(_ body: (Database) throws -> [T]) -> [T] {
        guard let path = databasePath(),
              let store = try? HistoryStore(path: path, access: .readOnly),
              let found = try? store.read(body)
        else { return [] }
        return found
    }

    /// The history's file, resolved as every command resolves it; nil for a
    /// server, or when the command line's value would be refused.
    func databasePath() -> String? {
        var given: String?
        for (index, word) in words.enumerated() {
            if word == "--" { break }
            if word == "-d" || word == "--database", index + 1 < words.count {
                given = words[index + 1]
            } else if word.hasPrefix("--database=") {
                given = String(word.dropFirst("--database=".count))
            }
        }
        guard let options = try? DatabaseOptions.parse(given.map { ["--database", ShellWord.unquoted($0)] } ?? []),
              case .file(let path)? = try? options.location()
        else { return nil }
        return path
    }

    /// `value` as the requesting shell's script reads a candidate, with
    /// `description` where the shell shows one (zsh, fish); nil for a value
    /// no command line should get (a control character).
    private func candidate(_ value: String, description: String?) -> String? {
        guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        let shown = description?.terminalSafe
        switch CompletionShell.requesting {
        case .zsh?:
            // The script hands each line to `_describe`, where the first
            // unescaped colon ends the value (a URL has two).
            let escaped = value.replacing("\\", with: "\\\\").replacing(":", with: "\\:")
            return shown.map { escaped + ":" + $0 } ?? escaped
        case .fish?:
            return shown.map { value + "\t" + $0 } ?? value
        case .bash?:
            // The script passes the lines to `compgen -W`, which expands
            // each one as shell words: unescaped, a recorded `$(…)` would run.
            var escaped = ""
            for character in value {
                if "\\$`\"'".contains(character) { escaped.append("\\") }
                escaped.append(character)
            }
            return escaped
        default:
            return value
        }
    }
}
