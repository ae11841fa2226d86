#pragma once
// File ▸ Export Report: the save dialog (Markdown, JSON or SARIF, by the file's suffix or the
// chosen filter), the write, and the folder remembered per project.

#include "report/Report.h"

#include <QString>

namespace cnready::ui {

class MainWindow;

/// The file suffix of `format` ("md", "json", "sarif").
QString extensionFor(ReportFormat format);
/// Where the dialog starts for the project at `projectPath`: the folder its report was last
/// exported to, else the project folder (the folder holding it for a one-file project); the
/// documents folder without a project.
QString exportStartDir(const QString& projectPath);
/// Asks for a file (after a warning when the analysis was cancelled), writes the report with
/// MainWindow::exportReport() and remembers the folder; a failed write is reported in a
/// message box. Does nothing without a verdict.
void exportInteractive(MainWindow* window);

} // namespace cnready::ui
