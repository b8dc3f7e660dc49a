import InternalRippleUtilities

/// The state of one multi-producer single-consumer channel: the elements the sources have sent and the consumer has
/// not taken yet, the water level that decides back-pressure, the producers waiting for demand, the waiting consumer,
/// and whether the channel has ended.
///
/// Sources report `sourceInitialized`, `sourceDeinitialized`, `sent`, `producerWaits`, `producerCancelled`,
/// `finished`; the consumer `batchRequested`, `resumePointReached`, `nextRequested`, `consumerCancelled`,
/// `consumerTerminated`. Methods return what to do once the lock is released.
///
/// The consumer takes the whole `buffer` at once (``batchRequested(into:returned:cancelled:)`` swaps it with its
/// own, empty, queue) and returns the elements from there without the lock, publishing in `gauge` how much it has
/// returned. The level is every element sent and not yet returned by `next()`: `sentLevel - gauge.returned`. A send
/// that makes it `high` or more tells its producer to wait under a token; once the level falls below `low` the
/// producers waiting resume and the tokens handed out until then are *drained*: a producer registering one later
/// resumes at once. While a token is owed that, `gauge.resumeAt` tells the consumer where the level falls below
/// `low` as the sends had left it when it was published; the consumer takes the lock there
/// (``resumePointReached(returned:)``) and either drains the tokens or, the sends having moved the point on since,
/// is told the new one.
///
/// Invariants: `consumer != nil` only while `.channeling` with an empty `buffer`; `suspended`, `issuedTokens` and
/// `cancelledTokens` are empty unless `.channeling`; every token in `suspended` is above `drainedThrough`;
/// `returnedLevel <= gauge.returned <= sentLevel`; `resumePoint == gauge.resumeAt`, which is at most
/// `sentLevel - low + 1` while `.channeling` with a token above `drainedThrough`, else `Int.max`.
@usableFromInline
struct _MPSCChannelStateMachine<Element, Failure: Error>: ~Copyable {
  @usableFromInline typealias Consumer = UnsafeContinuation<Void, Never>
  @usableFromInline typealias WaterLevel = @Sendable (borrowing Element) -> Int
  @usableFromInline typealias OnTermination = @Sendable () -> Void

  /// A producer waiting for demand: an async `send` or an enqueued callback.
  @usableFromInline enum Producer {
    case continuation(UnsafeContinuation<Void, any Error>)
    case callback((Result<Void, any Error>) -> Void)

    /// Resumes the producer, with success when `error` is `nil`.
    @inlinable
    func resume(failing error: (any Error)?) {
      switch self {
      case .continuation(let continuation):
        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
      case .callback(let callback):
        callback(error.map { .failure($0) } ?? .success(()))
      }
    }
  }

  @usableFromInline enum State {
    /// Sources send; the consumer takes.
    case channeling
    /// A source called `finish(throwing:)` or the last source went away: sends throw, the consumer gets what is
    /// buffered, then `nil` or the failure.
    case sourceFinished(Failure?)
    /// Ended for everyone: the consumer got its end or went away. Sends throw, `next()` returns `nil`.
    case finished
  }

  @usableFromInline var state = State.channeling
  /// The elements sent and not yet taken by the consumer (kept outside `State`, so that updating it never copies).
  @usableFromInline var buffer = _Queue<Element>()
  /// The water level of `buffer`.
  @usableFromInline var bufferLevel = 0
  /// The total water level of every element ever sent.
  @usableFromInline var sentLevel = 0
  /// What the consumer had returned (`gauge.returned`) when the machine last learned it: `sentLevel - returnedLevel`
  /// is never below the level.
  @usableFromInline var returnedLevel = 0
  @usableFromInline let low: Int
  @usableFromInline let high: Int
  @usableFromInline let waterLevel: WaterLevel?
  /// The consumer's progress, shared with it outside the lock.
  @usableFromInline let gauge: _MPSCConsumerGauge
  /// The value last stored in `gauge.resumeAt`.
  @usableFromInline var resumePoint = Int.max

  /// The producers waiting for demand, by callback token, in the order they began waiting.
  @usableFromInline var suspended: [(token: UInt64, producer: Producer)] = []
  /// Tokens handed out by a send that reached `high`, whose producer has not registered yet.
  @usableFromInline var issuedTokens: [UInt64] = []
  /// Issued tokens cancelled before their producer registered: it then fails with `CancellationError`.
  @usableFromInline var cancelledTokens: [UInt64] = []
  @usableFromInline var lastToken: UInt64 = 0
  /// Every token up to this one was handed out before the level last fell below `low`: its producer need not wait.
  @usableFromInline var drainedThrough: UInt64 = 0

