#include "ReportExport.h"

#include "MainWindow.h"
#include "ProjectSettings.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QStandardPaths>
#include <QStatusBar>

namespace cnready::ui {

QString extensionFor(ReportFormat f) {
    switch (f) {
    case ReportFormat::Markdown:
        return QStringLiteral("md");
    case ReportFormat::Json:
        return QStringLiteral("json");
    case ReportFormat::Sarif:
        return QStringLiteral("sarif");
    }
    return {};
}

QString exportStartDir(const QString& projectPath) {
    if (projectPath.isEmpty())
        return QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    const QString last = settings::exportDir(projectPath);
    if (!last.isEmpty() && QFileInfo(last).isDir())
        return last;
    const QFileInfo fi(projectPath);
    return fi.isDir() ? fi.absoluteFilePath() : fi.absolutePath();
}

void exportInteractive(MainWindow* window) {
    if (!window->hasVerdict())
        return;
    const QString projectPath = window->projectPath();
    if (window->project().cancelled &&
        QMessageBox::question(window, MainWindow::tr("Export report"),
                              MainWindow::tr("The analysis was cancelled, so the report covers "
                                             "only the files read so far. Export it anyway?")) !=
            QMessageBox::Yes)
        return;
    const QString mdFilter = MainWindow::tr("Markdown report (*.md)");
    const QString jsonFilter = MainWindow::tr("JSON (*.json)");
    const QString sarifFilter = MainWindow::tr("SARIF 2.1.0 (*.sarif)");
    const QString dir = exportStartDir(projectPath);
    const QString base = QFileInfo(projectPath).fileName() + QStringLiteral("-cnready.md");
    QString selected = mdFilter;
    QString name = QFileDialog::getSaveFileName(
        window, MainWindow::tr("Export Report"), dir + QLatin1Char('/') + base,
        mdFilter + QStringLiteral(";;") + jsonFilter + QStringLiteral(";;") + sarifFilter,
        &selected);
    if (name.isEmpty())
        return;
    ReportFormat fmt = ReportFormat::Markdown;
    const QString suffix = QFileInfo(name).suffix().toLower();
    if (suffix == QLatin1String("json") ||
        (suffix != QLatin1String("md") && selected == jsonFilter))
        fmt = ReportFormat::Json;
    else if (suffix == QLatin1String("sarif") ||
             (suffix != QLatin1String("md") && selected == sarifFilter))
        fmt = ReportFormat::Sarif;
    if (suffix.isEmpty())
        name += QLatin1Char('.') + extensionFor(fmt);
    QString error;
    if (!window->exportReport(name, fmt, &error)) {
        QMessageBox::critical(
            window, MainWindow::tr("Export report"),
            MainWindow::tr("Cannot write %1:\n%2").arg(QDir::toNativeSeparators(name), error));
        return;
    }
    settings::setExportDir(projectPath, QFileInfo(name).absolutePath());
    window->statusBar()->showMessage(
        MainWindow::tr("Report saved to %1").arg(QDir::toNativeSeparators(name)), 8000);
}

} // namespace cnready::ui
