// What a new user's trial of the studio found (fresh settings, a 1366x768 screen), and issue 15's
// per-project context, rendered preview, finding detail pane and Import Manifest. The screen is
// the offscreen platform's, configured to 1366x768 before the application starts.
#include "ContextForm.h"
#include "FindingsModel.h"
#include "GateDashboard.h"
#include "MainWindow.h"
#include "ReportView.h"

#include "../common/GuiStall.h"

#include "../common/StudioTestMain.h"
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextTable>
#include <QTimer>

#include <QtTest>

using namespace cnready;
using namespace cnready::ui;

namespace {

const QString kFixture = QStringLiteral(CNREADY_SOURCE_DIR "/tests/ui/fixtures/sim_project");
const QString kExamples = QStringLiteral(CNREADY_SOURCE_DIR "/assets/examples");

bool openAndWait(MainWindow& w, const QString& path, int timeoutMs = 120000) {
    QSignalSpy done(&w, &MainWindow::analysisFinished);
    w.openProject(path);
    return (done.wait(timeoutMs) || done.count() > 0) &&
           QTest::qWaitFor([&w] { return !w.isAssessing(); }, 20000);
}

template <typename T> T* field(MainWindow& w, const char* name) {
    return w.contextForm()->findChild<T*>(QLatin1String(name));
}

QString note(MainWindow& w, const char* name) {
    return field<QLabel>(w, name)->text();
}

} // namespace

class TestStudioTrial : public QObject {
    Q_OBJECT
private slots:
    void init() { QSettings().clear(); }

