#pragma once
// The status-bar line of a finished analysis: files, lines, findings and seconds, a cancelled
// run's share, the files that could not be read fully, or that there was no Python file.

#include "model/ProjectResult.h"

#include <QString>

namespace cnready::ui {

/// `findings`: the count the table and the report list (the assessment's, which a context
/// change can move: R304 counts for multi-GPU targets only). `scannedFiles`: the files the
/// scan listed (a cancelled run read fewer). `durationMs`: the run's wall time.
QString analysisSummary(const ProjectResult& project, qsizetype findings, qsizetype scannedFiles,
                        qint64 durationMs);

} // namespace cnready::ui
