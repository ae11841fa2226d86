// The studio's cost chart and the findings table's Cost bound column (issue 20 item 3): they
// follow the context form live. More GPUs or a faster GPU never raise a bound; a site whose
// array the workload model cannot size says "size unknown" and gets no bar.
#include "CostChartView.h"
#include "FindingsModel.h"
#include "MainWindow.h"

#include "../common/StudioTestMain.h"
#include <QApplication>
#include <QCategoryAxis>
#include <QChart>
#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QtTest>

using namespace cnready;
using namespace cnready::ui;

namespace {
const QString kProject = QStringLiteral(CNREADY_SOURCE_DIR "/tests/ui/fixtures/cost");

QPalette darkPalette() {
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    p.setColor(QPalette::WindowText, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
    p.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
    p.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    p.setColor(QPalette::ButtonText, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x84, 0xc6));
    p.setColor(QPalette::HighlightedText, QColor(0xff, 0xff, 0xff));
    p.setColor(QPalette::ToolTipBase, QColor(0x35, 0x35, 0x35));
    p.setColor(QPalette::ToolTipText, QColor(0xe0, 0xe0, 0xe0));
    return p;
}

/// The Cost bound cell of the first table row whose location is `location` and code `code`.
QString costCell(QAbstractItemModel* table, const QString& location, const QString& code) {
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->index(r, FindingsModel::LocationColumn).data().toString() == location &&
            table->index(r, FindingsModel::CodeColumn).data().toString() == code)
            return table->index(r, FindingsModel::CostColumn).data().toString();
    return QStringLiteral("(no row)");
}

/// The bar of the chart whose label starts with `site` ("solver.py:7-8"), -1 when none.
// Opens the bundled example in `w` (shown at `size`) and waits for its assessment; `chart` is
// the cost chart afterwards (null if the window has none).
void openExample(MainWindow& w, QSize size, CostChartView*& chart) {
    w.resize(size);
    w.show();
    QSignalSpy done(&w, &MainWindow::analysisFinished);
    w.openProject(QStringLiteral(CNREADY_SOURCE_DIR "/assets/examples"));
    QVERIFY(done.wait(30000));
    QTRY_VERIFY(!w.isAssessing());
    chart = w.findChild<CostChartView*>(QStringLiteral("costChart"));
}

int barOf(const CostChartView* chart, const QString& site) {
    for (int i = 0; i < chart->barCount(); ++i)
        if (chart->barLabel(i).startsWith(site + QLatin1Char(' ')))
            return i;
    return -1;
}
} // namespace

