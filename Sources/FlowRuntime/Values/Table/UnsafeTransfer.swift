/// A value handed to the threads of one parallel loop that the compiler cannot prove safe to
/// share: a pointer into a buffer the loop's caller owns, or an array of such pointers.
///
/// Invariants (why `@unchecked Sendable` is sound):
/// - The value is used only inside the parallel loop (`TableParallelism.forEach` or `.map`) of
///   the caller that made the transfer, and the memory it points to outlives that loop (the
///   caller holds it across the call).
/// - Threads only read what they share; each thread writes only its own part (its span of a
///   buffer, its slots, its column), so no two threads touch the same bytes while one writes.
/// Each use site says which part each thread owns.
package struct UnsafeTransfer<Value>: @unchecked Sendable {
  package let value: Value

  package init(_ value: Value) { self.value = value }
}
