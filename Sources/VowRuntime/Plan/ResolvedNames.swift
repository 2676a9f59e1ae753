/// The built-in stage a name was resolved to last (nil when there is none), kept while one list
/// of stages is planned or one program's warnings are looked for: a long pipeline repeats a few
/// names (`pick @ | pick @ …`), each otherwise hashed and looked up in the registry again.
struct ResolvedNames {
    private var name: String?
    private var builtin: (any StageDefinition.Type)?

    /// The built-in stage named `name` in `registry`, nil when there is none.
    mutating func builtin(_ name: String, in registry: StageRegistry) -> (any StageDefinition.Type)? {
        if let last = self.name, last == name { return builtin }
        let found = registry.stage(named: name)
        self.name = name
        builtin = found
        return found
    }
}