class TestStudioCost : public QObject {
    Q_OBJECT
private slots:
    void chartAndColumnFollowTheContext() {
        MainWindow w;
        w.resize(1300, 850);
        w.show();
        QSignalSpy done(&w, &MainWindow::analysisFinished);
        w.openProject(kProject);
        QVERIFY(done.wait(20000));
        QTRY_VERIFY(!w.isAssessing());
        auto* chart = w.findChild<CostChartView*>(QStringLiteral("costChart"));
        QVERIFY(chart);
        auto* tabs = w.findChild<QTabWidget*>();
        QVERIFY(tabs && tabs->indexOf(chart) >= 0);
        tabs->setCurrentWidget(chart);
        auto* size = w.findChild<QLineEdit*>(QStringLiteral("elements"));
        auto* gpus = w.findChild<QSpinBox*>(QStringLiteral("gpus"));
        auto* model = w.findChild<QComboBox*>(QStringLiteral("gpuModel"));
        QVERIFY(size && gpus && model);
        QAbstractItemModel* table = w.findingsView()->model();

        // 100 M float64 elements on one A100 (2,039 GB/s, 10 µs per task):
        //  - the element loop: 100 M iterations x 3 accesses x 10 µs = 3000 s (tasks), per run
        //    (no step loop around it);
        //  - the stencil, without fusion: 3 tasks and 7 passes (u[2:] + u[:-2]: 3, 0.5 * tmp: 2,
        //    the copy: 2) x 8 B x 100 M = 5.6 GB / 2039 GB/s = 2.746 ms (bandwidth), per step;
        //  - the step on `state.field` (no size): its one task per step, 10 µs, tasks only.
        QSignalSpy assessed(&w, &MainWindow::assessmentChanged);
        size->setText(QStringLiteral("100M"));
        model->setCurrentIndex(model->findData(QStringLiteral("A100")));
        QTRY_COMPARE(chart->caption().contains(QStringLiteral("A100")), true);
        QTRY_COMPARE(chart->barCount(), 3);
        const int loop = barOf(chart, QStringLiteral("solver.py:14-15"));
        const int stencil = barOf(chart, QStringLiteral("solver.py:7-8"));
        const int drift = barOf(chart, QStringLiteral("solver.py:20-21"));
        QVERIFY2(loop == 0 && stencil == 1 && drift == 2, qPrintable(chart->barLabel(0)));
        QCOMPARE(chart->barSeconds(loop), 3000.0);
        QVERIFY(qAbs(chart->barSeconds(stencil) - 5.6e9 / 2039e9) < 1e-9);
        QVERIFY(qAbs(chart->barSeconds(drift) - 10e-6) < 1e-12);
        QVERIFY(chart->isLogScale()); // 3000 s against 2.7 ms
        QCOMPARE(chart->barLabel(drift),
                 QStringLiteral("solver.py:20-21 R005  ≥ 10 µs/step tasks"));
        QCOMPARE(costCell(table, QStringLiteral("solver.py:8"), QStringLiteral("R005")),
                 QStringLiteral("≥ 2.7 ms/step"));
        QCOMPARE(costCell(table, QStringLiteral("solver.py:14-15"), QStringLiteral("R101")),
                 QStringLiteral("≥ 3000 s/run"));
        // The site of unknown size: its task per step, "tasks only" in the table.
        QCOMPARE(costCell(table, QStringLiteral("solver.py:21"), QStringLiteral("R005")),
                 QStringLiteral("≥ 10 µs/step tasks"));
        QVERIFY(chart->unknownSites().isEmpty());
        QVERIFY(chart->barToolTip(stencil).contains(QStringLiteral("2.04 TB/s (A100)")));
        // The element loop of known size runs once per run: its tasks are counted per run.
        QVERIFY(chart->barToolTip(loop).contains(QStringLiteral("tasks per run")));

        // A faster GPU (B200, 8,000 GB/s): the stencil drops to 700 µs, the loop stays.
        const double a100Stencil = chart->barSeconds(stencil);
        model->setCurrentIndex(model->findData(QStringLiteral("B200")));
        QTRY_COMPARE(chart->caption().contains(QStringLiteral("B200")), true);
        QVERIFY(chart->barSeconds(barOf(chart, QStringLiteral("solver.py:7-8"))) < a100Stencil);
        QVERIFY(qAbs(chart->barSeconds(barOf(chart, QStringLiteral("solver.py:7-8"))) - 700e-6) <
                1e-12);
        QCOMPARE(chart->barSeconds(barOf(chart, QStringLiteral("solver.py:14-15"))), 3000.0);
        QCOMPARE(costCell(table, QStringLiteral("solver.py:8"), QStringLiteral("R005")),
                 QStringLiteral("≥ 700 µs/step"));

        // Four GPUs share the traffic: 175 µs; the element loop's tasks do not shrink.
        gpus->setValue(4);
        QTRY_COMPARE(chart->caption().contains(QStringLiteral("4 GPUs")), true);
        QVERIFY(qAbs(chart->barSeconds(barOf(chart, QStringLiteral("solver.py:7-8"))) - 175e-6) <
                1e-12);
        QCOMPARE(chart->barSeconds(barOf(chart, QStringLiteral("solver.py:14-15"))), 3000.0);
        QCOMPARE(costCell(table, QStringLiteral("solver.py:8"), QStringLiteral("R005")),
                 QStringLiteral("≥ 175 µs/step"));
        QCOMPARE(costCell(table, QStringLiteral("solver.py:21"), QStringLiteral("R005")),
                 QStringLiteral("≥ 10 µs/step tasks"));

        // Sorting by the column puts the largest bound first, the tasks-only 10 µs last.
        w.findingsView()->sortByColumn(FindingsModel::CostColumn, Qt::DescendingOrder);
        QCOMPARE(table->index(0, FindingsModel::CostColumn).data().toString(),
                 QStringLiteral("≥ 3000 s/run"));
        QStringList order;
        for (int r = 0; r < table->rowCount(); ++r)
            order << table->index(r, FindingsModel::CostColumn).data().toString();
        QVERIFY2(order.indexOf(QStringLiteral("≥ 10 µs/step tasks")) >
                     order.lastIndexOf(QStringLiteral("≥ 175 µs/step")),
                 qPrintable(order.join(QLatin1String(" | "))));
        QVERIFY(assessed.count() >= 3);
    }

    void convergenceBarIsAbridged() {
        // The example's `settle` runs until it converges, its arrays of no known size: 8 array
        // operations per sweep for sure ("≥ 80 µs per step (until it converges; tasks only,
        // data size unknown)" in the report): the axis label abridges both qualifiers, so Qt
        // Charts does not cut it.
        MainWindow w;
        CostChartView* chart = nullptr;
        openExample(w, QSize(1300, 850), chart);
        QVERIFY(chart);
        QTRY_VERIFY(chart->barCount() > 0);
        const int settle = barOf(chart, QStringLiteral("legacy_probe.py:34-38"));
        QVERIFY2(settle >= 0, qPrintable(chart->barLabel(0)));
        QCOMPARE(chart->barLabel(settle),
                 QStringLiteral("legacy_probe.py:34-38 R001  ≥ 80 µs conv. tasks"));
        QVERIFY(chart->glossary().contains(QStringLiteral("\"conv.\": per step")));
    }

