#include "analysis/ProjectFacts.h"

#include "analysis/MemoryBudget.h"
#include "model/FreedMemory.h"
#include "model/StringPool.h"
#include "semantic/SemanticModel.h"

#include <QHash>
#include <QSet>

#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>

namespace cnready {

namespace {

QStringView leafOf(QStringView dotted) {
    return dotted.mid(dotted.lastIndexOf(QLatin1Char('.')) + 1);
}

// What a value is once the facts so far are applied.
enum class Is : quint8 { Unknown, Array, Module, Other };

// One summarised function (or a module's top-level code) of the project. Its parameters' kinds
// and its calls' targets sit in the solver's flat lists from `paramsAt` and `toAt` on (one entry
// per summary parameter and per call): a 1M-line project has ~10^5 functions, and one vector of
// each per function cost ~12 MB at the solve, the analysis' peak.
struct Node {
    const FunctionSummary* s = nullptr;
    qint32 file = -1;
    quint32 paramsAt = 0; // per summary parameter: solved kind (Open ones), else its use
    quint32 toAt = 0;     // per call: the node it reaches, or -1
    bool returnsArray = false;
    QString shape; // of the returned array, as SummaryValue::shape
};

class Solver {
public:
    explicit Solver(const QList<FileResult>& files) : m_files(files) {
        // Every list at its final size first: grown by doubling they would hold up to twice
        // their entries, and a reallocation both copies at once.
        size_t nodes = 0, params = 0, calls = 0;
        for (const FileResult& f : files)
            for (const FunctionSummary& s : f.summaries) {
                ++nodes;
                params += size_t(s.parameters.size());
                calls += size_t(s.calls.size());
            }
        m_nodes.reserve(nodes);
        m_params.reserve(params);
        m_to.reserve(calls);
        // Nodes, and the names of the project's functions (the file order decides which of
        // two same-named functions wins, as for the hot paths).
        for (qsizetype i = 0; i < files.size(); ++i)
            for (const FunctionSummary& s : files[i].summaries) {
                Node n;
                n.file = qint32(i);
                n.s = &s;
                n.paramsAt = quint32(m_params.size());
                for (const SummaryParameter& p : s.parameters)
                    m_params.push_back(p.use == SummaryParameter::Use::Array    ? Is::Array
                                       : p.use == SummaryParameter::Use::Module ? Is::Module
                                                                                : Is::Unknown);
                if (s.returns.kind == SummaryValue::Kind::Array) {
                    n.returnsArray = true;
                    n.shape = s.returns.shape;
                }
                if (!s.qualifiedName.isEmpty() && !m_byName.contains(s.qualifiedName)) {
                    m_byName.insert(s.qualifiedName, int(m_nodes.size()));
                    m_leaves.insert(leafOf(s.qualifiedName).toString());
                    if (s.qualifiedName.endsWith(QLatin1String(".__init__"))) {
                        // `Solver(...)` names the class.
                        const QString cls = s.qualifiedName.chopped(9);
                        m_leaves.insert(leafOf(cls).toString());
                    }
                }
                m_nodes.push_back(std::move(n));
            }
        for (const FileResult& f : files)
            for (const auto& [from, to] : f.reexports) {
                m_reexports.insert(from, to);
                m_leaves.insert(leafOf(from).toString());
            }
        // Every call's target, once. The nodes go file by file, so the memo of resolved names
        // is one file's (a resolution depends on the callee and the file's module only).
        qsizetype memoFile = -1;
        QHash<QString, int> resolved;
        for (Node& n : m_nodes) {
            if (n.file != memoFile) {
                memoFile = n.file;
                resolved.clear();
            }
            n.toAt = quint32(m_to.size());
            const QString& module = m_files[n.file].moduleName;
            for (const SummaryCall& c : n.s->calls)
                m_to.push_back(resolve(c.callee, module, resolved));
        }
        // Functions handed over as values: callers the project does not see.
        for (const FileResult& f : files) {
            resolved.clear();
            for (const QString& name : f.passedFunctions)
                if (const int t = resolve(name, f.moduleName, resolved); t >= 0)
                    m_handedOver.insert(t);
        }
        // Who calls each node: the (caller node, call) pairs of node t are
        // m_callers[m_callersAt[t] .. m_callersAt[t + 1]), counted first, then filled.
        m_callersAt.assign(m_nodes.size() + 1, 0);
        for (int g = 0; g < int(m_nodes.size()); ++g)
            for (int k = 0; k < callCount(g); ++k)
                if (const int t = target(g, k); t >= 0 && t != g)
                    ++m_callersAt[size_t(t) + 1];
        for (size_t t = 0; t < m_nodes.size(); ++t)
            m_callersAt[t + 1] += m_callersAt[t];
        m_callers.resize(m_callersAt.back());
        std::vector<quint32> filled(m_callersAt.begin(), m_callersAt.end() - 1);
        for (int g = 0; g < int(m_nodes.size()); ++g)
            for (int k = 0; k < callCount(g); ++k)
                if (const int t = target(g, k); t >= 0 && t != g)
                    m_callers[filled[size_t(t)]++] = {g, k};
    }

