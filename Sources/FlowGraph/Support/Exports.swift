// Every module that imports FlowGraph sees `Locked`, the one lock type, from the lowest target.
@_exported import FlowSupport
