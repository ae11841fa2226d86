#pragma once
// The status-bar line of a finished analysis: files, lines, findings and seconds, a cancelled
// run's share, the files that could not be assessed fully, or that there was no Python file.

#include "assess/Assessment.h"
#include "model/ProjectResult.h"

#include <QString>

namespace cnready::ui {

/// `assessment`: the project's assessment, or nullptr before there is one. Its findings are
/// the count the table and the report list (a context change can move it: R304 counts for
/// multi-GPU targets only), and its unreadPaths() the files that could not be assessed fully,
/// the count the report's opening line states (an encoding note or an unknown suppression
/// code is marked in the tree but hides no code). Without an assessment: the analysis' own
/// findings, no such count. `scannedFiles`: the files the scan listed (a cancelled run read
/// fewer). `durationMs`: the run's wall time.
QString analysisSummary(const ProjectResult& project, const Assessment* assessment,
                        qsizetype scannedFiles, qint64 durationMs);

} // namespace cnready::ui
