import FlowCommandLine

FlowCommandLine.main()
