#pragma once
// The cuPyNumeric API-support manifest: which NumPy APIs cuPyNumeric implements, and how well.
// Format: `api-support.md` (header with Source:/Fetched:/Counts:, then `## Section (N of M
// implemented)` headings and glyph lines such as `✓✓ numpy.add, numpy.all`). Parsing also
// validates; every problem becomes an issue with its line number.

#include <QDate>
#include <QDateTime>
#include <QHash>
#include <QList>
#include <QString>

#include <optional>

namespace cnready {

/// Support level of one NumPy API, from the manifest glyphs.
enum class Support {
    Absent,  ///< not listed: out of the table's scope, passed over silently
    Multi,   ///< "✓✓" implemented, multi-GPU
    Single,  ///< "✓" implemented, single-GPU/CPU only (matters for multi-node targets)
    Partial, ///< "🟡" partial, see note
    Missing, ///< "✗" not implemented on the distributed path
};
QString supportGlyph(Support s); ///< "✓✓", "✓", "🟡", "✗", "" for Absent
QString
supportName(Support s); ///< "multi-gpu", "single-gpu", "partial", "not-implemented", "absent"

struct ManifestEntry {
    QString name; ///< canonical NumPy name, unescaped: "numpy.ix_"
    Support support = Support::Absent;
    QString note;    ///< partial-support note (after the dash), may be empty
    QString section; ///< "Module-Level", "Multi-Dimensional Array", ...
    int line = 0;    ///< line in the manifest file
};

/// A problem found while reading or validating a manifest. An error makes `cnready manifest
/// check` exit 1 and blocks an import or refresh. A warning is only reported: the `Counts:`
/// header or a section heading states other figures than its entries give. The entries are
/// what every lookup uses, so such a manifest is still complete for what it lists (the
/// bundled snapshot counts 616 APIs and lists 576).
struct ManifestIssue {
    int line = 0; ///< 1-based line; 0 only when the file could not be read at all
    QString message;
    bool warning = false; ///< stated counts disagree with the entries (see above)
};

/// Entry counts by support level, as in the `Counts:` header.
struct ManifestCounts {
    int total = 0;
    int multi = 0;   ///< ✓✓
    int single = 0;  ///< ✓
    int partial = 0; ///< 🟡
    int missing = 0; ///< ✗ ("not implemented")
    /// Implemented = ✓✓ + ✓ + 🟡 (what the page lists with a cuPyNumeric name).
    int implemented() const { return multi + single + partial; }
    void add(Support s);
    bool operator==(const ManifestCounts&) const = default;
};

/// The `Counts:` header as written. Every field is optional so a missing one can be reported.
struct ManifestHeaderCounts {
    std::optional<int> total, implemented, multi, single, partial, missing;
    int line = 0; ///< line of the `Counts:` header, 0 when absent
};

/// One `## Title (N of M implemented)` section: what the heading claims and what it lists.
struct ManifestSection {
    QString title;
    int line = 0;
    std::optional<int> claimedImplemented, claimedTotal; ///< from "(N of M implemented)"
    ManifestCounts counts;                               ///< from the entries
};

/// Where the manifest in use comes from (shown by `cnready manifest show` and the GUI).
enum class ManifestOrigin {
    Bundled,      ///< the snapshot compiled into the binary
    UserImported, ///< written by `manifest import` / `manifest refresh` to the user's data folder
    CommandLine,  ///< `--manifest FILE` for one run
};
QString manifestOriginLabel(ManifestOrigin o); ///< "bundled", "user-imported", "--manifest"

class Manifest {
public:
    /// Parses manifest Markdown (the api-support.md format) and validates it: the header counts
    /// must agree with the entries (total, implemented, multi-GPU, single-GPU only, partial, not
    /// implemented), each section's "(N of M implemented)" with its lines, every line in a
    /// section must be a glyph line, names must be `numpy.*` and unique. Never throws; every
    /// problem becomes an issue with its line number, nothing is dropped silently.
    static Manifest parse(const QByteArray& markdown, const QString& origin);
    /// Loads a file; on read failure returns an empty manifest with one issue (line 0).
    /// The origin kind is CommandLine; see active() for the other kinds.
    static Manifest load(const QString& path);
    /// The snapshot compiled into the binary (assets/api-support.md, Fetched 2026-05-22).
    /// Parsed once per process; thread-safe.
    static Manifest bundled();
    /// The manifest to use for this run: `overridePath` (from --manifest) when not empty, else
    /// the user-imported manifest (userManifestPath()) when that file exists and has entries,
    /// else the bundled snapshot. When an imported file exists but is unusable, `note` (if
    /// given) receives a one-line explanation and the bundled snapshot is returned.
    /// Reads local files only; never touches the network.
    static Manifest active(const QString& overridePath = {}, QString* note = nullptr);
    /// Where `manifest import` / `manifest refresh` write and active() looks:
    /// QStandardPaths::GenericDataLocation + "/cnready/api-support.md" (e.g.
    /// ~/.local/share/cnready/api-support.md), the same for the CLI and the GUI whatever their
    /// application names. Honours XDG_DATA_HOME and QStandardPaths test mode.
    static QString userManifestPath();

