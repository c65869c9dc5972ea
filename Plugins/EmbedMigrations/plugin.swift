import Foundation
import PackagePlugin

/// Compiles `Migrations/*.sql` (at the package root) into the target as Swift
/// source, so the schema is part of the binary rather than a resource file.
@main
struct EmbedMigrations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "Migrations")
        let migrations = try FileManager.default
            .contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "sql" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(migrations.count) migrations",
                executable: try context.tool(named: "EmbedMigrationsTool").url,
                arguments: [output.path] + migrations.map(\.path),
                inputFiles: migrations,
                outputFiles: [output]
            )
        ]
    }
}
