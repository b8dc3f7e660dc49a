// Experiment 2: is swift_task_getMainExecutor (and its hook) consulted when code hops to the main actor?
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
typealias GetMainOrig = @convention(thin) () -> UnownedSerialExecutor
typealias GetMainHook = @convention(thin) (GetMainOrig) -> UnownedSerialExecutor
typealias IsMainOrig = @convention(thin) (UnownedSerialExecutor) -> Bool
typealias IsMainHook = @convention(thin) (UnownedSerialExecutor, IsMainOrig) -> Bool
func sym<T>(_ name: String, _: T.Type) -> UnsafeMutablePointer<T?> {
  dlsym(dlopen(nil, RTLD_NOW), name)!.assumingMemoryBound(to: T?.self)
}
nonisolated(unsafe) let getMain = sym("swift_task_getMainExecutor_hook", GetMainHook.self)
nonisolated(unsafe) let isMain = sym("swift_task_isMainExecutor_hook", IsMainHook.self)
nonisolated(unsafe) var nGet = 0, nIs = 0
func say(_ s: String) { var l = s + "\n"; l.withUTF8 { _ = write(2, $0.baseAddress, $0.count) } }
@MainActor func onMain() -> Int { 1 }
@main struct M {
  static func main() async {
    getMain.pointee = { orig in nGet += 1; return orig() }
    isMain.pointee = { e, orig in nIs += 1; return orig(e) }
    let a = nGet
    _ = await Task.detached { await onMain() }.value
    say("hop from detached to main: getMainExecutor_hook calls = \(nGet - a), isMain calls = \(nIs)")
    let b = nGet
    await Task.detached { @MainActor in MainActor.assertIsolated() }.value
    say("Task.detached { @MainActor } + assertIsolated: getMain calls = \(nGet - b), isMain = \(nIs)")
    getMain.pointee = nil; isMain.pointee = nil
  }
}
