import FetchHistory
import FoundationEssentials

extension FetchCommand {
    /// Why `--source` refused `value`, in one sentence: the value named with
    /// its secrets hidden (a mistyped URL may still carry a password or a
    /// token), and the value meant, when it is close to one that works —
    /// `random` for `Random`, `http://127.0.0.1:8765` for `127.0.0.1:8765`.
    static func refusal(ofSource value: String) -> String {
        let shown = RedactedURL(text: value).description
        let sentence = "--source must be 'random' or an http:// or https:// URL with a host, not \(shown)"
        guard let meant = meant(bySource: value, shown: shown) else { return sentence.terminalSafe }
        return "\(sentence); did you mean '\(meant)'?".terminalSafe
    }

    /// The source `value` was probably meant as (secrets hidden as in `shown`), if any.
    private static func meant(bySource value: String, shown: String) -> String? {
        let random = RandomNumberClient.sourceName
        if value.lowercased() == random || (value.count > 2 && value.lowercased().editDistance(to: random) <= 2) {
            return random
        }
        // A host, with a port, a path or a user, without its scheme: not a
        // word (`foo`), and not a mistyped scheme (`https//host`).
        guard !value.contains("://"), !value.lowercased().hasPrefix("http"),
              value.contains(where: { ":/.@".contains($0) }),
              let host = URL(string: "http://" + shown)?.host, !host.isEmpty
        else { return nil }
        return "http://" + shown
    }
}
