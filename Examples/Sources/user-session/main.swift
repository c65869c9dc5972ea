import ExampleViewStates
import FetchHistory
import Foundation

// Records a short session of the User screen into the history file named on
// the command line, as an app would in the field: three loads, one cancelled
// by the user at the tap and one
// timed out. Read it back with the command:
//
//     swift run --package-path Examples user-session /tmp/users.sqlite
//     fetch-history list -d /tmp/users.sqlite
//     fetch-history export -d /tmp/users.sqlite --format jsonl

/// A user source that answers after a given delay, as a server would.
actor SlowUserAPI: UserAPI {
    private var delays: [Duration]

    init(delays: [Duration]) {
        self.delays = delays
    }

    func user(id: Int) async throws -> User {
        let delay = delays.isEmpty ? .zero : delays.removeFirst()
        try await Task.sleep(for: delay)
        return User(id: id, name: ["Ada", "Grace", "Edsger"][id % 3])
    }
}

guard CommandLine.arguments.count == 2 else {
    print("usage: user-session HISTORY.sqlite")
    exit(64)
}
let store = try HistoryStore(path: CommandLine.arguments[1], access: .create)
let recorder = try await HistoryRecorder(store: store, source: "users")
let api = SlowUserAPI(delays: [.milliseconds(20), .seconds(10), .seconds(10)])
let viewState = FetchViewState(recorder: recorder, timeout: .milliseconds(300)) {
    try await api.user(id: 3)
}
try await viewState.fetch()                       // answered: Ada
viewState.fetchButtonTapped()
viewState.cancelButtonTapped()                    // cancelled by the user, at the tap
_ = await viewState.fetchTask?.result
try await viewState.fetch()                       // timed out after 300 ms
print("recorded session \(recorder.session.id.uuidString.lowercased()) into \(store.path)")
