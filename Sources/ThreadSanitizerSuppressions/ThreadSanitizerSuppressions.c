// ThreadSanitizer's default suppressions for calc and the test binary, so `swift test --sanitize=thread` runs
// clean with no environment to set. The sanitizer runtime calls this hook once at start-up; in a build without
// the sanitizer nothing calls it. Docs/Reliability.md explains each entry; every one names a report that is not a race in
// Ripple's code, and a report that matches none of them fails the run.

const char *__tsan_default_suppressions(void);

const char *__tsan_default_suppressions(void) {
  return
      // The concurrency runtime (libswift_Concurrency.so) does not tell ThreadSanitizer that a task which finds its
      // continuation already resumed when it tries to suspend happens after the resume: `swift_continuation_await`
      // then carries on with only an uninstrumented acquire-load, while `resumeTaskAfterContinuation` did announce
      // its release. What `UnsafeContinuation.resume` read in the awaiting task's frame then looks as if it raced
      // with that task's next writes to the reused frame memory.
      "race:Scc6resume\n";
}
