import FlowCommandLine
import FlowNodes
import FlowRuntime

var registry = NodeKindRegistry.standard
registry.register(CelsiusNode())
FlowCommandLine.main(registry: registry)
