/// The app's own client protocol, as in the article: an actor that fetches a number.
public protocol RandomNumberAPI: Actor {
    func fetchRandomNumber() async throws -> Int
}
