import InternalRippleUtilities

/// The shared state of a multi-producer single-consumer channel: the machine behind its lock for the sources, and
/// the consumer's batch beside it.
///
/// A send is one lock. The consumer locks once per batch, not per element: it takes everything buffered in one
/// step and returns it from `batch` without the lock, publishing after each element how much it has returned
/// (`gauge`), which is what the sources need to know the water level. It takes the lock in the middle of a batch
/// only where the level falls below the low watermark while a producer waits.
// @unchecked: the machine lives in its `_Mutex`; `batch` and `returnedLevel` are touched only by the one consumer
// (the channel is `~Copyable` and its sequence makes one iterator), never under the lock and never concurrently. For
// the same reason they skip the runtime's exclusivity check, about a tenth of a `.channel` bench row's cycles.
@usableFromInline
final class _MPSCChannelStorage<Element, Failure: Error>: @unchecked Sendable {
  @usableFromInline typealias Machine = _MPSCChannelStateMachine<Element, Failure>

  @usableFromInline let machine: _Mutex<Machine>
  @usableFromInline let gauge = _MPSCConsumerGauge()
  @usableFromInline let low: Int
  @usableFromInline let waterLevel: Machine.WaterLevel?

  /// The elements the consumer took and has not returned yet.
  @exclusivity(unchecked) @usableFromInline var batch = _Queue<Element>()
  /// The water level of `batch`.
  @exclusivity(unchecked) @usableFromInline var batchLevel = 0
  /// The total water level of the elements the consumer has returned (`gauge.returned`, kept here to add to).
  @exclusivity(unchecked) @usableFromInline var returnedLevel = 0

  @inlinable
  init(low: Int, high: Int, waterLevel: Machine.WaterLevel?) {
    precondition(low <= high, "MultiProducerSingleConsumerAsyncChannel: the low watermark is above the high one")
    machine = _Mutex(Machine(low: low, high: high, waterLevel: waterLevel, gauge: gauge))
    self.low = Swift.max(low, 1)
    self.waterLevel = waterLevel
  }

  // MARK: Sources

  @usableFromInline func sourceInitialized() -> UInt64 { machine.withLock { $0.sourceInitialized() } }

  @usableFromInline func sourceDeinitialized() { perform(machine.withLock { $0.sourceDeinitialized() }) }

  @usableFromInline
  func setOnTermination(source: UInt64, _ callback: (@Sendable () -> Void)?) {
    perform(machine.withLock { $0.setOnTermination(source: source, callback) })
  }

  /// Sends one element; returns the token to wait under when the send reached the high watermark.
  @inlinable
  func send(
    _ element: consuming sending Element
  ) throws(MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError)
    -> UInt64?
  {
    // The element was `sending`: it moves into the locked state and leaves it once, to the consumer.
    let element = _Transfer(element)
    return try sendResult(machine.withLock { $0.sent(element.value) })
  }

  @inlinable
  func send(
    contentsOf elements: consuming sending some Sequence<Element>
  ) throws(MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError) -> UInt64? {
    let elements = _Transfer(elements)
    return try sendResult(machine.withLock { $0.sent(contentsOf: elements.value) })
  }

  @inlinable
  func sendResult(
    _ action: Machine.Action
  ) throws(MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError)
    -> UInt64?
  {
    switch action {
    case .returnSendResult(let token, let consumer):
      consumer?.resume()
      return token
    case .returnSendResultResumingProducers(let token, let consumer, let producers):
      consumer?.resume()
      for producer in producers { producer.resume(failing: nil) }
      return token
    case .throwAlreadyFinished:
      throw MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError()
    default:
      preconditionFailure("MultiProducerSingleConsumerAsyncChannel: a send gave \(action)")
    }
  }

