/// A list that keeps its first element in place and the others in an array. Most of the lists a
/// pipeline makes on every run hold one element: the stages of a run (`PipelineRun.entries`: an
/// element of a list, a handler's body, an item of `each`), the positional arguments of a stage
/// call (`StageArguments.positional`: `pick EXPR`, `format T`, `resolve V`). An array of one
/// costs its allocation, and its freeing through the element type's generic destroy, on every
/// run; a list of one here costs neither.
///
/// It reads and changes as an array does (`RandomAccessCollection`, `MutableCollection`,
/// `RangeReplaceableCollection`, indices from 0). The first element is in place exactly when
/// the list is not empty, so that two equal lists are equal field by field.
public struct FirstInPlaceList<Element>: RandomAccessCollection, MutableCollection, RangeReplaceableCollection,
    ExpressibleByArrayLiteral
{
    private var head: Element?
    private var rest: [Element] = []

    /// An empty list.
    public init() {}

    /// A list of `elements`, in order.
    public init(arrayLiteral elements: Element...) {
        self.init()
        append(contentsOf: elements)
    }

    /// 0.
    public var startIndex: Int { 0 }
    /// The number of elements.
    public var endIndex: Int { head == nil ? 0 : rest.count + 1 }

    /// The element at `i` (0 is the first); a trap past the end, as an array's.
    public subscript(i: Int) -> Element {
        get {
            precondition(i >= 0 && i < endIndex, "index out of range")
            return i == 0 ? head! : rest[i - 1]
        }
        set {
            precondition(i >= 0 && i < endIndex, "index out of range")
            if i == 0 { head = newValue } else { rest[i - 1] = newValue }
        }
    }

    /// Adds `element` after the others.
    public mutating func append(_ element: Element) {
        if head == nil { head = element } else { rest.append(element) }
    }

    /// Makes room for `n` elements in all, so that appending them does not grow the list.
    public mutating func reserveCapacity(_ n: Int) {
        if n > 1 { rest.reserveCapacity(n - 1) }
    }

    /// Replaces the elements in `range` with `elements`: appended in place at the end, else
    /// through an array of them all (the lists this is for are short and rarely changed).
    public mutating func replaceSubrange<C: Collection>(_ range: Range<Int>, with elements: C) where C.Element == Element {
        precondition(range.lowerBound >= 0 && range.upperBound <= endIndex, "range out of bounds")
        if range.isEmpty, range.lowerBound == endIndex {
            for e in elements { append(e) }
            return
        }
        var all = Array(self)
        all.replaceSubrange(range, with: elements)
        self = Self()
        reserveCapacity(all.count)
        for e in all { append(e) }
    }
}

extension FirstInPlaceList: Sendable where Element: Sendable {}
extension FirstInPlaceList: Equatable where Element: Equatable {}