    void solve() {
        // Monotone: a parameter or a return only ever becomes known, never unknown again, so
        // the loop ends; the bound is a guard only.
        for (int round = 0; round < 64; ++round) {
            bool changed = false;
            for (int f = 0; f < int(m_nodes.size()); ++f) {
                Node& n = m_nodes[size_t(f)];
                for (int p = 0; p < int(n.s->parameters.size()); ++p)
                    if (paramKind(n, p) == Is::Unknown &&
                        n.s->parameters[p].use == SummaryParameter::Use::Open) {
                        const Is now = parameterFromCallers(f, p);
                        if (now != Is::Unknown) {
                            m_params[n.paramsAt + quint32(p)] = now;
                            changed = true;
                        }
                    }
                if (!n.returnsArray && returnFromFacts(n)) {
                    n.returnsArray = true;
                    changed = true;
                }
            }
            if (!changed)
                break;
        }
    }

    std::vector<std::pair<qsizetype, FileFacts>> factsPerFile() const {
        std::vector<std::pair<qsizetype, FileFacts>> out;
        FileFacts facts;
        qsizetype file = -1;
        auto flush = [&] {
            if (file >= 0 && !facts.isEmpty())
                out.emplace_back(file, std::move(facts));
            facts = FileFacts{};
        };
        for (const Node& n : m_nodes) {
            if (n.file != file) {
                flush();
                file = n.file;
            }
            if (m_files[n.file].isTest)
                continue;
            for (int p = 0; p < int(n.s->parameters.size()); ++p) {
                if (n.s->parameters[p].use != SummaryParameter::Use::Open)
                    continue;
                const QString key =
                    SemanticModel::arrayParameterKey(n.s->qualifiedName, n.s->parameters[p].name);
                if (paramKind(n, p) == Is::Array)
                    facts.arrayParameters.insert(key);
                else if (paramKind(n, p) == Is::Module)
                    facts.moduleParameters.insert(key);
            }
            for (int k = 0; k < int(n.s->calls.size()); ++k) {
                const int t = callTarget(n, k);
                if (t < 0 || !m_nodes[size_t(t)].returnsArray)
                    continue;
                const Node& target = m_nodes[size_t(t)];
                // The file sees its own functions' array returns; not those of methods
                // called on instances (`s.step(u)`), nor what a fact gave.
                if (target.file == n.file && target.s->returns.kind == SummaryValue::Kind::Array &&
                    (target.s->parameters.isEmpty() ||
                     (target.s->parameters.first().name != QLatin1String("self") &&
                      target.s->parameters.first().name != QLatin1String("cls"))))
                    continue;
                facts.arrayReturns.insert(n.s->calls[k].callee, target.shape);
            }
        }
        flush();
        return out;
    }

private:
    Is paramKind(const Node& n, int p) const { return m_params[n.paramsAt + quint32(p)]; }
    int callTarget(const Node& n, int k) const { return m_to[n.toAt + quint32(k)]; }
    int callCount(int g) const { return int(m_nodes[size_t(g)].s->calls.size()); }
    int target(int g, int k) const { return callTarget(m_nodes[size_t(g)], k); }

