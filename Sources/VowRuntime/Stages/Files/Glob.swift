import Foundation
import VowPromises
import VowValue

/// `glob PATTERN`: the paths a shell pattern names.
struct GlobStage: ValueStage {
    static let name = "glob"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("glob")
    static let group = StageGroup.files
    static let synopsis = "glob PATTERN"
    static let summary = "The paths that PATTERN names (`*`, `?`, `[…]`, `**`), sorted."
    static let help = """
        Fulfils with the paths that match PATTERN as a sorted list (empty when none match, unlike a
        shell, which would pass the pattern on): `*` any characters of one name but `/`, `?` one
        character, `[abc]` and `[a-z]` one of a set, `**` as a whole part any number of
        directories, none included (`src/**/*.swift`). A name starting with a dot is matched only
        by a part that starts with a dot, as shells do. A relative pattern gives relative paths;
        symbolic links to directories are not followed by `**`. A name that is not valid UTF-8
        keeps its bytes: `read`, `write` and `run` given it open that file, and a terminal or an
        error shows each byte that breaks the encoding as `\\xff`.
        """
    static let examples = [
        StageExample("run sh -c 'mkdir -p /tmp/vow-glob/a/b && touch /tmp/vow-glob/x.txt /tmp/vow-glob/a/y.txt /tmp/vow-glob/a/b/z.txt /tmp/vow-glob/a/.h.txt' | then glob '/tmp/vow-glob/**/*.txt' | to-json",
            #"["/tmp/vow-glob/a/b/z.txt","/tmp/vow-glob/a/y.txt","/tmp/vow-glob/x.txt"]"#),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        let pattern = try args.string(0, "PATTERN")
        return .value(.list(Self.paths(pattern).map(Value.string)))
    }

    /// The sorted paths that `pattern` names.
    static func paths(_ pattern: String) -> [String] {
        let absolute = pattern.hasPrefix("/")
        let parts = pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var found: Set<String> = []
        walk(absolute ? "/" : "", parts[...], into: &found)
        return found.sorted()
    }

    /// Adds to `found` the paths under `base` (a prefix ending in `/`, or empty for the current
    /// directory) that match `parts`.
    private static func walk(_ base: String, _ parts: ArraySlice<String>, into found: inout Set<String>) {
        guard let part = parts.first else {
            if !base.isEmpty { found.insert(base.count > 1 && base.hasSuffix("/") ? String(base.dropLast()) : base) }
            return
        }
        let rest = parts.dropFirst()
        let directory = base.isEmpty ? "." : base
        if part == "**" {
            walk(base, rest, into: &found)  // none
            for name in entries(directory) where !name.hasPrefix(".") && isDirectory(base + name, followLinks: false) {
                walk(base + name + "/", parts, into: &found)
            }
            return
        }
        if !part.contains(where: { "*?[".contains($0) }) {
            let path = base + part
            if rest.isEmpty ? exists(path) : isDirectory(path, followLinks: true) { walk(path + "/", rest, into: &found) }
            return
        }
        for name in entries(directory) where fnmatch(FileName.system(part), FileName.system(name), FNM_PERIOD) == 0 {
            let path = base + name
            if rest.isEmpty || isDirectory(path, followLinks: true) { walk(path + "/", rest, into: &found) }
        }
    }

    /// The names in `directory` but `.` and `..`, each kept byte for byte (`FileName`).
    private static func entries(_ directory: String) -> [String] {
        guard let dir = opendir(FileName.system(directory)) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { FileName.decode(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(FileName.system(path), &info) == 0
    }

    private static func isDirectory(_ path: String, followLinks: Bool) -> Bool {
        var info = stat()
        return (followLinks ? stat(FileName.system(path), &info) : lstat(FileName.system(path), &info)) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
