import Foundation
import PackagePlugin

/// Embeds the twin's JavaScript (`Teaching/twin/*.js` of the target) into the target as Swift
/// string constants (`TwinSource`), by running the `EmbedJavaScript` tool whenever a file changes.
@main
struct EmbedJavaScriptPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let folder = module.directoryURL.appending(path: "Teaching").appending(path: "twin")
        let inputs = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "js" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "TwinSource.swift")
        return [
            .buildCommand(
                displayName: "Embedding the twin's JavaScript",
                executable: try context.tool(named: "EmbedJavaScript").url,
                arguments: [output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}
