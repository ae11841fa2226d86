#include "model/ProjectResult.h"

#include "model/FreedMemory.h"

#include <QHash>

#include <tuple>

#include <algorithm>
#include <utility>

namespace cnready {

ProjectFunctionIndex::ProjectFunctionIndex(const QList<FileResult>& files) {
    for (const FileResult& f : files)
        for (const FunctionInfo& fn : f.functions)
            m_names.insert(fn.qualifiedName);
}

QString ProjectFunctionIndex::resolve(const QString& callee, const QString& callerModule) const {
    if (callee.isEmpty())
        return {};
    if (!callee.contains(QLatin1Char('.'))) {
        const QString local = callerModule + QLatin1Char('.') + callee;
        return m_names.contains(local) ? local : QString();
    }
    QStringView rest(callee);
    for (;;) {
        const QString name = rest.toString();
        if (m_names.contains(name))
            return name;
        const qsizetype dot = rest.indexOf(QLatin1Char('.'));
        if (dot < 0)
            return {};
        rest = rest.mid(dot + 1);
        if (!rest.contains(QLatin1Char('.')))
            return {};
    }
}

ProjectResult mergeFileResults(const QString& root, QList<FileResult> files,
                               const QList<FileDiagnostic>& scanDiagnostics) {
    ProjectResult p;
    p.root = root;
    std::sort(files.begin(), files.end(),
              [](const FileResult& a, const FileResult& b) { return a.path < b.path; });

    // Project-wide hot functions: reached from a call inside a loop, then transitively.
    const ProjectFunctionIndex index(files);
    // Tests exercise the code but are not its workload: a test calling a library function
    // in a loop makes only functions of test files hot, never the library's.
    QSet<QString> testFunctions;
    for (const FileResult& f : files)
        if (f.isTest)
            for (const FunctionInfo& fn : f.functions)
                testFunctions.insert(fn.qualifiedName);
    QHash<QString, QStringList> callsFrom; // caller → resolved callees
    QStringList work;
    for (const FileResult& f : files)
        for (const CallSite& c : f.calls) {
            QString target = index.resolve(c.callee, f.moduleName);
            if (target.isEmpty() && !c.callee.isEmpty()) // `Cell(u)` of a class imported from
                target = index.resolve(c.callee + QStringLiteral(".__init__"), f.moduleName);
            if (target.isEmpty())
                continue;
            if (f.isTest && !testFunctions.contains(target))
                continue;
            if (c.inLoop)
                work.append(target);
            else if (!c.caller.isEmpty())
                callsFrom[c.caller].append(target);
        }
    while (!work.isEmpty()) {
        const QString fn = work.takeLast();
        if (p.hotFunctions.contains(fn))
            continue;
        p.hotFunctions.insert(fn);
        work.append(callsFrom.value(fn));
    }

    // Resolve in place, then copy each list once into an exactly sized project-wide list:
    // a big project holds ~200k findings and API uses, so growth slack and temporary lists
    // would cost tens of MB.
    qsizetype findingCount = 0, useCount = 0, offCount = 0,
              diagnosticCount = scanDiagnostics.size();
    for (FileResult& f : files) {
        p.totalLines += f.lines;
        p.totalBytes += f.bytes;
        qsizetype kept = 0;
        for (qsizetype i = 0; i < f.findings.size(); ++i) {
            Finding& fi = f.findings[i];
            if (!fi.requiresHotFunction.isEmpty()) {
                if (!p.hotFunctions.contains(fi.requiresHotFunction))
                    continue;
                fi.hot = true;
            } else if (!fi.hot && !fi.function.isEmpty()) {
                // Findings of every rule carry the project-wide hot flag, not only the
                // hot-path-only ones: a function reached from a loop elsewhere is hot.
                const QString fn = f.moduleName.isEmpty()
                                       ? fi.function
                                       : f.moduleName + QLatin1Char('.') + fi.function;
                fi.hot = p.hotFunctions.contains(fn);
            }
            if (kept != i)
                f.findings[kept] = std::move(fi);
            ++kept;
        }
        f.findings.resize(kept); // no reallocation: the list is emptied below
        // Off the compute path: a note that waits on a hot function is dropped when it is not
        // hot (a hot-path-only rule), or moves onto the compute path when it is (`__init__`
        // called once per pass is not one-time set-up).
        qsizetype keptOff = 0;
        for (qsizetype i = 0; i < f.offComputePath.size(); ++i) {
            Finding& fi = f.offComputePath[i];
            if (!fi.requiresHotFunction.isEmpty()) {
                const bool hot = p.hotFunctions.contains(fi.requiresHotFunction);
                if (fi.promoteIfHot && hot) {
                    fi.hot = true;
                    fi.pathRole = PathRole::Compute;
                    fi.promoteIfHot = false;
                    fi.requiresHotFunction.clear();
                    f.findings.append(std::move(fi));
                    continue;
                }
                if (!fi.promoteIfHot && !hot)
                    continue;
                fi.hot = hot;
            }
            if (keptOff != i)
                f.offComputePath[keptOff] = std::move(fi);
            ++keptOff;
        }
        f.offComputePath.resize(keptOff);
        offCount += keptOff;
        // Suppressed findings resolve the same way: one that would not have been kept is not
        // counted as suppressed either.
        for (Finding& fi : f.suppressed) {
            if (!fi.requiresHotFunction.isEmpty()) {
                if (!p.hotFunctions.contains(fi.requiresHotFunction))
                    continue;
                fi.hot = true;
            }
            p.suppressed.append(std::move(fi));
        }
        f.suppressed = {};
        findingCount += f.findings.size();
        useCount += f.apiUses.size();
        diagnosticCount += f.diagnostics.size();
    }
    p.findings.reserve(findingCount);
    p.offComputePath.reserve(offCount);
    p.apiUses.reserve(useCount);
    p.diagnostics.reserve(diagnosticCount);
    // Findings and API uses move to the project-wide lists (one copy of ~200k entries each,
    // not two); the per-file lists are left empty.
    const auto useLess = [](const ApiUse& a, const ApiUse& b) {
        return std::tie(a.range.path, a.range.line, a.range.column, a.name) <
               std::tie(b.range.path, b.range.line, b.range.column, b.name);
    };
    // The per-file lists were built by the analysis workers, in their threads' heap arenas:
    // what is freed there stays resident until purged, while the project-wide lists grow in
    // this thread's. Purging every few MB keeps the two from adding up (~80 MB on a 1M-line
    // project).
    constexpr qint64 kPurgeBytes = 8 << 20;
    qint64 freed = 0;
    for (FileResult& f : files) {
        p.diagnostics.append(f.diagnostics);
        freed += f.findings.size() * qint64(sizeof(Finding)) +
                 f.offComputePath.size() * qint64(sizeof(Finding)) +
                 f.apiUses.size() * qint64(sizeof(ApiUse));
        p.findings.append(std::move(f.findings));
        p.offComputePath.append(std::move(f.offComputePath));
        const qsizetype start = p.apiUses.size();
        p.apiUses.append(std::move(f.apiUses)); // copies instead when the list is shared
        for (auto u = p.apiUses.begin() + start; u != p.apiUses.end(); ++u)
            if (!u->requiresHotFunction.isEmpty() &&
                p.hotFunctions.contains(u->requiresHotFunction))
                u->hot = true;
        // Sorting file by file needs a buffer of one file's uses, not of the project's.
        std::stable_sort(p.apiUses.begin() + start, p.apiUses.end(), useLess);
        f.findings = {};
        f.offComputePath = {};
        f.apiUses = {};
        if (freed >= kPurgeBytes) {
            releaseFreedMemory();
            freed = 0;
        }
    }
    p.diagnostics.append(scanDiagnostics);
    std::stable_sort(p.diagnostics.begin(), p.diagnostics.end(),
                     [](const FileDiagnostic& a, const FileDiagnostic& b) {
                         return std::tie(a.range.path, a.range.line) <
                                std::tie(b.range.path, b.range.line);
                     });
    std::sort(p.findings.begin(), p.findings.end(), findingLess);
    std::sort(p.offComputePath.begin(), p.offComputePath.end(), findingLess);
    std::sort(p.suppressed.begin(), p.suppressed.end(), findingLess);
    // Files are in path order and their uses carry their own path, so the concatenation of
    // sorted files is normally sorted already; the project-wide stable sort (same result)
    // runs only when it is not.
    if (!std::is_sorted(p.apiUses.cbegin(), p.apiUses.cend(), useLess))
        std::stable_sort(p.apiUses.begin(), p.apiUses.end(), useLess);
    p.files = std::move(files);
    return p;
}

qsizetype assessedFileCount(const ProjectResult& project) {
    return std::count_if(project.files.cbegin(), project.files.cend(),
                         [](const FileResult& f) { return !wasSkipped(f); });
}

} // namespace cnready
