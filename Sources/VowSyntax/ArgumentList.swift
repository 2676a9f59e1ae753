/// A stage's arguments, in order, as a list that keeps a single argument in place.
///
/// Most stages are written with one argument (`pick @`, `resolve 1`, `fetch URL`): kept in
/// place, it takes sixteen bytes in the stage, where a list of its own took a block of 64 bytes
/// with the allocator's, one a stage of a pipeline a million stages long. No argument, or two
/// and more, are kept in a list as before (an empty list allocates nothing). Inlinable: a
/// stage's run reads its arguments, and a call across modules for each read cost a tenth of
/// parsing and planning a long pipeline.
@frozen public struct ArgumentList: Sendable, RandomAccessCollection, RangeReplaceableCollection, ExpressibleByArrayLiteral {
    /// Where the arguments are: one in place, or a list (never of exactly one).
    @usableFromInline enum Storage: Sendable {
        case one(Argument)
        case list([Argument])
    }
    @usableFromInline var storage: Storage

    /// No arguments.
    @inlinable public init() { storage = .list([]) }

    /// The arguments of `array`, in order.
    @inlinable public init(_ array: [Argument]) {
        storage = array.count == 1 ? .one(array[0]) : .list(array)
    }

    /// The arguments of `elements`, in order.
    @inlinable public init<S: Sequence>(_ elements: S) where S.Element == Argument {
        self.init(Array(elements))
    }

    /// The arguments written in the literal.
    @inlinable public init(arrayLiteral elements: Argument...) { self.init(elements) }

    /// 0.
    @inlinable public var startIndex: Int { 0 }

    /// The number of arguments.
    @inlinable public var endIndex: Int {
        switch storage {
        case .one: return 1
        case .list(let array): return array.count
        }
    }

    /// The number of arguments (without going through the indices).
    @inlinable public var count: Int { endIndex }

    /// True when there is no argument.
    @inlinable public var isEmpty: Bool {
        if case .list(let array) = storage { return array.isEmpty }
        return false
    }

    /// The argument at `position` (a position past the end traps, as an array's does).
    @inlinable public subscript(position: Int) -> Argument {
        switch storage {
        case .one(let argument):
            precondition(position == 0, "ArgumentList index out of range")
            return argument
        case .list(let array):
            return array[position]
        }
    }

    /// The first argument, or nil.
    @inlinable public var first: Argument? {
        switch storage {
        case .one(let argument): return argument
        case .list(let array): return array.first
        }
    }

    /// The arguments as an array (made for one kept in place).
    @inlinable public var array: [Argument] {
        switch storage {
        case .one(let argument): return [argument]
        case .list(let array): return array
        }
    }

    /// Adds `argument` at the end: the first is kept in place, a second makes the list.
    @inlinable public mutating func append(_ argument: Argument) {
        switch storage {
        case .list(var array) where !array.isEmpty:
            // Dropped from the storage first, so that the list is grown where it is, not copied.
            storage = .list([])
            array.append(argument)
            storage = .list(array)
        case .list:
            storage = .one(argument)
        case .one(let first):
            storage = .list([first, argument])
        }
    }

    /// Replaces the arguments in `subrange` with `newElements`.
    @inlinable public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C) where C.Element == Argument {
        var made = array
        made.replaceSubrange(subrange, with: newElements)
        self = ArgumentList(made)
    }
}
