import Foundation
import PackagePlugin

/// Compiles `Migrations/*.sql` (at the package root) into the target as Swift
/// source, so the schema is part of the binary rather than a resource file:
/// SQLite's into `FetchHistoryStore` (`Migration.embedded`), and
/// `Migrations/postgres/*.sql` into `FetchHistoryPostgres`
/// (`PostgresMigration.embedded`).
@main
struct EmbedMigrations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let postgres = target.name == "FetchHistoryPostgres"
        let folder = context.package.directoryURL.appending(path: postgres ? "Migrations/postgres" : "Migrations")
        let type = postgres ? "PostgresMigration" : "Migration"
        let migrations = try FileManager.default
            .contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "sql" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        // The tool lists the folder itself, and the folder is an input: a
        // migration added later changes the folder, which reruns the tool even
        // when SwiftPM reuses this plugin's earlier answer.
        return [
            .buildCommand(
                displayName: "Embedding migrations",
                executable: try context.tool(named: "EmbedMigrationsTool").url,
                arguments: [output.path, folder.path, type],
                inputFiles: [folder] + migrations,
                outputFiles: [output]
            )
        ]
    }
}
