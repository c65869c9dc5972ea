import ArgumentParser

/// The team history `push` sends to and `pull` brings from: a
/// `postgres://` URL, else `$FETCH_HISTORY_REMOTE`.
enum RemoteOption {
    /// `given`, else the environment's; refused unless it is a server's URL.
    static func url(_ given: String?, option: String, environment: (String) -> String? = Environment.variable) throws -> String {
        guard let url = given ?? environment("FETCH_HISTORY_REMOTE").flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw ValidationError("say which team history: \(option) postgres://… or set FETCH_HISTORY_REMOTE")
        }
        let named = given == nil ? "FETCH_HISTORY_REMOTE" : option
        let accepted = "a team history's postgres:// or postgresql:// URL"
        guard case .server = try DatabaseArgument(url, option: named, accepts: accepted) else {
            throw ValidationError("\(named) takes \(accepted), not a file's path")
        }
        return url
    }
}
