#include "model/ProjectResult.h"

#include <QHash>

#include <tuple>

#include <algorithm>

namespace cnready {

namespace {

// Index of project functions by every dotted suffix of their qualified name, so that a call
// resolved as "mod.func" (or bare "func" inside the same module) finds "pkg.mod.func".
struct FunctionIndex {
    QHash<QString, QStringList> bySuffix;
    explicit FunctionIndex(const QList<FileResult>& files) {
        for (const FileResult& f : files)
            for (const FunctionInfo& fn : f.functions) {
                const QStringList parts = fn.qualifiedName.split(QLatin1Char('.'));
                for (qsizetype i = 0; i < parts.size(); ++i)
                    bySuffix[parts.mid(i).join(QLatin1Char('.'))].append(fn.qualifiedName);
            }
    }
    QStringList resolve(const QString& callee, const QString& callerModule) const {
        // Prefer the function of the caller's own module when the callee is bare.
        const QString local = callerModule + QLatin1Char('.') + callee;
        const QStringList exact = bySuffix.value(local);
        if (!exact.isEmpty() && exact.contains(local))
            return {local};
        return bySuffix.value(callee);
    }
};

} // namespace

ProjectResult mergeFileResults(const QString& root, QList<FileResult> files,
                               const QList<FileDiagnostic>& scanDiagnostics) {
    ProjectResult p;
    p.root = root;
    std::sort(files.begin(), files.end(),
              [](const FileResult& a, const FileResult& b) { return a.path < b.path; });

    // Project-wide hot functions: reached from a call inside a loop, then transitively.
    const FunctionIndex index(files);
    QHash<QString, QList<QPair<QString, QString>>> callsFrom; // caller → (callee, module)
    QStringList work;
    for (const FileResult& f : files)
        for (const CallSite& c : f.calls) {
            if (c.inLoop)
                work.append(index.resolve(c.callee, f.moduleName));
            if (!c.caller.isEmpty())
                callsFrom[c.caller].append({c.callee, f.moduleName});
        }
    while (!work.isEmpty()) {
        const QString fn = work.takeLast();
        if (p.hotFunctions.contains(fn))
            continue;
        p.hotFunctions.insert(fn);
        for (const auto& [callee, module] : callsFrom.value(fn))
            work.append(index.resolve(callee, module));
    }

    for (FileResult& f : files) {
        p.totalLines += f.lines;
        p.totalBytes += f.bytes;
        QList<Finding> kept;
        for (Finding fi : f.findings) {
            if (!fi.requiresHotFunction.isEmpty()) {
                if (!p.hotFunctions.contains(fi.requiresHotFunction))
                    continue;
                fi.hot = true;
            }
            kept.append(fi);
        }
        f.findings = kept;
        p.diagnostics.append(f.diagnostics);
        p.findings.append(kept);
        for (ApiUse u : f.apiUses) {
            if (!u.requiresHotFunction.isEmpty() && p.hotFunctions.contains(u.requiresHotFunction))
                u.hot = true;
            p.apiUses.append(u);
        }
    }
    p.diagnostics.append(scanDiagnostics);
    std::stable_sort(p.diagnostics.begin(), p.diagnostics.end(),
                     [](const FileDiagnostic& a, const FileDiagnostic& b) {
                         return std::tie(a.range.path, a.range.line) <
                                std::tie(b.range.path, b.range.line);
                     });
    std::sort(p.findings.begin(), p.findings.end(), findingLess);
    std::stable_sort(p.apiUses.begin(), p.apiUses.end(), [](const ApiUse& a, const ApiUse& b) {
        return std::tie(a.range.path, a.range.line, a.range.column, a.name) <
               std::tie(b.range.path, b.range.line, b.range.column, b.name);
    });
    p.files = std::move(files);
    return p;
}

} // namespace cnready
