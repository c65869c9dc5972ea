import FetchHistoryModel

/// The number screen: `FetchViewState` over an `APIClient`, read as before.
extension FetchViewState where Value == Int {
    /// A view state fetching numbers from `client`.
    ///
    /// ```swift
    /// let viewState = FetchViewState(client: RandomNumberClient(), recorder: recorder)
    /// viewState.fetchButtonTapped()
    /// viewState.numberLabel      // "Not fetched yet", then "42"
    /// ```
    public convenience init(
        client: any APIClient, recorder: any FetchRecorder, clock: any Clock<Duration> = ContinuousClock(),
        timeout: Duration? = nil, text: FetchViewText = .english
    ) {
        self.init(recorder: recorder, clock: clock, timeout: timeout, text: text, fetchAnswer: { try await client.fetchAnswer() })
    }

    /// The last number fetched; cleared when a fetch is cancelled or times out.
    public var number: Int? { value }

    /// What the screen shows for `number`.
    public var numberLabel: String {
        number.map(String.init) ?? text.notFetched
    }
}
