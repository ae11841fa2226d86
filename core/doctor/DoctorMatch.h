#pragma once
// Matching a cuPyNumeric Doctor report against the static findings: which findings the run
// confirmed, which observations have no static counterpart, and whether the report is stale.

#include "doctor/DoctorChecks.h"
#include "doctor/DoctorReport.h"
#include "model/Finding.h"
#include "model/FindingSelection.h"
#include "model/ProjectResult.h"

#include <QSet>
#include <QStringList>

namespace cnready {

/// One place Doctor flagged, after mapping to the project and merging duplicates.
struct DoctorSite {
    QString path;             ///< project-relative file
    int line = 0;             ///< the line the entry (or its project frame) names
    int statementLine = 0;    ///< first line of the enclosing statement (its header for a
    int statementEndLine = 0; ///< compound statement); last line
    DoctorCheck check;        ///< classifyDoctorCheck() of the description
    QString description;      ///< Doctor's own words
    QString reference;        ///< Doctor's URL or ""
    QString source;           ///< Doctor's copy of the line
    int occurrences = 1;      ///< entries merged into this site (one per call stack reaching it)
    /// `source` differs from the line in the file today: the code moved or changed since the
    /// run, so the site confirms nothing.
    bool staleText = false;
    QString currentText;   ///< the file's line today, trimmed (set when staleText)
    bool confirms = false; ///< the site confirms at least one static finding
    /// "path:line" for reports (the statement's lines when it spans several).
    QString location() const;
};

/// What a Doctor report says about one assessed project.
struct DoctorResult {
    QString reportPath;      ///< the file read, as given
    int entries = 0;         ///< entries in the report
    int outsideProject = 0;  ///< entries whose file maps to no assessed Python file
    QList<DoctorSite> sites; ///< mapped and merged, sorted by path, line and check
    /// Project files (relative paths, sorted) modified after the report was written.
    QStringList newerSources;
    QSet<QString> confirmed; ///< doctorFindingKey() of every confirmed finding

    bool stale() const;
    int staleTextCount() const;
    /// Sites that confirm no static finding and still match the code: run-time only.
    QList<DoctorSite> runtimeOnly() const;
    /// Whether `f` was confirmed at run time.
    bool isConfirmed(const Finding& f) const;
};

/// The identity of a finding for DoctorResult::confirmed: path, lines, columns and code.
QString doctorFindingKey(const Finding& f);

/// Matches `report` against the project. Each entry's file is mapped to an assessed Python
/// file by path suffix (the longest project-relative path that ends the entry's absolute
/// path); an entry whose filename is `<string>` (lgpatch) is mapped through its traceback
/// frames (the innermost frame in a project file), else to `entryScript` at its own line.
/// The line is widened to its enclosing statement (read with tree-sitter from the file under
/// `project.root`, never executed or written); a continuation line belongs to its statement.
/// Entries on one statement with the same check and description are one site (counted in
/// `occurrences`). A finding in `findings` is confirmed when a site on an overlapping line
/// (any line of the file for a file-level check) lists its code in DoctorCheck::confirms.
/// Staleness: a mapped file whose mtime is later than `report.modified`, or a `source` text
/// unlike the line today. Notebooks are not mapped.
DoctorResult matchDoctorReport(const DoctorReport& report, const ProjectResult& project,
                               const FindingSelection& findings, const QString& entryScript);

} // namespace cnready
