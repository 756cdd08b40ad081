/// A standard kind's SQL form, declared beside the kind (`extension FilterNode:
/// SQLRelationalKind { var sqlForm: SQLForm { .filter } }`), as a custom kind declares its
/// translation with ``SQLTranslatable``. `flow export --sql` finds the form on the kind the
/// registry holds; a kind with neither has no SQL form.
///
/// Package-wide, not public: the forms are the exporter's own operators, compiled by
/// `FlowSQL`; a custom kind's way in is `SQLTranslatable`.
package protocol SQLRelationalKind: NodeKind {
  var sqlForm: SQLForm { get }
}
