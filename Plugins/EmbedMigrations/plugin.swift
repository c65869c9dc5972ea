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
        // The tool lists the folder itself, and the folder is an input: a
        // migration added later changes the folder, which reruns the tool even
        // when SwiftPM reuses this plugin's earlier answer.
        return [
            .buildCommand(
                displayName: "Embedding migrations",
                executable: try context.tool(named: "EmbedMigrationsTool").url,
                arguments: [output.path, folder.path],
                inputFiles: [folder] + migrations,
                outputFiles: [output]
            )
        ]
    }
}
