#include "port/UnifiedDiff.h"

#include <algorithm>
#include <vector>

namespace cnready {

namespace {

// Lines with their endings; the last one may have none.
QList<QByteArray> splitLines(const QByteArray& text) {
    QList<QByteArray> lines;
    qsizetype at = 0;
    while (at < text.size()) {
        const qsizetype nl = text.indexOf('\n', at);
        const qsizetype end = nl < 0 ? text.size() : nl + 1;
        lines << text.mid(at, end - at);
        at = end;
    }
    return lines;
}

// A run of old lines [first, last] and the new lines that replace it.
struct Block {
    qsizetype first = 0, last = 0;
    QList<QByteArray> replacement;
};

void appendLine(QByteArray& out, char mark, const QByteArray& line) {
    out += mark;
    out += line;
    if (!line.endsWith('\n'))
        out += "\n\\ No newline at end of file\n";
}

} // namespace

QByteArray unifiedDiff(const QString& path, const QByteArray& source,
                       const QList<Rewrite>& rewrites, int context) {
    const QList<QByteArray> lines = splitLines(source);
    std::vector<qsizetype> starts; // byte offset of each line
    starts.reserve(size_t(lines.size()) + 1);
    qsizetype off = 0;
    for (const QByteArray& l : lines) {
        starts.push_back(off);
        off += l.size();
    }
    starts.push_back(off);
    auto lineOf = [&](qsizetype byte) {
        const auto it = std::upper_bound(starts.begin(), starts.end() - 1, byte);
        return qsizetype(it - starts.begin()) - 1;
    };

    // The lines each edit touches, merged where they overlap.
    QList<Rewrite> sorted = rewrites;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Rewrite& a, const Rewrite& b) { return a.startByte < b.startByte; });
    std::vector<std::pair<Block, QList<Rewrite>>> blocks;
    for (const Rewrite& r : sorted) {
        if (qsizetype(r.endByte) > source.size() || r.endByte < r.startByte || lines.isEmpty())
            continue;
        const qsizetype first = lineOf(qsizetype(r.startByte));
        const qsizetype last = r.endByte > r.startByte ? lineOf(qsizetype(r.endByte) - 1) : first;
        if (!blocks.empty() && first <= blocks.back().first.last + 1) {
            blocks.back().first.last = std::max(blocks.back().first.last, last);
            blocks.back().second << r;
        } else {
            blocks.push_back({Block{first, last, {}}, {r}});
        }
    }
    std::vector<Block> changed;
    for (auto& [b, edits] : blocks) {
        const qsizetype base = starts[size_t(b.first)];
        const QByteArray old = source.mid(base, starts[size_t(b.last) + 1] - base);
        for (Rewrite& e : edits) {
            e.startByte -= uint32_t(base);
            e.endByte -= uint32_t(base);
        }
        const QByteArray now = applyRewrites(old, edits);
        if (now == old)
            continue;
        b.replacement = splitLines(now);
        changed.push_back(b);
    }
    if (changed.empty())
        return {};

    QByteArray out;
    const QByteArray p = path.toUtf8();
    out += "diff --git a/" + p + " b/" + p + "\n--- a/" + p + "\n+++ b/" + p + "\n";
    qsizetype delta = 0; // new line number minus old line number after the blocks so far
    for (size_t i = 0; i < changed.size();) {
        // One hunk: blocks whose context would touch or overlap.
        size_t j = i;
        while (j + 1 < changed.size() && changed[j + 1].first - changed[j].last - 1 <= 2 * context)
            ++j;
        const qsizetype from = std::max<qsizetype>(0, changed[i].first - context);
        const qsizetype to = std::min<qsizetype>(lines.size() - 1, changed[j].last + context);
        QByteArray body;
        qsizetype oldCount = 0, newCount = 0, hunkDelta = 0;
        qsizetype at = from;
        for (size_t k = i; k <= j; ++k) {
            for (; at < changed[k].first; ++at, ++oldCount, ++newCount)
                appendLine(body, ' ', lines[at]);
            for (qsizetype l = changed[k].first; l <= changed[k].last; ++l, ++oldCount)
                appendLine(body, '-', lines[l]);
            for (const QByteArray& l : changed[k].replacement) {
                appendLine(body, '+', l);
                ++newCount;
            }
            hunkDelta += changed[k].replacement.size() - (changed[k].last - changed[k].first + 1);
            at = changed[k].last + 1;
        }
        for (; at <= to; ++at, ++oldCount, ++newCount)
            appendLine(body, ' ', lines[at]);
        const qsizetype oldStart = from + 1;
        const qsizetype newStart = newCount == 0 ? from + delta : from + 1 + delta;
        out += "@@ -" + QByteArray::number(oldStart);
        if (oldCount != 1)
            out += ',' + QByteArray::number(oldCount);
        out += " +" + QByteArray::number(newStart);
        if (newCount != 1)
            out += ',' + QByteArray::number(newCount);
        out += " @@\n" + body;
        delta += hunkDelta;
        i = j + 1;
    }
    return out;
}

} // namespace cnready
