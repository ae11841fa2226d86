#pragma once
// The sentences the reports and the studio use for an imported Doctor report.

#include "doctor/DoctorMatch.h"

#include <QList>
#include <QString>

namespace cnready {

/// The run-time status of one finding as the reports print it: "confirmed" or "static only".
QString doctorStatusLabel(const DoctorResult& doctor, const Finding& f);

/// One paragraph on a matched Doctor report for "Recommended next steps": the report file,
/// how many of `findings` it confirmed, the run-time only sites with their closest code (up
/// to `max`, then "and N more"), the entries outside the project, and a stale warning naming
/// the files changed since the run and the lines whose text no longer matches. Markdown
/// inline code allowed.
QString doctorSummaryText(const DoctorResult& doctor, const FindingSelection& findings,
                          int max = 8);

} // namespace cnready
