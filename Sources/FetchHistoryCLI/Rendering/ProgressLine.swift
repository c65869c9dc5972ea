import FetchHistory
import FoundationEssentials

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
/// let progress = ProgressLine(total: 3, interval: .seconds(1), recording: viewState.recording)
/// progress.start()
/// defer { progress.stop() }
/// // for each fetch that ends:
/// progress.clear(); print(row); progress.ended(fetch)
/// ```
@MainActor
final class ProgressLine {
    /// Redraws per second are ten: enough for tenths of a second to tick.
    private nonisolated static let refresh: Duration = .milliseconds(100)
    /// Moves to the start of the line and erases it (ECMA-48 CR + EL).
    private nonisolated static let erase = "\r\u{1B}[K"

    private let total: Int
    private let interval: Duration
    private let recording: FetchRecording
    private let isShown: Bool
    private var ended = 0
    private var lastEnd: Duration?
    private var isOnScreen = false
    /// Set by `clear()`: no redraw before this, on the recording's clock.
    private var hiddenUntil: Duration?
    private var ticker: Task<Void, Never>?

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
        guard isShown, ticker == nil else { return }
        draw()
        ticker = Task { @MainActor [weak self] in
            while !Task.isCancelled {
                do { try await Task.sleep(for: Self.refresh) } catch { return }
                self?.draw()
            }
        }
    }

    /// Takes the line off the screen, before an output line is printed. It
    /// comes back a whole refresh later, not at once: an output line that
    /// went through a pipe (`| head`) reaches the terminal a moment later,
    /// and a line drawn in between would sit in front of it.
    func clear() {
        hiddenUntil = recording.now + Self.refresh
        erase()
    }

    /// `fetch` has ended (and been printed): the line moves to the next one.
    func ended(_ fetch: CompletedFetch) {
        ended += 1
        lastEnd = fetch.startOffset + fetch.duration
    }

    /// Stops redrawing and clears the line: call it on every way out.
    func stop() {
        ticker?.cancel()
        ticker = nil
        erase()
    }

    /// What a second signal, which ends the process at once, writes first:
    /// callable from any thread, it cannot know whether the line is up, and
    /// erasing an empty line is harmless.
    nonisolated static func eraseBeforeExit() {
        guard StandardError.isTerminal else { return }
        StandardError.write(erase)
    }

    private func draw() {
        if let hiddenUntil, recording.now < hiddenUntil { return }
        guard let text = status() else { return erase() }
        StandardError.write(Self.erase + text)
        isOnScreen = true
    }

    private func erase() {
        guard isOnScreen else { return }
        StandardError.write(Self.erase)
        isOnScreen = false
    }

    /// The line for this moment; nil once every fetch has ended.
    private func status() -> String? {
        guard ended < total else { return nil }
        let number = "[\(ended + 1)/\(total)]"
        let now = recording.now
        if let running = recording.runningFetch {
            return "\(number) fetching… \(Self.seconds(now - running.tappedAt))"
        }
        if let lastEnd {
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
