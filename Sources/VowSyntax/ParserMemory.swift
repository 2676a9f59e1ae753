/// What a parser remembers of what it has read: the words and names it made, to give back when
/// the same bytes come again, and what the program it makes reports of itself.
///
/// A class, held by `ParserState`: the state is passed down the recursion `inout`, yet a debug
/// build copies it into many slots of each frame, and with these fields inline a list nested
/// 256 deep (`Parser.maxDepth`) took the whole of an 8 MB stack.
final class ParserMemory {
    /// The kind of each literal word read so far, by its text (up to
    /// `ParserState.sharedWordLimit` of them): a word written again shares the first one's (a
    /// long pipeline of `pick @` holds one).
    @exclusivity(unchecked) var sharedWords: [String: ArgumentKind] = [:]
    /// The stage names read last, and the plain words read last with their kinds (`RecentBytes`).
    @exclusivity(unchecked) var recentName = RecentBytes<String>()
    @exclusivity(unchecked) var recentWord = RecentBytes<ArgumentKind>()
    /// Every name a stage is written with, so far (`Program.stageNames`), and the last two
    /// put in, newest first.
    @exclusivity(unchecked) var stageNames: Set<String> = []
    @exclusivity(unchecked) var lastStageNames = ("", "")
    /// True once a list literal's element was one plain word (`Program.listsHoldLoneWords`).
    @exclusivity(unchecked) var listsHoldLoneWords = false
}
