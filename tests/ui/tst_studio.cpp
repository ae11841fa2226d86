// GUI tests of cnready-studio (QT_QPA_PLATFORM=offscreen): open a folder and wait for the
// analysis, jump from a finding to its line, recompute the verdict from the context form,
// cancel a long analysis while the GUI thread stays responsive, export and compare with the
// command line's bytes, and leave the analysed tree untouched.
#include "../common/StudioTestMain.h"
#include "CodeView.h"
#include "ContextForm.h"
#include "FindingsModel.h"
#include "GateDashboard.h"
#include "MainWindow.h"
#include "ReportView.h"
#include "RuleBrowser.h"
#include "VerdictPanel.h"

#include "rules/RuleRegistry.h"

#include "../common/TreeSnapshot.h"

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QStyle>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QtTest>
#include <algorithm>

#include <ctime>

using namespace cnready;
using namespace cnready::ui;

namespace {

const QString kFixture = QStringLiteral(CNREADY_SOURCE_DIR "/tests/ui/fixtures/sim_project");

// Opens `path` in `w` and waits for the analysis to finish.
bool openAndWait(MainWindow& w, const QString& path, int timeoutMs = 60000) {
    QSignalSpy done(&w, &MainWindow::analysisFinished);
    w.openProject(path);
    return done.wait(timeoutMs) || done.count() > 0;
}

// Waits until the assessment follows the context form: context changes are assessed off the
// GUI thread (a large project's assessment takes ~100 ms).
bool assessed(MainWindow& w, int timeoutMs = 10000) {
    return QTest::qWaitFor([&w] { return !w.isAssessing(); }, timeoutMs);
}

// CPU time the calling thread has used, in milliseconds.
qint64 threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return qint64(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

// Runs the command-line tool; returns its stdout bytes (the report).
QByteArray runCli(const QStringList& args, int* exitCode = nullptr) {
    QProcess p;
    p.setProgram(QStringLiteral(CNREADY_CLI_PATH));
    p.setArguments(args);
    p.start();
    if (!p.waitForFinished(120000))
        return {};
    if (exitCode)
        *exitCode = p.exitCode();
    return p.readAllStandardOutput();
}

QByteArray readAll(const QString& file) {
    QFile f(file);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A project large enough that its analysis takes a while: `files` modules, each with two NumPy
// kernels full of idioms the rules report and many plain-Python helpers that only cost parsing.
void writeBigProject(const QString& root, int files) {
    QString body;
    body += QStringLiteral("import numpy as np\n\n");
    body += QStringLiteral("def kernel(u, out, n=4096):\n"
                           "    f = np.vectorize(lambda x: x * 2.0)\n"
                           "    for i in range(n):\n"
                           "        out[i] = u[i] * 2.0\n"
                           "        if float(out[i]) > 1.0:\n"
                           "            out[i] = 0.0\n"
                           "    return f(out)\n\n"
                           "def stencil(u, out):\n"
                           "    out[1:-1] = 0.5 * (u[:-2] + u[2:])\n"
                           "    return np.sum(out)\n\n");
    for (int fn = 0; fn < 60; ++fn)
        body += QStringLiteral("def helper_%1(words, table):\n"
                               "    counts = {}\n"
                               "    for w in words:\n"
                               "        key = w.strip().lower()\n"
                               "        counts[key] = counts.get(key, 0) + %1\n"
                               "    return sorted(counts.items(), key=lambda kv: kv[1])[:10]\n\n")
                    .arg(fn);
    const QByteArray bytes = body.toUtf8();
    for (int i = 0; i < files; ++i) {
        const QString dir = root + QStringLiteral("/pkg%1").arg(i / 200);
        QDir().mkpath(dir);
        QFile f(dir + QStringLiteral("/mod%1.py").arg(i));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    }
}

} // namespace

class TestStudio : public QObject {
    Q_OBJECT
private slots:
    void init() { QSettings().clear(); }

    void opensFolderAndStreamsResults() {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, kFixture));
        QVERIFY(w.hasAssessment());
        QVERIFY(!w.project().cancelled);
        QCOMPARE(w.project().files.size(), 4); // main.py, sim/__init__.py, kernels.py, post.py
        // The tree lists every file with its count; the table holds the merged findings.
        QVERIFY(w.project().findings.size() > 0);
        // ... and the notes off the compute path, greyed rows that do not count.
        QCOMPARE(w.findingsView()->model()->rowCount(),
                 int(w.project().findings.size() + w.project().offComputePath.size()));
        QVERIFY(!w.verdictPanel()->verdictText().isEmpty());
        QVERIFY(w.recentProjects().contains(QFileInfo(kFixture).absoluteFilePath()));
    }

