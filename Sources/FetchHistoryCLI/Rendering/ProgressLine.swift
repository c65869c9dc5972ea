import FetchHistory
import FoundationEssentials
import Synchronization

/// The one live line `fetch` keeps on standard error while it works —
/// `[2/3] fetching… 1.4s`, then `[2/3] next fetch in 0.6s` — so a slow
/// fetch never looks like a hang.
///
/// Only on a terminal: on anything else it writes nothing at all, so a log
/// or a pipe gets no stray `\r` or escape codes. The line is cleared
/// (`\r` + erase to end of line) before every output line and on every way
/// out, so it never leaves a half line behind or runs into what follows.
///
/// ```swift
/// let progress = ProgressLine(total: 3, interval: .seconds(1), recording: recording)
/// progress.start()
/// defer { progress.stop() }
/// // for each fetch that ends:
/// progress.clear(); print(row); progress.ended(fetch)
/// ```
/// Sendable: the fetches end, and their rows are printed, on the
/// recording's executor while the line ticks in a task of its own. Each
/// change and each redraw holds the lock, and a row printed after `clear()`
/// has the line kept away for a whole refresh, so the two never interleave.
final class ProgressLine: Sendable {
    /// Redraws per second are ten: enough for tenths of a second to tick.
    private static let refresh: Duration = .milliseconds(100)
    /// Moves to the start of the line and erases it (ECMA-48 CR + EL).
    private static let erase = "\r\u{1B}[K"

    private let total: Int
    private let interval: Duration
    private let recording: FetchRecording
    private let isShown: Bool
    private let state = Mutex(State())
    private let ticker = Mutex<Task<Void, Never>?>(nil)

    private struct State {
        var ended = 0
        var lastEnd: Duration?
        var isOnScreen = false
        /// Set by `clear()`: no redraw before this, on the recording's clock.
        var hiddenUntil: Duration?
    }

    /// - Parameter isShown: whether standard error is a terminal; nothing is
    ///   ever written when false.
    init(total: Int, interval: Duration, recording: FetchRecording, isShown: Bool = StandardError.isTerminal) {
        self.total = total
        self.interval = interval
        self.recording = recording
        self.isShown = isShown
    }

    /// Draws the line now, then keeps it up to date until `stop()`.
    func start() {
        guard isShown else { return }
        ticker.withLock { ticker in
            guard ticker == nil else { return }
            draw()
            ticker = Task { [weak self] in
                while !Task.isCancelled {
                    do { try await Task.sleep(for: Self.refresh) } catch { return }
                    self?.draw()
                }
            }
        }
    }

    /// Takes the line off the screen, before an output line is printed. It
    /// comes back a whole refresh later, not at once: an output line that
    /// went through a pipe (`| head`) reaches the terminal a moment later,
    /// and a line drawn in between would sit in front of it.
    func clear() {
        state.withLock { state in
            state.hiddenUntil = recording.now + Self.refresh
            erase(&state)
        }
    }

    /// `fetch` has ended (and been printed): the line moves to the next one.
    func ended(_ fetch: CompletedFetch) {
        state.withLock { state in
            state.ended += 1
            state.lastEnd = fetch.startOffset + fetch.duration
        }
    }

    /// Stops redrawing and clears the line: call it on every way out.
    func stop() {
        ticker.withLock { ticker in
            ticker?.cancel()
            ticker = nil
        }
        state.withLock { erase(&$0) }
    }

    /// What a second signal, which ends the process at once, writes first:
    /// callable from any thread, it cannot know whether the line is up, and
    /// erasing an empty line is harmless.
    static func eraseBeforeExit() {
        guard StandardError.isTerminal else { return }
        StandardError.write(erase)
    }

    private func draw() {
        state.withLock { state in
            if let hiddenUntil = state.hiddenUntil, recording.now < hiddenUntil { return }
            guard let text = status(state) else { return erase(&state) }
            StandardError.write(Self.erase + text)
            state.isOnScreen = true
        }
    }

    private func erase(_ state: inout State) {
        guard state.isOnScreen else { return }
        StandardError.write(Self.erase)
        state.isOnScreen = false
    }

    /// The line for this moment; nil once every fetch has ended.
    private func status(_ state: State) -> String? {
        let ended = state.ended
        guard ended < total else { return nil }
        let number = "[\(ended + 1)/\(total)]"
        let now = recording.now
        if let running = recording.runningFetch {
            return "\(number) fetching… \(Self.seconds(now - running.tappedAt))"
        }
        if let lastEnd = state.lastEnd {
            let left = lastEnd + interval - now
            if left > .zero { return "\(number) next fetch in \(Self.seconds(left))" }
        }
        return "\(number) fetching…"
    }

    /// `1.4s`: tenths are what a person watching can follow.
    private static func seconds(_ duration: Duration) -> String {
        let tenths = max(0, Int(duration / .milliseconds(100)))
        return "\(tenths / 10).\(tenths % 10)s"
    }
}
