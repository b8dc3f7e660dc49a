import Ripple

/// The subjects and the buffered channel, each fed by a task of its own as the `asyncstream.raw` floor is.
///
/// Every row checks what its consumers saw: a row that delivered less, or delivered out of order, stops the run.
func subjectScenarios() -> [Scenario] {
  [
    Scenario(name: "subject.passthrough.1", baseline: "asyncstream.raw", operations: operatorElements) {
      let subject = AsyncPassthroughSubject<Int>()
      // The iterator exists before the first send: it gets every element.
      var iterator = subject.makeAsyncIterator()
      feed(subject, count: operatorElements)
      return await sumSubject(&iterator)
    },
    // Four iterators, each sees every element: operations count the elements sent, so the row's ratio is per send.
    Scenario(name: "subject.passthrough.4", baseline: "asyncstream.raw", operations: operatorElements) {
      let subject = AsyncPassthroughSubject<Int>()
      let consumers = (0..<4).map { _ in consumeSubject(subject.makeAsyncIterator()) }
      feed(subject, count: operatorElements)
      var seen = 0
      for consumer in consumers { seen += await consumer.value }
      precondition(seen == 4 * operatorElements, "an iterator missed elements: \(seen)")
      return seen
    },
    // A consumer slower than the sender, holding only the newest value: it sees far fewer values than were sent
    // (the figure in `values seen`), always in order, and the last one sent last.
    Scenario(name: "subject.currentvalue.latest", baseline: "asyncstream.raw", operations: operatorElements) {
      let subject = AsyncCurrentValueSubject(-1, bufferingPolicy: .bufferingNewest(1))
      var iterator = subject.makeAsyncIterator()
      Task {
        for index in 0..<operatorElements { subject.value = index }
        subject.send(.finished)
      }
      var seen = 0
      var last = -2
      var work = 0
      while let value = await iterator.next() {
        precondition(value > last, "values out of order: \(value) after \(last)")
        last = value
        seen += 1
        work = slowWork(work, value)
      }
      precondition(last == operatorElements - 1, "the last value was lost: \(last)")
      precondition(work != 42, "unreachable: keeps the slow work")
      return seen
    },
    Scenario(name: "bufferedchannel.raw", baseline: "asyncstream.raw", operations: operatorElements) {
      let channel = AsyncBufferedChannel<Int>()
      Task {
        for index in 0..<operatorElements { channel.send(index) }
        channel.finish()
      }
      return await sumAll(channel)
    },
  ]
}

/// Starts a task that sends 0..<count to `subject`, then finishes it.
private func feed(_ subject: AsyncPassthroughSubject<Int>, count: Int) {
  Task {
    for index in 0..<count { subject.send(index) }
    subject.send(.finished)
  }
}

/// Sums what one iterator gets to the end; checks it got every element.
@inline(__always)
private func sumSubject(_ iterator: inout AsyncPassthroughSubject<Int>.Iterator) async -> Int {
  var sum = 0
  var seen = 0
  while let value = await iterator.next() {
    sum &+= value
    seen += 1
  }
  precondition(sum == operatorElements * (operatorElements - 1) / 2, "lost or changed elements: sum \(sum)")
  return seen
}

/// Iterates one subject iterator to the end in a task of its own.
private func consumeSubject(_ iterator: sending AsyncPassthroughSubject<Int>.Iterator) -> Task<Int, Never> {
  Task {
    var iterator = iterator
    return await sumSubject(&iterator)
  }
}

/// A few hundred nanoseconds of arithmetic per value: the slow consumer.
@inline(never)
private func slowWork(_ seed: Int, _ value: Int) -> Int {
  var state = seed ^ value
  for _ in 0..<200 { state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
  return state
}
