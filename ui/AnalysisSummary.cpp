#include "AnalysisSummary.h"

#include <QCoreApplication>
#include <QDir>
#include <QLocale>
#include <QSet>

namespace cnready::ui {

namespace {
QString tr(const char* text, const char* disambiguation = nullptr, int n = -1) {
    return QCoreApplication::translate("cnready::ui::MainWindow", text, disambiguation, n);
}
} // namespace

QString analysisSummary(const ProjectResult& project, qsizetype findings, qsizetype scannedFiles,
                        qint64 durationMs) {
    const QLocale loc;
    QString msg;
    if (project.cancelled)
        msg = tr("Analysis cancelled: %1 of %2 files read; the verdict covers those only.")
                  .arg(project.files.size())
                  .arg(scannedFiles);
    else
        msg = tr("Analysed %n file(s)", nullptr, int(project.files.size())) +
              tr(", %1 lines, %2 findings in %3 s")
                  .arg(loc.toString(project.totalLines))
                  .arg(loc.toString(findings))
                  .arg(loc.toString(durationMs / 1000.0, 'f', 1));
    QSet<QString> troubled;
    for (const FileDiagnostic& d : project.diagnostics)
        troubled.insert(d.range.path);
    if (!troubled.isEmpty())
        msg += tr(" — %n file(s) could not be read fully (marked in the project tree)", nullptr,
                  int(troubled.size()));
    if (project.files.isEmpty() && !project.cancelled)
        msg = tr("No Python files found in %1").arg(QDir::toNativeSeparators(project.root));
    return msg;
}

} // namespace cnready::ui
