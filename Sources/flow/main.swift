import FlowCommandLine

AllocatorTuning.apply()
FlowCommandLine.main()
