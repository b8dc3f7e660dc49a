// libFuzzer target for `KeyDecoder`: built by Scripts/fuzz.sh into the CalculatorTerminal module, so it sees
// internal types. Not part of the package.

/// Decodes the input as one read and as two reads split where the first byte says, and checks that:
/// nothing traps, no more than a sequence's worth of bytes ever waits, and splitting changes nothing (unless
/// the split falls right after an ESC, which then ends its read and is the Escape key).
@_cdecl("LLVMFuzzerTestOneInput")
public func keyDecoderFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size > 0 else { return 0 }
  let selector = Int(data[0])
  let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))

  var whole = KeyDecoder()
  var keys = whole.decode(bytes)
  checkPending(whole)
  keys += whole.flush()
  precondition(!whole.hasPending, "flush left bytes pending")

  guard !bytes.isEmpty else { return 0 }
  let split = selector % (bytes.count + 1)
  guard split == 0 || bytes[split - 1] != 0x1b else { return 0 }
  var parts = KeyDecoder()
  var splitKeys = parts.decode(bytes[..<split])
  checkPending(parts)
  splitKeys += parts.decode(bytes[split...])
  checkPending(parts)
  splitKeys += parts.flush()
  precondition(splitKeys == keys, "split at \(split) of \(bytes): \(splitKeys) != \(keys)")
  return 0
}

private func checkPending(_ decoder: KeyDecoder) {
  precondition(
    decoder.pending.count < KeyDecoder.maximumSequenceLength, "\(decoder.pending.count) bytes pending")
}