    // The node `callee` (a name from a call in `module`) reaches, or -1: a bare name in its
    // own module; a dotted name with leading components stripped until a function matches
    // (at least "module.func" left); a class to its `__init__`; through re-exports.
    // `memo` holds the names resolved so far in `module`.
    int resolve(const QString& callee, const QString& module, QHash<QString, int>& memo) const {
        if (callee.isEmpty() || !m_leaves.contains(leafOf(callee).toString()))
            return -1;
        if (const auto it = memo.constFind(callee); it != memo.cend())
            return *it;
        int found = -1;
        QString name =
            callee.contains(QLatin1Char('.')) ? callee : module + QLatin1Char('.') + callee;
        for (int hop = 0; hop < 4 && found < 0; ++hop) {
            found = byName(name);
            if (found < 0)
                found = byName(name + QStringLiteral(".__init__"));
            if (found >= 0)
                break;
            // `pkg.energy` → `pkg.core.energy`: the longest re-exported prefix.
            QString next;
            for (qsizetype dot = name.size(); dot > 0;
                 dot = name.lastIndexOf(QLatin1Char('.'), dot - 1)) {
                const auto r = m_reexports.constFind(name.left(dot));
                if (r != m_reexports.cend()) {
                    next = *r + name.mid(dot);
                    break;
                }
                if (dot == 0)
                    break;
            }
            if (next.isEmpty() || next == name)
                break;
            name = next;
        }
        memo.insert(callee, found);
        return found;
    }
    int byName(const QString& dotted) const {
        QStringView rest(dotted);
        for (;;) {
            if (const auto it = m_byName.constFind(rest.toString()); it != m_byName.cend())
                return *it;
            const qsizetype dot = rest.indexOf(QLatin1Char('.'));
            if (dot < 0)
                return -1;
            rest = rest.mid(dot + 1);
            if (!rest.contains(QLatin1Char('.')))
                return -1;
        }
    }

    Is valueIn(const SummaryValue& v, const Node& caller, int call) const {
        switch (v.kind) {
        case SummaryValue::Kind::Array:
            return Is::Array;
        case SummaryValue::Kind::Module:
            return Is::Module;
        case SummaryValue::Kind::Other:
            return Is::Other;
        case SummaryValue::Kind::Parameter:
            return v.parameter >= 0 && v.parameter < caller.s->parameters.size()
                       ? paramKind(caller, v.parameter)
                       : Is::Unknown;
        case SummaryValue::Kind::CallResult: {
            // The argument is itself a call: its own resolution is not stored, so it is found
            // among the caller's calls by name.
            Q_UNUSED(call);
            const auto it =
                std::find_if(caller.s->calls.cbegin(), caller.s->calls.cend(),
                             [&](const SummaryCall& c) { return c.callee == v.callee; });
            if (it == caller.s->calls.cend())
                return Is::Unknown;
            const int t = callTarget(caller, int(it - caller.s->calls.cbegin()));
            return t >= 0 && m_nodes[size_t(t)].returnsArray ? Is::Array : Is::Unknown;
        }
        case SummaryValue::Kind::Unknown:
            break;
        }
        return Is::Unknown;
    }

    Is parameterFromCallers(int f, int p) const {
        if (m_files[m_nodes[size_t(f)].file].isTest || m_handedOver.contains(f))
            return Is::Unknown;
        const SummaryParameter& param = m_nodes[size_t(f)].s->parameters[p];
        Is all = Is::Unknown;
        for (quint32 i = m_callersAt[size_t(f)]; i < m_callersAt[size_t(f) + 1]; ++i) {
            const auto [g, k] = m_callers[i];
            const Node& caller = m_nodes[size_t(g)];
            const SummaryCall& c = caller.s->calls[k];
            const SummaryValue* v = nullptr;
            for (const auto& [kw, value] : c.keywords)
                if (kw == param.name)
                    v = &value;
            if (!v) {
                if (c.splat || param.position < 0 || param.position >= c.positional.size())
                    return Is::Unknown; // left to its default, or hidden by a splat
                v = &c.positional[param.position];
            }
            const Is now = valueIn(*v, caller, k);
            if (now != Is::Array && now != Is::Module)
                return Is::Unknown;
            if (all != Is::Unknown && all != now)
                return Is::Unknown;
            all = now;
        }
        return all;
    }

