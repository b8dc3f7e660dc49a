import Calculator

/// The interactive form's view state: one or more panels of fields `a` and `b`, and which field has the focus.
///
/// It is a value with no knowledge of the terminal or the model: ``apply(_:)`` edits it and says what changed,
/// ``show(_:inPanel:)`` shows numbers set elsewhere. With `--engine shared` there are two panels, each bound to
/// its own model of one shared calculation; focus moves through all fields in order.
///
/// ```swift
/// var form = FormState(panelCount: 1)
/// form.apply(.insert("4"))   // .edited(panel: 0)
/// form.apply(.focusNext)     // .moved — now on b
/// form.panels[0].input       // Input(a: 4, b: nil)
/// ```
struct FormState: Hashable, Sendable {
  /// The two fields of one panel.
  struct Panel: Hashable, Sendable {
    /// The first field.
    var a = FieldState(name: "a")
    /// The second field.
    var b = FieldState(name: "b")

    /// The numbers the fields give the model.
    var input: Input { Input(a: a.value, b: b.value) }

    /// The field named `field`.
    subscript(field: FieldName) -> FieldState {
      get { field == .a ? a : b }
      set {
        if field == .a { a = newValue } else { b = newValue }
      }
    }
  }

  /// A field of a panel.
  enum FieldName: CaseIterable, Hashable, Sendable {
    case a, b
  }

  /// Where the focus is.
  struct Focus: Hashable, Sendable {
    var panel: Int
    var field: FieldName
  }

  /// What applying an action changed.
  enum Change: Hashable, Sendable {
    /// Nothing.
    case none
    /// The focused field's cursor moved, or the focus moved.
    case moved
    /// A field's text changed.
    case edited(panel: Int)
    /// The user asked to leave.
    case quit(FormAction.Quit)
    /// The user asked to suspend (Ctrl-Z).
    case suspend
  }

  /// The panels, top to bottom.
  var panels: [Panel]
  /// The focused field.
  private(set) var focus = Focus(panel: 0, field: .a)

  /// Creates a form of `panelCount` empty panels (at least one), focused on the first field.
  init(panelCount: Int = 1) {
    panels = Array(repeating: Panel(), count: max(panelCount, 1))
  }

  /// Applies `action` to the focused field or to the focus.
  @discardableResult
  mutating func apply(_ action: FormAction) -> Change {
    // A notice lasts until the next key.
    panels[focus.panel][focus.field].keyPressed()
    let before = panels[focus.panel][focus.field]
    var field = before
    let edited: Bool
    switch action {
    case .ignore:
      panels[focus.panel][focus.field].refuse("that key does nothing here")
      return .none
    case .quit(let reason): return .quit(reason)
    case .suspend: return .suspend
    case .focusNext:
      moveFocus(by: 1)
      return .moved
    case .focusPrevious:
      moveFocus(by: -1)
      return .moved
    case .insert(let character): edited = field.insert(character)
    case .deleteBackward: edited = field.deleteBackward()
    case .deleteForward: edited = field.deleteForward()
    case .moveLeft, .moveRight, .moveToStart, .moveToEnd:
      field.move(action)
      edited = false
    }
    panels[focus.panel][focus.field] = field
    if edited { return .edited(panel: focus.panel) }
    return field == before ? .none : .moved
  }

  /// Shows `input` in panel `panel` — the models' numbers at the start, or an edit made in another panel of the
  /// same calculation — rewriting each field whose number differs. Returns whether anything changed.
  @discardableResult
  mutating func show(_ input: Input, inPanel panel: Int) -> Bool {
    let a = panels[panel].a.show(input.a)
    let b = panels[panel].b.show(input.b)
    return a || b
  }

  private mutating func moveFocus(by step: Int) {
    let order = panels.indices.flatMap { panel in FieldName.allCases.map { Focus(panel: panel, field: $0) } }
    let current = order.firstIndex(of: focus) ?? 0
    focus = order[(current + step + order.count) % order.count]
    // Typing into a field just reached appends, as in any form: the cursor goes to the end of its text.
    panels[focus.panel][focus.field].move(.moveToEnd)
  }
}
