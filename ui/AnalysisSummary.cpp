#include "AnalysisSummary.h"

#include <QCoreApplication>
#include <QDir>
#include <QLocale>

namespace cnready::ui {

namespace {
QString tr(const char* text, const char* disambiguation = nullptr, int n = -1) {
    return QCoreApplication::translate("cnready::ui::MainWindow", text, disambiguation, n);
}
} // namespace

QString analysisSummary(const ProjectResult& project, const Assessment* assessment,
                        qsizetype scannedFiles, qint64 durationMs) {
    const QLocale loc;
    const qsizetype findings =
        assessment ? assessment->findings.size() : qsizetype(project.findings.size());
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
    // The report's count (MarkdownReport's opening line, the provisional verdict): one list.
    const qsizetype unread = assessment ? assessment->unreadPaths().size() : 0;
    if (unread > 0)
        msg += (unread == 1 ? tr(" — 1 file could not be assessed fully")
                            : tr(" — %1 files could not be assessed fully").arg(unread)) +
               tr(" (marked in the project tree)");
    if (project.files.isEmpty() && !project.cancelled)
        msg = tr("No Python files found in %1").arg(QDir::toNativeSeparators(project.root));
    return msg;
}

} // namespace cnready::ui
