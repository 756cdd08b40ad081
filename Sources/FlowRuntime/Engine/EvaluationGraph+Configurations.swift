// MARK: Configurations: a kind's shared ones, a node's own, and a definition edit's group ones.

extension EvaluationGraph {
  /// The configuration index for `configured`: the shared one of its kind, or a new own one.
  mutating func intern(_ configured: ConfiguredNode) -> UInt32 {
    if let key = configured.sharedKey {
      if let index = sharedConfigurations[key] { return index }
      let index = allocateConfiguration(Configuration(configured))
      sharedConfigurations[key] = index
      return index
    }
    return allocateConfiguration(Configuration(configured))
  }

  /// A slot for `configuration` (a freed one if any), with no group users.
  mutating func allocateConfiguration(_ configuration: Configuration) -> UInt32 {
    if let free = freeConfigurations.popLast() {
      configurations[Int(free)] = configuration
      scalarFunctions[Int(free)] = ScalarEvaluation.unretained(configuration.scalar)
      configurationUsers[Int(free)] = 0
      return free
    }
    configurations.append(configuration)
    scalarFunctions.append(ScalarEvaluation.unretained(configuration.scalar))
    configurationUsers.append(0)
    return UInt32(configurations.count - 1)
  }

  /// Gives back a node's own configuration, or one node's use of a group's (freed with its
  /// last user); a kind's shared ones stay.
  mutating func releaseConfiguration(_ index: UInt32) {
    if configurations[Int(index)].sharedKey != nil {
      guard configurationUsers[Int(index)] > 0 else { return }
      configurationUsers[Int(index)] -= 1
      guard configurationUsers[Int(index)] == 0 else { return }
      configurations[Int(index)].sharedKey = nil
    }
    configurations[Int(index)].unconnected = []
    freeConfigurations.append(index)
  }

  /// Traps unless each group configuration's `configurationUsers` count is the number of
  /// nodes (removed ones included) whose record points at it, and every other's is 0. Only
  /// with `FLOW_INTERNAL_CHECKS` (called by `_checkInvariants()`).
  func _checkConfigurationUsers() {
    #if FLOW_INTERNAL_CHECKS
    var users = [UInt32](repeating: 0, count: configurations.count)
    for node in 0..<Int32(nodeCount) { users[Int(record(node).configuration)] += 1 }
    precondition(
      configurationUsers.count == configurations.count
        && configurations.indices.allSatisfy { index in
          configurations[index].sharedKey != Self.groupKey
            ? configurationUsers[index] == 0
            : configurationUsers[index] == users[index] && users[index] > 0
        },
      "Internal inconsistency: a group configuration's user count is not the number of nodes using it")
    #endif
  }
}
