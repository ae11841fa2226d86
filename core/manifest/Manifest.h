#pragma once
// The cuPyNumeric API-support manifest: which NumPy APIs cuPyNumeric implements, and how well.

#include <QDate>
#include <QDateTime>
#include <QHash>
#include <QList>
#include <QString>

namespace cnready {

/// Support level of one NumPy API, from the manifest glyphs.
enum class Support {
    Absent,  ///< not listed: out of the table's scope, passed over silently
    Multi,   ///< "✓✓" implemented, multi-GPU
    Single,  ///< "✓" implemented, single-GPU/CPU only (matters for multi-node targets)
    Partial, ///< "🟡" partial, see note
    Missing, ///< "✗" not implemented on the distributed path
};
QString supportGlyph(Support s);  ///< "✓✓", "✓", "🟡", "✗", "" for Absent
QString supportName(Support s);   ///< "multi-gpu", "single-gpu", "partial", "not-implemented", "absent"

struct ManifestEntry {
    QString name; ///< canonical NumPy name, unescaped: "numpy.ix_"
    Support support = Support::Absent;
    QString note;    ///< partial-support note (after the dash), may be empty
    QString section; ///< "Module-Level", "Multi-Dimensional Array", ...
    int line = 0;    ///< line in the manifest file
};

/// A problem found while reading or validating a manifest.
struct ManifestIssue {
    int line = 0; ///< 0 for whole-file issues (e.g. header counts)
    QString message;
};

class Manifest {
public:
    /// Parses manifest Markdown (the api-support.md format). Never throws; malformed lines and
    /// unknown glyphs become issues() with their line numbers, never silently dropped.
    static Manifest parse(const QByteArray& markdown, const QString& origin);
    /// Loads a file; on read failure returns an empty manifest with one issue.
    static Manifest load(const QString& path);
    /// The snapshot compiled into the binary (assets/api-support.md, Fetched 2026-05-22).
    static Manifest bundled();

    /// Looks up a canonical name ("numpy.linalg.norm"; "cupynumeric.*" is treated as "numpy.*").
    /// Array methods are looked up as "numpy.ndarray.<method>".
    Support lookup(const QString& canonicalName) const;
    const ManifestEntry* entry(const QString& canonicalName) const;
    const QList<ManifestEntry>& entries() const { return m_entries; }

    QString origin() const { return m_origin; }       ///< file path or "bundled"
    QString source() const { return m_source; }       ///< the `Source:` URL
    QDateTime fetched() const { return m_fetched; }   ///< the `Fetched:` time (UTC), invalid if absent
    QString countsLine() const { return m_countsLine; } ///< the `Counts:` header as written
    const QList<ManifestIssue>& issues() const { return m_issues; }
    bool isEmpty() const { return m_entries.isEmpty(); }

    /// Days between fetched() and `today`; -1 when the date is unknown.
    int ageInDays(const QDate& today) const;
    /// 90 days: the assessor's staleness threshold for the snapshot.
    static constexpr int kStaleAfterDays = 90;

private:
    QString m_origin, m_source, m_countsLine;
    QDateTime m_fetched;
    QList<ManifestEntry> m_entries;
    QHash<QString, qsizetype> m_index;
    QList<ManifestIssue> m_issues;
};

} // namespace cnready
