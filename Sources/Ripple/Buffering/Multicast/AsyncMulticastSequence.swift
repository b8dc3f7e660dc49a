import InternalRippleUtilities

extension AsyncSequence where Self: Sendable {
  /// Shares one iteration of this sequence through `subject`: once connected, every element goes to the subject,
  /// and so to every iterator of the result.
  ///
  /// Use it when several consumers need one source that must not run once per consumer, and the subject's
  /// behaviour is what you want for late consumers: a passthrough subject gives them what comes next, a
  /// current-value or replay subject the latest elements first. It is Combine's and AsyncExtensions' `multicast`:
  /// nothing runs until ``AsyncMulticastSequence/connect()``, or, with ``AsyncMulticastSequence/autoconnect()``,
  /// the first `next()`. `multicast(AsyncReplaySubject(bufferSize: 1)).autoconnect()` shares with a replay of the
  /// latest element:
  ///
  /// ```swift
  /// let status = AsyncBufferedChannel<String>()
  /// let shared = status.multicast(AsyncReplaySubject(bufferSize: 1)).autoconnect()
  /// var banner = shared.makeAsyncIterator()
  /// status.send("online")
  /// print(await banner.next())  // Optional("online"): the first next() connected
  /// var badge = shared.makeAsyncIterator()
  /// print(await badge.next())   // Optional("online"): the replay of the latest
  /// ```
  ///
  /// ## Finishing, throwing, cancellation
  /// The connection is a task that iterates this sequence and sends each element to the subject; when the base
  /// finishes or throws, the subject gets `.finished` or `.failure(error)`, and so every iterator, after its buffer.
  /// Cancelling a consuming task ends that iterator only. A connection made by `connect()` runs until the base ends
  /// or its task is cancelled (`connect()` returns it); an autoconnected one is cancelled when its last iterator
  /// goes away. As in Combine, a cancelled connection leaves the subject open, and the next `connect()` — or the
  /// next autoconnected iterator's first `next()` — connects again with a new iterator of the base. Once the base
  /// has ended, so has the subject: a later iterator gets what the subject gives after its end (a replay subject's
  /// replay, then the end), and nothing connects again.
  ///
  /// - Parameter subject: The subject that hands the elements to the iterators; any ``AsyncSubject`` of the same
  ///   element and failure.
  @inlinable
  public func multicast<Subject: AsyncSubject>(_ subject: Subject) -> AsyncMulticastSequence<Self, Subject>
  where Subject.Element == Element, Subject.Failure == Failure {
    AsyncMulticastSequence(_MulticastStorage(base: self, subject: subject), autoconnects: false)
  }
}

/// An asynchronous sequence that shares an iteration of its base through a subject, once connected.
///
/// Created by ``_Concurrency/AsyncSequence/multicast(_:)``; see there for its semantics, and <doc:Multicast>. Every
/// copy refers to the same connection.
public struct AsyncMulticastSequence<Base: AsyncSequence & Sendable, Subject: AsyncSubject>: AsyncSequence, Sendable
where Base.Element == Subject.Element, Base.Failure == Subject.Failure {
  /// The base's elements.
  public typealias Element = Base.Element
  /// The base's failure.
  public typealias Failure = Base.Failure

  @usableFromInline let storage: _MulticastStorage<Base, Subject>
  @usableFromInline let autoconnects: Bool

  @inlinable
  init(_ storage: _MulticastStorage<Base, Subject>, autoconnects: Bool) {
    self.storage = storage
    self.autoconnects = autoconnects
  }

  /// Starts an iteration of the base, feeding the subject; while it runs, later calls return the same task.
  ///
  /// Make the iterators that must see the first element before connecting: an iterator gets what the subject
  /// gives from when it was made. Cancel the returned task to stop iterating the base: the subject stays open, and
  /// the next `connect()` iterates the base anew (once the cancelled task has ended; until then it returns `nil`, and
  /// the new connection starts when that task ends). After the base ended, it does nothing and returns `nil`.
  @discardableResult
  public func connect() -> Task<Void, Never>? {
    storage.connect()
  }

  /// The same multicast, connecting on the first `next()` of any of its iterators, and cancelling the connection
  /// when the last of them goes away.
  @inlinable
  public func autoconnect() -> Self {
    Self(storage, autoconnects: true)
  }

  /// Creates an iterator of the subject; an autoconnected one connects on its first `next()`.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(storage.subject.makeAsyncIterator(), membership: autoconnects ? _MulticastMembership(storage) : nil)
  }

  /// The iterator of ``AsyncMulticastSequence``: the subject's, which connects first when autoconnected.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var iterator: Subject.AsyncIterator
    @usableFromInline let membership: _MulticastMembership<Base, Subject>?
    @usableFromInline var connected = false

    @inlinable
    init(_ iterator: Subject.AsyncIterator, membership: _MulticastMembership<Base, Subject>?) {
      self.iterator = iterator
      self.membership = membership
    }

    /// The subject's next element; the first call of an autoconnected iterator connects.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      if !connected {
        connected = true
        membership?.storage.connect()
      }
      return try await iterator.next(isolation: actor)
    }
  }
}