    bool returnFromFacts(Node& n) const {
        const SummaryValue& r = n.s->returns;
        if (r.kind == SummaryValue::Kind::Parameter) {
            if (r.parameter < 0 || r.parameter >= n.s->parameters.size() ||
                paramKind(n, r.parameter) != Is::Array)
                return false;
            const qint16 pos = n.s->parameters[r.parameter].position;
            const bool method = !n.s->parameters.isEmpty() &&
                                (n.s->parameters.first().name == QLatin1String("self") ||
                                 n.s->parameters.first().name == QLatin1String("cls"));
            const int at = pos - (method ? 1 : 0);
            n.shape = at >= 0 ? QLatin1Char('=') + QString::number(at) : QString();
            return true;
        }
        if (r.kind == SummaryValue::Kind::CallResult) {
            const Is k = valueIn(r, n, -1);
            if (k != Is::Array)
                return false;
            const auto it =
                std::find_if(n.s->calls.cbegin(), n.s->calls.cend(),
                             [&](const SummaryCall& c) { return c.callee == r.callee; });
            const int t = callTarget(n, int(it - n.s->calls.cbegin()));
            // The callee's own shape speaks of its arguments, not of this function's.
            const QString& s = m_nodes[size_t(t)].shape;
            n.shape =
                s.contains(QLatin1Char('@')) || s.startsWith(QLatin1Char('=')) ? QString() : s;
            return true;
        }
        return false;
    }

    const QList<FileResult>& m_files;
    std::vector<Node> m_nodes;
    QHash<QString, int> m_byName;
    QHash<QString, QString> m_reexports;
    QSet<QString> m_leaves;
    QSet<int> m_handedOver;
    std::vector<Is> m_params;         // the nodes' parameters, each node's from its paramsAt
    std::vector<int> m_to;            // the nodes' call targets, each node's from its toAt
    std::vector<quint32> m_callersAt; // per node, then the end: its first caller
    std::vector<std::pair<int, int>> m_callers; // (caller node, call), by the node called
};

} // namespace

std::vector<std::pair<qsizetype, FileFacts>> solveProjectFacts(const QList<FileResult>& files) {
    Solver s(files);
    s.solve();
    return s.factsPerFile();
}

int applyProjectFacts(const QString& root, QList<FileResult>& files, const AnalyzerLimits& limits,
                      MemoryBudget& budget) {
    std::vector<std::pair<qsizetype, FileFacts>> facts = solveProjectFacts(files);
    // The records served the solver only: a big project would carry them through the second
    // analysis below (which keeps its files' own records out too) and on to the report.
    const auto dropRecords = [](FileResult& f) {
        f.summaries = {};
        f.reexports = {};
        f.passedFunctions = {};
    };
    for (FileResult& f : files)
        dropRecords(f);
    releaseFreedMemory();
    int total = 0;
    for (const auto& [file, f] : facts)
        total += int(f.arrayParameters.size() + f.moduleParameters.size() + f.arrayReturns.size());
    if (!facts.empty()) {
        // Largest first: the pass ends when its last file does, and a big file started last
        // would run alone (the order of the results does not depend on this).
        std::vector<const std::pair<qsizetype, FileFacts>*> work;
        for (const auto& w : facts)
            work.push_back(&w);
        std::stable_sort(work.begin(), work.end(), [&](const auto* a, const auto* b) {
            return files[a->first].bytes > files[b->first].bytes;
        });
        FileResult* out = files.data();
        StringPool pool;
        QtConcurrent::blockingMap(work, [&](const std::pair<qsizetype, FileFacts>* w) {
            FileResult r = analyzeFile(root, out[w->first].path, limits, &budget, &w->second);
            dropRecords(r);
            pool.compact(r);
            out[w->first] = std::move(r);
        });
    }
    return total;
}

} // namespace cnready