  /// The consumer waiting for elements.
  @usableFromInline var consumer: Consumer?
  @usableFromInline var activeSources = 0
  @usableFromInline var lastSourceID: UInt64 = 0
  @usableFromInline var onTerminations: [(source: UInt64, callback: OnTermination)] = []
  /// Whether `elements()` made the sequence (then the channel's own deinit ends nothing).
  @usableFromInline var sequenceMade = false
  /// Whether the sequence made its one iterator.
  @usableFromInline var iteratorMade = false

  @inlinable
  init(low: Int, high: Int, waterLevel: WaterLevel?, gauge: _MPSCConsumerGauge) {
    // A low watermark of 0 would never resume a producer ("below 0"): it means "resume once drained".
    self.low = Swift.max(low, 1)
    self.high = high
    self.waterLevel = waterLevel
    self.gauge = gauge
  }

  /// The side effect of an event, run once the lock is released.
  @usableFromInline enum Action {
    case none
    /// The send is done: resume `consumer` if it waits, then the producer may produce more (`token == nil`) or
    /// must wait for demand under `token`.
    case returnSendResult(token: UInt64?, resuming: Consumer?)
    /// As `returnSendResult`, after resuming `producers`: the consumer took the level below `low` while the send
    /// told it where to report that.
    case returnSendResultResumingProducers(token: UInt64?, resuming: Consumer?, producers: [Producer])
    /// The channel no longer takes elements: the send throws the already-finished error.
    case throwAlreadyFinished
    /// Resume one producer, failing it with `error` unless `nil`.
    case resumeProducer(Producer, failing: (any Error)?)
    /// The consumer took the level below `low`: resume these producers.
    case resumeProducers([Producer])
    /// `finish(throwing:)`: resume the waiting consumer (it then finds the end itself) and fail the waiting
    /// producers with the already-finished error.
    case finish(consumer: Consumer?, producers: [Producer])
    /// The channel ended for everyone: resume the consumer if it waits, fail the producers with the
    /// already-finished error, call the termination callbacks, drop the elements left.
    case terminate(
      consumer: Consumer?, producers: [Producer], onTerminations: [OnTermination], dropped: _Queue<Element>)
    /// The consumer's batch now holds elements of water level `level`: resume these producers, then serve it.
    case serveBatch(level: Int, resuming: [Producer])
    /// Nothing is buffered: resume these producers, then the consumer waits.
    case suspendConsumer(resuming: [Producer])
    /// The channel is over for the consumer: call the callbacks, then return `nil` or throw the failure.
    case returnEnd(Failure?, onTerminations: [OnTermination])
    /// Resume the waiting consumer.
    case resumeConsumer(Consumer)
    /// Call one termination callback (set after the channel ended).
    case callOnTermination(OnTermination)
  }

  @inlinable
  func weight(of element: borrowing Element) -> Int {
    guard let waterLevel else { return 1 }
    return waterLevel(element)
  }

  // MARK: Sources

  @usableFromInline
  mutating func sourceInitialized() -> UInt64 {
    if case .channeling = state { activeSources += 1 }
    lastSourceID &+= 1
    return lastSourceID
  }

  /// A source went away: the last one finishes the channel as `finish(throwing: nil)` would.
  @usableFromInline
  mutating func sourceDeinitialized() -> Action {
    guard case .channeling = state else { return .none }
    activeSources -= 1
    return activeSources == 0 ? finished(nil) : .none
  }

  @usableFromInline
  mutating func setOnTermination(source: UInt64, _ callback: OnTermination?) -> Action {
    if case .finished = state { return callback.map { .callOnTermination($0) } ?? .none }
    onTerminations.removeAll { $0.source == source }
    if let callback { onTerminations.append((source, callback)) }
    return .none
  }

  /// One element sent. A level of `high` or more hands out a token to wait under.
  @inlinable
  mutating func sent(_ element: consuming Element) -> Action {
    guard case .channeling = state else { return .throwAlreadyFinished }
    append(element)
    return sendResult()
  }

  /// The elements of a sequence sent, as ``sent(_:)`` each, with one decision at the end.
  @inlinable
  mutating func sent(contentsOf elements: some Sequence<Element>) -> Action {
    guard case .channeling = state else { return .throwAlreadyFinished }
    for element in elements { append(element) }
    return sendResult()
  }

  /// Buffers one element and adds its water level.
  @inlinable
  mutating func append(_ element: consuming Element) {
    let weight = weight(of: element)
    buffer.append(element)
    bufferLevel += weight
    sentLevel += weight
  }

