import ArgumentParser
import Dispatch

// Options for this project's own tests, hidden from every help text and
// documented in CONTRIBUTING.md: each lets a test act on what it observes
// instead of guessing a moment. They exist in debug builds only (the tests
// run the debug binary): a release build, the one users install, has none
// of them and refuses them as unknown options. No environment variable is
// read for them either.

#if DEBUG
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

/// `list --follow`'s `--test-no-first-looks`: a follower that skips the
/// looks it takes when it starts, so that only change events wake it.
struct FollowLooksOption: ParsableArguments {
    @Flag(name: .customLong("test-no-first-looks"), help: ArgumentHelp(visibility: .private))
    var noFirstLooks = false

    var takingFirstLooks: Bool { !noFirstLooks }
}
#else
struct CommitPauseOption: ParsableArguments {
    var beforeCommit: (@Sendable () throws -> Void)? { nil }
}

struct FollowLooksOption: ParsableArguments {
    var takingFirstLooks: Bool { true }
}
#endif
