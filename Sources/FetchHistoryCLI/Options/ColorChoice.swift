import ArgumentParser

/// `--color`: when the human-readable output is coloured.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    /// Only on a terminal that is not `TERM=dumb`, and not with NO_COLOR set.
    case auto
    case always
    case never
}
