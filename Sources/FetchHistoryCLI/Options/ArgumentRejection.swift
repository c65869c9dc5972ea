import Synchronization

/// Why a value given on the command line was refused, for the error line.
///
/// argument-parser takes a value through `init?(argument:)`, which can only
/// say nil, and then reports "The value '5' is invalid for '--interval
/// <duration>'". Our types record here what they expected, and
/// `FetchHistoryCommand` adds it to that sentence.
struct ArgumentRejection: Sendable {
    /// The value as it was given.
    var value: String
    /// What was wrong, and what is expected: "a duration needs a unit: …".
    var reason: String

    private static let latest = Mutex<ArgumentRejection?>(nil)

    /// The value refused last, if any.
    static var last: ArgumentRejection? { latest.withLock { $0 } }

    static func record(_ value: String, _ reason: String) {
        latest.withLock { $0 = ArgumentRejection(value: value, reason: reason) }
    }
}
