import Calculator
import Testing

@testable import CalculatorTerminal

@Suite("FormState")
struct FormStateTests {
  @Test(
    "key bindings",
    arguments: [
      (Key.character("q"), FormAction.quit(.request)),
      (.escape, .quit(.request)),
      (.interrupt, .quit(.interrupt)),
      (.suspend, .suspend),
      (.character("7"), .insert("7")),
      (.character("x"), .insert("x")),
      (.backspace, .deleteBackward),
      (.delete, .deleteForward),
      (.left, .moveLeft),
      (.right, .moveRight),
      (.home, .moveToStart),
      (.end, .moveToEnd),
      (.tab, .focusNext),
      (.down, .focusNext),
      (.enter, .focusNext),
      (.backTab, .focusPrevious),
      (.up, .focusPrevious),
      (.unknown([1]), .ignore),
    ])
  func bindings(key: Key, action: FormAction) {
    #expect(FormAction(key) == action)
  }

  @Test("Tab, Shift-Tab, Up and Down move the focus through every field of every panel, wrapping around")
  func focusOrder() {
    var form = FormState(panelCount: 2)
    var visited: [String] = []
    for _ in 0..<4 {
      visited.append("\(form.focus.panel)\(form.focus.field)")
      #expect(form.apply(FormAction(.tab)) == .moved)
    }
    #expect(visited == ["0a", "0b", "1a", "1b"])
    #expect(form.focus == .init(panel: 0, field: .a))
    form.apply(FormAction(.backTab))
    #expect(form.focus == .init(panel: 1, field: .b))
    form.apply(FormAction(.up))
    #expect(form.focus == .init(panel: 1, field: .a))
    form.apply(FormAction(.down))
    #expect(form.focus == .init(panel: 1, field: .b))
  }

  @Test("a field reached by moving the focus takes typing at its end, wherever its cursor was before")
  func focusPutsTheCursorAtTheEnd() {
    var form = FormState(panelCount: 1)
    for key in [Key.character("1"), .character("2"), .home, .tab, .character("3"), .backTab, .character("4")] {
      form.apply(FormAction(key))
    }
    #expect(String(form.panels[0].a.text) == "124")
    #expect(String(form.panels[0].b.text) == "3")
    #expect(FormAction(.unknown([0x1b, UInt8(ascii: "q")])) == .ignore)  // an Alt chord does nothing
  }

  @Test("edits report their panel; the panel's input follows its fields")
  func edits() {
    var form = FormState(panelCount: 2)
    #expect(form.apply(.insert("4")) == .edited(panel: 0))
    form.apply(.focusNext)
    #expect(form.apply(.insert("2")) == .edited(panel: 0))
    #expect(form.panels[0].input == Input(a: 4, b: 2))
    form.apply(.focusNext)
    #expect(form.apply(.insert("x")) == .edited(panel: 1))  // typed, and the field says it is no integer
    #expect(form.apply(.deleteBackward) == .edited(panel: 1))
    #expect(form.apply(.deleteBackward) == .none)
    #expect(form.apply(.insert("1")) == .edited(panel: 1))
    #expect(form.apply(.moveLeft) == .moved)
    #expect(form.apply(.moveLeft) == .none)
    #expect(form.apply(.quit(.interrupt)) == .quit(.interrupt))
    #expect(form.apply(.suspend) == .suspend)
    #expect(form.panels[1].input == Input(a: 1, b: nil))
  }

  @Test("showing a model's input rewrites only the fields whose number differs")
  func showInput() {
    var form = FormState(panelCount: 2)
    for key in "12-3" { form.apply(.insert(key)) }
    let unchanged = form.show(Input(a: 12, b: nil), inPanel: 0)
    #expect(!unchanged)
    #expect(String(form.panels[0].a.text) == "12-3")
    let changed = form.show(Input(a: 12, b: 30), inPanel: 1)
    #expect(changed)
    #expect(String(form.panels[1].a.text) == "12")
    #expect(String(form.panels[1].b.text) == "30")
  }
}
