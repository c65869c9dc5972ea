import ArgumentParser
import Dispatch

// Options for this project's own tests, hidden from every help text and
// documented in README's "Development": each lets a test act on what it
// observes instead of guessing a moment. No environment variable is read
// for them, so no user's environment can turn one on.

/// `prune`'s and `delete`'s `--test-pause-before-commit`: once the deletion
/// is made but before it is committed, print one line and wait to be
/// killed, so a test kills the command exactly there.
struct CommitPauseOption: ParsableArguments {
    @Flag(name: .customLong("test-pause-before-commit"), help: ArgumentHelp(visibility: .private))
    var pauseBeforeCommit = false

    /// What runs inside the write transaction, after its changes: when the
    /// option was given, a pause that never returns; else nothing.
    var beforeCommit: (@Sendable () throws -> Void)? {
        guard pauseBeforeCommit else { return nil }
        return {
            let output = OutputStream.standardOutput()
            try output.write("paused before commit\n")
            try output.flush()
            DispatchSemaphore(value: 0).wait()
        }
    }
}
