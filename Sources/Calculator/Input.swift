/// The two fields of the slow calculator's form.
///
/// A field is `nil` while it holds no number (empty, or text that is not an integer); the calculator waits until
/// both are numbers.
///
/// ```swift
/// var input = Input(a: 1, b: nil)
/// input.operands   // nil: the model waits
/// input.b = 2
/// input.operands   // (1, 2)
/// print(input)     // 1 + 2
/// ```
public struct Input: Hashable, Sendable, CustomStringConvertible {
  /// The first number, if the field holds one.
  public var a: Int?
  /// The second number, if the field holds one.
  public var b: Int?

  /// Creates an input; both fields default to empty.
  public init(a: Int? = nil, b: Int? = nil) {
    self.a = a
    self.b = b
  }

  /// Both numbers, or `nil` while a field is empty.
  public var operands: (a: Int, b: Int)? {
    guard let a, let b else { return nil }
    return (a, b)
  }

  /// `a + b`, or `a + _` for an empty field.
  public var description: String {
    "\(a.map(String.init) ?? "_") + \(b.map(String.init) ?? "_")"
  }
}
