#pragma once
// A project's analysis kept between runs, so that a saved file is assessed again without
// reading the others (the studio's watch mode): every file's first-pass summaries
// (model/FunctionSummary.h), the facts the project gave it and its final result. After a
// change, only the changed files are analysed, the project facts are solved again from the
// kept summaries, and the files whose facts moved are analysed once more (ProjectFacts.h).
// The merged result is the one a full run of analyzeProject() over the same tree gives.

#include "analysis/FileAnalyzer.h"
#include "analysis/ProjectScanner.h"
#include "model/ProjectResult.h"

#include <QHash>

#include <vector>

namespace cnready {

class IncrementalProject {
public:
    /// What the last update() did (for the status bar, the tests and the benchmark).
    struct UpdateStats {
        int analysed = 0;        ///< changed or new files analysed (first pass)
        int factsReanalysed = 0; ///< files analysed again because their facts moved
        int removed = 0;         ///< files no longer in the scan
        qint64 analyseMs = 0;    ///< first pass of the changed files, wall ms
        qint64 factsMs = 0;      ///< solving the facts plus the second looks, wall ms
        qint64 mergeMs = 0;      ///< mergeFileResults, wall ms
    };

    /// Analyses every file of `scan` (on the global thread pool, blocking) and keeps what an
    /// update needs. Returns what analyzeProject(scan, limits) returns.
    ProjectResult analyzeAll(const ScanResult& scan, const AnalyzerLimits& limits = {});

    /// The same from first-pass results the caller already has: `firstPass[i]` is
    /// analyzeFile(scan.root, scan.files[i], limits) without facts (the studio streams them
    /// while the analysis runs). A list of another length is refused: returns a full
    /// analyzeAll() instead.
    ProjectResult adopt(const ScanResult& scan, QList<FileResult> firstPass,
                        const AnalyzerLimits& limits = {});

    /// Brings the kept analysis up to date with `scan` (the same root; a new scan when files
    /// were added or removed, else the kept one) after the files `changed` (relative paths,
    /// as in the scan) were written. Files of `scan` not seen before are analysed too;
    /// files no longer in it are dropped. Returns the merged project, equal to a full run's.
    /// Without a kept analysis of the same root, runs analyzeAll(scan). Blocking.
    ProjectResult update(const ScanResult& scan, const QStringList& changed,
                         UpdateStats* stats = nullptr);

    /// Whether an analysis of `root` is kept.
    bool holds(const QString& root) const { return !m_files.isEmpty() && m_root == root; }
    /// The scan of the kept analysis (its files in scan order).
    ScanResult scan() const;
    /// Drops everything kept.
    void clear();

private:
    /// Splits first-pass results into kept summaries and final results, solves the facts and
    /// takes the second looks. `firstPass` is in `m_files` order.
    void rebuild(QList<FileResult> firstPass);
    /// Solves the facts from m_summaries and analyses again every file whose facts differ
    /// from m_facts, and every file of `fresh` that has facts (its first pass is kept when it
    /// has none). Returns how many files outside `fresh` were analysed again.
    int resolveFacts(QHash<qsizetype, FileResult> fresh);
    ProjectResult merged() const;

    QString m_root;
    QStringList m_files;               ///< scan order
    QList<FileDiagnostic> m_scanDiags; ///< the scan's own
    QStringList m_notRead;             ///< the scan's Python-like files not read
    AnalyzerLimits m_limits;
    /// Per file: what the fact solver reads (path, module name, isTest, summaries,
    /// re-exports, passed functions) from the first pass; nothing else.
    QList<FileResult> m_summaries;
    std::vector<FileFacts> m_facts; ///< per file, the facts its final result was built with
    QList<FileResult> m_results;    ///< per file, final (summaries dropped)
};

} // namespace cnready
