/// A pipeline's stages and its span, kept in one block of memory.
///
/// A group `( pick @ )` is a pipeline of one stage, and a program of a million hops `then (…)`
/// holds a million of them: a list of stages and a box for the pipeline around it were two
/// blocks (96 and 48 bytes with the allocator's), where this is one of 96. The block is never
/// changed once made, so it is shared by every copy of the pipeline and by the plans of its
/// stages (`StageNodes`). Not `Sendable` (no `ManagedBuffer` is): the pipeline and the views
/// that hold it are, as nothing changes a block once its pipeline is made.
@usableFromInline final class PipelineStorage: ManagedBuffer<PipelineStorage.Header, StageNode> {
    /// The count of stages and the pipeline's span.
    @usableFromInline struct Header {
        @usableFromInline var count: Int
        @usableFromInline var span: SourceSpan
    }

    /// A block holding `stages` and `span`.
    static func make<C: Collection>(_ stages: C, span: SourceSpan) -> PipelineStorage where C.Element == StageNode {
        let made = unsafeDowncast(
            PipelineStorage.create(minimumCapacity: stages.count) { _ in Header(count: 0, span: span) }, to: PipelineStorage.self)
        made.withUnsafeMutablePointers { header, elements in
            var at = elements
            for stage in stages {
                at.initialize(to: stage)
                at += 1
            }
            header.pointee.count = stages.count
        }
        return made
    }

    /// A block holding one stage, whose span is the pipeline's.
    static func make(one stage: consuming StageNode) -> PipelineStorage {
        let made = unsafeDowncast(
            PipelineStorage.create(minimumCapacity: 1) { _ in Header(count: 1, span: stage.span) }, to: PipelineStorage.self)
        made.elements.initialize(to: stage)
        return made
    }

    /// The count of stages and the span, read and written through the header's place: the
    /// class's own `header` is checked for exclusive access at every read (a tenth of
    /// running a long pipeline of groups).
    @inlinable var head: UnsafeMutablePointer<Header> { withUnsafeMutablePointerToHeader { $0 } }

    /// The first stage's place; valid while the block is.
    @inlinable var elements: UnsafeMutablePointer<StageNode> { withUnsafeMutablePointerToElements { $0 } }

    deinit {
        _ = withUnsafeMutablePointers { header, elements in elements.deinitialize(count: header.pointee.count) }
    }
}

/// The stages of a pipeline, in order: a view of its block (`PipelineStorage`), eight bytes,
/// which a plan keeps as the place of its stage (`StagePlan`). Empty for a stage of no pipeline.
@frozen public struct StageNodes: @unchecked Sendable, RandomAccessCollection {
    @usableFromInline let storage: PipelineStorage?

    @inlinable init(storage: PipelineStorage?) { self.storage = storage }

    /// No stages.
    @inlinable public init() { storage = nil }

    /// 0.
    @inlinable public var startIndex: Int { 0 }

    /// The number of stages.
    @inlinable public var endIndex: Int { storage?.head.pointee.count ?? 0 }

    /// The number of stages (without going through the indices).
    @inlinable public var count: Int { endIndex }

    /// True when there is no stage.
    @inlinable public var isEmpty: Bool { endIndex == 0 }

    /// The stage at `position`, read in place: `nodes[i].span` copies no node out (a position
    /// past the end traps, as an array's does).
    @inlinable public subscript(position: Int) -> StageNode {
        unsafeAddress {
            guard let storage, position >= 0, position < storage.head.pointee.count else {
                preconditionFailure("StageNodes index out of range")
            }
            return UnsafePointer(storage.elements + position)
        }
    }

    /// True when both are the same stages of the same pipeline (the same block).
    @inlinable public func isSame(as other: StageNodes) -> Bool { storage === other.storage }
}

/// Makes a pipeline's block as its stages are parsed: it grows as an array does (twice as long
/// each time it is full, the stages moved, not copied), and a pipeline of one stage, which most
/// groups and list elements are, is one block of one stage's room.
struct StageNodesBuilder {
    private var storage: PipelineStorage
    private var capacity: Int

    /// A builder holding `first`.
    init(first: consuming StageNode) {
        storage = PipelineStorage.make(one: first)
        capacity = 1
    }

    /// Adds `stage` at the end.
    mutating func append(_ stage: consuming StageNode) {
        let count = storage.head.pointee.count
        if count == capacity {
            let grown = unsafeDowncast(
                PipelineStorage.create(minimumCapacity: capacity * 2) { _ in .init(count: 0, span: SourceSpan(start: 0, end: 0)) },
                to: PipelineStorage.self)
            storage.withUnsafeMutablePointers { header, old in
                grown.withUnsafeMutablePointerToElements { $0.moveInitialize(from: old, count: count) }
                header.pointee.count = 0
            }
            grown.head.pointee.count = count
            storage = grown
            capacity *= 2
        }
        (storage.elements + count).initialize(to: stage)
        storage.head.pointee.count = count + 1
    }

    /// The pipeline of the stages added, spanning `span`.
    func pipeline(span: SourceSpan) -> Pipeline {
        storage.head.pointee.span = span
        return Pipeline(storage: storage)
    }
}