    void clickingAFindingMovesTheCursorToItsLine() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndWait(w, kFixture));
        QTableView* view = w.findingsView();
        QVERIFY(view->model()->rowCount() > 0);
        // Click every finding (at most 10) and check the file and the cursor line each time.
        for (int row = view->model()->rowCount() - 1, n = 0; row >= 0 && n < 10; --row, ++n) {
            const QModelIndex idx = view->model()->index(row, FindingsModel::LocationColumn);
            const QString path = idx.data(FindingsModel::PathRole).toString();
            const int line = idx.data(FindingsModel::LineRole).toInt();
            view->scrollTo(idx);
            QSignalSpy activated(&w, &MainWindow::findingActivated);
            QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(idx).center());
            QCOMPARE(activated.count(), 1);
            QCOMPARE(w.codeView()->currentPath(), path);
            QCOMPARE(w.codeView()->currentLine(), line);
            // The source line really is the finding's line: its snippet is on it.
            const QString snippet = w.project().findings.isEmpty() ? QString() : [&] {
                for (const Finding& f : w.project().findings)
                    if (f.range.path == path && f.range.line == line)
                        return f.snippet;
                return QString();
            }();
            if (!snippet.isEmpty())
                QVERIFY2(w.codeView()->textCursor().block().text().contains(snippet.left(20)),
                         qPrintable(snippet));
            // The tooltip of that line names the rule code.
            QVERIFY(w.codeView()->toolTipForLine(line).contains(
                idx.data(FindingsModel::CodeRole).toString()));
        }
        // Enter on the current row jumps as well.
        const QModelIndex first = view->model()->index(0, 0);
        view->setCurrentIndex(first);
        view->setFocus();
        w.codeView()->goToLine(1);
        QTest::keyClick(view, Qt::Key_Return);
        QCOMPARE(w.codeView()->currentLine(), first.data(FindingsModel::LineRole).toInt());
    }

    void f8WalksTheFindings() {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, kFixture));
        const QAbstractItemModel* m = w.findingsView()->model();
        const int rows = m->rowCount();
        QVERIFY(rows > 0);
        w.findingsView()->setCurrentIndex({});
        QTest::keyClick(&w, Qt::Key_F8);
        QCOMPARE(w.findingsView()->currentIndex().row(), 0);
        QCOMPARE(w.codeView()->currentLine(), m->index(0, 0).data(FindingsModel::LineRole).toInt());
        QTest::keyClick(&w, Qt::Key_F8, Qt::ShiftModifier); // wraps to the last row
        QCOMPARE(w.findingsView()->currentIndex().row(), rows - 1);
        QCOMPARE(w.codeView()->currentPath(),
                 m->index(rows - 1, 0).data(FindingsModel::PathRole).toString());
        QCOMPARE(w.codeView()->currentLine(),
                 m->index(rows - 1, 0).data(FindingsModel::LineRole).toInt());
    }

    void filtersByCategoryAndText() {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, kFixture));
        FindingsFilterModel* proxy = w.findingsFilter();
        const int all = proxy->rowCount();
        int blocks = 0;
        for (const Finding& f : w.project().findings)
            blocks += f.category == Category::Blocks;
        QVERIFY(blocks > 0);
        auto* btn = w.findChild<QToolButton*>(QStringLiteral("filter_blocks"));
        QVERIFY(btn);
        btn->click();
        QCOMPARE(proxy->rowCount(), all - blocks);
        for (int r = 0; r < proxy->rowCount(); ++r)
            QVERIFY(Category(proxy->index(r, 0).data(FindingsModel::CategoryRole).toInt()) !=
                    Category::Blocks);
        btn->click();
        QCOMPARE(proxy->rowCount(), all);
        auto* edit = w.findChild<QLineEdit*>(QStringLiteral("findingsFilter"));
        QTest::keyClicks(edit, QStringLiteral("r102"));
        int r102 = 0;
        for (const Finding& f : w.project().findings)
            r102 += f.code == QLatin1String("R102");
        QCOMPARE(proxy->rowCount(), r102);
    }

    void contextChangeRecomputesVerdictAndGate2WithoutReanalysis() {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, kFixture));
        ContextForm* form = w.contextForm();
        auto* size = form->findChild<QLineEdit*>(QStringLiteral("elements"));
        auto* gpus = form->findChild<QSpinBox*>(QStringLiteral("gpus"));
        auto* pattern = form->findChild<QComboBox*>(QStringLiteral("pattern"));
        auto* model = form->findChild<QComboBox*>(QStringLiteral("gpuModel"));
        QVERIFY(size && gpus && pattern && model);
        // Fix the gates that decide before Gate 2 (hardware, pattern) so only the size moves.
        model->setCurrentIndex(model->findData(QStringLiteral("A100")));
        pattern->setCurrentIndex(pattern->findData(QStringLiteral("stencil")));
        QSignalSpy reanalysed(&w, &MainWindow::analysisFinished);
        QSignalSpy changed(&w, &MainWindow::assessmentChanged);

        // 1,000,000 elements on 1 GPU: far above the 65,536-per-GPU floor.
        size->setText(QStringLiteral("1000000"));
        gpus->setValue(1);
        QVERIFY(w.isAssessing()); // off the GUI thread ...
        QVERIFY(assessed(w));     // ... and back quickly
        // Requests made while one runs are coalesced, but the last one is always assessed.
        QVERIFY(changed.count() >= 1);
        QCOMPARE(w.assessment().context.perGpuElements, qint64(1000000));
        const QString verdictBefore = w.verdictPanel()->verdictText();
        const QString gate2Before = w.gateDashboard()->statusText(2);
        QVERIFY2(gate2Before != QLatin1String("fail"), qPrintable(gate2Before));
        QVERIFY(!gate2Before.isEmpty());
        QVERIFY(verdictBefore != QLatin1String("NOT RECOMMENDED"));

        // The same array on 64 GPUs: 15,625 per GPU, below the floor.
        const int before = int(changed.count());
        gpus->setValue(64);
        QVERIFY(assessed(w));
        QCOMPARE(int(changed.count()), before + 1);
        QCOMPARE(w.assessment().context.perGpuElements, qint64(15625));
        QCOMPARE(w.gateDashboard()->statusText(2), QStringLiteral("fail"));
        QCOMPARE(w.verdictPanel()->verdictText(), QStringLiteral("NOT RECOMMENDED"));
        QCOMPARE(w.assessment().decidingRule, 3);
        QVERIFY(w.findChild<QLabel*>(QStringLiteral("decidingRule"))
                    ->text()
                    .contains(QLatin1String("rule 3")));
        // Its tooltip lists the verdict list (from core) and what would change rule 3's outcome.
        const QString tip = w.findChild<QLabel*>(QStringLiteral("decidingRule"))->toolTip();
        QVERIFY2(tip.contains(QLatin1String("\n1. Gate 1 (hardware) fails")) &&
                     tip.contains(QLatin1String("\n9. then:")) &&
                     tip.contains(QLatin1String("What would change rule 3's outcome: Hot arrays "
                                                "of at least 65,536 elements per GPU")),
                 qPrintable(tip));

        // Per-GPU input gives the same answer.
        form->findChild<QComboBox*>(QStringLiteral("elementsScope"))->setCurrentIndex(1);
        size->setText(QStringLiteral("20000"));
        QVERIFY(assessed(w));
        QCOMPARE(w.gateDashboard()->statusText(2), QStringLiteral("fail"));
        size->setText(QStringLiteral("2M"));
        QVERIFY(assessed(w));
        QVERIFY(w.gateDashboard()->statusText(2) != QLatin1String("fail"));
        QVERIFY(w.verdictPanel()->verdictText() != QLatin1String("NOT RECOMMENDED"));

        // Nothing was analysed again.
        QTest::qWait(50);
        QCOMPARE(reanalysed.count(), 0);
        QVERIFY(!w.isAnalyzing());
    }

    void rngNotesCountOnlyForMultiGpuTargets() {
        // The bundled examples draw random numbers: R304 matters for --gpus >= 2 only, and the
        // table follows the assessment, as the report does.
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, QStringLiteral(CNREADY_SOURCE_DIR "/assets/examples")));
        auto rngRows = [&w] {
            const auto* m = w.findingsView()->model();
            int n = 0;
            for (int r = 0; r < m->rowCount(); ++r)
                for (int c = 0; c < m->columnCount(); ++c)
                    n += m->index(r, c).data().toString() == QLatin1String("R304");
            return n;
        };
        QCOMPARE(rngRows(), 0);
        QVERIFY(w.project().findings.size() > w.assessment().findings.size());
        w.contextForm()->findChild<QSpinBox*>(QStringLiteral("gpus"))->setValue(4);
        QTRY_VERIFY(rngRows() > 0);
        QCOMPARE(w.findingsView()->model()->rowCount(), int(w.assessment().findings.size()));
    }

    void contextFormMarksProvenance() {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, kFixture));
        auto* gpusNote = w.contextForm()->findChild<QLabel*>(QStringLiteral("gpusNote"));
        auto* gpus = w.contextForm()->findChild<QSpinBox*>(QStringLiteral("gpus"));
        QVERIFY(gpusNote && gpus);
        QVERIFY(!gpusNote->text().startsWith(QLatin1String("given")));
        gpus->setValue(8);
        QVERIFY(assessed(w));
        QCOMPARE(gpusNote->text(), QStringLiteral("given"));
        w.contextForm()->findChild<QPushButton*>(QStringLiteral("resetContext"))->click();
        QVERIFY(assessed(w));
        QCOMPARE(gpus->value(), 0);
        QVERIFY(!gpusNote->text().startsWith(QLatin1String("given")));
    }

    void cancelKeepsTheGuiResponsive() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const int files = 2000;
        writeBigProject(tmp.path(), files);
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTest::qWait(200); // the first paint is not part of the analysis
        // A 5 ms timer on the GUI thread: the longest gap between two ticks is the worst stall
        // (wall clock). On a shared machine part of a gap is only waiting for a CPU, so the GUI
        // thread's own CPU time over the same gap is measured too: that is the work it did.
        QElapsedTimer clock;
        qint64 last = 0, maxGap = 0, lastCpu = threadCpuMs(), maxBusy = 0;
        int ticks = 0;
        QTimer tick;
        tick.setInterval(5);
        connect(&tick, &QTimer::timeout, [&] {
            const qint64 now = clock.elapsed();
            const qint64 cpu = threadCpuMs();
            maxGap = qMax(maxGap, now - last);
            maxBusy = qMax(maxBusy, cpu - lastCpu);
            if (now - last > 100)
                qInfo("stall of %lld ms (GUI thread busy %lld ms of it) at %lld ms, progress %d",
                      now - last, cpu - lastCpu, now, w.progressBar()->value());
            last = now;
            lastCpu = cpu;
            ++ticks;
        });
        QSignalSpy done(&w, &MainWindow::analysisFinished);
        clock.start();
        tick.start();
        w.openProject(tmp.path());
        QVERIFY(w.isAnalyzing());
        // Results stream in: part of the files are done while the analysis still runs.
        QTRY_VERIFY_WITH_TIMEOUT(
            w.progressBar()->maximum() == files && w.progressBar()->value() >= files / 10, 120000);
        QVERIFY(w.isAnalyzing());
        QVERIFY(w.findingsView()->model()->rowCount() > 0);
        QVERIFY(w.cancelButton()->isVisible());
        qInfo("cancelling at %d of %d files, %lld ms after the start", w.progressBar()->value(),
              files, clock.elapsed());
        QElapsedTimer cancelClock;
        cancelClock.start();
        QTest::mouseClick(w.cancelButton(), Qt::LeftButton);
        QVERIFY(done.wait(30000) || done.count() > 0);
        const qint64 cancelMs = cancelClock.elapsed();
        tick.stop();
        QVERIFY(w.project().cancelled);
        QVERIFY(w.project().files.size() < files);
        QVERIFY(w.hasAssessment()); // the partial result is still assessed
        QVERIFY(!w.cancelButton()->isVisible());
        qInfo("cancel: %lld ms to stop after %lld files; GUI ticks %d, max stall %lld ms wall, "
              "max GUI-thread work between ticks %lld ms",
              cancelMs, qint64(w.project().files.size()), ticks, maxGap, maxBusy);
        // The GUI thread never works long at a stretch (no parsing, no rules on it) ...
        QVERIFY2(maxBusy < 100, qPrintable(QStringLiteral("GUI thread busy %1 ms").arg(maxBusy)));
        // ... and even on a loaded 2-core machine it is never away for a whole second.
        QVERIFY2(maxGap < 1000, qPrintable(QStringLiteral("GUI thread stalled %1 ms").arg(maxGap)));
        QVERIFY2(cancelMs < 10000, qPrintable(QStringLiteral("cancel took %1 ms").arg(cancelMs)));
    }

    void exportMatchesTheCommandLineAndLeavesTheTreeAlone() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        // Work on a copy so the timestamps compared are ours alone.
        const QString project = tmp.filePath(QStringLiteral("project"));
        QVERIFY(QDir().mkpath(project + QStringLiteral("/sim")));
        for (const QString& rel : {QStringLiteral("main.py"), QStringLiteral("sim/__init__.py"),
                                   QStringLiteral("sim/kernels.py"), QStringLiteral("sim/post.py")})
            QVERIFY(
                QFile::copy(kFixture + QLatin1Char('/') + rel, project + QLatin1Char('/') + rel));
        const auto before = cnready::test::TreeSnapshot::take(project);
        QVERIFY(before.entries().size() >= 6); // the root, sim/ and four files

        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, project));
        w.contextForm()
            ->findChild<QLineEdit*>(QStringLiteral("elements"))
            ->setText(QStringLiteral("16000000"));
        w.contextForm()->findChild<QSpinBox*>(QStringLiteral("gpus"))->setValue(4);
        const QStringList cliContext = {QStringLiteral("--elements"), QStringLiteral("16000000"),
                                        QStringLiteral("--gpus"), QStringLiteral("4")};
        const QString out = tmp.filePath(QStringLiteral("out"));
        QVERIFY(QDir().mkpath(out));
        const struct {
            ReportFormat format;
            const char* flag;
        } formats[] = {{ReportFormat::Markdown, "md"},
                       {ReportFormat::Json, "json"},
                       {ReportFormat::Sarif, "sarif"}};
        for (const auto& f : formats) {
            const QString gui = out + QStringLiteral("/gui.") + QLatin1String(f.flag);
            QString error;
            QVERIFY2(w.exportReport(gui, f.format, &error), qPrintable(error));
            int code = -1;
            const QByteArray cli =
                runCli(QStringList{QStringLiteral("assess"), w.projectPath()} + cliContext +
                           QStringList{QStringLiteral("--format"), QLatin1String(f.flag)},
                       &code);
            QCOMPARE(code, 0);
            QVERIFY(!cli.isEmpty());
            QCOMPARE(readAll(gui), cli);
        }
        // The preview shows the same report.
        w.action(QStringLiteral("showReport"))->trigger();
        // (built off the GUI thread: it arrives a moment later)
        QTRY_VERIFY(w.reportView()->toPlainText().contains(w.verdictPanel()->verdictText()));
        // Re-analysis and export never wrote into the analysed tree.
        QSignalSpy again(&w, &MainWindow::analysisFinished);
        w.action(QStringLiteral("reanalyze"))->trigger();
        QVERIFY(again.wait(60000) || again.count() > 0);
        const QStringList diff = before.differences(cnready::test::TreeSnapshot::take(project));
        QVERIFY2(diff.isEmpty(), qPrintable(diff.join(QLatin1Char('\n'))));
    }

    void settingsPersistContextAndRecentFolders() {
        {
            MainWindow w;
            w.show();
            QVERIFY(openAndWait(w, kFixture));
            w.contextForm()->findChild<QSpinBox*>(QStringLiteral("gpus"))->setValue(6);
            w.contextForm()
                ->findChild<QLineEdit*>(QStringLiteral("elements"))
                ->setText(QStringLiteral("3M"));
            w.close();
        }
        MainWindow again;
        QVERIFY(!again.contextForm()->input().gpus); // no project yet: nothing carried
        again.openProject(kFixture);                 // its values come back with it
        const ContextInput in = again.contextForm()->input();
        QCOMPARE(in.gpus.value_or(0), 6);
        QCOMPARE(in.elements.value_or(0), qint64(3000000));
        QCOMPARE(again.recentProjects().value(0), QFileInfo(kFixture).absoluteFilePath());
    }

    // Typing a size with the preview open: one assessment, for the whole number, and the
    // preview shows it (it used to assess and show "1", "10" and "100" on the way).
    void typingInTheContextAssessesOnceTypingPauses() {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, kFixture));
        QVERIFY(assessed(w));
        QTest::keyClick(&w, Qt::Key_2, Qt::ControlModifier); // View ▸ Report Preview
        QVERIFY(w.reportView()->isVisible());
        QTRY_VERIFY(w.reportView()->toPlainText().contains(QLatin1String("Decided by rule")));
        QList<qint64> assessedSizes;
        connect(&w, &MainWindow::assessmentChanged, this,
                [&] { assessedSizes << w.assessment().context.totalElements; });
        auto* size = w.contextForm()->findChild<QLineEdit*>(QStringLiteral("elements"));
        QVERIFY(size);
        size->setFocus();
        QTest::keyClicks(size, QStringLiteral("1000"), Qt::NoModifier, 40); // 40 ms per key
        QVERIFY(assessed(w));
        QCOMPARE(assessedSizes, QList<qint64>{1000});
        QTRY_VERIFY(w.reportView()->toPlainText().contains(QLatin1String("1,000 elements")));
        QVERIFY(!w.reportView()->toPlainText().contains(QLatin1String(" 1 elements")));
        // An export right after typing covers the typed value, not the one before it.
        size->setFocus();
        QTest::keyClicks(size, QStringLiteral("0"));
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString file = tmp.filePath(QStringLiteral("r.md"));
        QVERIFY(w.exportReport(file, ReportFormat::Markdown));
        QVERIFY(readAll(file).contains("| Hot-path array size (total) | 10,000 elements |"));
    }

    // Rule 9 also notes ✗ APIs when the verdict is already SIGNIFICANT REFACTOR; nothing was
    // demoted then, and the panel must not say so.
    void verdictPanelSaysDemotedOnlyWhenTheTierMoved() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        QFile py(tmp.filePath(QStringLiteral("main.py")));
        QVERIFY(py.open(QIODevice::WriteOnly));
        py.write("import numpy as np\n\n\n"
                 "def step(u, out):\n"
                 "    for idx in np.ndindex(u.shape):\n"
                 "        out[idx] = np.sinc(u[idx])\n"
                 "    for i in range(u.shape[0]):\n"
                 "        if float(u[i, 0]) > 0.5:\n"
                 "            out[i] = u[i].tolist()[0]\n"
                 "    v = np.vectorize(lambda x: x + 1.0)(out)\n"
                 "    return v.item()\n\n\n"
                 "def main():\n"
                 "    u = np.random.rand(4096, 4096)\n"
                 "    out = np.empty_like(u)\n"
                 "    for t in range(100):\n"
                 "        step(u, out)\n\n\n"
                 "if __name__ == \"__main__\":\n"
                 "    main()\n");
        py.close();
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, tmp.path()));
        QVERIFY(assessed(w));
        const Assessment& a = w.assessment();
        QCOMPARE(a.verdict, Verdict::SignificantRefactor);
        QCOMPARE(a.verdictBeforeDemotion, Verdict::SignificantRefactor);
        QCOMPARE(a.demotions.size(), 1);
        QVERIFY(a.demotions.first().contains(QLatin1String("never demoted further")));
        auto* label = w.verdictPanel()->findChild<QLabel*>(QStringLiteral("demotions"));
        QVERIFY(label);
        QVERIFY(label->isVisible()); // the note is still shown ...
        QVERIFY(label->text().contains(QLatin1String("never demoted")));
        QVERIFY2(!label->text().contains(QLatin1String("Demoted")), qPrintable(label->text()));
        QVERIFY(!label->toolTip().contains(QLatin1String("Demoted")));

        // ... and a real demotion still names the tier it came from.
        Assessment moved = a;
        moved.verdictBeforeDemotion = Verdict::LightRefactor;
        moved.demotions = {QStringLiteral("Rule 9: demoted one tier")};
        w.verdictPanel()->setAssessment(moved, false);
        QVERIFY(label->text().contains(QLatin1String("<b>Demoted</b> from LIGHT REFACTOR")));
        QVERIFY(
            label->toolTip().startsWith(QLatin1String("Demoted from LIGHT REFACTOR by rule 9:")));
    }

    // The status bar counts the findings the table and the report list (the assessment's):
    // the examples' R304 notes count for multi-GPU targets only.
    void statusBarCountsTheReportsFindings() {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, QStringLiteral(CNREADY_SOURCE_DIR "/assets/examples")));
        QVERIFY(assessed(w));
        const QLocale loc;
        auto shows = [&](qsizetype n) {
            return w.statusBar()->currentMessage().contains(
                QStringLiteral(" %1 findings in ").arg(loc.toString(qint64(n))));
        };
        const qsizetype single = w.assessment().findings.size();
        QVERIFY(w.project().findings.size() > single); // R304 notes dropped
        QVERIFY2(shows(single), qPrintable(w.statusBar()->currentMessage()));
        QCOMPARE(w.findingsView()->model()->rowCount(), int(single));

        auto* gpus = w.contextForm()->findChild<QSpinBox*>(QStringLiteral("gpus"));
        gpus->setFocus();
        for (int i = 0; i < 4; ++i)
            QTest::keyClick(gpus, Qt::Key_Up); // auto -> 4 GPUs
        QCOMPARE(gpus->value(), 4);
        QVERIFY(assessed(w));
        const qsizetype multi = w.assessment().findings.size();
        QVERIFY(multi > single);
        QVERIFY2(shows(multi), qPrintable(w.statusBar()->currentMessage()));
    }

    // Day counts as the command line prints them: thousands separated.
    void dayCountsAreFormatted() {
        QFile bundled(QStringLiteral(CNREADY_SOURCE_DIR "/assets/api-support.md"));
        QVERIFY(bundled.open(QIODevice::ReadOnly));
        QByteArray text = bundled.readAll();
        const qsizetype at = text.indexOf("Fetched: ");
        QVERIFY(at >= 0);
        text.replace(at + 9, 10, "2020-01-15"); // more than 1,000 days ago
        const QString path = Manifest::userManifestPath();
        QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
        {
            QFile user(path);
            QVERIFY(user.open(QIODevice::WriteOnly));
            user.write(text);
        }
        struct Remove {
            QString path;
            ~Remove() { QFile::remove(path); }
        } remove{path};
        MainWindow w;
        w.show();
        const int age = w.manifest().ageInDays(QDate::currentDate());
        QVERIFY(age > 1000);
        const QString days = formatDayCount(age);
        QVERIFY(days.contains(QLatin1Char(',')));
        auto* status = w.findChild<QToolButton*>(QStringLiteral("manifestStatus"));
        QVERIFY(status);
        QVERIFY2(status->text().contains(QStringLiteral("(%1 old)").arg(days)),
                 qPrintable(status->text()));
        QVERIFY2(w.aboutText().contains(QStringLiteral("%1 ago").arg(days)),
                 qPrintable(w.aboutText()));
        QVERIFY(w.aboutText().contains(formatDayCount(Manifest::kStaleAfterDays)));
    }

    void ruleBrowserShowsEveryRule() {
        RuleBrowser b;
        QVERIFY(b.showRule(QStringLiteral("R102")));
        QVERIFY(!b.showRule(QStringLiteral("R999")));
        const QString html = RuleBrowser::ruleHtml(QStringLiteral("R102"));
        QVERIFY(html.contains(QLatin1String("R102")));
        QVERIFY(html.contains(QLatin1String("Why it matters")));
    }

    void highlightingThemeFollowsThePalette() {
        CodeView v;
        v.showFile(QStringLiteral("a.py"), QStringLiteral("import numpy as np\n"), {});
        QPalette light = v.palette();
        light.setColor(QPalette::Window, Qt::white);
        light.setColor(QPalette::Base, Qt::white);
        v.setPalette(light);
        const QString lightTheme = v.themeName();
        QPalette dark = light;
        dark.setColor(QPalette::Window, QColor(0x20, 0x20, 0x20));
        dark.setColor(QPalette::Base, QColor(0x18, 0x18, 0x18));
        v.setPalette(dark);
        QVERIFY(!lightTheme.isEmpty());
        QVERIFY2(v.themeName() != lightTheme, qPrintable(v.themeName()));
    }

    void verdictPanelWrapsLongDemotionsInANarrowDock() {
        // Demotions name APIs and file paths: long words the label cannot break at spaces.
        const QString path = QStringLiteral(
            "solvers/spectral_methods/preconditioned_conjugate_gradient_kernels.py:1234");
        Assessment a;
        a.verdict = Verdict::SignificantRefactor;
        a.verdictBeforeDemotion = Verdict::LightRefactor;
        a.decidingRule = 6;
        a.decidingReason = QStringLiteral("1 BLOCKS finding that a recipe fixes (R104)");
        a.demotions = {QStringLiteral("Rule 9: demoted one tier, LIGHT REFACTOR → SIGNIFICANT "
                                      "REFACTOR, for API on a hot path without multi-GPU "
                                      "support: numpy.linalg.eigvalsh (🟡) at ") +
                       path};
        a.rationale = QStringLiteral("One blocking idiom with a known fix.");

        MainWindow w;
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* dock = w.findChild<QDockWidget*>(QStringLiteral("verdictDock"));
        QVERIFY(dock);
        w.resizeDocks({dock}, {240}, Qt::Horizontal);
        w.verdictPanel()->setAssessment(a, false);
        auto* area = qobject_cast<QScrollArea*>(dock->widget());
        QVERIFY(area);
        auto* label = w.verdictPanel()->findChild<QLabel*>(QStringLiteral("demotions"));
        QVERIFY(label);
        QTRY_VERIFY(label->isVisible() && dock->width() <= 300);
        QTest::qWait(50); // let the layouts settle
        QVERIFY(label->wordWrap());
        // Nothing is cut off: the panel fits the dock without scrolling sideways, and the label
        // is as tall as its wrapped text needs.
        QCOMPARE(area->horizontalScrollBar()->maximum(), 0);
        QVERIFY2(label->width() <= area->viewport()->width(),
                 qPrintable(QStringLiteral("label %1 px in a %2 px dock")
                                .arg(label->width())
                                .arg(area->viewport()->width())));
        QVERIFY(label->height() >= label->heightForWidth(label->width()));
        // The full text stays reachable, unbroken, in the tooltip.
        QVERIFY(label->toolTip().contains(path));
        QVERIFY(label->toolTip().contains(QLatin1String("numpy.linalg.eigvalsh")));
    }

    void recipeColumnShowsEveryRecipe() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTableView* view = w.findingsView();
        // Every recipe anchor of the rule registry fits its column, padding included.
        int widest = 0;
        QString widestRecipe;
        for (const auto& r : RuleRegistry::instance().rules()) {
            const int px = view->fontMetrics().horizontalAdvance(r->info().recipe);
            if (px > widest) {
                widest = px;
                widestRecipe = r->info().recipe;
            }
        }
        QVERIFY(!widestRecipe.isEmpty());
        const int margin =
            2 * (view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1);
        QVERIFY2(view->columnWidth(FindingsModel::RecipeColumn) >= widest + margin,
                 qPrintable(QStringLiteral("%1 needs %2 px, column is %3 px")
                                .arg(widestRecipe)
                                .arg(widest + margin)
                                .arg(view->columnWidth(FindingsModel::RecipeColumn))));
        // The recipe cell's tooltip names the recipe (the full text when a user narrows it).
        QVERIFY(openAndWait(w, kFixture));
        const QAbstractItemModel* m = view->model();
        bool sawRecipe = false;
        for (int r = 0; r < m->rowCount(); ++r) {
            const QModelIndex idx = m->index(r, FindingsModel::RecipeColumn);
            const QString recipe = idx.data().toString();
            if (recipe.isEmpty())
                continue;
            sawRecipe = true;
            QVERIFY2(idx.data(Qt::ToolTipRole).toString().contains(recipe), qPrintable(recipe));
        }
        QVERIFY(sawRecipe);
    }

    void missingPathIsReported() {
        MainWindow w;
        QSignalSpy done(&w, &MainWindow::analysisFinished);
        QTimer::singleShot(0, [] {
            // The warning box is modal; close it.
            for (QWidget* top : QApplication::topLevelWidgets())
                if (top->inherits("QMessageBox"))
                    top->close();
        });
        w.openProject(QStringLiteral("/nonexistent/cnready/project"));
        QVERIFY(!w.isAnalyzing());
        QVERIFY(!w.hasAssessment());
    }

    // A folder whose only .py file is binary has no code behind a verdict: the panel says
    // so instead of a green READY (the command line exits 3 on the same folder).
    void unreadableProjectGetsNoVerdict() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile junk(dir.filePath(QStringLiteral("junk.py")));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write(QByteArray("\x00\x01\x02\xff\xfe binary", 12).repeated(64));
        junk.close();
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, dir.path()));
        QTRY_VERIFY(!w.isAssessing());
        QCOMPARE(w.verdictPanel()->verdictText(), QString());
        const QList<QLabel*> labels = w.verdictPanel()->findChildren<QLabel*>();
        QVERIFY(std::any_of(labels.cbegin(), labels.cend(), [](const QLabel* l) {
            return l->text().contains(QStringLiteral("Nothing to assess"));
        }));
        // No report either: the export is off and refuses, as the command line does.
        QVERIFY(!w.hasVerdict());
        QVERIFY(!w.action(QStringLiteral("exportReport"))->isEnabled());
        QString error;
        QVERIFY(
            !w.exportReport(dir.filePath(QStringLiteral("r.md")), ReportFormat::Markdown, &error));
        QVERIFY2(error.contains(QStringLiteral("Nothing to assess")), qPrintable(error));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("r.md"))));
        int exitCode = -1;
        runCli({QStringLiteral("assess"), dir.path()}, &exitCode);
        QCOMPARE(exitCode, 3);
    }
};

CNREADY_STUDIO_TEST_MAIN(TestStudio, "tst_studio")

#include "tst_studio.moc"
