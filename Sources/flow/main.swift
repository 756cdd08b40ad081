import Foundation

let result = FlowCommand.main(Array(CommandLine.arguments.dropFirst()))
FileHandle.standardOutput.write(Data(result.output.utf8))
if !result.diagnostics.isEmpty {
  FileHandle.standardError.write(Data((result.diagnostics.joined(separator: "\n") + "\n").utf8))
}
exit(result.status.rawValue)
