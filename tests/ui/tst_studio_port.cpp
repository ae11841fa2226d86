// The studio's Port Preview (View ▸ Port Preview): opened from the menu action on the port
// fixture project, it shows the same diff `cnready port --diff` prints, for the whole project
// and for the current file, read-only.
#include "../common/StudioTestMain.h"
#include "CodeView.h"
#include "MainWindow.h"
#include "PortPreview.h"

#include <QAction>
#include <QComboBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QSignalSpy>
#include <QtTest>

using namespace cnready;
using namespace cnready::ui;

class TestStudioPort : public QObject {
    Q_OBJECT

private slots:
    void portPreviewShowsTheCliDiff() {
        const QString root = QStringLiteral(CNREADY_FIXTURES_DIR "/projects/port_mechanical");
        QProcess cli;
        cli.start(QStringLiteral(CNREADY_CLI_PATH),
                  {QStringLiteral("port"), root, QStringLiteral("--diff")});
        QVERIFY(cli.waitForFinished(120'000));
        QCOMPARE(cli.exitCode(), 0);
        const QString expected = QString::fromUtf8(cli.readAllStandardOutput());
        QVERIFY(expected.contains(QStringLiteral("+import cupynumeric as np\n")));

        MainWindow w;
        w.show();
        QSignalSpy done(&w, &MainWindow::analysisFinished);
        w.openProject(root);
        QVERIFY(done.wait(60'000));
        QTRY_VERIFY(!w.isAssessing());
        auto* act = w.findChild<QAction*>(QStringLiteral("portPreview"));
        QVERIFY(act);
        act->trigger();
        PortPreview* preview = nullptr;
        QTRY_VERIFY((preview = w.findChild<PortPreview*>()) != nullptr);
        QTRY_VERIFY(!preview->isBuilding() && preview->text() == expected);
        auto* view = preview->findChild<QPlainTextEdit*>(QStringLiteral("portDiff"));
        QVERIFY(view && view->isReadOnly());

        // The current file alone: only its part of the diff.
        w.openFile(QStringLiteral("pkg/layout.py"));
        QTRY_COMPARE(w.codeView()->currentPath(), QStringLiteral("pkg/layout.py"));
        preview->close();
        act->trigger();
        QTRY_VERIFY((preview = w.findChild<PortPreview*>()) != nullptr && preview->isVisible());
        preview->setWholeProject(false);
        QTRY_VERIFY(!preview->isBuilding() &&
                    preview->text().startsWith(QStringLiteral(
                        "# cnready port: pkg/layout.py fixes R109; keeps import numpy: the "
                        "module's verdict is LIGHT REFACTOR after these fixes; the swap needs "
                        "READY\n")));
        QVERIFY(!preview->text().contains(QStringLiteral("pkg/sim.py")));
    }
};

CNREADY_STUDIO_TEST_MAIN(TestStudioPort, "tst_studio_port")
#include "tst_studio_port.moc"
