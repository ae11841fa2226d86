// Opening one project after another (issue 15): a new user clicked in the source view, pressed
// Ctrl+O, picked another folder, and the studio crashed in a queued re-highlight of a block of
// the file that had just been replaced (QSyntaxHighlighter::rehighlightBlock ← sendPostedEvents).
// This test repeats that sequence on generated projects of realistic size and on the bundled
// example project, several rounds, with a palette change and a re-analysis among them: every
// step that replaces the text on display (another file, a message, a new theme) while the
// highlighter may still have work queued for the old text.
//
// The crash is a read of freed text-document memory; an ASan build (cmake --preset asan) of
// this test reports it on the first round, an optimised build usually crashes within a few.
#include "../common/StudioTestMain.h"
#include "CodeView.h"
#include "MainWindow.h"
#include "Versions.h"

#include "../common/GuiStall.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QFileDialog>
#include <QLineEdit>
#include <QPalette>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextLayout>
#include <QTimer>
#include <QtTest>

using namespace cnready;
using namespace cnready::ui;

namespace {

// Waits for the analysis `start` begins and for its assessment.
bool runAndWait(MainWindow& w, const std::function<void()>& start, int timeoutMs = 120000) {
    QSignalSpy done(&w, &MainWindow::analysisFinished);
    start();
    if (!(done.wait(timeoutMs) || done.count() > 0))
        return false;
    return QTest::qWaitFor([&w] { return !w.isAssessing() && !w.isAnalyzing(); }, timeoutMs);
}

// Answers the next Open Folder dialog with `dir`, as a user types the folder and presses
// Choose. Gives up after 10 s (the caller's wait then fails).
void answerFolderDialog(const QString& dir) {
    auto* poll = new QTimer;
    poll->setInterval(20);
    auto* tries = new int(0);
    QObject::connect(poll, &QTimer::timeout, poll, [poll, tries, dir] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        if (!dialog && ++*tries < 500)
            return;
        poll->stop();
        poll->deleteLater();
        delete tries;
        if (!dialog)
            return;
        auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
        if (name)
            name->setText(dir);
        QMetaObject::invokeMethod(dialog, "accept"); // the Choose button
    });
    poll->start();
}

// Clicks at a few places of the source view, scrolls half way down and clicks again, then
// walks the cursor with the keyboard: what a reader does with a file.
void readTheSource(CodeView* view) {
    QWidget* port = view->viewport();
    const QList<QPoint> spots = {
        {40, 10}, {120, port->height() / 3}, {60, port->height() / 2}, {200, port->height() - 20}};
    for (const QPoint& p : spots)
        QTest::mouseClick(port, Qt::LeftButton, {}, p);
    view->verticalScrollBar()->setValue(view->verticalScrollBar()->maximum() / 2);
    for (const QPoint& p : spots)
        QTest::mouseClick(port, Qt::LeftButton, {}, p);
    QTest::mouseDClick(port, Qt::LeftButton, {}, spots.at(1));
    for (int i = 0; i < 5; ++i)
        QTest::keyClick(view, Qt::Key_Down);
    QTest::keyClick(view, Qt::Key_End, Qt::ControlModifier);
    QTest::qWait(30);
}

QString fileText(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// True when some line of the first 50 carries a highlighting format (keywords, strings,
// comments): the text on display went through the Python highlighter.
bool isHighlighted(const CodeView* view) {
    QTextBlock b = view->document()->firstBlock();
    for (int i = 0; i < 50 && b.isValid(); ++i, b = b.next())
        if (!b.layout()->formats().isEmpty())
            return true;
    return false;
}

QPalette darkPalette() {
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    p.setColor(QPalette::WindowText, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    p.setColor(QPalette::ButtonText, QColor(0xe0, 0xe0, 0xe0));
    return p;
}

} // namespace

class TestStudioReopen : public QObject {
    Q_OBJECT
private slots:
    void init() { QSettings().clear(); }

    void secondProjectAfterClicksInTheSource() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        // Two research-code-sized projects with no file path in common (so the file on display
        // is always replaced), modules of 150-600 lines.
        const QString first = tmp.filePath(QStringLiteral("first"));
        const QString second = tmp.filePath(QStringLiteral("second"));
        QVERIFY(testing::writeProject(first, 60, 21, 150, 600));
        QVERIFY(testing::writeProject(second + QStringLiteral("/src"), 60, 22, 150, 600));
        const QString examples = bundledExamplesDir();
        QVERIFY(!examples.isEmpty());
        const QPalette light = QApplication::palette();

        MainWindow w;
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        CodeView* code = w.codeView();
        const QString lightTheme = code->themeName();
        QVERIFY(runAndWait(w, [&] { w.openProject(first); }));

        for (int round = 0; round < 4; ++round) {
            // The project's worst file is on display: read it, then Ctrl+O another folder.
            QVERIFY(!code->currentPath().isEmpty());
            readTheSource(code);
            w.activateWindow(); // back from the last dialog: Ctrl+O is a shortcut of this window
            QVERIFY(QTest::qWaitForWindowActive(&w));
            answerFolderDialog(second);
            QVERIFY(runAndWait(w, [&] { QTest::keyClick(&w, Qt::Key_O, Qt::ControlModifier); }));
            QCOMPARE(w.projectPath(), QFileInfo(second).absoluteFilePath());
            QVERIFY(code->currentPath().startsWith(QLatin1String("src/")));
            QCOMPARE(code->toPlainText(),
                     fileText(second + QLatin1Char('/') + code->currentPath()));
            QVERIFY(isHighlighted(code));

            // Then the example project, from the File menu.
            readTheSource(code);
            if (round == 1) { // the theme changes under the reader
                QApplication::setPalette(darkPalette());
                QTRY_VERIFY(code->themeName() != lightTheme);
            }
            if (round == 2) {
                QApplication::setPalette(light);
                QTRY_COMPARE(code->themeName(), lightTheme);
            }
            QVERIFY(runAndWait(w, [&] { w.action(QStringLiteral("openExample"))->trigger(); }));
            QCOMPARE(w.projectPath(), QFileInfo(examples).absoluteFilePath());
            QVERIFY(!code->currentPath().isEmpty());
            QCOMPARE(code->toPlainText(),
                     fileText(examples + QLatin1Char('/') + code->currentPath()));
            QVERIFY(isHighlighted(code));
            readTheSource(code);
            if (round == 3) { // F5 with a file on display keeps it and its text
                const QString shown = code->currentPath();
                w.activateWindow();
                QVERIFY(QTest::qWaitForWindowActive(&w));
                QVERIFY(runAndWait(w, [&] { QTest::keyClick(&w, Qt::Key_F5); }));
                QCOMPARE(code->currentPath(), shown);
                QCOMPARE(code->toPlainText(), fileText(examples + QLatin1Char('/') + shown));
            }

            // And back to the first project.
            readTheSource(code);
            QVERIFY(runAndWait(w, [&] { w.openProject(first); }));
            QCOMPARE(code->toPlainText(), fileText(first + QLatin1Char('/') + code->currentPath()));
            QVERIFY(isHighlighted(code));
        }
        QApplication::setPalette(light);
    }
};

CNREADY_STUDIO_TEST_MAIN(TestStudioReopen, "tst_studio_reopen")
#include "tst_studio_reopen.moc"
