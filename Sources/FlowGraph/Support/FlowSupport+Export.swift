// `Locked` lives in FlowSupport, the lowest target, so FlowHTTP (which does not depend on
// FlowGraph) locks with the same type; re-exported so every module above FlowGraph sees it as
// before.
@_exported import FlowSupport
