#pragma once
// One mechanical edit of the port preview (`cnready port PATH --diff`): a byte range of a
// Python file and the text that replaces it, with the rule code whose finding it removes.

#include <QByteArray>
#include <QList>
#include <QString>

#include <cstdint>

namespace cnready {

/// A replacement of the bytes [startByte, endByte) of one file's UTF-8 source. Value type.
struct Rewrite {
    /// The rule code whose finding this edit removes ("R109", "R110", "R202"); empty for the
    /// import swap, which fixes no finding (it is the port itself).
    QString code;
    uint32_t startByte = 0;
    uint32_t endByte = 0; ///< exclusive
    QByteArray replacement;
    int line = 0; ///< 1-based line of startByte
    QString note; ///< what changes, e.g. "sum(a) -> np.sum(a)"
    friend bool operator==(const Rewrite&, const Rewrite&) = default;
};

/// Applies non-overlapping `rewrites` (any order) to `source`. Overlapping edits are a
/// programming error: the later one (by start byte) is dropped. Returns the new bytes.
QByteArray applyRewrites(const QByteArray& source, QList<Rewrite> rewrites);

} // namespace cnready
