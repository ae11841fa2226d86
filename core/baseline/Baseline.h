#pragma once
// Baseline files: the findings a team has accepted for now, so CI fails only on new ones.

#include "baseline/Fingerprint.h"

#include <QList>
#include <QSet>
#include <QString>

namespace cnready {

/// One accepted finding. Only `fingerprint` is compared; the rest is for people reading the
/// file and for the list of stale entries.
struct BaselineEntry {
    QString fingerprint;
    QString path;
    QString code;
    QString snippet;
};

/// The contents of a baseline file (JSON: schema "cnready-baseline", schemaVersion 1, an
/// array `findings` of {fingerprint, path, code, snippet} sorted by path, code and
/// fingerprint; no line numbers, so the file changes only when findings do).
struct Baseline {
    QList<BaselineEntry> entries;
    QSet<QString> fingerprints() const;
};

/// Takes a project and its fingerprints; returns the baseline of its findings that are not
/// suppressed (the counted ones and the off-path notes).
Baseline baselineOf(const ProjectResult& project, const FingerprintIndex& index);

/// Takes a baseline and a file path; writes the file atomically (QSaveFile). Returns false
/// with the reason in `*error` when it cannot be written.
bool writeBaseline(const Baseline& baseline, const QString& path, QString* error);

/// Takes a file path; returns the baseline in it. Errors: a file that cannot be read, is not
/// JSON or is not a cnready baseline sets `*error` to one line and returns an empty baseline.
Baseline readBaseline(const QString& path, QString* error);

/// What a run finds against a baseline.
struct BaselineComparison {
    int unchanged = 0;          ///< findings whose fingerprint is in the baseline
    int added = 0;              ///< findings not in it (the ones --fail-on looks at)
    QList<BaselineEntry> stale; ///< baseline entries no finding matches any more
    QSet<QString> known;        ///< the baseline's fingerprints
};

/// Takes the baseline and the current run's baseline (baselineOf); returns the comparison.
BaselineComparison compareWithBaseline(const Baseline& accepted, const Baseline& current);

/// Takes a project, its fingerprints and the accepted fingerprints; returns the project with
/// every accepted finding removed from `findings` and `offComputePath` (for the verdict of the
/// new findings alone).
ProjectResult withoutBaselined(const ProjectResult& project, const FingerprintIndex& index,
                               const QSet<QString>& accepted);

} // namespace cnready
