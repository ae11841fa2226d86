// The studio's Doctor round trip: File ▸ Import Doctor Report marks the findings the run
// confirmed and the "Confirmed at run time" button filters the table to them.
#include "DoctorImport.h"
#include "FindingsModel.h"
#include "MainWindow.h"

#include "../common/StudioTestMain.h"
#include <QAction>
#include <QIcon>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QToolButton>
#include <QtTest>

using namespace cnready;
using namespace cnready::ui;

namespace {
const QString kDir = QStringLiteral(CNREADY_SOURCE_DIR "/tests/fixtures/doctor");
} // namespace

class TestStudioDoctor : public QObject {
    Q_OBJECT
private slots:
    void importMarksAndFilters() {
        MainWindow w;
        w.resize(1200, 800);
        w.show();
        QSignalSpy done(&w, &MainWindow::analysisFinished);
        w.openProject(kDir + QStringLiteral("/pilot"));
        QVERIFY(done.wait(20000));
        QTRY_VERIFY(!w.isAssessing());
        QAbstractItemModel* table = w.findingsView()->model();
        QTRY_COMPARE(table->rowCount(), 5);

        // The action sits in the File menu; the filter waits for a report.
        QAction* act = w.action(QStringLiteral("importDoctorReport"));
        QVERIFY(act);
        QVERIFY(w.menuBar()->actions().first()->menu()->actions().contains(act));
        auto* button = w.findChild<QToolButton*>(QStringLiteral("filter_doctor"));
        QVERIFY(button);
        QVERIFY(!button->isEnabled());

        // A bad report changes nothing.
        QString why;
        QVERIFY(!w.doctorImport()->importReport(kDir + QStringLiteral("/malformed.json"), &why));
        QVERIFY(why.contains(QStringLiteral("not valid JSON")));
        QVERIFY(!button->isEnabled());

        QVERIFY2(w.doctorImport()->importReport(kDir + QStringLiteral("/run.json"), &why),
                 qPrintable(why));
        QStringList marked;
        for (int r = 0; r < table->rowCount(); ++r) {
            const QModelIndex code = table->index(r, FindingsModel::CodeColumn);
            const bool on = code.data(FindingsModel::ConfirmedRole).toBool();
            QCOMPARE(!code.data(Qt::DecorationRole).value<QIcon>().isNull(), on);
            if (on)
                marked << table->index(r, FindingsModel::LocationColumn).data().toString() +
                              QLatin1Char(' ') + code.data().toString();
        }
        marked.sort();
        QCOMPARE(marked, (QStringList{"kernels.py:12 R204", "kernels.py:14 R110",
                                      "kernels.py:7 R203", "main.py:8-10 R101"}));
        QVERIFY(w.statusBar()->currentMessage().contains(
            QStringLiteral("4 finding(s) confirmed at run time, 2 run-time only")));

        // The filter: only the confirmed rows, then all of them again.
        QVERIFY(button->isEnabled());
        QTest::mouseClick(button, Qt::LeftButton);
        QTRY_COMPARE(table->rowCount(), 4);
        for (int r = 0; r < table->rowCount(); ++r)
            QVERIFY(table->index(r, 0).data(FindingsModel::ConfirmedRole).toBool());
        QTest::mouseClick(button, Qt::LeftButton);
        QTRY_COMPARE(table->rowCount(), 5);

        // A re-analysis keeps the marks (the report is matched again).
        QSignalSpy again(&w, &MainWindow::analysisFinished);
        w.reanalyze();
        QVERIFY(again.wait(20000));
        QTRY_VERIFY(!w.isAssessing());
        int confirmed = 0;
        for (int r = 0; r < table->rowCount(); ++r)
            confirmed += table->index(r, 0).data(FindingsModel::ConfirmedRole).toBool();
        QCOMPARE(confirmed, 4);
    }
};

CNREADY_STUDIO_TEST_MAIN(TestStudioDoctor, "tst_studio_doctor")

#include "tst_studio_doctor.moc"
