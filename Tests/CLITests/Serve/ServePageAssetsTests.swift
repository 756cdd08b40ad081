import Foundation
import Testing
@testable import FlowCommandLine

/// The page's files as the package's resources: found beside the test executable as beside
/// `flow`, filled in one pass, and a clear message when the resources folder is missing.
@Suite struct ServePageAssetsTests {
  @Test func thePageFilesAreFoundAmongTheResources() throws {
    let assets = try ServePageAssets.shared.get()
    #expect(assets.template.contains("{{svg}}") && assets.template.contains("data-canvas"))
    #expect(assets.script.contains("window.flowPost"))
    #expect(assets.editor.contains("\"/move\""))
    #expect(assets.css.contains(".node"))
  }

  @Test func aPlaceholderIsFilledOnceAndAValueIsNeverReadAsOne() {
    let filled = ServePageAssets.fill("<t>{{title}}</t>{{unknown}}{{svg}}{{", ["title": "{{svg}}", "svg": "<svg/>"])
    #expect(filled == "<t>{{svg}}</t>{{unknown}}<svg/>{{")
  }

  @Test func aMissingResourcesFolderIsNamedNotATrap() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-assets-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    guard case .failure(let missing) = ServePageAssets.load(from: [folder]) else {
      Issue.record("an empty folder has no page files")
      return
    }
    #expect(missing.message.contains("FlowRuntime_FlowCommandLine.resources") && missing.message.contains(folder.path))
  }
}