@available(*, unavailable)
extension AsyncMulticastSequence.Iterator: Sendable {}

/// The base, the subject and the connection of one `multicast(_:)`.
@usableFromInline
final class _MulticastStorage<Base: AsyncSequence & Sendable, Subject: AsyncSubject>: Sendable
where Base.Element == Subject.Element, Base.Failure == Subject.Failure {
  @usableFromInline let base: Base
  @usableFromInline let subject: Subject
  @usableFromInline let machine = _Mutex(_MulticastStateMachine())

  @inlinable
  init(base: Base, subject: Subject) {
    self.base = base
    self.subject = subject
  }

  @discardableResult
  @usableFromInline
  func connect() -> Task<Void, Never>? {
    switch machine.withLock({ $0.connectRequested() }) {
    case .start(let generation):
      return startConnection(generation)
    case .none, .cancel:
      return machine.withLock { machine in
        if case .connected(let task, _) = machine.state { return task }
        return nil
      }
    }
  }

  /// Starts connection `generation`'s task, which iterates the base into the subject.
  @usableFromInline
  @discardableResult
  func startConnection(_ generation: UInt64) -> Task<Void, Never> {
    let task = Task { [base, subject, self] in
      var iterator = base.makeAsyncIterator()
      do throws(Base.Failure) {
        while let element = try await iterator.next(isolation: nil) {
          // An element the base gave is the subject's even if the connection was cancelled meanwhile (the base may
          // have taken it from a channel: dropping it would lose it; no newer connection runs before this task
          // ends); then a cancelled connection stops, and the subject stays open for the next one.
          subject.send(element)
          if Task.isCancelled { break }
        }
      } catch {
        if !Task.isCancelled {
          subject.send(.failure(error))
          machine.withLock { $0.baseEnded(generation: generation) }
          return
        }
      }
      if Task.isCancelled {
        if case .start(let next) = machine.withLock({ $0.disconnected(generation: generation) }) {
          startConnection(next)
        }
      } else {
        subject.send(.finished)
        machine.withLock { $0.baseEnded(generation: generation) }
      }
    }
    if case .cancel(let task) = machine.withLock({ $0.started(task, generation: generation) }) { task.cancel() }
    return task
  }

  @usableFromInline
  func left() {
    if case .cancel(let task) = machine.withLock({ $0.iteratorLeft() }) { task.cancel() }
  }
}

/// An autoconnected iterator's hold on the connection: it counts while the iterator lives.
@usableFromInline
final class _MulticastMembership<Base: AsyncSequence & Sendable, Subject: AsyncSubject>: Sendable
where Base.Element == Subject.Element, Base.Failure == Subject.Failure {
  @usableFromInline let storage: _MulticastStorage<Base, Subject>

  @inlinable
  init(_ storage: _MulticastStorage<Base, Subject>) {
    self.storage = storage
    storage.machine.withLock { $0.iteratorJoined() }
  }

  deinit {
    storage.left()
  }
}
