#include "port/Rewrite.h"

#include <algorithm>

namespace cnready {

QByteArray applyRewrites(const QByteArray& source, QList<Rewrite> rewrites) {
    std::stable_sort(rewrites.begin(), rewrites.end(),
                     [](const Rewrite& a, const Rewrite& b) { return a.startByte < b.startByte; });
    QByteArray out;
    out.reserve(source.size());
    qsizetype at = 0;
    for (const Rewrite& r : rewrites) {
        if (qsizetype(r.startByte) < at || qsizetype(r.endByte) > source.size() ||
            r.endByte < r.startByte)
            continue; // overlaps an earlier edit
        out += source.mid(at, qsizetype(r.startByte) - at);
        out += r.replacement;
        at = qsizetype(r.endByte);
    }
    out += source.mid(at);
    return out;
}

} // namespace cnready
