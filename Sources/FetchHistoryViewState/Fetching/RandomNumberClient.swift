import FetchHistoryModel

/// The built-in source: waits `latency` on its clock, then answers a random
/// number in 1...100. No network.
///
/// ```swift
/// let client = RandomNumberClient(latency: .milliseconds(250))
/// let number = try await client.fetchRandomNumber()
/// ```
public actor RandomNumberClient: APIClient {
    /// The source name the history records.
    public static let sourceName = "random"

    private let latency: Duration
    private let clock: any Clock<Duration>
    private var generator: any RandomNumberGenerator

    /// - Parameters:
    ///   - latency: how long each fetch takes; 1 s by default, like the original client.
    ///   - clock: the clock the latency elapses on; a test clock makes it instant.
    ///   - generator: the randomness; inject a seeded one for repeatable numbers.
    public init(
        latency: Duration = .seconds(1),
        clock: any Clock<Duration> = ContinuousClock(),
        generator: any RandomNumberGenerator = SystemRandomNumberGenerator()
    ) {
        self.latency = latency
        self.clock = clock
        self.generator = generator
    }

    public func fetchRandomNumber() async throws -> Int {
        // sleep throws CancellationError when the fetch is cancelled.
        try await clock.sleep(for: latency)
        try Task.checkCancellation()
        return Int.random(in: 1...100, using: &generator)
    }
}
