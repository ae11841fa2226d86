#include "analysis/SiteFolding.h"

#include "parse/SyntaxTree.h"
#include "semantic/SemanticModel.h"

#include <QSet>

#include <algorithm>
#include <utility>
#include <vector>

namespace cnready {

namespace {

bool reportsElementLoop(const Finding& f) {
    return f.code == QLatin1String("R101") || f.code == QLatin1String("R103");
}

bool symptomOfElementLoop(const Finding& f) {
    static const QLatin1String codes[] = {
        QLatin1String("R104"), QLatin1String("R106"), QLatin1String("R201"),
        QLatin1String("R202"), QLatin1String("R206"),
    };
    return std::find(std::begin(codes), std::end(codes), f.code) != std::end(codes);
}

} // namespace

int foldIntoElementLoops(const SemanticModel& model, QList<Finding>& findings) {
    // Header lines of the reported loops, then their spans [header, last line].
    std::vector<int> headers;
    for (const Finding& f : findings)
        if (reportsElementLoop(f))
            headers.push_back(f.range.line);
    if (headers.empty())
        return 0;
    std::sort(headers.begin(), headers.end());
    headers.erase(std::unique(headers.begin(), headers.end()), headers.end());
    std::vector<std::pair<int, int>> spans;
    for (const LoopInfo& L : model.loops()) {
        const int line = SyntaxTree::line(L.node);
        if (std::binary_search(headers.begin(), headers.end(), line))
            spans.emplace_back(line, SyntaxTree::endLine(L.node));
    }
    if (spans.empty())
        return 0;
    const auto inside = [&](const Finding& f) {
        return symptomOfElementLoop(f) &&
               std::any_of(spans.begin(), spans.end(), [&](const std::pair<int, int>& s) {
                   return f.range.line > s.first && f.range.line <= s.second;
               });
    };
    const qsizetype before = findings.size();
    findings.removeIf(inside);
    return int(before - findings.size());
}

int foldSameStatement(QList<Finding>& findings) {
    // (kept, dropped): the write through a would-be view is the defect, the stride only its
    // means (`a.flat[::n + 1] = v`: np.fill_diagonal fixes both); iterating an array covers the
    // builtin that consumes the iteration (`sorted(x for x in a)`).
    static const std::pair<QLatin1String, QLatin1String> pairs[] = {
        {QLatin1String("R205"), QLatin1String("R106")},
        {QLatin1String("R103"), QLatin1String("R110")},
    };
    QSet<QString> kept; // "code:line" of every keeper
    for (const Finding& f : findings)
        for (const auto& [keep, drop] : pairs)
            if (f.code == keep)
                kept.insert(f.code + QLatin1Char(':') + QString::number(f.range.line));
    const auto dropped = [&](const Finding& f) {
        if (kept.isEmpty())
            return false;
        for (const auto& [keep, drop] : pairs)
            if (f.code == drop &&
                kept.contains(keep + QLatin1Char(':') + QString::number(f.range.line)))
                return true;
        return false;
    };
    const qsizetype before = findings.size();
    findings.removeIf(dropped);
    return int(before - findings.size());
}

} // namespace cnready