    void labelsTellFilesApartAndTicksHaveUnits() {
        // nitime has algorithms/spectral.py and analysis/spectral.py: each keeps its folder;
        // a file name seen once stays short; a clash two folders deep keeps both.
        QCOMPARE(CostChartView::distinctNames({QStringLiteral("algorithms/spectral.py"),
                                               QStringLiteral("analysis/spectral.py"),
                                               QStringLiteral("utils.py"),
                                               QStringLiteral("analysis/coherence.py")}),
                 QStringList({QStringLiteral("algorithms/spectral.py"),
                              QStringLiteral("analysis/spectral.py"), QStringLiteral("utils.py"),
                              QStringLiteral("coherence.py")}));
        QCOMPARE(CostChartView::distinctNames({QStringLiteral("a/x/f.py"),
                                               QStringLiteral("b/x/f.py"), QStringLiteral("f.py")}),
                 QStringList({QStringLiteral("a/x/f.py"), QStringLiteral("b/x/f.py"),
                              QStringLiteral("f.py")}));
        // The example: the element loop of unknown length is drawn at its 65,536 passes
        // (4 tasks x 10 µs x 65,536 = 2.62 s), above the sensors' 1.7 ms per step, and says
        // both figures; the ticks carry units (10 ns ... 100 s, every second decade), never
        // bare seconds.
        MainWindow w;
        CostChartView* chart = nullptr;
        openExample(w, QSize(1366, 768), chart);
        QVERIFY(chart);
        QTRY_VERIFY(chart->barCount() > 1);
        QCOMPARE(chart->barLabel(0),
                 QStringLiteral("legacy_probe.py:12-13 R101  ≥ 40 µs/pass, 2.6 s ×65,536"));
        QVERIFY(qAbs(chart->barSeconds(0) - 40e-6 * 65536) < 1e-9);
        for (int i = 1; i < chart->barCount(); ++i)
            QVERIFY2(chart->barSeconds(i) <= chart->barSeconds(i - 1),
                     qPrintable(chart->barLabel(i)));
        auto* axis = qobject_cast<QCategoryAxis*>(chart->chart()->axes(Qt::Horizontal).value(0));
        QVERIFY(axis);
        QCOMPARE(
            axis->categoriesLabels(),
            QStringList({QStringLiteral("10 ns"), QStringLiteral("1 µs"), QStringLiteral("100 µs"),
                         QStringLiteral("10 ms"), QStringLiteral("1 s"), QStringLiteral("100 s")}));
    }

    /// Not a check: with CNREADY_SCREENSHOT_DIR set (run under xvfb-run), saves the cost chart
    /// tab of the bundled example project (or of CNREADY_SCREENSHOT_PROJECT) in a light and a
    /// dark palette, and the window.
    void screenshots() {
        const QString dir = qEnvironmentVariable("CNREADY_SCREENSHOT_DIR");
        if (dir.isEmpty())
            QSKIP("CNREADY_SCREENSHOT_DIR is not set");
        const QPalette light = QApplication::palette();
        for (const bool dark : {false, true}) {
            QApplication::setPalette(dark ? darkPalette() : light);
            MainWindow w;
            w.resize(1366, 768);
            w.show();
            QSignalSpy done(&w, &MainWindow::analysisFinished);
            const QString project =
                qEnvironmentVariable("CNREADY_SCREENSHOT_PROJECT",
                                     QStringLiteral(CNREADY_SOURCE_DIR "/assets/examples"));
            w.openProject(project);
            QVERIFY(done.wait(60000));
            QTRY_VERIFY_WITH_TIMEOUT(!w.isAssessing(), 60000);
            auto* chart = w.findChild<CostChartView*>(QStringLiteral("costChart"));
            QVERIFY(chart);
            w.findChild<QTabWidget*>()->setCurrentWidget(chart);
            QTRY_VERIFY(chart->barCount() > 0);
            w.findingsView()->sortByColumn(FindingsModel::CostColumn, Qt::DescendingOrder);
            QTest::qWait(400);
            const QString suffix = dark ? QStringLiteral("dark") : QStringLiteral("light");
            QVERIFY(chart->grab().save(dir + QStringLiteral("/cost-chart-%1.png").arg(suffix)));
            QVERIFY(w.grab().save(dir + QStringLiteral("/studio-cost-%1.png").arg(suffix)));
            QTableView* table = w.findingsView();
            table->scrollTo(table->model()->index(0, FindingsModel::CostColumn));
            QTest::qWait(100);
            QVERIFY(table->grab().save(dir + QStringLiteral("/findings-cost-%1.png").arg(suffix)));
        }
        QApplication::setPalette(light);
    }
};

CNREADY_STUDIO_TEST_MAIN(TestStudioCost, "tst_studio_cost")
#include "tst_studio_cost.moc"
