import ArgumentParser
import FetchHistory

/// `--keep-body BYTES`: how much of a failed HTTP answer's body is recorded,
/// secrets hidden (`ResponseBody`): 1 KiB unless given, 0 for none, never
/// more than 64 KiB. For every command that fetches over HTTP.
struct KeepBodyOption: ParsableArguments {
    @Option(
        name: .customLong("keep-body"),
        parsing: .unconditional,
        help: ArgumentHelp(
            "How much of a failed HTTP answer's body to record, secrets hidden: 0 for none, at most 65536 (default: 1024).",
            valueName: "bytes"
        )
    )
    var given: Int?

    /// The bytes to keep.
    var bytes: Int { given ?? ResponseBody.defaultLimit }

    func validate() throws {
        guard let given else { return }
        try OptionBounds.require(given, atLeast: 0, option: "--keep-body")
        if given > ResponseBody.maximumLimit {
            throw ValidationError("--keep-body must be at most \(ResponseBody.maximumLimit) (64 KiB), not \(given)")
        }
    }
}
