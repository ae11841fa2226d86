#pragma once
// Report writers: the eight-section Markdown report, JSON and SARIF 2.1.0.
// Byte-identical output for identical input (no timestamps, stable ordering).

#include "assess/Assessment.h"

#include <QByteArray>

namespace cnready {

enum class ReportFormat { Markdown, Json, Sarif };

/// Everything a writer needs.
struct ReportInput {
    const ProjectResult& project;
    const Assessment& assessment;
    const Manifest& manifest;
    QDate today; ///< for the manifest-age warning (the only date-dependent text)
};

/// Renders the report in `format` as UTF-8 bytes.
QByteArray renderReport(const ReportInput& in, ReportFormat format);
QByteArray renderMarkdown(const ReportInput& in);

} // namespace cnready
