import ArgumentParser

/// The one sentence every numeric option refuses a value below its least
/// with, naming the option and the value: `--keep must be 0 or more, not -1`.
///
/// Such an option parses `.unconditional`ly, so that `-1` reaches
/// `validate()` as its value: argument-parser would otherwise take it for
/// an option and say the value is missing.
enum OptionBounds {
    /// Refuses `value` when it is below `least`.
    static func require(_ value: Int, atLeast least: Int, option: String) throws {
        guard value < least else { return }
        throw refusal(option, least: least, given: String(value))
    }

    /// `--keep must be 0 or more, not -1`.
    static func refusal(_ option: String, least: Int, given: String) -> ValidationError {
        ValidationError("\(option) must be \(least) or more, not \(given)")
    }
}
