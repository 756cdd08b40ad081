/// Which `Host` headers a server answers: the DNS-rebinding defence. A page on another site
/// that resolves its own name to 127.0.0.1 still sends its own name as `Host`, so only the
/// allowed names with this server's port pass; every other request gets 403 and the
/// connection closes. A pure value, owned by `HTTPConnectionMachine`.
struct HTTPHostPolicy: Sendable, Equatable {
  /// Lowercased host names (IPv6 addresses in brackets) the server answers to.
  let allowedHosts: Set<String>
  let port: UInt16

  /// Whether `host` (a `Host` header) names an allowed host with this server's port.
  func allows(host: String?) -> Bool {
    guard let host else { return false }
    let lowered = host.lowercased()
    guard let colon = lowered.lastIndex(of: ":"), !lowered.hasSuffix("]") else { return false }
    let name = String(lowered[..<colon]), portText = lowered[lowered.index(after: colon)...]
    // RFC 9110 §7.2 and RFC 3986 §3.2.3: a port is ASCII digits. Only the port's own spelling
    // passes: no sign, no leading zero, no padding (`UInt16("+8080")` would accept a sign).
    guard portText == String(port) else { return false }
    return allowedHosts.contains(name)
  }

  /// The refusal of a request whose `Host` is not allowed.
  static let refusal = HTTPResponse.error(
    403, "this server answers only requests for localhost, 127.0.0.1 or [::1] with its port")
}
