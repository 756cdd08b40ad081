// Node kinds speak in graph-model types (ports, specs, documents): importing FlowRuntime
// brings them along, so an embedding app needs one import.
@_exported import FlowGraph
