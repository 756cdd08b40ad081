import Foundation
import Testing

/// `Examples/penguins`: the README's headless pipeline, run on a copy of the folder.
@Suite struct PenguinsExampleTests {
  @Test func theReportPipelineWritesItsThreeFiles() async throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("flow-penguins-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: root) }
    try FileManager.default.copyItem(
      atPath: TestPaths.packageRoot.appendingPathComponent("Examples/penguins").path, toPath: root)
    for leftover in (try? FileManager.default.contentsOfDirectory(atPath: root + "/output")) ?? []
    where leftover != ".gitignore" {
      try FileManager.default.removeItem(atPath: root + "/output/" + leftover)
    }
    let result = try await FlowProcess.run(["run", root + "/report.flow.json"])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.contains("saveCSV.rows = 5"))
    let csv = try String(contentsOfFile: root + "/output/summary.csv", encoding: .utf8)
    let lines = csv.split(separator: "\n")
    #expect(
      lines.first
        == "species,island,birds,heavy_birds,mean_mass_kg,lightest_g,heaviest_g,max_flipper_mm,mean_bill_mm,scientific_name"
    )
    #expect(lines.count == 6)
    // The compensated mean: 5.092436974789916 is the exact mean of the 119 doubles, rounded once
    // (the plain running sum gave 5.092436974789918).
    #expect(lines.last?.hasPrefix("Gentoo,Biscoe,119,104,5.092436974789916,3950,6300,231,") == true)
    let summary = try String(contentsOfFile: root + "/output/summary.txt", encoding: .utf8)
    #expect(
      summary.hasPrefix(
        "Palmer penguins: 344 birds, 333 with mass and sex, in 5 species-and-island groups.\nHeaviest on average: Gentoo on Biscoe.\n"
      ))
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: root + "/output/summary.json")))
        as? [[String: Any]])
    #expect(json.count == 5)
    #expect(json.first?["scientific_name"] as? String == "Pygoscelis adeliae")
    #expect(
      Set(try FileManager.default.contentsOfDirectory(atPath: root + "/output")) == [
        ".gitignore", "summary.csv", "summary.json", "summary.txt"
      ])
  }
}
