#pragma once
// The merged result of a whole project, after project-wide hot-path resolution.

#include "model/FileResult.h"

#include <QList>
#include <QSet>
#include <QString>

namespace cnready {

/// All files of one project, merged. Findings conditional on a hot function are resolved:
/// those whose function is hot are kept (with hot = true), the rest dropped.
struct ProjectResult {
    QString root; ///< absolute path of the project root as given
    /// Sorted by path. Their `findings` and `apiUses` are empty: those moved to the
    /// project-wide lists below (a large project would otherwise hold both twice).
    QList<FileResult> files;
    QList<Finding> findings; ///< all resolved findings, sorted by findingLess
    /// BLOCKS / REFACTOR findings off the compute path (not counted), sorted by findingLess.
    QList<Finding> offComputePath;
    /// Findings silenced by suppression comments (resolved like `findings`, sorted the same
    /// way): not part of the verdict, counted and listed by the reports.
    QList<Finding> suppressed;
    /// Findings the project's configuration leaves out (`select`, `ignore`,
    /// `per-file-ignores`; config/ApplyConfig.h), sorted the same way: not part of the
    /// verdict, counted and listed by the reports.
    QList<Finding> leftOutByConfig;
    QString configFile;         ///< name of the configuration file read ("pyproject.toml"), or ""
    QList<ApiUse> apiUses;      ///< resolved, sorted by location
    QSet<QString> hotFunctions; ///< qualified names of functions reached from a loop
    int totalLines = 0;
    qint64 totalBytes = 0;
    QList<FileDiagnostic> diagnostics; ///< the scan's and every file's, sorted by path and line
    /// Python-like files the scan met but cnready does not read (ScanResult::notRead): Cython,
    /// code templates; relative paths, sorted. Not part of the verdict; the reports count them.
    QStringList notRead;
    bool cancelled = false; ///< the analysis was cancelled; the result is partial
};

/// Every function of a project by qualified name ("pkg.mod.f", "pkg.mod.Class.method"), to
/// resolve call sites to them. Module names come from paths relative to the scanned root,
/// which may sit below the package root ("filters.gauss" for "skimage.filters.gauss").
class ProjectFunctionIndex {
public:
    explicit ProjectFunctionIndex(const QList<FileResult>& files);
    /// The project function `callee` (a canonical name from a call site in `callerModule`)
    /// names, or an empty string: a bare name in its own module; a dotted name with leading
    /// components stripped until a function matches, at least "module.func" left. Every
    /// function takes part, so a callee never slides past its own function to a same-named
    /// one in a shorter module path.
    QString resolve(const QString& callee, const QString& callerModule) const;

private:
    QSet<QString> m_names;
};

/// Merges per-file results: sorts files, resolves hot functions through the call sites
/// (a function is hot when called from a loop, or from a hot function; module level and
/// `if __name__ == "__main__":` are the boundary) and keeps conditional findings only when
/// their function is hot. Each file's findings and API uses are moved into the project-wide
/// lists (the per-file lists end up empty). Pure function; deterministic for the same input.
ProjectResult mergeFileResults(const QString& root, QList<FileResult> files,
                               const QList<FileDiagnostic>& scanDiagnostics = {});

/// Files that were read and assessed (not skipped as binary, unreadable, too large or too
/// deep). Zero means there is no code behind a verdict: the CLI exits 3 and the studio shows
/// no verdict, rather than a READY that nothing supports.
qsizetype assessedFileCount(const ProjectResult& project);

} // namespace cnready
