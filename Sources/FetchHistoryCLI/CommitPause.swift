import FoundationEssentials
import Glibc

/// A hook for tests that kill `prune` or `delete` in the middle of their
/// transaction. With `FETCH_HISTORY_TEST_PAUSE_BEFORE_COMMIT` set, the
/// command prints one line once its deletion is made but before it is
/// committed, then waits to be killed: the test kills it exactly there,
/// on output it observes, instead of guessing a moment with a sleep.
enum CommitPause {
    static let variable = "FETCH_HISTORY_TEST_PAUSE_BEFORE_COMMIT"

    static func ifRequested() {
        guard getenv(variable) != nil else { return }
        let output = OutputStream.standardOutput()
        try? output.write("paused before commit\n")
        try? output.flush()
        while true { pause() }
    }
}
