#include "analysis/ProjectAnalyzer.h"

#include "analysis/MemoryBudget.h"
#include "model/StringPool.h"
#include "semantic/SemanticModel.h"

#include <QHash>
#include <QSet>

#include <QtConcurrent/QtConcurrentMap>

#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if defined(Q_OS_UNIX)
#include <dlfcn.h>
#endif

#include <algorithm>
#include <memory>
#include <numeric>
#include <vector>

namespace cnready {

namespace {

// Analyzes one file and shares its strings with the files done before: a big project keeps
// every result until the merge, and most of their strings (function names, canonical API
// names, messages, source lines) repeat.
FileResult analyzeCompact(const QString& root, const QString& rel, const AnalyzerLimits& limits,
                          MemoryBudget& budget, StringPool& pool) {
    FileResult r = analyzeFile(root, rel, limits, &budget);
    pool.compact(r);
    return r;
}

// Hands freed heap pages back to the system. The workers' allocations (syntax trees, models,
// per-file lists) are freed in their threads' arenas, which the merge and the report on the
// calling thread do not allocate from, so without this the freed pages stay resident. glibc:
// malloc_trim. jemalloc (the programs link it when installed; core does not depend on it, so
// it is looked up at run time): purge every arena's dirty pages at once instead of letting
// them decay over the next seconds.
void releaseFreedMemory() {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
#if defined(Q_OS_UNIX)
    using Mallctl = int (*)(const char*, void*, size_t*, void*, size_t);
    static const auto mallctl = reinterpret_cast<Mallctl>(dlsym(RTLD_DEFAULT, "mallctl"));
    if (mallctl)
        mallctl("arena.4096.purge", nullptr, nullptr, nullptr, 0); // 4096: MALLCTL_ARENAS_ALL
#endif
}

QStringView leafOf(const QString& dotted) {
    return QStringView(dotted).mid(dotted.lastIndexOf(QLatin1Char('.')) + 1);
}

// Whether call `c` passes an ndarray for parameter `p` (not: another kind, an unknown value,
// the default, or a position hidden by a splat).
bool passesArray(const CallArguments& c, const OpenParameter& p) {
    // A keyword names the parameter whatever the positions.
    if (!c.keywords.isEmpty())
        for (QStringView kw : QStringView(c.keywords).split(QLatin1Char(',')))
            if (kw.size() > 1 && kw.mid(1) == p.name)
                return kw.front() == QLatin1Char('A');
    if (c.splat || p.position < 0 || p.position >= 32 || p.position >= int(c.positional))
        return false;
    return (c.arrayArgs >> p.position) & 1u;
}

// One round: the facts every call of the project supports (see applyParameterFacts), as
// "qualifiedName(param" keys with the index of the file that defines the function, sorted.
QList<std::pair<QString, qsizetype>> collectParameterFacts(const QList<FileResult>& files) {
    QHash<QString, qsizetype> owner; // function with open parameters → file index
    // Test modules are not the workload (their findings decide no verdict): their functions
    // are not analyzed a second time, though their calls still count.
    for (qsizetype i = 0; i < files.size(); ++i)
        if (!files[i].isTest)
            for (const OpenParameter& p : files[i].openParameters)
                owner.insert(p.function, i);
    if (owner.isEmpty())
        return {};
    const ProjectFunctionIndex resolver(files);
    auto callsOf = [](const FileResult& f) {
        return f.callArguments.size() == f.calls.size() ? f.calls.size() : 0;
    };
    // Candidates: functions some call passes an ndarray to. Only those calls are resolved
    // first (few); every other call is resolved only when its leaf names a candidate.
    QSet<QString> candidates;
    for (const FileResult& f : files)
        for (qsizetype k = 0, n = callsOf(f); k < n; ++k) {
            const CallArguments& a = f.callArguments[k];
            if (a.arrayArgs == 0 && a.keywords.isEmpty())
                continue;
            const CallSite& c = f.calls[k];
            const QString target = resolver.resolve(c.callee, f.moduleName);
            if (!target.isEmpty() && owner.contains(target) && c.caller != target)
                candidates.insert(target);
        }
    // A function handed over as a value somewhere has callers the project does not see.
    for (const FileResult& f : files)
        for (const QString& name : f.passedFunctions)
            if (!candidates.isEmpty())
                candidates.remove(resolver.resolve(name, f.moduleName));
    if (candidates.isEmpty())
        return {};
    std::vector<QString> leaves;
    for (const QString& c : std::as_const(candidates))
        leaves.push_back(leafOf(c).toString());
    std::sort(leaves.begin(), leaves.end());
    const auto viewLess = [](const auto& a, const auto& b) {
        return QStringView(a) < QStringView(b);
    };
    // Per candidate parameter: 1 while every call passes an ndarray, 0 once one does not.
    QHash<QString, char> verdicts;
    for (const FileResult& f : files)
        for (qsizetype k = 0, n = callsOf(f); k < n; ++k) {
            const CallSite& c = f.calls[k];
            if (!std::binary_search(leaves.begin(), leaves.end(), leafOf(c.callee), viewLess))
                continue;
            const QString target = resolver.resolve(c.callee, f.moduleName);
            if (target.isEmpty() || !candidates.contains(target) || c.caller == target)
                continue; // a recursive call passes on what the function was given
            for (const OpenParameter& p : files[owner.value(target)].openParameters) {
                if (p.function != target)
                    continue;
                const QString key = SemanticModel::arrayParameterKey(target, p.name);
                const char now = passesArray(f.callArguments[k], p) ? 1 : 0;
                const auto it = verdicts.find(key);
                if (it == verdicts.end())
                    verdicts.insert(key, now);
                else
                    *it = char(*it & now);
            }
        }
    QList<std::pair<QString, qsizetype>> facts;
    for (auto it = verdicts.cbegin(); it != verdicts.cend(); ++it)
        if (it.value())
            facts.append(
                {it.key(), owner.value(it.key().left(it.key().indexOf(QLatin1Char('('))))});
    std::sort(facts.begin(), facts.end());
    return facts;
}

} // namespace

int applyParameterFacts(const QString& root, QList<FileResult>& files, const AnalyzerLimits& limits,
                        MemoryBudget& budget) {
    constexpr int kRounds = 3;
    QHash<qsizetype, QSet<QString>> factsOf; // file index → every fact about it so far
    int total = 0;
    for (int round = 0; round < kRounds; ++round) {
        std::vector<qsizetype> again;
        for (const auto& [key, file] : collectParameterFacts(files)) {
            QSet<QString>& known = factsOf[file];
            if (known.contains(key))
                continue;
            known.insert(key);
            ++total;
            if (again.empty() || again.back() != file)
                again.push_back(file);
        }
        std::sort(again.begin(), again.end());
        again.erase(std::unique(again.begin(), again.end()), again.end());
        if (again.empty())
            break;

        // The sets are looked up before the workers start: they only read them.
        std::vector<std::pair<qsizetype, const QSet<QString>*>> work;
        for (qsizetype i : again)
            work.emplace_back(i, &*std::as_const(factsOf).find(i));
        // Largest first: the round ends when its last file does, and a big file started last
        // would run alone (the order of the results does not depend on this).
        std::stable_sort(work.begin(), work.end(), [&](const auto& a, const auto& b) {
            return files[a.first].bytes > files[b.first].bytes;
        });
        FileResult* out = files.data();
        StringPool pool;
        QtConcurrent::blockingMap(work, [&](const std::pair<qsizetype, const QSet<QString>*>& w) {
            FileResult r = analyzeFile(root, out[w.first].path, limits, &budget, w.second);
            pool.compact(r);
            out[w.first] = std::move(r);
        });
    }
    // The records served this pass only: a big project would carry them to the report.
    for (FileResult& f : files) {
        f.callArguments = {};
        f.openParameters = {};
        f.passedFunctions = {};
    }
    return total;
}

ProjectResult analyzeProject(const ScanResult& scan, const AnalyzerLimits& limits) {
    MemoryBudget budget(limits.concurrentAnalysisBytes);
    return analyzeProject(scan, limits, budget);
}

ProjectResult analyzeProject(const ScanResult& scan, const AnalyzerLimits& limits,
                             MemoryBudget& budget) {
    // Each worker writes its file's result straight into its slot: no future result store
    // holding a second copy of every FileResult while the merge builds a third.
    QList<FileResult> results(scan.files.size());
    std::vector<qsizetype> indices(size_t(scan.files.size()));
    std::iota(indices.begin(), indices.end(), qsizetype(0));
    const QString root = scan.root;
    FileResult* out = results.data();
    {
        StringPool pool;
        QtConcurrent::blockingMap(indices, [&](qsizetype i) {
            out[i] = analyzeCompact(root, scan.files.at(i), limits, budget, pool);
        });
        applyParameterFacts(root, results, limits, budget);
    } // the pool's own references go before the merge copies anything
    // Freed trees and models, then the per-file lists the merge moved out.
    releaseFreedMemory();
    ProjectResult project = mergeFileResults(scan.root, std::move(results), scan.diagnostics);
    releaseFreedMemory();
    return project;
}

} // namespace cnready
