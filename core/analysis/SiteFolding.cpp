#include "analysis/SiteFolding.h"

#include "parse/SyntaxTree.h"
#include "parse/WorkCounters.h"
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

// The innermost loop of `model` whose lines contain a line: the first loop, in document
// order, of the largest depth among those whose lines hold it. Built once per file (asking
// every loop for every finding grew with findings x loops on a large module); each loop fills
// its own lines, so the work is the sum of the loops' spans (lines x nesting).
class InnermostLoops {
public:
    explicit InnermostLoops(const SemanticModel& model) : m_loops(model.loops()) {
        for (size_t i = 0; i < m_loops.size(); ++i) {
            const LoopInfo& L = m_loops[i];
            const int from = std::max(0, SyntaxTree::line(L.node));
            const int to = SyntaxTree::endLine(L.node);
            if (to < from)
                continue;
            if (size_t(to) >= m_best.size())
                m_best.resize(size_t(to) + 1, -1);
            t_workCounters.loopVisits += quint64(to - from + 1);
            for (int line = from; line <= to; ++line) {
                int& best = m_best[size_t(line)];
                if (best < 0 || L.depth > m_loops[size_t(best)].depth)
                    best = int(i);
            }
        }
    }
    const LoopInfo* at(int line) const {
        if (line < 0 || size_t(line) >= m_best.size() || m_best[size_t(line)] < 0)
            return nullptr;
        return &m_loops[size_t(m_best[size_t(line)])];
    }

private:
    const std::vector<LoopInfo>& m_loops;
    std::vector<int> m_best; // per line: position in m_loops, -1 outside every loop
};

// Calls that hand a value on as it is: conversions, formatting and logging
// (`int(n)`, `"{}".format(n)`, `log.info("%d", n)`, `n.item()`). Any other call computes a new
// value from its arguments (`np.sum(r)`), which is not the value a branch tests.
bool passesValueOn(const SemanticModel& model, TSNode fn) {
    static constexpr std::string_view kBuiltins[] = {"int", "float", "bool",  "complex",
                                                     "str", "repr",  "print", "format"};
    static constexpr std::string_view kMethods[] = {"format",   "item",    "tolist",    "debug",
                                                    "info",     "warning", "warn",      "error",
                                                    "critical", "log",     "exception", "write"};
    const std::string_view t = SyntaxTree::type(fn);
    if (t == "identifier") {
        const std::string_view name = model.text(fn);
        return std::find(std::begin(kBuiltins), std::end(kBuiltins), name) != std::end(kBuiltins);
    }
    if (t == "attribute") {
        const std::string_view name = model.text(ts_node_child_by_field_name(fn, "attribute", 9));
        return std::find(std::begin(kMethods), std::end(kMethods), name) != std::end(kMethods);
    }
    return false;
}

// The values a finding's range reads as they are: identifiers and `obj.attr` chains that are
// not inside a computing call (`n` in `int(n)` or `n == 0`, not `r` in `np.sum(r)`), leaving
// out what is called and `self`.
QSet<QString> namesRead(const SemanticModel& model, const SourceRange& r) {
    QSet<QString> names;
    const TSNode root = model.tree().root();
    const TSPoint from{uint32_t(std::max(0, r.line - 1)), uint32_t(std::max(0, r.column - 1))};
    const TSPoint to{uint32_t(std::max(0, r.endLine - 1)), uint32_t(std::max(0, r.endColumn - 1))};
    const TSNode top = ts_node_named_descendant_for_point_range(root, from, to);
    if (ts_node_is_null(top))
        return names;
    std::vector<TSNode> todo{top};
    while (!todo.empty()) {
        const TSNode n = todo.back();
        todo.pop_back();
        const std::string_view t = SyntaxTree::type(n);
        if (t == "call") {
            const TSNode fn = ts_node_child_by_field_name(n, "function", 8);
            if (!passesValueOn(model, fn))
                continue;
            // The receiver of a method call is read (`n.item()`), the function name is not.
            if (SyntaxTree::type(fn) == "attribute")
                todo.push_back(ts_node_child_by_field_name(fn, "object", 6));
            const TSNode args = ts_node_child_by_field_name(n, "arguments", 9);
            if (!ts_node_is_null(args))
                todo.push_back(args);
            continue;
        }
        if (t == "identifier" || t == "attribute") {
            const std::string_view name = model.text(n);
            if (name != "self")
                names.insert(QString::fromUtf8(name.data(), qsizetype(name.size())));
            if (t == "attribute") // `a.shape` reads `a`, not a name `shape`
                todo.push_back(ts_node_child_by_field_name(n, "object", 6));
            continue;
        }
        if (t == "assignment" || t == "augmented_assignment") { // the value, not its target
            todo.push_back(ts_node_child_by_field_name(n, "right", 5));
            continue;
        }
        for (uint32_t k = 0; k < ts_node_named_child_count(n); ++k)
            todo.push_back(ts_node_named_child(n, k));
    }
    return names;
}

} // namespace

int foldSyncIntoBranch(const SemanticModel& model, QList<Finding>& findings) {
    struct Branch {
        const LoopInfo* loop;
        QSet<QString> names;
    };
    bool anySync = false, anyBranch = false;
    for (const Finding& f : findings) {
        anySync = anySync || f.code == QLatin1String("R104");
        anyBranch = anyBranch || f.code == QLatin1String("R105");
    }
    if (!anySync || !anyBranch)
        return 0;
    const InnermostLoops loops(model);
    std::vector<Branch> branches;
    QSet<const LoopInfo*> branchLoops;
    for (const Finding& f : findings) {
        if (f.code != QLatin1String("R105"))
            continue;
        if (const LoopInfo* L = loops.at(f.range.line)) {
            branches.push_back({L, namesRead(model, f.range)});
            branchLoops.insert(L);
        }
    }
    if (branches.empty())
        return 0;
    const auto covered = [&](const Finding& f) {
        if (f.code != QLatin1String("R104"))
            return false;
        const LoopInfo* L = loops.at(f.range.line);
        if (!L || !branchLoops.contains(L))
            return false; // no branch in this loop: no names to compare
        const QSet<QString> read = namesRead(model, f.range);
        for (const Branch& b : branches)
            if (b.loop == L && b.names.intersects(read))
                return true;
        return false;
    };
    const qsizetype before = findings.size();
    findings.removeIf(covered);
    return int(before - findings.size());
}

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
    qsizetype before = findings.size();
    findings.removeIf(dropped);
    // The same code twice on one line (`idx = rng.choice(np.arange(n), k)` allocates twice):
    // one site. The port's rewrites (R109, R110, R202) act per call and keep every finding.
    QSet<QString> seen;
    findings.removeIf([&](const Finding& f) {
        if ((f.category != Category::Blocks && f.category != Category::Refactor) ||
            f.code == QLatin1String("R109") || f.code == QLatin1String("R110") ||
            f.code == QLatin1String("R202"))
            return false;
        const QString key = f.code + QLatin1Char(':') + QString::number(f.range.line);
        if (seen.contains(key))
            return true;
        seen.insert(key);
        return false;
    });
    return int(before - findings.size());
}

} // namespace cnready
