#pragma once
// Suppression comments: what a file's author told cnready to leave out, and where.

#include "model/FileResult.h"

namespace cnready {

class SyntaxTree;

/// Applies the suppression comments of `tree` to `findings` (lines of `tree`):
/// - `# cnready: ignore[R101]` or `# cnready: ignore[R101, R109]` on a line of the statement a
///   finding starts in (for a compound statement such as `for`, its header lines), or on the
///   comment-only lines directly above that statement;
/// - `# noqa: R101` in the same places (Ruff's and flake8's convention; codes of other linters
///   in the list are passed over, and a bare `# noqa` counts for nothing, since it belongs to
///   the other linters);
/// - `# cnready: ignore-file[R109]` anywhere: the whole file.
/// Suppressed findings move from `findings` to `suppressed` (order kept). A code that is not a
/// cnready rule (any code in a `cnready:` comment, an R-number in a noqa list) and a `cnready:`
/// comment that cannot be read each add a FileDiagnostic::Kind::Suppression warning at its
/// line to `diagnostics`. Files that mention neither `cnready` nor `noqa` cost one byte search.
void applySuppressions(const SyntaxTree& tree, const QString& path, QList<Finding>& findings,
                       QList<Finding>& suppressed, QList<FileDiagnostic>& diagnostics);

} // namespace cnready
