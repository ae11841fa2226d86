#pragma once
// Report writers: the eight-section Markdown report, JSON (docs/report-json-schema.md) and
// SARIF 2.1.0. Byte-identical output for identical input: no timestamps except the manifest's
// own Fetched date and the `today` passed in; everything sorted.

#include "assess/Assessment.h"
#include "cost/CostModel.h"
#include "doctor/DoctorMatch.h"

#include <QByteArray>
#include <QDate>
#include <QSet>

class QIODevice;

namespace cnready {

enum class ReportFormat { Markdown, Json, Sarif };

/// Everything a writer needs.
struct ReportInput {
    const ProjectResult& project;
    const Assessment& assessment;
    const Manifest& manifest;
    QDate today; ///< for the manifest-age warning (the only date-dependent text)
    /// Name for the title and JSON `project.name`; "" means projectDisplayName(project). The
    /// CLI sets it to the file name when a single file was assessed.
    QString name = {};
    /// Fingerprints of a baseline (`--baseline`, baseline/Baseline.h): when set, each SARIF
    /// result carries `baselineState` "unchanged" (its fingerprint is here) or "new".
    const QSet<QString>* baseline = nullptr;
    /// An imported cuPyNumeric Doctor report (`--doctor-report`, doctor/DoctorMatch.h): when
    /// set, the findings tables gain a "Run time" column, JSON findings a `doctor` object,
    /// SARIF results a `doctor` property, and the next steps a paragraph on the report.
    const DoctorResult* doctor = nullptr;
};

/// Version of the JSON report schema (docs/report-json-schema.md). Bump on any change that
/// removes or renames a field; adding fields keeps the version.
inline constexpr int kReportSchemaVersion = 1;

/// One recommended next step, shared by the Markdown and JSON writers.
struct NextStep {
    QString kind;   ///< "hardware", "alternative", "batching", "recipe", "tests",
                    ///< "api-rewrite", "reassess", "pilot", "doctor-report", "doctor",
                    ///< "benchmark"
    QString text;   ///< one paragraph, Markdown inline code allowed
    QString recipe; ///< recipe anchor for kind "recipe"
    QList<SourceRange> locations; ///< sites the step concerns
};

/// The recommended next steps in order: hardware / alternatives / batching first when a gate
/// stopped the port, then the recipes over the sites outside test modules (FileResult::isTest):
/// first those with an estimated cost (siteCosts(): the largest rank among their sites,
/// cost::SiteCost::rankSeconds, the order of the "Where the time would go" table), largest
/// first, recipe priority breaking ties (RULES.md: R108 → R101/R103/R110 → R102 → R104/R105 →
/// R203 → R201/R202 → R204 → R206 → R106 → R107); then those with no cost (every site "size
/// unknown", or not costed) in priority order. Then one "tests" step counting the sites in
/// test modules, API rewrites, the pilot module, the cuPyNumeric Doctor hand-off and a
/// benchmark.
QList<NextStep> recommendedSteps(const ReportInput& in);

/// The estimated cost per hot site of the workload (cost/CostModel.h) for the assessment's
/// context, test modules left out, largest lower bound first.
QList<cost::SiteCost> siteCosts(const ReportInput& in);
/// The first `limit` of them (only their text is built); `total` receives how many there are.
QList<cost::SiteCost> siteCosts(const ReportInput& in, qsizetype limit, qsizetype* total);

/// The Doctor hand-off command for `entryScript` ("main.py" when empty), for code that
/// imports cupynumeric: doctorLegateCommand() of doctor/HandOff.h.
QString doctorCommand(const QString& entryScript);

/// The recipe anchor for a finding code: the rule's own recipe, else the first recipe (by
/// priority) that lists the code. "" for SCALES and unknown codes.
QString recipeForCode(const QString& code);
/// The recipe anchor for one finding: the rule's alternative for this site when it has one
/// (Finding::recipeVariant, e.g. RR-flip for an R106 reversal), else recipeForCode(f.code).
QString recipeFor(const Finding& f);

/// Paths of the project's test modules (FileResult::isTest): their findings are listed apart,
/// marked in JSON (`"testModule": true`) and SARIF (level `note`) and left out of the counts;
/// the verdict leaves them out too.
QSet<QString> testModulePaths(const ProjectResult& project);

/// Display name of the project: the last component of its root ("examples").
QString projectDisplayName(const ProjectResult& project);
/// The name a report uses: `in.name` when set, else projectDisplayName(in.project).
QString reportName(const ReportInput& in);

/// Renders the report in `format` as UTF-8 bytes.
QByteArray renderReport(const ReportInput& in, ReportFormat format);
/// Writes the same bytes as renderReport() to `device` (open for writing). Markdown goes out
/// in pieces of about 1 MiB while it is rendered, so a report of 200k findings (~36 MB) is
/// never held whole; JSON and SARIF are built in memory first. Returns false when a write
/// fails (`device.errorString()` says why); what was written before the failure stays.
bool writeReport(const ReportInput& in, ReportFormat format, QIODevice& device);
/// Writes the report to the file `path`. A regular file (new or existing) is replaced
/// atomically (QSaveFile: the old content stays until the new one is complete). An existing
/// path that is not a regular file (a FIFO, /dev/null, a terminal) is written in place,
/// never replaced by a regular file. Returns false with a reason in `*error` when the path is
/// a folder or a write fails; a half-written FIFO or device stays as written.
bool saveReport(const ReportInput& in, ReportFormat format, const QString& path,
                QString* error = nullptr);
QByteArray renderMarkdown(const ReportInput& in);
/// The Markdown report written to `device` piece by piece (see writeReport()).
bool writeMarkdown(const ReportInput& in, QIODevice& device);
QByteArray renderJson(const ReportInput& in);
/// The summary for a review meeting (`cnready assess --summary`): verdict with its rule and
/// what would change it, the six gates, up to 24 BLOCKS / REFACTOR codes with their site count
/// and top three sites (hot first), and the counts (test modules apart). Under 80 lines.
QByteArray renderSummary(const ReportInput& in);
QByteArray renderSarif(const ReportInput& in);
/// GitHub Actions workflow commands (`cnready assess --format github`): one
/// `::error file=PATH,line=N,endLine=M,title=R101 TITLE::MESSAGE` line per BLOCKS finding that
/// counts (test modules and off-path notes left out; with `in.baseline`, new ones only; a
/// notebook's line is the line of its JSON file), then one `::notice` line with the verdict.
/// Values are escaped as the runner reads them (%25, %0D, %0A; %3A and %2C in properties).
QByteArray renderGithubAnnotations(const ReportInput& in);

} // namespace cnready
