/// The app's client for users.
public protocol UserAPI: Actor {
    func user(id: Int) async throws -> User
}