  /// Waits under `token` until the consumer drains the channel below the low watermark.
  @inlinable
  nonisolated(nonsending) func waitForDemand(token: UInt64) async throws {
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
        perform(machine.withLock { $0.producerWaits(token: token, .continuation(continuation)) })
      }
    } onCancel: {
      cancelWait(token: token)
    }
  }

  @usableFromInline
  func enqueue(token: UInt64, _ callback: sending @escaping (Result<Void, any Error>) -> Void) {
    let callback = _Transfer(callback)
    perform(machine.withLock { $0.producerWaits(token: token, .callback(callback.value)) })
  }

  @usableFromInline
  func cancelWait(token: UInt64) {
    perform(machine.withLock { $0.producerCancelled(token: token) })
  }

  @usableFromInline
  func finish(_ failure: Failure?) {
    perform(machine.withLock { $0.finished(failure) })
  }

  // MARK: Consumer

  @inlinable @inline(__always)
  func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    // Inlined into the caller (@inline(__always)): a call would cost an async frame and an executor
    // check per element.
    // A cancelled consumer ends the channel at once, whatever it still holds: `nextSlow` drops the batch.
    if !Task.isCancelled, let element = batch.popFirst() {
      returned(element)
      return element
    }
    return try await nextSlow(isolation: actor)
  }

  /// Passes up to `limit` elements of the consumer's batch to `body` without waiting, each accounted for as
  /// returned; none in a cancelled task (whose next `next()` ends the channel).
  @inlinable
  func takeBuffered(upTo limit: Int, _ body: (Element) -> Void) {
    guard !Task.isCancelled else { return }
    var taken = 0
    var weight = 0
    while taken < limit, let element = batch.popFirst() {
      weight += self.weight(of: element)
      body(element)
      taken += 1
    }
    // Handed over at once, so reported at once.
    if taken > 0 { returned(weight: weight) }
  }

  /// Accounts for one element returned.
  @inlinable
  func returned(_ element: borrowing Element) {
    returned(weight: weight(of: element))
  }

  @inlinable
  func weight(of element: borrowing Element) -> Int {
    guard let waterLevel else { return 1 }
    return waterLevel(element)
  }

  /// Publishes elements of water level `weight` as returned; takes the lock only when that reaches the point where
  /// waiting producers resume.
  @inlinable
  func returned(weight: Int) {
    returnedLevel &+= weight
    batchLevel &-= weight
    // While the batch alone holds `low` or more, the level cannot fall below `low`: no producer is owed a resume
    // here, and the sources only need to learn the progress (a plain store, where the check needs a fence).
    guard batchLevel < low else { return gauge.consumerReturnedHoldingLow(total: returnedLevel) }
    if gauge.consumerReturned(total: returnedLevel) { reportReturned() }
  }

  /// The consumer's returns reached the resume point: the machine learns them, under the lock. Specialised with the
  /// rest (a generic call would look up metadata per report) but kept out of the per-element path.
  @inlinable @inline(never)
  func reportReturned() {
    perform(machine.withLock { $0.resumePointReached(returned: returnedLevel) })
  }

  @inlinable @inline(never)
  func nextSlow(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    while true {
      let returnedSoFar = returnedLevel
      let cancelled = Task.isCancelled
      if cancelled { batch.removeAll() }
      // Only the consumer touches `batch`: the machine may swap it with its buffer under the lock.
      let action = withUnsafeMutablePointer(to: &batch) { batch in
        let batch = _Transfer(batch)
        return machine.withLock {
          $0.batchRequested(into: &batch.value.pointee, returned: returnedSoFar, cancelled: cancelled)
        }
      }
      switch action {
      case .serveBatch(let level, let producers):
        batchLevel = level
        for producer in producers { producer.resume(failing: nil) }
        let element = batch.popFirst()!
        returned(element)
        return element
      case .suspendConsumer(let producers):
        for producer in producers { producer.resume(failing: nil) }
        await withTaskCancellationHandler {
          await withUnsafeContinuation(isolation: actor) { (consumer: Machine.Consumer) in
            perform(machine.withLock { $0.nextRequested(consumer, cancelled: Task.isCancelled) })
          }
        } onCancel: {
          perform(machine.withLock { $0.consumerCancelled() })
        }
      case .returnEnd(let failure, let callbacks):
        for callback in callbacks { callback() }
        if let failure { throw failure }
        return nil
      case .terminate:
        perform(action)
        return nil
      default:
        preconditionFailure("MultiProducerSingleConsumerAsyncChannel: a batch request gave \(action)")
      }
    }
  }

  @usableFromInline
  func channelDeinitialized() {
    let (action, consumerGone) = machine.withLock { ($0.channelDeinitialized(), !$0.sequenceMade) }
    // The consumer is gone for good: what it had taken and not returned goes too (its fields are free to touch).
    if consumerGone { batch = _Queue() }
    perform(action)
  }

  @usableFromInline func sequenceInitialized() { machine.withLock { $0.sequenceMade = true } }

  @usableFromInline func sequenceDeinitialized() { perform(machine.withLock { $0.sequenceDeinitialized() }) }

  @usableFromInline func iteratorInitialized() { machine.withLock { $0.iteratorInitialized() } }

  @usableFromInline
  func iteratorDeinitialized() {
    batch = _Queue()
    perform(machine.withLock { $0.consumerTerminated() })
  }

  /// Runs an action outside the lock.
  @inlinable
  func perform(_ action: consuming Machine.Action) {
    switch consume action {
    case .none, .returnSendResult, .returnSendResultResumingProducers, .throwAlreadyFinished, .serveBatch,
      .suspendConsumer, .returnEnd:
      break
    case .resumeProducer(let producer, let error):
      producer.resume(failing: error)
    case .resumeProducers(let producers):
      for producer in producers { producer.resume(failing: nil) }
    case .finish(let consumer, let producers):
      consumer?.resume()
      for producer in producers {
        producer.resume(failing: MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError())
      }
    case .terminate(let consumer, let producers, let callbacks, let dropped):
      consumer?.resume()
      for producer in producers {
        producer.resume(failing: MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError())
      }
      for callback in callbacks { callback() }
      // The elements left go here, outside the lock: their deinitialisers may run any code.
      _ = consume dropped
    case .resumeConsumer(let consumer):
      consumer.resume()
    case .callOnTermination(let callback):
      callback()
    }
  }
}

/// A value moved into or out of the channel's lock although its type is not `Sendable`: an element or callback that
/// came in as `sending`, or the consumer's own batch, each in one place at a time.
@usableFromInline
struct _Transfer<Value: ~Copyable>: ~Copyable, @unchecked Sendable {
  @usableFromInline var value: Value

  @inlinable init(_ value: consuming Value) { self.value = value }

  @inlinable consuming func take() -> Value { value }
}

extension _Transfer: Copyable where Value: Copyable {}
