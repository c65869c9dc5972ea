import ArgumentParser

/// The team history `push` sends to and `pull` brings from: a
/// `postgres://` URL, else `$FETCH_HISTORY_REMOTE`.
enum RemoteOption {
    /// `given`, else the environment's; refused unless it is a server's URL.
    static func url(_ given: String?, option: String, environment: (String) -> String? = Environment.variable) throws -> String {
        guard let url = given ?? environment("FETCH_HISTORY_REMOTE").flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw ValidationError("say which team history: \(option) postgres://… or set FETCH_HISTORY_REMOTE")
        }
        guard DatabaseOptions.namesServer(url) else {
            throw ValidationError("\(option) takes a team history's postgres:// or postgresql:// URL")
        }
        return url
    }
}
