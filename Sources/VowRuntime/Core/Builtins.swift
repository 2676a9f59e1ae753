extension StageRegistry {
    /// Every built-in stage: the one place a stage is registered.
    public static let builtins = StageRegistry([
        EchoStage.self, PrintStage.self, ResolveStage.self, RejectStage.self, QuietStage.self, DelayStage.self, SimStage.self, RangeStage.self, ScriptFlagStage.self,
        FetchStage.self, GetStage.self, PostStage.self, PutStage.self, PatchStage.self, DeleteStage.self, HeadStage.self, PaginateStage.self, APIStage.self,
        JsonStage.self, TextStage.self, PickStage.self, LenStage.self, KeysStage.self, ValuesStage.self, Sha256Stage.self, ReduceStage.self, DiffStage.self,
        LinesStage.self, FormatStage.self, ToJsonStage.self, TableStage.self, WhereStage.self, CSVStage.self, TSVStage.self, ToCSVStage.self, ToTSVStage.self, StatusStage.self, HeadersStage.self, ResponseStage.self, TakeStage.self,
        ReadStage.self, WriteStage.self, StdinStage.self, ArgStage.self, EnvStage.self, GlobStage.self, AskStage.self, ConfirmStage.self, ChooseStage.self, RunStage.self,
        ThenStage.self, CatchStage.self, FinallyStage.self, TapStage.self, TimeoutStage.self, RetryStage.self,
        EachStage.self, AssertStage.self, IfStage.self, DoStage.self, ThenableStage.self, OperationStage.self, PromiseStage.self, UntilStage.self, WatchStage.self, DeferStage.self, ExitStage.self, IterateStage.self, AllStage.self, RaceStage.self, AnyStage.self, SettleStage.self,
        JobsStage.self, AwaitStage.self, CancelStage.self,
    ])
}
