import VowRuntime

extension Runner {
    /// Runs `text` to be shown turn by turn (`vow --turns`, `:step`): every statement's events
    /// are kept, and the output is held back, to be shown in the turn that wrote it. Returns the
    /// exit status and the turns of this run alone.
    public func runShowingTurns(_ text: String, name: String) -> (status: Int32, turns: Turns) {
        let tracer = enableTracing()
        tracer.forgetAll()
        let kept = tracer.keepsWholeRun
        tracer.keepsWholeRun = true
        session.output.mute(true)
        let status = run(text, name: name)
        session.output.mute(false)
        tracer.keepsWholeRun = kept
        return (status, Turns(tracer.wholeRun))
    }
}