    /// Looks up a canonical name ("numpy.linalg.norm"; "cupynumeric.*" is treated as "numpy.*").
    /// Array methods are looked up as "numpy.ndarray.<method>".
    Support lookup(const QString& canonicalName) const;
    const ManifestEntry* entry(const QString& canonicalName) const;
    const QList<ManifestEntry>& entries() const { return m_entries; }
    const QList<ManifestSection>& sections() const { return m_sections; }

    QString origin() const { return m_origin; } ///< file path or "bundled"
    ManifestOrigin originKind() const { return m_originKind; }
    QString source() const { return m_source; } ///< the `Source:` URL
    QDateTime fetched() const {
        return m_fetched;
    } ///< the `Fetched:` time (UTC), invalid if absent
    QString countsLine() const { return m_countsLine; } ///< the `Counts:` header as written
    const ManifestHeaderCounts& headerCounts() const { return m_headerCounts; }
    ManifestCounts counts() const; ///< counted from the entries
    /// All problems, errors and warnings, sorted by line number.
    const QList<ManifestIssue>& issues() const { return m_issues; }
    /// The issues that are errors (not warnings), in line order.
    QList<ManifestIssue> errors() const;
    /// Whether the manifest has entries and no error; warnings do not count.
    bool isValid() const { return errors().isEmpty() && !m_entries.isEmpty(); }
    bool isEmpty() const { return m_entries.isEmpty(); }

    /// Days between fetched() and `today`; -1 when the date is unknown.
    int ageInDays(const QDate& today) const;
    /// 90 days: the assessor's staleness threshold for the snapshot (seed procedure, step 2).
    static constexpr int kStaleAfterDays = 90;

private:
    QString m_origin, m_source, m_countsLine;
    ManifestOrigin m_originKind = ManifestOrigin::CommandLine;
    QDateTime m_fetched;
    ManifestHeaderCounts m_headerCounts;
    QList<ManifestEntry> m_entries;
    QList<ManifestSection> m_sections;
    QHash<QString, qsizetype> m_index;
    QList<ManifestIssue> m_issues;
};

/// One line naming the manifest in use, for the report's context table and the GUI status bar:
/// "bundled snapshot, fetched 2026-05-22", "user-imported (PATH), fetched 2026-11-30",
/// "--manifest PATH, fetched ..." ("fetched date unknown" without a Fetched: line).
QString manifestDescription(const Manifest& m);

/// The one-line staleness warning shared by the CLI (stderr), the report's context table and the
/// GUI status bar. Returns an empty string when `m.fetched()` is at most
/// Manifest::kStaleAfterDays (90) days before `today`. When the Fetched: date is missing the
/// age is unknown, which is warned about as well; a Fetched: date more than one day after
/// `today` (wrong clock or --today) gets its own warning. The text names the manifest's date and
/// age and how to refresh it (`cnready manifest refresh`, or `cnready manifest import` of a saved
/// page). No prefix such as "warning:"; callers add their own.
QString manifestAgeWarning(const Manifest& m, const QDate& today);

/// A day count as messages print it: "1 day", "192 days", "1,204 days" (thousands separated,
/// singular for one; negative counts keep their sign).
QString formatDayCount(qint64 days);

} // namespace cnready
