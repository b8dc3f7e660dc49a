import Observation
import Testing

@testable import Ripple

@Suite("Observed", .timeLimit(.minutes(1)))
struct ObservedTests {
  // MARK: Initial value and transactions

  @Test("every iterator first gets the current value", arguments: [0, 7])
  @MainActor func initialValue(start: Int) async {
    let model = MainModel()
    model.a = start
    let values = Observed { model.a }
    var first = values.makeAsyncIterator()
    var second = values.makeAsyncIterator()
    #expect(await first.next() == start)
    model.a = start + 1
    #expect(await second.next() == start + 1)
  }

  @Test("a transaction gives one value, read after all its changes (main actor)")
  @MainActor func transactionOnMainActor() async {
    let model = MainModel()
    let ready = Signal()
    let consumer = Task { @MainActor in
      var iterator = Observed { model.a + model.b }.makeAsyncIterator()
      let initial = await iterator.next()
      ready.ready()
      let afterTransaction = await iterator.next()
      ready.ready()
      let afterNext = await iterator.next()
      return [initial, afterTransaction, afterNext]
    }
    await ready.wait()
    // The consumer is suspended in `next()`: the first assignment wakes it, yet it must see both.
    model.a = 1
    model.b = 2
    await ready.wait()
    model.b = 30
    #expect(await consumer.value == [0, 3, 31])
  }

  @Test("a transaction gives one value, read after all its changes (custom actor)")
  @TestActor func transactionOnCustomActor() async {
    let model = ActorModel()
    let ready = Signal()
    let consumer = Task { @TestActor in
      var iterator = Observed { model.a + model.b }.makeAsyncIterator()
      let initial = await iterator.next()
      ready.ready()
      let afterTransaction = await iterator.next()
      return [initial, afterTransaction]
    }
    await ready.wait()
    model.a = 1
    model.b = 2
    #expect(await consumer.value == [0, 3])
  }

  @Test("a consumer on another actor still reads after the producer's transaction")
  @MainActor func consumerOnAnotherActor() async {
    let model = MainModel()
    let values = Observed { model.a + model.b }
    let ready = Signal()
    let consumer = Task { @TestActor in
      var iterator = values.makeAsyncIterator()
      let initial = await iterator.next()
      ready.ready()
      return [initial, await iterator.next()]
    }
    await ready.wait()
    model.a = 1
    model.b = 2
    #expect(await consumer.value == [0, 3])
  }

  @Test("a main-actor consumer woken from another actor reads after that actor's transaction")
  @MainActor func mainActorConsumerWokenFromAnotherActor() async {
    let model = await Self.makeActorModel()
    let values = Observed { @TestActor in model.a + model.b }
    let ready = Signal()
    let consumer = Task { @MainActor in
      var iterator = values.makeAsyncIterator()
      let initial = await iterator.next()
      ready.ready()
      return [initial, await iterator.next()]
    }
    await ready.wait()
    await Self.change(model, a: 1, b: 2)
    #expect(await consumer.value == [0, 3])
  }

  @TestActor private static func makeActorModel() -> ActorModel { ActorModel() }

  @TestActor private static func change(_ model: ActorModel, a: Int, b: Int) {
    model.a = a
    model.b = b
  }

  @Test("waking a main-actor consumer leaves the mutating task as it was")
  @MainActor func wakingLeavesTheProducerTaskAlone() async {
    let model = MainModel()
    let ready = Signal()
    let consumer = Task { @MainActor in
      var iterator = Observed { model.a }.makeAsyncIterator()
      _ = await iterator.next()
      ready.ready()
      return await iterator.next()
    }
    await ready.wait()
    let before = withUnsafeCurrentTask { $0?.hashValue }
    model.a = 1  // wakes the consumer from inside this task
    #expect(withUnsafeCurrentTask { $0?.hashValue } == before)
    #expect(before != nil)
    #expect(await consumer.value == 1)
  }

