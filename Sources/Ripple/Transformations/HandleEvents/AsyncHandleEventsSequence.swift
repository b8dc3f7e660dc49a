extension AsyncSequence where Element: Sendable {
  /// Returns a sequence of the same elements that calls the given closures as its iteration starts, produces,
  /// is cancelled and finishes.
  ///
  /// See ``AsyncHandleEventsSequence`` for an example and exactly when each closure runs.
  ///
  /// - Parameters:
  ///   - onStart: Called once, on the first `next()`, before the base is asked for anything; its error ends the
  ///     sequence (and is passed to `onFinish`).
  ///   - onElement: Called with each element, before `next()` returns it.
  ///   - onCancel: Called once when `next()` is called in a cancelled task, or the base ends because the task was
  ///     cancelled.
  ///   - onFinish: Called once when the base finishes (`.finished`) or throws (`.failure(error)`).
  @inlinable
  public func handleEvents(
    @_inheritActorContext onStart: (@isolated(any) @Sendable () async throws(Failure) -> Void)? = nil,
    @_inheritActorContext onElement: (@isolated(any) @Sendable (Element) async -> Void)? = nil,
    @_inheritActorContext onCancel: (@isolated(any) @Sendable () async -> Void)? = nil,
    @_inheritActorContext onFinish: (@isolated(any) @Sendable (Termination<Failure>) async -> Void)? = nil
  ) -> AsyncHandleEventsSequence<Self> {
    AsyncHandleEventsSequence(self, onStart: onStart, onElement: onElement, onCancel: onCancel, onFinish: onFinish)
  }
}

/// An asynchronous sequence of a base's elements that calls closures on the events of its iteration.
///
/// Use it to log, count or trace a pipeline without changing it — Combine's `handleEvents`, AsyncExtensions'
/// `handleEvents(onStart:onElement:onCancel:onFinish:)` with the same labels:
///
/// ```swift
/// let traced = [1, 2].async.handleEvents {
///   print("start")
/// } onElement: { element in
///   print("element", element)
/// } onCancel: {
///   print("cancelled")
/// } onFinish: { termination in
///   print(termination)
/// }
/// for await _ in traced {}
/// // Prints start, element 1, element 2, finished.
/// ```
///
/// Each closure is optional and runs inside the consumer's `next()`, so the sequence starts no task and each
/// iteration calls its closures in order: `onStart` once, on the first `next()` before the base is asked; then
/// `onElement` for each element before `next()` returns it; then at most one of `onCancel` and `onFinish`, once:
///
/// - `onFinish(.finished)` when the base finishes; `onFinish(.failure(error))` when the base throws `error`, or
///   when `onStart` throws it. The error is then thrown by `next()`, after `onFinish` returns.
/// - `onCancel()` when `next()` is called in a cancelled task — it then returns `nil` without asking the base, so
///   the iteration ends even over a base that ignores cancellation — or when the base ends (returns `nil` or throws
///   a `CancellationError`, which `next()` then throws) in a cancelled task.
/// - After either, `next()` returns `nil` and calls nothing. A consumer that stops iterating before the end (a
///   `break`) calls neither.
///
/// The closures are `@isolated(any)`: one written in `@MainActor` code runs on the main actor, and a consumer on
/// that actor calls it without a hop. The sequence is `Sendable` when its base is.
///
/// Compared with Combine: `handleEvents(receiveSubscription:receiveOutput:receiveCompletion:receiveCancel:
/// receiveRequest:)` — `onStart` stands for `receiveSubscription` and `onFinish` for `receiveCompletion`, with a
/// ``Termination`` for Combine's `Subscribers.Completion`; there is no demand, so no `receiveRequest`. See
/// <doc:HandleEvents>.
public struct AsyncHandleEventsSequence<Base: AsyncSequence>: AsyncSequence where Base.Element: Sendable {
  /// The base's element type.
  public typealias Element = Base.Element
  /// The base's error type, which `onStart` may throw too.
  public typealias Failure = Base.Failure
  @usableFromInline typealias OnStart = @isolated(any) @Sendable () async throws(Failure) -> Void
  @usableFromInline typealias OnElement = @isolated(any) @Sendable (Element) async -> Void
  @usableFromInline typealias OnCancel = @isolated(any) @Sendable () async -> Void
  @usableFromInline typealias OnFinish = @isolated(any) @Sendable (Termination<Failure>) async -> Void

  @usableFromInline let base: Base
  @usableFromInline let onStart: OnStart?
  @usableFromInline let onElement: OnElement?
  @usableFromInline let onCancel: OnCancel?
  @usableFromInline let onFinish: OnFinish?

  @inlinable
  init(_ base: Base, onStart: OnStart?, onElement: OnElement?, onCancel: OnCancel?, onFinish: OnFinish?) {
    self.base = base
    self.onStart = onStart
    self.onElement = onElement
    self.onCancel = onCancel
    self.onFinish = onFinish
  }

  /// Creates an iterator; each iterator calls `onStart` anew.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base.makeAsyncIterator(), self)
  }

  /// The iterator of an ``AsyncHandleEventsSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    /// Where the iteration is: before `onStart`, running, or ended (`onCancel` or `onFinish` called).
    @usableFromInline
    enum Phase {
      case initial
      case running
      case ended
    }

    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let events: AsyncHandleEventsSequence
    @usableFromInline var phase = Phase.initial

    @inlinable init(_ base: Base.AsyncIterator, _ events: AsyncHandleEventsSequence) {
      self.base = base
      self.events = events
    }

    /// Returns the base's next element after calling `onElement` with it; `nil` at the end or once cancelled.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      guard phase != .ended else { return nil }
      guard !Task.isCancelled else {
        phase = .ended
        await events.onCancel?()
        return nil
      }
      do throws(Failure) {
        if phase == .initial {
          phase = .running
          try await events.onStart?()
        }
        guard let element = try await base.next(isolation: actor) else {
          phase = .ended
          if Task.isCancelled { await events.onCancel?() } else { await events.onFinish?(.finished) }
          return nil
        }
        await events.onElement?(element)
        return element
      } catch {
        phase = .ended
        if Task.isCancelled, error is CancellationError {
          await events.onCancel?()
        } else {
          await events.onFinish?(.failure(error))
        }
        throw error
      }
    }
  }
}

extension AsyncHandleEventsSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncHandleEventsSequence.Iterator: Sendable {}
