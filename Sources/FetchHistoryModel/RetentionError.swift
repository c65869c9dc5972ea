import FoundationEssentials

/// Why fetches named for deletion were not deleted. Nothing was: a
/// deletion is all or nothing.
public enum RetentionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The fetch is still running in a live process, whose recorder would
    /// then fail to record its end.
    case stillRunning(UUID)
    /// Space could only be given back outside a write: `reclaimSpace()`
    /// was called inside a transaction.
    case insideTransaction

    public var description: String {
        switch self {
        case .stillRunning(let id):
            "fetch \(id.lowercased) is still running in a live process, so it cannot be deleted; nothing was deleted"
        case .insideTransaction:
            "space can only be reclaimed outside a transaction"
        }
    }
}
