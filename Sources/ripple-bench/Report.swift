/// Formats measurements as a table for people or as one JSON object for tools.
enum Report {
  static func table(_ results: [Measurement]) -> String {
    let header = ["scenario", "ns/op", "baseline", "ratio"] + Harness.floors.map { "x " + $0 } + ["values seen"]
    let rows = results.map { result in
      let floors = result.floorRatios.isEmpty ? Harness.floors.map { _ in "" } : result.floorRatios.map(ratio)
      return [
        result.scenario.name, format(result.nanosecondsPerOperation, decimals: 1), result.scenario.baseline,
        ratio(result.ratio),
      ] + floors + [String(result.valuesSeen)]
    }
    let widths = header.indices.map { column in
      ([header] + rows).map { $0[column].count }.max() ?? 0
    }
    func line(_ cells: [String]) -> String {
      cells.indices.map { column in
        let cell = cells[column]
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        return column == 0 || column == 2 ? cell + padding : padding + cell
      }.joined(separator: "  ")
    }
    let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
    return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
  }

  static func json(_ results: [Measurement]) -> String {
    let rows = results.map { result in
      "{\"name\": \(quoted(result.scenario.name)), \"ns_per_op\": \(number(result.nanosecondsPerOperation)), "
        + "\"baseline\": \(quoted(result.scenario.baseline)), \"ratio\": \(number(result.ratio)), "
        + zip(Harness.floors, result.floorRatios).map { floor, ratio in
          "\"ratio_to_\(floor.replacingDots())\": \(number(ratio)), "
        }.joined()
        + "\"values_seen\": \(result.valuesSeen)}"
    }
    return "{\"scenarios\": [" + rows.joined(separator: ", ") + "]}"
  }

  private static func ratio(_ value: Double) -> String {
    value.isFinite ? format(value, decimals: 3) + "x" : "n/a"
  }

  private static func number(_ value: Double) -> String {
    value.isFinite ? format(value, decimals: 4) : "null"
  }

  private static func format(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return "n/a" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (value * scale).rounded()
    let whole = Int(scaled / scale)
    let fraction = Int(abs(scaled) - abs(Double(whole)) * scale)
    guard decimals > 0 else { return String(whole) }
    let digits = String(fraction)
    let sign = value < 0 && whole == 0 ? "-" : ""
    return sign + String(whole) + "." + String(repeating: "0", count: decimals - digits.count) + digits
  }

  private static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case _ where scalar.value < 0x20:
        result += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}

extension String {
  /// `floor.sync` as a JSON key: `floor_sync`.
  fileprivate func replacingDots() -> String {
    String(map { $0 == "." ? "_" : $0 })
  }
}
