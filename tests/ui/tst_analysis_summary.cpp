// The studio's status line after an analysis (ui/AnalysisSummary.h) states the same count of
// files not assessed fully as the report's opening line: both read Assessment::unreadPaths().
// A file marked in the tree for a reason that hides no code (an unknown suppression code) or
// a test module with a syntax error (test modules do not count) is not in that count.
#include "AnalysisSummary.h"

#include "analysis/ProjectAnalyzer.h"
#include "analysis/ProjectScanner.h"
#include "assess/Assessment.h"
#include "report/Report.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "../common/WriteFile.h"

using namespace cnready;

namespace {

// The number in "N files could not be assessed fully", 0 when the phrase is absent.
int unreadCount(const QString& text) {
    static const QRegularExpression re(
        QStringLiteral(R"((\d+) files? could not be assessed fully)"));
    const QRegularExpressionMatch m = re.match(text);
    return m.hasMatch() ? m.captured(1).toInt() : 0;
}

} // namespace

class TestAnalysisSummary : public QObject {
    Q_OBJECT
private slots:
    void countsWhatTheReportCounts() {
        QTemporaryDir dir;
        const QString root = dir.path();
        test::writeFile(root + QStringLiteral("/solver.py"),
                        "import numpy as np\n"
                        "def step(u):\n"
                        "    return np.roll(u, 1) + u  # cnready: ignore[R999]\n");
        test::writeFile(root + QStringLiteral("/broken.py"),
                        "import numpy as np\ndef f(:\n    pass\n");
        test::writeFile(root + QStringLiteral("/tests/test_solver.py"),
                        "import numpy as np\ndef test_(:\n    assert True\n");
        const ProjectResult project = analyzeProject(scanProject({root}));
        QSet<QString> marked;
        for (const FileDiagnostic& d : project.diagnostics)
            marked.insert(d.range.path);
        QCOMPARE(marked.size(), 3); // all three are marked in the project tree

        const Manifest manifest = Manifest::bundled();
        const Assessment a = assess(project, {}, manifest);
        QCOMPARE(a.unreadPaths(), QStringList{QStringLiteral("broken.py")});

        const QString status = ui::analysisSummary(project, &a, 3, 1200);
        QCOMPARE(unreadCount(status), 1);
        QVERIFY2(status.contains(QStringLiteral("1 file could not be assessed fully")),
                 qPrintable(status));
        QVERIFY2(status.contains(QStringLiteral(", %1 findings in").arg(a.findings.size())),
                 qPrintable(status));

        const QString md = QString::fromUtf8(renderReport(
            ReportInput{project, a, manifest, QDate(2026, 11, 30)}, ReportFormat::Markdown));
        const QString opening = md.section(QLatin1Char('\n'), 2, 2);
        QCOMPARE(unreadCount(opening), unreadCount(status));

        // Before the assessment there is no such count, and the analysis' findings stand.
        const QString early = ui::analysisSummary(project, nullptr, 3, 1200);
        QCOMPARE(unreadCount(early), 0);
        QVERIFY2(early.contains(QStringLiteral(", %1 findings in").arg(project.findings.size())),
                 qPrintable(early));
    }

    void nothingUnreadSaysNothing() {
        QTemporaryDir dir;
        test::writeFile(dir.path() + QStringLiteral("/ok.py"),
                        "import numpy as np\nx = np.zeros(8)  # cnready: ignore[R999]\n");
        const ProjectResult project = analyzeProject(scanProject({dir.path()}));
        QVERIFY(!project.diagnostics.isEmpty()); // the unknown code is marked in the tree
        const Assessment a = assess(project, {}, Manifest::bundled());
        QVERIFY(a.unreadPaths().isEmpty());
        const QString status = ui::analysisSummary(project, &a, 1, 10);
        QVERIFY2(!status.contains(QStringLiteral("could not be")), qPrintable(status));
    }
};

QTEST_GUILESS_MAIN(TestAnalysisSummary)
#include "tst_analysis_summary.moc"