  /// The answer to a send, decided under the lock. Inlined into the send: most sends find the level below `high`,
  /// and then it is one comparison.
  @inlinable @inline(__always)
  mutating func sendResult() -> Action {
    // The consumer waits only while nothing is buffered; an empty send leaves it waiting.
    let consumer = buffer.isEmpty || self.consumer == nil ? nil : self.consumer.take()
    // `sentLevel - returnedLevel` is never below the level: while it is below `high`, so is the level.
    guard sentLevel - returnedLevel >= high else { return .returnSendResult(token: nil, resuming: consumer) }
    return sendResultNearHigh(resuming: consumer)
  }

  /// ``sendResult()`` when the level may be at `high` or above.
  @usableFromInline
  mutating func sendResultNearHigh(resuming consumer: Consumer?) -> Action {
    // The level counts what the consumer took and has not returned yet: learn how much it has returned.
    returnedLevel = gauge.returnedSoFar
    guard sentLevel - returnedLevel >= high else { return .returnSendResult(token: nil, resuming: consumer) }
    lastToken &+= 1
    issuedTokens.append(lastToken)
    // The first token owed a resume since the level was last below `low` publishes where that happens.
    guard resumePoint == .max else { return .returnSendResult(token: lastToken, resuming: consumer) }
    let producers = publishResumePoint()
    guard producers.isEmpty else {
      return .returnSendResultResumingProducers(token: lastToken, resuming: consumer, producers: producers)
    }
    return .returnSendResult(token: lastToken, resuming: consumer)
  }

  /// Tells the consumer where the level falls below `low` as the sends have left it. The consumer may have passed
  /// that point while it was being published, without seeing it: what it returned is read again afterwards, and a
  /// level below `low` drains the tokens at once.
  @inlinable
  mutating func publishResumePoint() -> [Producer] {
    resumePoint = sentLevel - low + 1
    gauge.publishResumePoint(resumePoint)
    returnedLevel = gauge.returnedSoFar
    return sentLevel - returnedLevel < low ? drained() : []
  }

  /// The level fell below `low`: every token handed out so far is drained and the producers waiting resume.
  @inlinable
  mutating func drained() -> [Producer] {
    drainedThrough = lastToken
    withdrawResumePoint()
    guard !suspended.isEmpty else { return [] }
    let producers = suspended.map { $0.producer }
    suspended.removeAll(keepingCapacity: true)
    return producers
  }

  /// No token is owed a resume any more: the consumer need not report.
  @inlinable
  mutating func withdrawResumePoint() {
    guard resumePoint != .max else { return }
    resumePoint = .max
    gauge.publishResumePoint(.max)
  }

  /// The producer holding `token` registers: it resumes at once if its token was cancelled, the channel ended, or
  /// the level fell below `low` since its send; otherwise it waits for that.
  @inlinable
  mutating func producerWaits(token: UInt64, _ producer: Producer) -> Action {
    guard case .channeling = state else {
      return .resumeProducer(producer, failing: MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError())
    }
    if let index = cancelledTokens.firstIndex(of: token) {
      cancelledTokens.remove(at: index)
      return .resumeProducer(producer, failing: CancellationError())
    }
    if let index = issuedTokens.firstIndex(of: token) { issuedTokens.remove(at: index) }
    if token <= drainedThrough { return .resumeProducer(producer, failing: nil) }
    suspended.append((token, producer))
    return .none
  }

  /// The wait under `token` was cancelled: a waiting producer fails with `CancellationError`; one that has not
  /// registered yet will. A token already resumed is ignored.
  @usableFromInline
  mutating func producerCancelled(token: UInt64) -> Action {
    if let index = suspended.firstIndex(where: { $0.token == token }) {
      return .resumeProducer(suspended.remove(at: index).producer, failing: CancellationError())
    }
    if let index = issuedTokens.firstIndex(of: token) {
      issuedTokens.remove(at: index)
      cancelledTokens.append(token)
    }
    return .none
  }

  /// `finish(throwing:)` from any source: no more sends; the buffered elements stay for the consumer.
  @usableFromInline
  mutating func finished(_ failure: Failure?) -> Action {
    guard case .channeling = state else { return .none }
    state = .sourceFinished(failure)
    let producers = suspended.map { $0.producer }
    suspended = []
    issuedTokens = []
    cancelledTokens = []
    withdrawResumePoint()
    return .finish(consumer: consumer.take(), producers: producers)
  }

  // MARK: Consumer

