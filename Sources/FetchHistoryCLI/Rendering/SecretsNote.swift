/// The note `import` and `pull` leave on standard error when sources came
/// with secrets, which the history keeps hidden as recording hides them:
/// `import: 3 sources had secrets removed`. Standard output keeps its one
/// line, as scripts read it.
enum SecretsNote {
    static func write(command: String, sources: Int) {
        guard sources > 0 else { return }
        StandardError.write("\(command): \(RetentionReport.count(sources, "source", "sources")) had secrets removed\n")
    }
}