  @Test("a slow consumer gets the latest value, not a backlog")
  @MainActor func slowConsumerGetsLatest() async {
    let model = MainModel()
    var iterator = Observed { model.a }.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    for value in 1...5 {
      model.a = value
      await Task.yield()  // ends each transaction; nobody is waiting, so nothing else depends on it
    }
    #expect(await iterator.next() == 5)
    model.a = 6
    // A backlog would answer 2 (or 5 again) here.
    #expect(await iterator.next() == 6)
  }

  @Test("changes to properties the closure did not read produce no value")
  @MainActor func untrackedChangesAreIgnored() async {
    let model = MainModel()
    var iterator = Observed { model.a }.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    model.unrelated = 1
    model.a = 2
    #expect(await iterator.next() == 2)
    model.unrelated = 3
    model.a = 4
    #expect(await iterator.next() == 4)
  }

  @Test("tracking follows what the closure reads this time")
  @MainActor func dynamicDependencies() async {
    let model = MainModel()
    var iterator = Observed { model.unrelated == 0 ? model.a : model.b }.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    model.unrelated = 1
    #expect(await iterator.next() == 0)  // now reads b
    model.a = 5  // no longer tracked
    model.b = 6
    #expect(await iterator.next() == 6)
  }

  @Test("iterators of one sequence are independent")
  @MainActor func independentIterators() async {
    let model = MainModel()
    let values = Observed { model.a }
    var first = values.makeAsyncIterator()
    var second = values.makeAsyncIterator()
    #expect(await first.next() == 0)
    #expect(await second.next() == 0)
    model.a = 1
    #expect(await first.next() == 1)
    model.a = 2
    // `second` missed nothing that matters: it gets the latest value, and `first` was not consumed by it.
    #expect(await second.next() == 2)
    #expect(await first.next() == 2)
  }

  // MARK: Tracking installed after the read

  @Test("a write between the closure's read and the installation of its tracking leads to another read")
  @MainActor func writeBeforeTrackingIsInstalled() async {
    let model = MainModel()
    let values = Observed {
      let value = model.a
      // Stands for a write from another thread after the read: tracking is installed only when the closure returns.
      if value == 0 { model.a = 1 }
      return value
    }
    var iterator = values.makeAsyncIterator()
    // Returning 0 here would leave the iterator waiting for a change that already happened.
    #expect(await iterator.next() == 1)
    model.a = 2
    #expect(await iterator.next() == 2)
  }

  @Test("what the closure reads after such a write is tracked too")
  @MainActor func readAfterWriteIsTracked() async {
    let model = MainModel()
    let values = Observed {
      let value = model.unrelated == 0 ? model.a : model.b
      // The write in the gap flips the branch: the value now depends on `b`, which the first read did not touch.
      if model.unrelated == 0 { model.unrelated = 1 }
      return value
    }
    var iterator = values.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    model.b = 7
    #expect(await iterator.next() == 7)
  }

  // MARK: Ending

  @Test("a throwing closure ends iteration with its error, then nil")
  @MainActor func throwingClosure() async throws {
    let model = MainModel()
    let values = Observed { () throws(Boom) -> Int in
      if model.a == 3 { throw Boom.boom }
      return model.a
    }
    var iterator = values.makeAsyncIterator()
    #expect(try await iterator.next() == 0)
    model.a = 3
    do {
      _ = try await iterator.next()
      Issue.record("expected the closure's error")
    } catch {
      #expect(error == .boom)
    }
    model.a = 4
    #expect(try await iterator.next() == nil)
  }

  @Test("untilFinished ends when the closure returns .finish")
  @MainActor func untilFinished() async {
    let model = MainModel()
    let values = Observed<Int, Never>.untilFinished {
      model.a < 2 ? .next(model.a) : .finish
    }
    var iterator = values.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    model.a = 1
    #expect(await iterator.next() == 1)
    model.a = 2
    #expect(await iterator.next() == nil)
    model.a = 1
    #expect(await iterator.next() == nil)
  }

