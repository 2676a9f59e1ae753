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
        symbolic links to directories are not followed by `**`.
        """
    static let examples = [
        StageExample("run sh -c 'mkdir -p /tmp/vow-glob/a/b && touch /tmp/vow-glob/x.txt /tmp/vow-glob/a/y.txt /tmp/vow-glob/a/b/z.txt /tmp/vow-glob/a/.h.txt' | then glob '/tmp/vow-glob/**/*.txt' | to-json",
            #"["/tmp/vow-glob/a/b/z.txt","/tmp/vow-glob/a/y.txt","/tmp/vow-glob/x.txt"]"#),
    ]

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
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
        for name in entries(directory) where fnmatch(part, name, FNM_PERIOD) == 0 {
            let path = base + name
            if rest.isEmpty || isDirectory(path, followLinks: true) { walk(path + "/", rest, into: &found) }
        }
    }

    private static func entries(_ directory: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    private static func isDirectory(_ path: String, followLinks: Bool) -> Bool {
        var info = stat()
        return (followLinks ? stat(path, &info) : lstat(path, &info)) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