  /// The consumer's batch is empty, and it has returned elements of total water level `returned`: it takes
  /// everything buffered, or learns it must wait, or that the channel is over. A `cancelled` consumer ends the
  /// channel.
  @inlinable
  mutating func batchRequested(into batch: inout _Queue<Element>, returned: Int, cancelled: Bool) -> Action {
    if cancelled {
      let action = consumerTerminated()
      if case .none = action { return .returnEnd(nil, onTerminations: []) }
      return action
    }
    switch state {
    case .channeling, .sourceFinished:
      // Taking the batch leaves the level as it is (the consumer's elements count until returned); what it
      // returned since it last reported may have taken it below `low`, also with nothing buffered (after an
      // empty send).
      let producers = consumerReported(returned: returned)
      if !buffer.isEmpty {
        // O(1): the queues trade storage, so neither allocates once both have grown.
        swap(&batch, &buffer)
        defer { bufferLevel = 0 }
        return .serveBatch(level: bufferLevel, resuming: producers)
      }
      guard case .sourceFinished(let failure) = state else { return .suspendConsumer(resuming: producers) }
      state = .finished
      let callbacks = onTerminations.map { $0.callback }
      onTerminations = []
      return .returnEnd(failure, onTerminations: callbacks)
    case .finished:
      return .returnEnd(nil, onTerminations: [])
    }
  }

  /// The consumer's returns reached `gauge.resumeAt`: with `returned` in, the level may be below `low`. (It may
  /// not be: sends since it read `resumeAt` moved the point on, and it is published already.)
  @inlinable
  mutating func resumePointReached(returned: Int) -> Action {
    let producers = consumerReported(returned: returned)
    return producers.isEmpty ? .none : .resumeProducers(producers)
  }

  /// Takes in what the consumer has returned; a level below `low` while a token is owed a resume drains the tokens.
  /// Otherwise sends since the resume point was published have moved it on: the consumer is told the new one. (It
  /// is the consumer that moves it, here, rather than each send: a send would store to the line the consumer
  /// reads for every element.)
  @inlinable
  mutating func consumerReported(returned: Int) -> [Producer] {
    returnedLevel = returned
    guard case .channeling = state, lastToken != drainedThrough else { return [] }
    guard sentLevel - returnedLevel >= low else { return drained() }
    let point = sentLevel - low + 1
    if point != resumePoint {
      resumePoint = point
      gauge.publishResumePoint(point)
    }
    return []
  }

  /// The consumer registers to wait, re-checking everything since the lock was released in between.
  @inlinable
  mutating func nextRequested(_ waiting: Consumer, cancelled: Bool) -> Action {
    if cancelled { return consumerTerminated(resuming: waiting) }
    guard case .channeling = state, buffer.isEmpty else { return .resumeConsumer(waiting) }
    consumer = waiting
    return .none
  }

  /// The waiting consumer's task was cancelled: it resumes and the channel ends.
  @inlinable
  mutating func consumerCancelled() -> Action {
    guard let waiting = consumer.take() else { return .none }
    return consumerTerminated(resuming: waiting)
  }

  /// The consumer went away (cancelled, or the channel, its sequence or its iterator deinitialised): the channel
  /// ends for everyone.
  @inlinable
  mutating func consumerTerminated(resuming waiting: Consumer? = nil) -> Action {
    if case .finished = state { return waiting.map { .resumeConsumer($0) } ?? .none }
    state = .finished
    let producers = suspended.map { $0.producer }
    suspended = []
    issuedTokens = []
    cancelledTokens = []
    withdrawResumePoint()
    let callbacks = onTerminations.map { $0.callback }
    onTerminations = []
    var dropped = _Queue<Element>()
    swap(&dropped, &buffer)
    bufferLevel = 0
    return .terminate(consumer: waiting, producers: producers, onTerminations: callbacks, dropped: dropped)
  }

  /// The channel value went away; if `elements()` made a sequence, that sequence is the consumer now.
  @usableFromInline
  mutating func channelDeinitialized() -> Action {
    sequenceMade ? .none : consumerTerminated()
  }

  /// The sequence from `elements()` went away; if it made an iterator, that iterator is the consumer now.
  @usableFromInline
  mutating func sequenceDeinitialized() -> Action {
    iteratorMade ? .none : consumerTerminated()
  }

  @usableFromInline
  mutating func iteratorInitialized() {
    precondition(
      !iteratorMade,
      "MultiProducerSingleConsumerAsyncChannel.elements() makes one iterator only: makeAsyncIterator() was called twice"
    )
    iteratorMade = true
  }
}

// The machine hands each element, continuation and callback out of the locked state exactly once, so an action may
// leave the lock although its payload is not `Sendable` (the elements were `sending` when they came in).
extension _MPSCChannelStateMachine.Action: @unchecked Sendable {}
