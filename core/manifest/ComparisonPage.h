#pragma once
// Reading the upstream cuPyNumeric API comparison page (Sphinx HTML) and writing our Markdown
// manifest from it. The page's structure (PRODUCT.md, "The upstream comparison page"): five
// <section id=...> blocks, each with one table whose body rows have four cells — NumPy name,
// cuPyNumeric name (or "-"), single-GPU/CPU support, multi-GPU/CPU support.

#include "manifest/Manifest.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

namespace cnready {

/// The five sections that matter, in page order: id on the page and our section title.
struct ComparisonSectionDef {
    const char* id;
    const char* title;
};
const QList<ComparisonSectionDef>& comparisonSections();

/// The canonical comparison page (the default of `cnready manifest refresh`).
QString defaultComparisonUrl();

/// Below this many implemented rows the page format has probably changed (the 2026-05-22 page
/// had 412 implemented of 616 rows), so nothing is written.
constexpr int kMinImplementedRows = 100;

/// What was read from a comparison page. `errors` lists every row or structure the reader did
/// not understand ("section 'linear-algebra', body row 7: 3 cells, expected 4"); a page with any
/// error must not become a manifest.
struct ComparisonPage {
    QList<ManifestEntry> entries; ///< page order; `section` = our title, `line` = body row
    QStringList errors;
    QStringList sectionsFound; ///< ids of the five sections that had a table, page order
    QString canonicalUrl;      ///< <link rel="canonical" href=...>, when present
    int rows = 0;              ///< body rows read in the five sections
    int implemented = 0;       ///< rows with a cuPyNumeric name
    int duplicates = 0;        ///< repeated NumPy names (first row kept)
};

/// Reads the comparison table out of `html` (UTF-8). Support tokens: ✓ (U+2713) supported,
/// 🟡 (U+1F7E1) partial, ❌ (U+274C) not supported, empty; and the older digits 1 (supported)
/// and 3 (partial). Mapping: implemented + multi-GPU supported → ✓✓; implemented + single only
/// → ✓; partial in either column → 🟡 with a note; no cuPyNumeric name → ✗. An
/// implemented row with neither column marked becomes ✓ with a note saying so. Never throws.
ComparisonPage parseComparisonPage(const QByteArray& html);

/// Writes our Markdown manifest format: attribution comment, title, Source/Fetched (UTC,
/// ISO 8601)/Counts header, a legend in our own words, then one section per entry section in
/// comparisonSections() order with "(N of M implemented)". Names are sorted; a trailing '_' is
/// escaped as in the bundled snapshot. Deterministic for the same arguments.
QByteArray writeManifestMarkdown(const QList<ManifestEntry>& entries, const QString& source,
                                 const QDateTime& fetched);

/// The outcome of turning a page or file into a manifest that may be written.
struct ManifestImport {
    bool ok = false;
    QString error;       ///< one line, set when !ok
    QByteArray markdown; ///< the manifest to write (when ok)
    Manifest manifest;   ///< `markdown` parsed back (validated: no issues)
    int rows = 0, implemented = 0;
};

/// HTML page → manifest. Fails (ok = false, nothing to write) when the page has reader errors,
/// misses one of the five sections, or has fewer than `minImplemented` implemented rows.
/// `source` is recorded as `Source:` (the page's canonical link is used when `source` is empty).
ManifestImport manifestFromComparisonPage(const QByteArray& html, const QString& source,
                                          const QDateTime& fetchedUtc,
                                          int minImplemented = kMinImplementedRows);

/// A saved file → manifest: HTML (detected by an <html>, <body> or <table> tag) goes through
/// manifestFromComparisonPage() with Fetched = `nowUtc`; anything else is read as a Markdown
/// manifest and must validate (it is then kept byte for byte, header and attribution included).
ManifestImport manifestFromFile(const QString& path, const QDateTime& nowUtc);

/// Writes `bytes` to `path` atomically (QSaveFile: a temporary file renamed over the target),
/// creating the folder. On failure returns false with a one-line `error`; the old file is then
/// untouched.
bool writeManifestFile(const QByteArray& bytes, const QString& path, QString* error);

} // namespace cnready
