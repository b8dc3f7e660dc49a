import Observation
import Ripple
import RippleTesting
import Testing

/// The examples in doc comments and in the README that claim an output, copied verbatim, run and checked. The
/// file's `print` records what the examples print.
@Suite("Doc examples print what they say", .serialized)
@MainActor
struct DocExampleTests {
  init() {
    printed = []
    printedLines = []
  }

  @Test("Observed's doc comment: prints 3, then 30")
  func observedDocComment() async {
    // Sources/Ripple/Observed/Observed.swift
    let form = Form()
    for await sum in Observed({ form.a + form.b }) {
      print(sum)
      guard sum == 3 else { break }
      form.a = 10
      form.b = 20  // same transaction as `form.a = 10`: one value
    }
    // Prints 3, then 30.
    #expect(printed == [3, 30])
  }

  @Test("the README's Observed example: 3, then 30")
  func readmeObserved() async {
    await watch(Form())
    #expect(printed == [3, 30])
  }

  @Test("the README's marble diagram")
  func readmeMarbles() async {
    let output = await marbles("abcd----e---f-g----|") { inputs, clock in
      inputs[0].debounce(for: .seconds(3), clock: clock)
    }
    #expect(output == "------d----e-----g-|")
  }

  @Test("the collection initialisers' doc comments print what they say")
  func collectionInitialisers() async {
    // Sources/Ripple/Transformations/Collections/RangeReplaceableCollection+AsyncSequence.swift
    let evens = await Array([1, 2, 3, 4].async.filter { $0.isMultiple(of: 2) })
    print(evens)
    // Prints [2, 4].

    // Sources/Ripple/Transformations/Collections/Dictionary+AsyncSequence.swift
    let names = await Dictionary(uniqueKeysWithValues: zip([1, 2].async, ["one", "two"].async))
    print(names[2] ?? "none")
    // Prints two.

    let words = ["to", "be", "or", "not", "to", "be"].async.map { word in (word, 1) }
    let counts = await Dictionary(words, uniquingKeysWith: +)
    print(counts["to"] ?? 0, counts["not"] ?? 0)
    // Prints 2 1.

    let byInitial = await Dictionary(grouping: ["apple", "avocado", "banana"].async) { word in word.first! }
    print(byInitial["a"] ?? [])
    // Prints ["apple", "avocado"].

    // Sources/Ripple/Transformations/Collections/SetAlgebra+AsyncSequence.swift
    let tags = await Set(["swift", "async", "swift"].async)
    print(tags.sorted())
    // Prints ["async", "swift"].

    #expect(printedLines == ["[2, 4]", "two", "2 1", #"["apple", "avocado"]"#, #"["async", "swift"]"#])
  }
}

// The README's example, verbatim.

@MainActor @Observable private final class Form {
  var a = 1
  var b = 2
}

@MainActor private func watch(_ form: Form) async {
  for await sum in Observed({ form.a + form.b }) {
    print(sum)  // 3, then 30: the two changes below are one transaction, so they give one value
    guard sum == 3 else { break }
    form.a = 10
    form.b = 20
  }
}

/// What the examples printed, in order.
@MainActor private var printed: [Int] = []

/// Stands in for `Swift.print` in this file, so the examples' output can be checked.
@MainActor private func print(_ value: Int) {
  printed.append(value)
}

/// What the examples that print other values printed, one line per call.
@MainActor private var printedLines: [String] = []

/// Stands in for `Swift.print` for the examples that print other values than one `Int`.
@MainActor private func print(_ values: Any...) {
  printedLines.append(values.map { String(describing: $0) }.joined(separator: " "))
}

extension DocExampleTests {
  @Test("MultiProducerSingleConsumerAsyncChannel's doc comment: prints 1, 2, 3")
  func mpscChannelDocComment() async throws {
    // Sources/Ripple/Buffering/MPSCChannel/MultiProducerSingleConsumerAsyncChannel.swift
    var channelAndSource = MultiProducerSingleConsumerAsyncChannel.makeChannel(
      of: Int.self, backpressureStrategy: .watermark(low: 64, high: 256))
    var channel = channelAndSource.takeChannel()
    var source = consume channelAndSource.source
    try await source.send(contentsOf: [1, 2, 3])  // returns at once: 3 buffered is below 256
    source.finish()
    while let value = await channel.next() { print(value) }
    // Prints 1, 2, 3.
    #expect(printed == [1, 2, 3])
  }

  @Test("MultiProducerSingleConsumerAsyncChannel.Source's doc comment: prints 1, 2")
  func mpscChannelSourceDocComment() async throws {
    // Sources/Ripple/Buffering/MPSCChannel/MultiProducerSingleConsumerAsyncChannel+Source.swift
    var channelAndSource = MultiProducerSingleConsumerAsyncChannel.makeChannel(
      of: Int.self, backpressureStrategy: .watermark(low: 64, high: 256))
    var channel = channelAndSource.takeChannel()
    var first = consume channelAndSource.source
    var second = first.makeAdditionalSource()
    try await first.send(1)
    _ = consume first  // the channel stays open: `second` is left
    try await second.send(2)
    _ = consume second  // the last source: the channel finishes after the buffered elements
    while let value = await channel.next() { print(value) }
    // Prints 1, 2.
    #expect(printed == [1, 2])
  }

  @Test("the MultiProducerSingleConsumerChannel guide's producer task: prints a, b, c")
  func mpscChannelGuide() async {
    // Sources/Ripple/Ripple.docc/MultiProducerSingleConsumerChannel.md
    var channelAndSource = MultiProducerSingleConsumerAsyncChannel.makeChannel(
      of: String.self, backpressureStrategy: .watermark(low: 16, high: 64))
    var channel = channelAndSource.takeChannel()
    startProducing(into: consume channelAndSource.source)
    while let line = await channel.next() { print(line) }
    // Prints a, b, c.
    #expect(printedLines == ["a", "b", "c"])
  }
}

/// The guide's producer: the task owns the source, and the source goes away with it, which finishes the channel.
private func startProducing(
  into source: consuming sending MultiProducerSingleConsumerAsyncChannel<String, Never>.Source
) {
  var source = source
  Task {
    for line in ["a", "b", "c"] { try await source.send(line) }
  }
}
