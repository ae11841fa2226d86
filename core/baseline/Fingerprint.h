#pragma once
// Fingerprints of findings that survive edits elsewhere in a file: no line numbers.

#include "model/ProjectResult.h"

#include <QHash>
#include <QString>

namespace cnready {

/// Takes a source line; returns it with leading and trailing white space removed and every
/// inner run of white space made one space ("x  =  a[i]" → "x = a[i]").
QString normalizedSourceLine(const QString& line);

/// The fingerprint of every finding of a project (findings, off-path notes, suppressed
/// ones and those the configuration leaves out alike): the first 32 hex digits of SHA-256 over the
/// relative path, the rule code, the normalised source line (Finding::snippet) and the occurrence
/// index among the findings with the same three in the file (in line order, so a second identical
/// line gets index 1). Moving code up or down keeps every fingerprint; editing the flagged line
/// changes its own.
class FingerprintIndex {
public:
    /// Takes the merged project; computes every finding's fingerprint.
    explicit FingerprintIndex(const ProjectResult& project);
    /// Takes a finding of that project; returns its fingerprint ("" for a finding not in it).
    QString of(const Finding& f) const;

private:
    QHash<QString, QString> m_byFinding; ///< location-and-code key → fingerprint
};

} // namespace cnready
