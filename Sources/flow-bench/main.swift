print("flow-bench: workloads arrive with the incremental engine")
