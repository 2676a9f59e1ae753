// Writes the JavaScript files given after the output path into one Swift file, as string
// constants of `enum TwinSource` named after each file (`prelude.js` → `TwinSource.prelude`), so
// that the JavaScript lives in `.js` files that node checks and the binary still carries it.
// Run by the EmbedJavaScriptPlugin build tool plugin; usage: EmbedJavaScript OUTPUT INPUT.js…
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: EmbedJavaScript OUTPUT INPUT.js…\n".utf8))
    exit(2)
}
var swift = "// Generated from the twin's .js files at build time; edit those files, not this one.\n\n"
swift += "/// The JavaScript of the twin, from `Sources/VowRuntime/Teaching/twin/*.js`.\nenum TwinSource {\n"
for path in arguments.dropFirst().sorted() {
    guard var text = try? String(contentsOfFile: path, encoding: .utf8) else {
        FileHandle.standardError.write(Data("EmbedJavaScript: cannot read \(path)\n".utf8))
        exit(1)
    }
    if text.hasSuffix("\n") { text.removeLast() }
    let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    let name = stem.split(separator: "-").enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.capitalized }.joined()
    // A raw string whose delimiter the text does not contain: nothing in it is an escape.
    var hashes = "#"
    while text.contains("\"\"\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
    swift += "    /// `\(stem).js`.\n    static let \(name) = \(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes)\n"
}
swift += "}\n"
do {
    try swift.write(toFile: output, atomically: true, encoding: .utf8)
} catch {
    FileHandle.standardError.write(Data("EmbedJavaScript: cannot write \(output): \(error)\n".utf8))
    exit(1)
}
