import Dispatch
import FoundationEssentials
import Synchronization

/// The live line `import` and `pull` keep on standard error once they have
/// run a second — `importing… 120000 fetches, 95000 a second` — so a long
/// transfer never looks like a hang. Only on a terminal, erased when it
/// ends, as `fetch`'s line (`ProgressLine`) is.
///
/// The fetches are read on a thread the line does not own (the command's
/// own for an import, the server's reader for a pull), so the line is drawn
/// from a timer on a queue of its own, reading a count the reader raises.
final class TransferProgress: Sendable {
    /// The first draw: a shorter import shows nothing.
    private static let delay: DispatchTimeInterval = .seconds(1)
    private static let refresh: DispatchTimeInterval = .milliseconds(200)
    private static let erase = "\r\u{1B}[K"

    private let verb: String
    private let count = Atomic(0)
    private let started = ContinuousClock.now
    private let queue = DispatchQueue(label: "fetch-history.progress")
    /// The timer, and whether the line is on the screen: touched on `queue` only.
    private let state = Mutex<(timer: (any DispatchSourceTimer)?, isOnScreen: Bool)>((nil, false))

    /// Starts the timer when `isShown` (standard error is a terminal);
    /// `verb` opens the line (`importing`).
    init(_ verb: String, isShown: Bool = StandardError.isTerminal) {
        self.verb = verb
        guard isShown else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + Self.delay, repeating: Self.refresh)
        timer.setEventHandler { [weak self] in self?.draw() }
        state.withLock { $0.timer = timer }
        timer.resume()
    }

    /// One more fetch read.
    func counted() {
        count.add(1, ordering: .relaxed)
    }

    /// Stops drawing and erases the line: call it on every way out.
    func stop() {
        queue.sync {
            state.withLock { state in
                state.timer?.cancel()
                state.timer = nil
                if state.isOnScreen { StandardError.write(Self.erase) }
                state.isOnScreen = false
            }
        }
    }

    private func draw() {
        let fetches = count.load(ordering: .relaxed)
        let seconds = Double((ContinuousClock.now - started) / .milliseconds(1)) / 1000
        let rate = seconds > 0 ? Int(Double(fetches) / seconds) : 0
        let text = "\(verb)… \(RetentionReport.count(fetches, "fetch", "fetches")), \(rate) a second"
        state.withLock { state in
            guard state.timer != nil else { return }
            StandardError.write(Self.erase + text)
            state.isOnScreen = true
        }
    }
}
