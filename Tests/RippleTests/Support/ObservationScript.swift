/// A scripted run of mutations against an observing consumer, for comparing `Observed` with the
/// toolchain's `Observations`.
enum ObservationStep: Sendable, CustomStringConvertible {
  /// One assignment.
  enum Mutation: Sendable {
    case a(Int)
    case b(Int)
    case unrelated(Int)
  }

  /// The consumer waits in `next()`; the producer runs one transaction.
  case transaction([Mutation])
  /// The consumer is busy; the producer runs several transactions, each ended by a suspension, and then
  /// the consumer asks for the next value.
  case whileBusy([[Mutation]])

  var description: String {
    switch self {
    case .transaction(let mutations): "transaction(\(mutations))"
    case .whileBusy(let transactions): "whileBusy(\(transactions))"
    }
  }

  /// Random steps in which every transaction changes `a` or `b`, so each step produces one value.
  static func random(count: Int, using generator: inout some RandomNumberGenerator) -> [ObservationStep] {
    var a = 0
    var b = 0
    func transaction() -> [Mutation] {
      var mutations: [Mutation] = []
      for _ in 0..<Int.random(in: 1...3, using: &generator) {
        switch Int.random(in: 0..<3, using: &generator) {
        case 0:
          a += Int.random(in: 1...9, using: &generator)
          mutations.append(.a(a))
        case 1:
          b += Int.random(in: 1...9, using: &generator)
          mutations.append(.b(b))
        default:
          mutations.append(.unrelated(Int.random(in: 0...1_000, using: &generator)))
        }
      }
      a += 10
      mutations.append(.a(a))
      return mutations
    }
    return (0..<count).map { _ in
      Bool.random(using: &generator)
        ? .transaction(transaction())
        : .whileBusy((0..<Int.random(in: 1...3, using: &generator)).map { _ in transaction() })
    }
  }
}

extension Inputs {
  func apply(_ mutations: [ObservationStep.Mutation]) {
    for mutation in mutations {
      switch mutation {
      case .a(let value): a = value
      case .b(let value): b = value
      case .unrelated(let value): unrelated = value
      }
    }
  }
}

/// Runs `script` on `isolation`: a consumer task on the same actor iterates `sequence` once per step,
/// and the values it saw (the initial one first) are returned.
func record<S: AsyncSequence<Int, Never> & Sendable>(
  _ sequence: S,
  model: Inputs,
  script: [ObservationStep],
  isolation: isolated any Actor
) async -> [Int] {
  let ready = Signal()
  let resume = Signal()
  let consumer = Task {
    _ = isolation
    var iterator = sequence.makeAsyncIterator()
    var values: [Int] = []
    if let initial = await iterator.next(isolation: isolation) { values.append(initial) }
    for step in script {
      ready.ready()
      if case .whileBusy = step { await resume.wait() }
      guard let value = await iterator.next(isolation: isolation) else { break }
      values.append(value)
    }
    return values
  }
  for step in script {
    await ready.wait()
    switch step {
    case .transaction(let mutations):
      model.apply(mutations)
    case .whileBusy(let transactions):
      for mutations in transactions {
        model.apply(mutations)
        // Ends the transaction; the consumer is parked on `resume`, so nothing depends on what runs now.
        await Task.yield()
      }
      resume.ready()
    }
  }
  return await consumer.value
}
