import Observation

/// An asynchronous sequence of the values a closure computes from `@Observable` state, one per transaction.
///
/// Use `Observed` to react to changes of observable models outside a view — in an app-level service, a
/// view model, or a test — on every platform where Ripple runs, including the OS generation before
/// Apple's `Observations` (SE-0475), whose semantics it follows:
///
/// - Every iterator first gets the current value.
/// - After that it gets the value at the end of each *transaction*: all changes made on the closure's
///   isolation until that isolation next suspends produce one value, read after the changes.
/// - A consumer slower than the producer gets the latest value, never a backlog.
/// - Several iterators of one sequence are independent of each other.
///
/// ```swift
/// @MainActor @Observable final class Form { var a = 1; var b = 2 }
///
/// let form = Form()
/// for await sum in Observed({ form.a + form.b }) {
///   print(sum)
///   guard sum == 3 else { break }
///   form.a = 10
///   form.b = 20  // same transaction as `form.a = 10`: one value
/// }
/// // Prints 3, then 30.
/// ```
///
/// The closure runs on the isolation it was written in (the main actor above), so it may read
/// isolated state synchronously.
///
/// See <doc:ObservedGuide> for its timing and design, and <doc:ObservingBeforeOS26> for how it relates to
/// `Observations`.
///
/// State written on other threads is followed too, when each write holds the model's lock from its
/// `willSet` to its store: see <doc:ObservedGuide#Writes-from-other-threads>.
///
/// ## Finishing, throwing, cancellation
/// Iteration ends when the closure throws (the error is rethrown once, then `next()` returns `nil`),
/// when an ``untilFinished(_:)`` closure returns ``Iteration/finish``, or when the consuming task is
/// cancelled — promptly, even while it waits for a change. With ``untilFinished(_:)`` and a weak
/// capture, iteration also ends when the model is deallocated: at once, unless the closure also read
/// another object that is still alive, and then with that object's next change. A closure that reads no
/// observable property produces its first value and then waits for cancellation, as nothing can change it.
public struct Observed<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
  /// What an ``Observed/untilFinished(_:)`` closure returns: the next value, or the end of iteration.
  public enum Iteration: Sendable {
    /// Deliver this value to the iterator.
    case next(Element)
    /// End iteration: `next()` returns `nil` from now on.
    case finish
  }

  @usableFromInline let emit: _ObservedEmit<Element, Failure>

  /// Creates a sequence of the values `emit` computes, re-run after every transaction that changes an
  /// observable property it read.
  ///
  /// ```swift
  /// @MainActor func watch(_ form: Form) async {
  ///   for await isComplete in Observed({ form.a != nil && form.b != nil }) {
  ///     print(isComplete)  // the current answer, then one answer per transaction that changes `a` or `b`
  ///   }
  /// }
  /// ```
  ///
  /// The sequence holds `emit`, and `emit` holds what it captures: capture a model weakly and use
  /// ``untilFinished(_:)`` when iteration should end with the model.
  ///
  /// - Parameter emit: A closure reading `@Observable` state. It runs on the isolation it was written in,
  ///   twice for each value (<doc:ObservedGuide>, "Reading twice"), so it should have no side effects; a thrown
  ///   error ends iteration.
  public init(@_inheritActorContext _ emit: @escaping @isolated(any) @Sendable () throws(Failure) -> Element) {
    self.emit = .element(emit)
  }

  /// Creates a sequence that goes on until `emit` returns ``Iteration/finish`` or throws.
  ///
  /// Use it to end iteration from the closure, typically when a weakly captured model is gone:
  ///
  /// ```swift
  /// let values = Observed<Int, Never>.untilFinished { [weak model] in
  ///   guard let model else { return .finish }
  ///   return .next(model.value)
  /// }
  /// ```
  ///
  /// When the model is deallocated the sequence re-runs `emit`, which finishes it; the sequence holds
  /// no reference to the model. The model may also go while `emit` runs (its `guard let` holds the last
  /// reference): each value is read by two runs of `emit`, and when the second one finishes (or throws), the
  /// first one's value is the last one and the end (or the error) follows it. If `emit` also reads an object
  /// that outlives the model, iteration ends with that object's next change instead: Observation tells
  /// nobody that one of several observed objects went away.
  public static func untilFinished(
    @_inheritActorContext _ emit: @escaping @isolated(any) @Sendable () throws(Failure) -> Iteration
  ) -> Self {
    Self(emit: .iteration(emit))
  }

  init(emit: _ObservedEmit<Element, Failure>) {
    self.emit = emit
  }

  /// Creates an iterator; each one starts from the current value and tracks changes on its own.
  public func makeAsyncIterator() -> Iterator {
    Iterator(emit: emit)
  }
}
