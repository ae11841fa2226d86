#pragma once
// The unified diff of a set of rewrites on one file, as `git diff` writes it, so that
// `git apply` (or `patch -p1`) takes it from the project root.

#include "port/Rewrite.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace cnready {

/// The diff of `source` (the file's bytes) against applyRewrites(source, rewrites): a
/// `diff --git a/PATH b/PATH` header, `---`/`+++` lines and hunks with `context` lines of
/// context (3 as in diff -u), `\ No newline at end of file` where a last line has none. Lines
/// keep their own endings (a CRLF file stays CRLF). `path` is relative to the project root with
/// '/' separators. Empty when there is no rewrite or the rewrites change nothing.
QByteArray unifiedDiff(const QString& path, const QByteArray& source,
                       const QList<Rewrite>& rewrites, int context = 3);

} // namespace cnready