  @Test("untilFinished with a weak capture ends when the model is deallocated, holding nothing")
  @MainActor func weakCaptureEndsOnDeallocation() async {
    var model: MainModel? = MainModel()
    weak let weakModel = model
    let values = Observed<Int, Never>.untilFinished { [weak model] in
      guard let model else { return .finish }
      return .next(model.a)
    }
    var iterator = values.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    model?.a = 1
    #expect(await iterator.next() == 1)
    model = nil
    #expect(weakModel == nil)
    // No `willSet` comes: the model's registrar released the tracking, which wakes the iterator.
    #expect(await iterator.next() == nil)
  }

  @Test("untilFinished with a weak capture ends when the model goes while the closure runs")
  @MainActor func weakCaptureEndsWhenModelGoesDuringEmit() async {
    /// Holds the model's only strong reference outside the closure.
    @MainActor final class Owner {
      var model: MainModel? = MainModel()
    }
    let owner = Owner()
    weak let weakModel = owner.model
    let values = Observed<Int, Never>.untilFinished { [weak model = owner.model] in
      guard let model else { return .finish }
      let value = model.a
      owner.model = nil  // as if another thread let go meanwhile: the model goes when the closure returns
      return .next(value)
    }
    var iterator = values.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    #expect(weakModel == nil)
    #expect(await iterator.next() == nil)
  }

  @Test("untilFinished with a weak capture and another observed object ends at the latest with its next change")
  @MainActor func weakCaptureWithAnotherObservedObject() async {
    var model: MainModel? = MainModel()
    let other = MainModel()
    let values = Observed<Int, Never>.untilFinished { [weak model] in
      guard let model else { return .finish }
      return .next(model.a + other.a)
    }
    var iterator = values.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    model = nil
    // `other`'s registrar still holds the tracking, and Observation reports the release of one object's part of it
    // to nobody: the end comes with `other`'s next change (Docs/Decisions/0001-observed.md).
    other.a = 1
    #expect(await iterator.next() == nil)
  }

  @Test("cancelling the consuming task ends iteration while it waits")
  @MainActor func cancellationWhileWaiting() async {
    let model = MainModel()
    let ready = Signal()
    let consumer = Task { @MainActor in
      var seen: [Int] = []
      for await value in Observed({ model.a }) {
        seen.append(value)
        ready.ready()
      }
      return seen
    }
    await ready.wait()
    consumer.cancel()
    // No change ever comes: only cancellation can end the loop.
    #expect(await consumer.value == [0])
  }

  @Test("a task cancelled before iterating gets nothing")
  @MainActor func cancelledBeforeStart() async {
    let model = MainModel()
    let consumer = Task { @MainActor in
      withUnsafeCurrentTask { $0?.cancel() }
      var iterator = Observed { model.a }.makeAsyncIterator()
      return await iterator.next()
    }
    #expect(await consumer.value == nil)
  }

  @Test("a closure that reads nothing observable gives one value and waits for cancellation")
  @MainActor func constantClosure() async {
    let ready = Signal()
    let consumer = Task { @MainActor in
      var seen: [Int] = []
      for await value in Observed({ 42 }) {
        seen.append(value)
        ready.ready()
      }
      return seen
    }
    await ready.wait()
    consumer.cancel()
    #expect(await consumer.value == [42])
  }

  @Test("a nonisolated closure over a nonisolated model")
  func nonisolated() async {
    let model = Inputs()
    var iterator = Observed { model.a * 2 }.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    model.a = 21
    #expect(await iterator.next() == 42)
  }

  @Test("the consumer is not retained by a model that never changes again")
  @MainActor func iteratorStorageIsReleasedWithTracking() async {
    let model = MainModel()
    weak var storage: _ObservedStorage?
    do {
      var iterator = Observed { model.a }.makeAsyncIterator()
      _ = await iterator.next()
      if case .tracking(let tracked) = iterator.phase { storage = tracked }
    }
    #expect(storage != nil)  // the registrar holds the pending tracking until the next change
    model.a = 1
    #expect(storage == nil)
  }
}
