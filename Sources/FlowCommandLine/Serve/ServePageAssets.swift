import Foundation

/// The page `flow serve` answers at `/`, made from the files in `Serve/Page/` — `page.html` (a
/// template), `page.css`, `page.js` (keeps the inline SVG current from `/events`, posts edits,
/// undo, redo and save with the page's token) and `editor.js` (the editing gestures: palette,
/// connect, select and delete, move). They are the FlowCommandLine target's resources, copied
/// by SwiftPM into `FlowRuntime_FlowCommandLine.resources` beside the built `flow` (a
/// `.bundle` on Apple platforms); nothing loads from another origin, and the script and style
/// are inlined under the page's nonce.
///
/// The bundle is looked up here rather than through SwiftPM's generated `Bundle.module`,
/// which stops the process (`fatalError`) when the bundle is missing — an installed `flow`
/// without its resources folder gets `ServePageAssets.Missing`'s message instead.
///
/// Invariant: a loaded value holds all four files, read whole as UTF-8.
struct ServePageAssets: Sendable {
  var template: String
  var css: String
  var script: String
  var editor: String

  /// The resources folder's name, as SwiftPM names it for package `FlowRuntime`, target
  /// `FlowCommandLine`.
  static let bundleName = "FlowRuntime_FlowCommandLine"

  /// The largest page file read (the four are a few KiB each).
  static let maximumFileBytes = 1 << 20

  /// Why the page's files cannot be read: names the folders looked in.
  struct Missing: Error, Sendable {
    var message: String
  }

  /// The files, read once per process.
  static let shared: Result<ServePageAssets, Missing> = load(from: candidateFolders())

  /// Where the resources folder may be: beside the running executable (symbolic links
  /// followed) and in `Bundle.main`'s folder.
  static func candidateFolders() -> [URL] {
    var folders: [URL] = []
    if let executable = Bundle.main.executableURL {
      folders.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
      folders.append(executable.deletingLastPathComponent())
    }
    folders.append(Bundle.main.bundleURL)
    var seen = Set<String>()
    return folders.filter { seen.insert($0.standardizedFileURL.path).inserted }
  }

  /// Reads the four files from the first of `folders` that holds the resources folder.
  static func load(from folders: [URL]) -> Result<ServePageAssets, Missing> {
    let names = ["\(bundleName).resources", "\(bundleName).bundle/Contents/Resources", "\(bundleName).bundle"]
    for folder in folders {
      for name in names {
        let page = folder.appendingPathComponent(name).appendingPathComponent("Page")
        guard FileManager.default.fileExists(atPath: page.appendingPathComponent("page.html").path) else { continue }
        return read(page)
      }
    }
    let looked = folders.map(\.path).joined(separator: ", ")
    return .failure(
      Missing(
        message: "the page's files (\(bundleName).resources) are not beside the flow executable "
          + "(looked in \(looked)); install that folder with flow"))
  }

  /// The four files of the `Page` folder `page`.
  static func read(_ page: URL) -> Result<ServePageAssets, Missing> {
    var texts: [String] = []
    for name in ["page.html", "page.css", "page.js", "editor.js"] {
      let url = page.appendingPathComponent(name)
      guard let data = try? Data(contentsOf: url), data.count <= maximumFileBytes,
        let text = String(data: data, encoding: .utf8)
      else {
        return .failure(Missing(message: "cannot read the page's file '\(url.path)'"))
      }
      texts.append(text)
    }
    return .success(ServePageAssets(template: texts[0], css: texts[1], script: texts[2], editor: texts[3]))
  }

  /// The page around `svg`; `title` and `token` are escaped by the caller.
  func html(
    title: String, token: String, nonce: String, svg: String, revision: Int, structure: Int,
    palette: [(kind: String, required: [(name: String, type: String)])]
  ) -> String {
    Self.fill(
      template,
      [
        "title": title, "token": token, "nonce": nonce, "svg": svg, "revision": String(revision),
        "structure": String(structure), "palette": palette.map(Self.option).joined(),
        "css": css, "script": script, "editor": editor
      ])
  }

  /// `template` with each `{{name}}` replaced by `values[name]`, in one pass (a value's own
  /// braces are never read as placeholders); an unknown name is left as written.
  ///
  /// - Complexity: O(template + values).
  static func fill(_ template: String, _ values: [String: String]) -> String {
    var out = ""
    out.reserveCapacity(template.utf8.count + values.values.reduce(0) { $0 + $1.utf8.count })
    var rest = template[...]
    while let open = rest.range(of: "{{") {
      out += rest[..<open.lowerBound]
      let after = rest[open.upperBound...]
      guard let close = after.range(of: "}}"), let value = values[String(after[..<close.lowerBound])] else {
        out += "{{"
        rest = after
        continue
      }
      out += value
      rest = after[close.upperBound...]
    }
    out += rest
    return out
  }

  /// A palette entry: the kind (`data-kind`), and its required params as
  /// `data-required="name:type …"`.
  static func option(_ entry: (kind: String, required: [(name: String, type: String)])) -> String {
    let required = entry.required.map { "\($0.name):\($0.type)" }.joined(separator: " ")
    let kind = ServePageSVG.escape(entry.kind)
    return "<option data-kind=\"\(kind)\" data-required=\"\(ServePageSVG.escape(required))\">\(kind)</option>"
  }
}