    // The first window used to open at 1500x950 on a 1366x768 screen: the status bar with the
    // progress and Cancel off-screen, the right docks cut off, one findings row.
    void firstWindowFitsTheScreen() {
        const QRect avail = QGuiApplication::primaryScreen()->availableGeometry();
        QCOMPARE(avail.size(), QSize(1366, 768));
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndWait(w, kFixture));
        QVERIFY2(avail.contains(w.geometry()),
                 qPrintable(QStringLiteral("window %1x%2+%3+%4 on a %5x%6 screen")
                                .arg(w.width())
                                .arg(w.height())
                                .arg(w.x())
                                .arg(w.y())
                                .arg(avail.width())
                                .arg(avail.height())));
        // The status bar (progress, Cancel, manifest) is on the screen.
        const QRect status(w.statusBar()->mapToGlobal(QPoint(0, 0)), w.statusBar()->size());
        QVERIFY(avail.contains(status));
        // Several findings rows, not one.
        QTableView* t = w.findingsView();
        QVERIFY(t->viewport()->height() >= 5 * t->verticalHeader()->defaultSectionSize());
        // The right docks scroll: their content is in a scroll area, inside the screen.
        for (const char* name : {"verdictDock", "gatesDock", "contextDock"}) {
            auto* dock = w.findChild<QDockWidget*>(QLatin1String(name));
            QVERIFY(dock);
            QVERIFY(qobject_cast<QScrollArea*>(dock->widget()));
            const QRect r(dock->mapToGlobal(QPoint(0, 0)), dock->size());
            QVERIFY2(avail.contains(r), name);
        }
        // The centre keeps room for the code.
        QVERIFY(w.centralWidget()->width() >= 400);
    }

    // "banana" after "16M": the note says it is not valid, and the value is not used, both at
    // once and after another field changes (it used to keep 16M until K80 was picked).
    void invalidArraySizeIsSaidAndNotUsed() {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, kFixture));
        auto* size = field<QLineEdit>(w, "elements");
        size->setText(QStringLiteral("16M"));
        QVERIFY(QTest::qWaitFor([&w] { return !w.isAssessing(); }, 10000));
        QCOMPARE(w.assessment().context.totalElements, qint64(16000000));
        QVERIFY(note(w, "elementsNote").contains(QLatin1String("16,000,000")));

        size->selectAll();
        QTest::keyClicks(size, QStringLiteral("banana"));
        QVERIFY2(note(w, "elementsNote").contains(QLatin1String("Not valid")),
                 qPrintable(note(w, "elementsNote")));
        QVERIFY(note(w, "elementsNote").contains(QLatin1String("banana")));
        QVERIFY(QTest::qWaitFor([&w] { return !w.isAssessing(); }, 10000));
        QVERIFY(w.assessment().context.totalElements != 16000000);
        QVERIFY(!w.contextForm()->input().elements);
        QVERIFY(note(w, "elementsNote").contains(QLatin1String("Not valid")));
        QVERIFY(!note(w, "elementsNote").contains(QLatin1String("given")));
        const qint64 without = w.assessment().context.totalElements;

        auto* model = field<QComboBox>(w, "gpuModel");
        model->setCurrentIndex(model->findData(QStringLiteral("K80")));
        QVERIFY(QTest::qWaitFor([&w] { return !w.isAssessing(); }, 10000));
        QCOMPARE(w.assessment().context.totalElements, without);
        QVERIFY(note(w, "elementsNote").contains(QLatin1String("Not valid")));
        QCOMPARE(size->text(), QStringLiteral("banana"));
    }

    // While a new project is analysed, the form shows nothing inferred from the previous one.
    void contextFormForgetsTheLastProjectsInference() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        QVERIFY(testing::writeProject(tmp.path(), 150, 7, 40, 120));
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, kExamples));
        auto* pattern = field<QComboBox>(w, "pattern");
        QVERIFY2(pattern->itemText(0).contains(QLatin1String("now:")),
                 qPrintable(pattern->itemText(0)));
        const QString before = note(w, "patternNote");
        QVERIFY(!before.isEmpty());
        QSignalSpy done(&w, &MainWindow::analysisFinished);
        w.openProject(tmp.path());
        QVERIFY(w.isAnalyzing());
        QCOMPARE(pattern->itemText(0), QStringLiteral("infer from the code"));
        QVERIFY(note(w, "patternNote") != before);
        QVERIFY(!note(w, "patternNote").contains(QLatin1String("inferred")));
        QVERIFY(done.wait(120000) || done.count() > 0);
    }

    // Ctrl+2 on a large report: "Building the preview…" at once, then a rendered report whose
    // tables are tables.
    void previewSaysItIsBuildingThenShowsTables() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        QVERIFY(testing::writeProject(tmp.path(), 120, 11, 40, 120));
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, tmp.path()));
        QTest::keyClick(&w, Qt::Key_2, Qt::ControlModifier);
        ReportView* view = w.reportView();
        QVERIFY(view->isVisible());
        QVERIFY(view->isBuilding());
        const QImage busy = view->viewport()->grab().toImage();
        QVERIFY(!busy.isNull());
        QVERIFY(QTest::qWaitFor([view] { return !view->isBuilding(); }, 60000));
        const QTextDocument* doc = view->document();
        QVERIFY(doc);
        QVERIFY(!doc->toPlainText().contains(QLatin1String("|---")));
        QVERIFY(!doc->toPlainText().contains(QLatin1String("## Verdict")));
        // The first table is the context table: its header cell reads "Context", and the
        // cell under "Value" of the row "Nodes" is a cell of its own.
        QTextCursor c(const_cast<QTextDocument*>(doc));
        QTextTable* table = nullptr;
        for (QTextBlock b = doc->begin(); b.isValid() && !table; b = b.next()) {
            c.setPosition(b.position());
            table = c.currentTable();
        }
        QVERIFY(table);
        QVERIFY(table->columns() >= 4);
        auto cellText = [table](int r, int col) {
            const QTextTableCell cell = table->cellAt(r, col);
            QTextCursor a = cell.firstCursorPosition();
            a.setPosition(cell.lastCursorPosition().position(), QTextCursor::KeepAnchor);
            return a.selectedText();
        };
        QCOMPARE(cellText(0, 0), QStringLiteral("Context"));
        QCOMPARE(cellText(0, 1), QStringLiteral("Value"));
        bool nodes = false;
        for (int r = 1; r < table->rows(); ++r)
            if (cellText(r, 0) == QLatin1String("Nodes")) {
                QCOMPARE(cellText(r, 1), QStringLiteral("1"));
                nodes = true;
            }
        QVERIFY(nodes);
        // A heading is a heading.
        bool heading = false;
        for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
            heading = heading ||
                      (b.text() == QLatin1String("Verdict") && b.blockFormat().headingLevel() == 2);
        QVERIFY(heading);
    }

    // Ctrl+E starts in the project folder, not where the last dialog was.
    void exportStartsInTheProjectFolder() {
        QSettings().setValue(QStringLiteral("exportDir"), QDir::tempPath());
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, kFixture));
        QString shown;
        QTimer::singleShot(300, this, [&shown] {
            auto* dlg = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
            if (dlg) {
                shown = dlg->directory().absolutePath();
                dlg->reject();
            }
        });
        QTest::keyClick(&w, Qt::Key_E, Qt::ControlModifier);
        QTRY_VERIFY(!shown.isEmpty());
        QCOMPARE(shown, QFileInfo(kFixture).absoluteFilePath());
        QCOMPARE(w.exportStartDir(), QFileInfo(kFixture).absoluteFilePath());
    }

    // Context values per project folder; a carried-over value says so, never "given".
    void contextIsRememberedPerProject() {
        {
            MainWindow w;
            w.show();
            QVERIFY(openAndWait(w, kFixture));
            field<QSpinBox>(w, "gpus")->setValue(8);
            field<QLineEdit>(w, "cuda")->setText(QStringLiteral("12.4"));
            QVERIFY(QTest::qWaitFor([&w] { return !w.isAssessing(); }, 10000));
            QCOMPARE(note(w, "gpusNote"), QStringLiteral("given"));
            // Another project has its own (empty) context.
            QVERIFY(openAndWait(w, kExamples));
            QCOMPARE(field<QSpinBox>(w, "gpus")->value(), 0);
            QVERIFY(!w.contextForm()->input().cuda);
            field<QSpinBox>(w, "gpus")->setValue(2);
            QVERIFY(QTest::qWaitFor([&w] { return !w.isAssessing(); }, 10000));
            w.close();
        }
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, kFixture));
        QCOMPARE(field<QSpinBox>(w, "gpus")->value(), 8);
        QCOMPARE(w.assessment().context.gpus, 8);
        QCOMPARE(w.assessment().context.cuda, QStringLiteral("12.4"));
        QCOMPARE(note(w, "gpusNote"), QStringLiteral("from your last session for this project"));
        QCOMPARE(note(w, "cudaNote"), QStringLiteral("from your last session for this project"));
        QVERIFY(!field<QLabel>(w, "gpusNote")->toolTip().contains(QLatin1String("--gpus")));
        // Edited today: given.
        field<QSpinBox>(w, "gpus")->setValue(4);
        QVERIFY(QTest::qWaitFor([&w] { return !w.isAssessing(); }, 10000));
        QCOMPARE(note(w, "gpusNote"), QStringLiteral("given"));
        QCOMPARE(note(w, "cudaNote"), QStringLiteral("from your last session for this project"));
        QVERIFY(openAndWait(w, kExamples));
        QCOMPARE(field<QSpinBox>(w, "gpus")->value(), 2);
        QVERIFY(openAndWait(w, kFixture));
        QCOMPARE(field<QSpinBox>(w, "gpus")->value(), 4);
    }

    // The CLI's --cuda, --os and --compute-capability have fields.
    void cudaOsAndComputeCapabilityFields() {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, kFixture));
        field<QLineEdit>(w, "cuda")->setText(QStringLiteral("12.4"));
        auto* os = field<QComboBox>(w, "os");
        os->setCurrentIndex(os->findData(QStringLiteral("wsl2")));
        field<QLineEdit>(w, "computeCapability")->setText(QStringLiteral("8.6"));
        QVERIFY(QTest::qWaitFor([&w] { return !w.isAssessing(); }, 10000));
        const Context& c = w.assessment().context;
        QCOMPARE(c.cuda, QStringLiteral("12.4"));
        QCOMPARE(c.os, QStringLiteral("wsl2"));
        QCOMPARE(c.computeCapability, 8.6);
        QCOMPARE(note(w, "cudaNote"), QStringLiteral("given"));
        QCOMPARE(note(w, "computeCapabilityNote"), QStringLiteral("given"));
        field<QLineEdit>(w, "cuda")->setText(QStringLiteral("twelve"));
        QVERIFY(note(w, "cudaNote").contains(QLatin1String("Not valid")));
        QVERIFY(QTest::qWaitFor([&w] { return !w.isAssessing(); }, 10000));
        QVERIFY(w.assessment().context.cuda.isEmpty());
        QVERIFY(note(w, "cudaNote").contains(QLatin1String("Not valid")));
        // The export follows the form, as `--cuda` would.
        field<QLineEdit>(w, "cuda")->setText(QStringLiteral("11.8"));
        QTemporaryDir tmp;
        const QString file = tmp.filePath(QStringLiteral("r.md"));
        QVERIFY(w.exportReport(file, ReportFormat::Markdown));
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains("| CUDA | 11.8 | given |"));
    }

    // Selecting a row shows the finding in full beside the table.
    void findingDetailPaneShowsTheSelectedFinding() {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, kExamples));
        QTableView* t = w.findingsView();
        int row = -1;
        for (int r = 0; r < t->model()->rowCount() && row < 0; ++r)
            if (!t->model()->index(r, FindingsModel::RecipeColumn).data().toString().isEmpty())
                row = r;
        QVERIFY(row >= 0);
        const QModelIndex idx = t->model()->index(row, FindingsModel::MessageColumn);
        QTest::mouseClick(t->viewport(), Qt::LeftButton, {}, t->visualRect(idx).center());
        QTextBrowser* detail = w.findingDetail();
        QVERIFY(detail->isVisible());
        const QString text = detail->toPlainText();
        QVERIFY2(text.contains(idx.data().toString()), qPrintable(text));
        QVERIFY(text.contains(idx.data(FindingsModel::CodeRole).toString()));
        QVERIFY(text.contains(QLatin1String("Before")));
        QVERIFY(text.contains(QLatin1String("After")));
        QVERIFY(
            text.contains(t->model()->index(row, FindingsModel::RecipeColumn).data().toString()));
        QTest::keyClick(t, Qt::Key_Down);
        QVERIFY(detail->toPlainText() != text || t->model()->rowCount() == 1);
    }

    // File ▸ Import Manifest… sits beside Refresh Manifest and installs a saved manifest.
    void importManifestBesideRefresh() {
        MainWindow w;
        w.show();
        QMenu* file = nullptr;
        for (QAction* a : w.menuBar()->actions())
            if (a->menu() && a->text().contains(QLatin1String("File")))
                file = a->menu();
        QVERIFY(file);
        const QList<QAction*> items = file->actions();
        const qsizetype refresh = items.indexOf(w.action(QStringLiteral("refreshManifest")));
        QVERIFY(refresh >= 0);
        QCOMPARE(items.value(refresh + 1), w.action(QStringLiteral("importManifest")));
        QTemporaryDir tmp;
        const QString saved = tmp.filePath(QStringLiteral("manifest.md"));
        QVERIFY(QFile::copy(QStringLiteral(":/cnready/api-support.md"), saved));
        QFile::setPermissions(saved, QFile::ReadOwner | QFile::WriteOwner);
        QVERIFY(openAndWait(w, kFixture));
        QString error;
        QVERIFY2(w.importManifest(saved, &error), qPrintable(error));
        QCOMPARE(w.manifest().originKind(), ManifestOrigin::UserImported);
        QVERIFY(QFile::exists(Manifest::userManifestPath()));
        const QString bad = tmp.filePath(QStringLiteral("bad.md"));
        QFile b(bad);
        QVERIFY(b.open(QIODevice::WriteOnly));
        b.write("not a manifest\n");
        b.close();
        QVERIFY(!w.importManifest(bad, &error));
        QVERIFY(!error.isEmpty());
    }
};

CNREADY_STUDIO_TEST_MAIN_ON_SCREEN(TestStudioTrial, "tst_studio_trial", 1366, 768)

#include "tst_studio_trial.moc"
