import Dispatch
import Foundation
import Synchronization
import VowPromises
import VowRuntime
import VowSyntax
import VowValue
import VowHTTP

extension Runner {
    /// The JavaScript twin of the program `text` (`vow --emit-js`), or a syntax error on stderr
    /// and status 2.
    public static func emitJavaScript(_ text: String, name: String) -> (status: Int32, output: String) {
        let source = SourceText(text, name: name)
        do {
            let program = try Parser.parse(source)
            return (ExitStatus.ok, JavaScriptTwin.program(program))
        } catch {
            OutputSink.writeError(error.render(source: source, colors: false) + "\n")
            return (ExitStatus.syntax, "")
        }
    }

    /// The twin of `text` as the page of a run shows it: the prelude required as a module, each
    /// stage's code marked with where it is in the source; nil when `text` does not parse.
    public static func twinForPage(_ text: String, name: String) -> String? {
        guard let program = try? Parser.parse(SourceText(text, name: name)) else { return nil }
        return JavaScriptTwin.program(program, preludeModule: "./" + JavaScriptTwin.preludeFileName, marksStages: true)
    }

    /// The JavaScript twin of the program `text` written to `path`, with the prelude beside it
    /// as a module it requires (`vow --emit-js-to FILE`): a small program's twin stays small.
    /// Each file is replaced whole. A syntax error is written on stderr (status 2), a file that
    /// cannot be written too (status 1).
    public static func emitJavaScript(_ text: String, name: String, to path: String) -> Int32 {
        let source = SourceText(text, name: name)
        let program: Program
        do {
            program = try Parser.parse(source)
        } catch {
            OutputSink.writeError(error.render(source: source, colors: false) + "\n")
            return ExitStatus.syntax
        }
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let prelude = (directory.isEmpty ? "" : directory + "/") + JavaScriptTwin.preludeFileName
        let twin = JavaScriptTwin.program(program, preludeModule: "./" + JavaScriptTwin.preludeFileName)
        func write(_ file: String, _ content: String) throws(VowError) {
            let writer = try FileWriter(file)
            do {
                try writer.write(Array(content.utf8))
                try writer.commit()
            } catch {
                writer.abandon()
                throw error
            }
        }
        do {
            try write(prelude, JavaScriptTwin.preludeModule)
            try write(path, twin)
        } catch {
            OutputSink.writeError("error[\(error.kind.rawValue)]: \(error.message)\n")
            return ExitStatus.rejected
        }
        return ExitStatus.ok
    }
}
