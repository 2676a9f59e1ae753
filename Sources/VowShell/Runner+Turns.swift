import VowRuntime

extension Runner {
    /// Runs `text` to be shown turn by turn (`vow --turns`, `:step`): every statement's events
    /// are kept, and the output is held back, to be shown in the turn that wrote it. Returns the
    /// exit status and the turns of this run alone, its jobs numbered from 1; what the session
    /// recorded before it stays recorded (`:timeline --turns` after `:step` shows both).
    public func runShowingTurns(_ text: String, name: String) -> (status: Int32, turns: RecordedTurns) {
        let tracer = enableTracing()
        let kept = tracer.keepsWholeRun
        tracer.keepsWholeRun = true
        let wanted = tracer.wantsEveryPromise
        tracer.wantsEveryPromise = true
        let mark = tracer.mark()
        session.output.mute(true)
        // The turns show what happens; job notices (`[1] started`) would only open them.
        quietJobNotices = true
        let status = run(text, name: name)
        quietJobNotices = false
        session.output.mute(false)
        tracer.keepsWholeRun = kept
        tracer.wantsEveryPromise = wanted
        return (status, RecordedTurns(tracer.since(mark)))
    }
}
