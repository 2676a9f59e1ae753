/// vow's command line, read by hand: a handful of options and the script's arguments. (An
/// argument-parsing library built its model of the options by reflection at every start, a fifth
/// of the time `vow -c 'echo 1'` took.)
///
/// It reads what the library read: options anywhere among the arguments (`vow s.vow --json`),
/// `--name=value` as well as `--name value`, a value that looks like an option counted as
/// missing, `--` ending the options; `-h`/`--help` and `--version` win wherever they are.
struct CommandLineOptions {
    /// `-c SOURCE`.
    var command: String?
    /// `--json`.
    var json = false
    /// `--trace FILE`.
    var trace: String?
    /// `--turns`.
    var turns = false
    /// `--html FILE`.
    var html: String?
    /// `--js`.
    var js = false
    /// `--emit-js`.
    var emitJS = false
    /// `--emit-js-to FILE`.
    var emitJSTo: String?
    /// `--color WHEN`.
    var color = "auto"
    /// The script file and its arguments (with `-c`, the arguments only).
    var script: [String] = []

    /// What the command line asks for besides a run.
    enum Request: Equatable {
        case run
        case help
        case version
    }

    /// A command line that cannot be read: the message after `Error: `, and the help line of
    /// the option concerned, if any.
    struct Problem: Error, Equatable {
        let message: String
        var help: String? = nil
    }

    /// An option that takes a value: how it is written with it, and what it does; nil for any
    /// other name. (A function, not a dictionary: a dictionary of tuples made at start-up costs
    /// more than reading the command line.)
    static func valued(_ name: String) -> (spec: String, text: String)? {
        switch name {
        case "-c": return ("-c <SOURCE>", "Run SOURCE instead of a file.")
        case "--trace": return ("--trace <FILE>", "Record every promise event as JSON Lines to FILE (see docs/trace-format.md).")
        case "--html": return ("--html <FILE>", "After the run, write a page of it to FILE for a class.")
        case "--emit-js-to": return ("--emit-js-to <FILE>", "Write the JavaScript twin to FILE, with the prelude it requires beside it.")
        case "--color": return ("--color <WHEN>", "Colour: auto, always or never.")
        default: return nil
        }
    }

    /// Reads `arguments` (without the program's name).
    static func parse(_ arguments: [String]) throws(Problem) -> (CommandLineOptions, Request) {
        var o = CommandLineOptions()
        var request = Request.run
        var i = 0
        var optionsEnded = false
        while i < arguments.count {
            let a = arguments[i]
            i += 1
            if optionsEnded || !a.hasPrefix("-") || a == "-" {
                o.script.append(a)
                // Everything after a script's path is the script's (`vow a.vow x --json`), as
                // node, python and bash take it: vow's options come before it.
                if o.command == nil { optionsEnded = true }
                continue
            }
            if a == "--" {
                optionsEnded = true
                continue
            }
            // `--name=value`, and `-cSOURCE`.
            var name = a
            var attached: String? = nil
            if a.hasPrefix("--"), let eq = a.firstIndex(of: "=") {
                name = String(a[..<eq])
                attached = String(a[a.index(after: eq)...])
            } else if a.hasPrefix("-c"), a.count > 2, !a.hasPrefix("--") {
                name = "-c"
                attached = String(a.dropFirst(2))
            }
            switch name {
            case "-h", "--help": request = .help
            case "--version": if request == .run { request = .version }
            case "--json": o.json = true
            case "--turns": o.turns = true
            case "--js": o.js = true
            case "--emit-js": o.emitJS = true
            default:
                guard let option = valued(name) else { throw Problem(message: "Unknown option '\(name)'") }
                let value: String
                if let attached {
                    value = attached
                } else if i < arguments.count, !(arguments[i].hasPrefix("-") && arguments[i] != "-") {
                    value = arguments[i]
                    i += 1
                } else {
                    throw Problem(message: "Missing value for '\(option.spec)'", help: "\(option.spec)  \(option.text)")
                }
                switch name {
                case "-c": o.command = value
                case "--trace": o.trace = value
                case "--html": o.html = value
                case "--emit-js-to": o.emitJSTo = value
                default: o.color = value
                }
            }
        }
        if request == .run, !["auto", "always", "never"].contains(o.color) {
            throw Problem(message: "--color must be auto, always or never")
        }
        return (o, request)
    }

    /// The usage line.
    static let usage =
        "vow [-c <SOURCE>] [--json] [--trace <FILE>] [--turns] [--html <FILE>] [--js] [--emit-js] [--emit-js-to <FILE>] [--color <WHEN>] [<script> ...]"

    /// What `vow --help` prints.
    static let help = """
        OVERVIEW: An interactive shell for asynchronous work: pipelines of promises.

        With no arguments on a terminal, starts the REPL; with FILE, runs a script ($1…
        and $args are its arguments); with -c, runs SOURCE; a script piped on stdin
        runs too.
        Exit status: 0 when every statement fulfilled, 1 at the first rejection, 2 for
        a syntax error (nothing runs), 130 when interrupted.

        USAGE: \(usage)

        ARGUMENTS:
          <script>                A script file, and its arguments.

        OPTIONS:
          -c <SOURCE>             Run SOURCE instead of a file.
          --json                  Print each result as one compact JSON line.
          --trace <FILE>          Record every promise event as JSON Lines to FILE (see
                                  docs/trace-format.md).
          --turns                 Show the run turn by turn instead of its output: the
                                  job each turn runs, what it settles, prints and
                                  queues, and the queues after it.
          --html <FILE>           After the run, write a page of it to FILE for a
                                  class: the promise graph, the turns one step at a
                                  time, and the timeline (one self-contained HTML file;
                                  see docs/teaching.md).
          --js                    JavaScript mode: nothing is cancelled that JavaScript
                                  would let run on, and a script waits for its timers,
                                  as node does.
          --emit-js               Write the JavaScript twin of the script (or of -c
                                  SOURCE) to stdout instead of running it; `node` runs
                                  it as it is.
          --emit-js-to <FILE>     Write the JavaScript twin to FILE, with the prelude
                                  it requires beside it (vow-twin-prelude.js), instead
                                  of running the script.
          --color <WHEN>          Colour: auto, always or never. (default: auto)
          --version               Show the version.
          -h, --help              Show help information.

        EXAMPLES:
          vow                                          the REPL
          vow -c 'fetch httpbin.org/json | pick slideshow.title'
          vow -c 'post example.org/users --json {name: ada, n: 1} --verbose'
          vow -c 'read users.json | where "age > `30`" | pick "[*].name"'
          vow deploy.vow example.org 8080              a script and its arguments
          vow --turns examples/lessons/01-chaining.vow a lesson, turn by turn
          vow --emit-js lesson.vow | node -            its JavaScript twin, run by node
          vow --html run.html lesson.vow               a page of the run, for a class

        docs/tutorial.md is the first hour; docs/cheatsheet.md is one page of forms.


        """

    /// What `vow --version` prints.
    static let version = "vow 0.1.0\n"

    /// What a command line that cannot be read prints on standard error (its status is 64).
    static func report(_ problem: Problem) -> String {
        var out = "Error: \(problem.message)\n"
        if let help = problem.help { out += "Help:  \(help)\n" }
        return out + "Usage: \(usage)\n  See 'vow --help' for more information.\n"
    }
}
