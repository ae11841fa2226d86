// A first-time user's walk through the studio: start page, example project, report preview,
// rule browser, About. Each step asserts what the user should see; with CNREADY_TOUR_DIR set,
// each step also saves a picture of the window there (for reviewing the UI by eye).
#include "../common/StudioTestMain.h"
#include "CodeView.h"
#include "MainWindow.h"
#include "ReportView.h"
#include "RuleBrowser.h"
#include "VerdictPanel.h"
#include "Versions.h"
#include "rules/RuleRegistry.h"

#include <QApplication>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QToolButton>
#include <QtTest>

using namespace cnready;
using namespace cnready::ui;

namespace {
void snap(QWidget* w, const char* name) {
    const QString dir = qEnvironmentVariable("CNREADY_TOUR_DIR");
    if (dir.isEmpty())
        return;
    QTest::qWait(200);
    QVERIFY(w->grab().save(dir + QLatin1Char('/') + QLatin1String(name) + QStringLiteral(".png")));
}
} // namespace

class TestStudioTour : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QSettings().clear(); }

    void startPageOffersTheExampleProject() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* page = w.findChild<QWidget*>(QStringLiteral("welcomePage"));
        QVERIFY(page && page->isVisible());
        auto* example = w.findChild<QPushButton*>(QStringLiteral("welcomeExample"));
        QVERIFY(example && example->isEnabled());
        QVERIFY(!bundledExamplesDir().isEmpty());
        snap(&w, "1-start");

        QSignalSpy done(&w, &MainWindow::analysisFinished);
        QTest::mouseClick(example, Qt::LeftButton);
        QVERIFY(done.wait(60000) || done.count() > 0);
        QVERIFY(!page->isVisible());
        QVERIFY(!w.verdictPanel()->verdictText().isEmpty());
        QCOMPARE(w.projectPath(), bundledExamplesDir());
        // Something is on display straight away: the file of the worst finding.
        QVERIFY(!w.codeView()->currentPath().isEmpty());
        snap(&w, "2-example");

        // The tooltip of a finding's line explains it and names the recipe when there is one.
        bool sawRecipe = false;
        for (const Finding& f : w.project().findings) {
            const QString tip = w.codeView()->toolTipForLine(f.range.line);
            if (f.range.path == w.codeView()->currentPath()) {
                QVERIFY(tip.contains(f.code));
                sawRecipe = sawRecipe || tip.contains(QLatin1String("Recipe"));
            }
        }
        QVERIFY(sawRecipe);

        // The report preview shows the eight sections (its document is built off the GUI
        // thread: it arrives a moment later).
        w.action(QStringLiteral("showReport"))->trigger();
        QTRY_VERIFY(!w.reportView()->isBuilding() &&
                    w.reportView()->toPlainText().contains(QLatin1String("Verdict")));
        const QString report = w.reportView()->toPlainText();
        for (const char* heading :
             {"Verdict", "What works", "What blocks", "What's fixable", "Compatibility",
              "API support gaps", "Decision-framework summary", "Recommended next steps"})
            QVERIFY2(report.contains(QLatin1String(heading)), heading);
        snap(&w, "3-report");

        // Recent projects list the example now.
        QCOMPARE(w.recentProjects().value(0), bundledExamplesDir());
    }

    void ruleBrowserListsEveryRule() {
        RuleBrowser b;
        b.resize(900, 600);
        b.show();
        QVERIFY(QTest::qWaitForWindowExposed(&b));
        auto* list = b.findChild<QListWidget*>();
        QVERIFY(list);
        QCOMPARE(list->count(), int(RuleRegistry::instance().rules().size()));
        QVERIFY(b.showRule(QStringLiteral("R104")));
        auto* page = b.findChild<QTextBrowser*>(QStringLiteral("rulePage"));
        QVERIFY(page->toPlainText().contains(QLatin1String("Why it matters")));
        QVERIFY(page->toPlainText().contains(QLatin1String("R104")));
        snap(&b, "4-rules");
    }

    void aboutNamesVersionsAndManifestAge() {
        MainWindow w;
        const QString about = w.aboutText();
        QVERIFY(about.contains(QLatin1String("Qt ") + QLatin1String(qVersion())));
        QVERIFY(
            about.contains(QLatin1String("KSyntaxHighlighting ") + syntaxHighlightingVersion()));
        QVERIFY(about.contains(QLatin1String("tree-sitter ")));
        const QString fetched = w.manifest().fetched().date().toString(Qt::ISODate);
        QVERIFY(about.contains(QLatin1String("Fetched ") + fetched));
        const bool stale = w.manifest().ageInDays(QDate::currentDate()) > Manifest::kStaleAfterDays;
        QCOMPARE(about.contains(QLatin1String("Warning")), stale);
        auto* status = w.findChild<QToolButton*>(QStringLiteral("manifestStatus"));
        QVERIFY(status);
        QCOMPARE(status->text().contains(QLatin1String("days old")), stale);
    }
};

CNREADY_STUDIO_TEST_MAIN(TestStudioTour, "tst_studio_tour")

#include "tst_studio_tour.moc"
