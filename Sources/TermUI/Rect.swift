// Rectangles of cells and the constraint layout that splits them.

/// How much of a split's length one part takes.
public enum Constraint: Hashable, Sendable {
    /// Exactly this many cells (less when the area is too small).
    case length(Int)
    /// This percentage of the whole length, rounded down.
    case percentage(Int)
    /// At least this many cells; grows when no `fill` part takes the rest.
    case min(Int)
    /// An equal share of what the other parts leave.
    case fill
}

/// A rectangle of cells: origin at the top-left, sizes never negative.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The leftmost column.
    public var x: Int
    /// The top row.
    public var y: Int
    /// The number of columns.
    public var width: Int
    /// The number of rows.
    public var height: Int

    /// Creates a rectangle; negative sizes become zero.
    /// - Parameters:
    ///   - x: The leftmost column.
    ///   - y: The top row.
    ///   - width: The number of columns.
    ///   - height: The number of rows.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = Swift.max(0, width)
        self.height = Swift.max(0, height)
    }

    /// The column just right of the rectangle.
    public var right: Int { x + width }
    /// The row just below the rectangle.
    public var bottom: Int { y + height }
    /// The number of cells.
    public var area: Int { width * height }
    /// Whether the rectangle holds no cell.
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// A compact form, `x,y widthxheight`.
    public var description: String { "\(x),\(y) \(width)x\(height)" }

    /// Whether the cell at (x, y) lies inside.
    /// - Parameters:
    ///   - x: The column.
    ///   - y: The row.
    /// - Returns: True when inside.
    public func contains(x: Int, y: Int) -> Bool {
        x >= self.x && x < right && y >= self.y && y < bottom
    }

    /// The rectangle shrunk by `margin` cells on every side (empty when nothing is left).
    /// - Parameter margin: The cells to remove on each side.
    /// - Returns: The inner rectangle.
    public func inset(by margin: Int) -> Rect {
        inset(horizontal: margin, vertical: margin)
    }

    /// The rectangle shrunk by separate horizontal and vertical margins.
    /// - Parameters:
    ///   - horizontal: The columns to remove on the left and on the right.
    ///   - vertical: The rows to remove at the top and at the bottom.
    /// - Returns: The inner rectangle.
    public func inset(horizontal: Int, vertical: Int) -> Rect {
        let h = Swift.max(0, horizontal)
        let v = Swift.max(0, vertical)
        return Rect(
            x: x + Swift.min(h, width / 2), y: y + Swift.min(v, height / 2), width: width - 2 * h,
            height: height - 2 * v)
    }

    /// The part of the rectangle that also lies inside `other`.
    /// - Parameter other: The other rectangle.
    /// - Returns: The overlap (empty, at the clamped origin, when they do not meet).
    public func intersection(_ other: Rect) -> Rect {
        let x0 = Swift.max(x, other.x)
        let y0 = Swift.max(y, other.y)
        let x1 = Swift.min(right, other.right)
        let y1 = Swift.min(bottom, other.bottom)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Splits the rectangle into rows stacked top to bottom, one per constraint.
    ///
    /// The heights always add up to the rectangle's height: when the constraints ask for more,
    /// the later parts get less; when they ask for less, `fill` parts share the rest, else `min`
    /// parts do, else the last part takes it.
    /// - Parameter constraints: One constraint per part.
    /// - Returns: The parts, top to bottom.
    public func split(vertical constraints: [Constraint]) -> [Rect] {
        var y = self.y
        return solve(constraints, length: height).map { h in
            defer { y += h }
            return Rect(x: x, y: y, width: width, height: h)
        }
    }

    /// Splits the rectangle into columns side by side, one per constraint.
    ///
    /// The widths always add up to the rectangle's width, by the rules of `split(vertical:)`.
    /// - Parameter constraints: One constraint per part.
    /// - Returns: The parts, left to right.
    public func split(horizontal constraints: [Constraint]) -> [Rect] {
        var x = self.x
        return solve(constraints, length: width).map { w in
            defer { x += w }
            return Rect(x: x, y: y, width: w, height: height)
        }
    }
}

/// Lengths for the constraints that add up to `length` exactly (for a non-empty list).
func solve(_ constraints: [Constraint], length: Int) -> [Int] {
    guard !constraints.isEmpty else { return [] }
    let length = max(0, length)
    let wanted = constraints.map { c -> Int in
        switch c {
        case .length(let n), .min(let n): max(0, n)
        case .percentage(let p): length * min(100, max(0, p)) / 100
        case .fill: 0
        }
    }
    var sizes = [Int]()
    sizes.reserveCapacity(wanted.count)
    var remaining = length
    for w in wanted {
        let s = min(w, remaining)
        sizes.append(s)
        remaining -= s
    }
    guard remaining > 0 else { return sizes }
    var growable = constraints.indices.filter { constraints[$0] == .fill }
    if growable.isEmpty {
        growable = constraints.indices.filter {
            if case .min = constraints[$0] { return true }
            return false
        }
    }
    if growable.isEmpty { growable = [constraints.count - 1] }
    let share = remaining / growable.count
    var extra = remaining % growable.count
    for i in growable {
        sizes[i] += share
        if extra > 0 {
            sizes[i] += 1
            extra -= 1
        }
    }
    return sizes
}
