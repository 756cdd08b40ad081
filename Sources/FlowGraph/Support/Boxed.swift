/// An immutable value behind one reference: for a large field that values which move often
/// rarely set (a change's reloaded document, a `load`'s resolved graph), so that moving such a
/// value copies one pointer instead of the field's bytes.
///
/// Never mutated after it is made (a change makes a new box), hence `Sendable`. Equal and
/// hashed by its value, so the owner's synthesized equality and hashing stay those of its fields.
package final class Boxed<Value: Sendable>: Sendable {
  package let value: Value

  package init(_ value: Value) { self.value = value }
}

extension Boxed: Equatable where Value: Equatable {
  package static func == (lhs: Boxed, rhs: Boxed) -> Bool { lhs === rhs || lhs.value == rhs.value }
}

extension Boxed: Hashable where Value: Hashable {
  package func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
