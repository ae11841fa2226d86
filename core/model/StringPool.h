#pragma once
// Shares equal strings between per-file results so that a project's findings and API uses do
// not each carry their own copy of the same function name, canonical API name or source line.

#include "model/FileResult.h"

#include <QMutex>
#include <QSet>
#include <QString>

namespace cnready {

/// A set of string instances that results are rewritten to point at (QString implicit
/// sharing: equal strings then share one heap block). Thread-safe. The pool only needs to
/// live while results are compacted: the strings stay shared by the results after it is gone.
class StringPool {
public:
    /// Replaces every non-empty string of `r` by the pool's equal instance (adding the string
    /// when the pool has none yet, without spare capacity) and drops the spare capacity of
    /// every list of `r`. Values and order are unchanged; only memory is shared or released.
    /// Empty strings are left as they are (null and empty stay distinguishable).
    void compact(FileResult& r);

    /// Number of distinct strings held.
    qsizetype size() const;

private:
    void intern(QString& s);
    void intern(CompactString& s);
    mutable QMutex m_mutex;
    QSet<QString> m_strings;
};

} // namespace cnready
