import Testing

@testable import FlowGraph

@Suite struct ControlEscapingTests {
  @Test func cleanTextIsKeptAsIs() {
    for text in [
      "", "plain", "→ ünïcödé …", #"back\slash "quoted""#, "emoji 👍🏽", "\u{A0}\u{2027}\u{2030}\u{2065}\u{206A}"
    ] {
      #expect(text.controlEscaped == text)
      #expect(text.escapingControls(keepingLineFeeds: true) == text)
    }
  }

  @Test func everyEscapedClassBecomesAVisibleEscape() {
    #expect("a\nb\rc\td".controlEscaped == #"a\nb\rc\td"#)
    #expect("\u{0}\u{7}\u{1B}[31m\u{1F}".controlEscaped == #"\u0000\u0007\u001B[31m\u001F"#)
    #expect("\u{7F}\u{80}\u{85}\u{9B}\u{9F}".controlEscaped == #"\u007F\u0080\u0085\u009B\u009F"#)
    #expect(
      "\u{2028}\u{2029}\u{202A}\u{202E}\u{2066}\u{2069}".controlEscaped == #"\u2028\u2029\u202A\u202E\u2066\u2069"#)
    #expect("x\u{1B}é\u{9B}→".controlEscaped == #"x\u001Bé\u009B→"#)
  }

  @Test func wholeOutputsKeepTheirLineFeeds() {
    #expect("a = 1\nb\u{1B} = 2\r\n".escapingControls(keepingLineFeeds: true) == "a = 1\nb\\u001B = 2\\r\n")
  }

  @Test func theResultHasNoControlScalarLeft() {
    var random = SystemRandomNumberGenerator()
    for _ in 0..<200 {
      let scalars = (0..<20).map { _ in Unicode.Scalar(UInt32.random(in: 0...0x20FF, using: &random)) ?? "x" }
      var text = ""
      text.unicodeScalars.append(contentsOf: scalars)
      #expect(!text.controlEscaped.unicodeScalars.contains { $0.controlEscape != nil })
      #expect(
        !text.escapingControls(keepingLineFeeds: true).unicodeScalars.contains { $0 != "\n" && $0.controlEscape != nil }
      )
    }
  }
}
