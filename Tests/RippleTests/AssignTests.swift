import Observation
import Testing

@testable import Ripple

@Suite("assign(to:on:)", .timeLimit(.minutes(1)))
struct AssignTests {
  @Test("writes every element, in order, on the caller's actor")
  @MainActor func writesElements() async {
    let model = MainModel()
    let (values, input) = AsyncStream.makeStream(of: Int.self)
    for value in [3, 1, 2] { input.yield(value) }
    input.finish()
    await values.assign(to: \.a, on: model)
    #expect(model.a == 2)
  }

  @Test("holds the object weakly and returns at the next element once it is gone")
  @MainActor func doesNotRetain() async {
    var model: MainModel? = MainModel()
    weak let weakModel = model
    let (values, input) = AsyncStream.makeStream(of: Int.self)
    var written = Observed<Int, Never>.untilFinished { [weak model] in
      guard let model else { return .finish }
      return .next(model.a)
    }.makeAsyncIterator()
    #expect(await written.next() == 0)
    let assigning = Task { @MainActor [weak model] in
      await values.assign(to: \.a, on: model)
    }
    input.yield(1)
    #expect(await written.next() == 1)
    model = nil
    #expect(weakModel == nil)  // `assign` is suspended in the middle of iterating, holding no strong reference
    #expect(await written.next() == nil)
    input.yield(2)  // the next element finds the model gone
    await assigning.value
    input.finish()
  }

  @Test("with a sequence that ends with the model, it returns as soon as the model is deallocated")
  @MainActor func endsWithObservedModel() async {
    var model: MainModel? = MainModel()
    weak let weakModel = model
    let sums = Observed<Int, Never>.untilFinished { [weak model] in
      guard let model else { return .finish }
      return .next(model.a + model.b)
    }
    let ready = Signal()
    let assigning = Task { @MainActor [weak model] in
      ready.ready()
      await sums.assign(to: \.unrelated, on: model)
    }
    await ready.wait()
    model?.a = 4
    model = nil
    await assigning.value
    #expect(weakModel == nil)
  }

  @Test("rethrows the sequence's error")
  @MainActor func rethrowsTheError() async {
    let model = MainModel()
    let (values, input) = AsyncThrowingStream.makeStream(of: Int.self)
    input.yield(5)
    input.finish(throwing: Boom.boom)
    await #expect(throws: Boom.boom) { try await values.assign(to: \.a, on: model) }
    #expect(model.a == 5)
  }
}
