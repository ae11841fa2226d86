// Replays fuzz/regressions/ in the normal build, with the libFuzzer target's own invariants
// (fuzz/FuzzChecks.h): each input alone on a fresh thread, then all of them in name order on
// one thread, as the fuzzer runs them. Also pins the cross-input bug the fuzzer found first.
#include "FuzzChecks.h"

#include <QDir>
#include <QFile>
#include <QtTest>

using namespace cnready;

namespace {

QString regressionsDir() {
    return QStringLiteral(CNREADY_SOURCE_DIR "/fuzz/regressions");
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

// Ends inside an f-string: tree-sitter-python's scanner used to keep that flag for the next
// file parsed on the same thread.
const QByteArray kOpenFString = "x = f\"{\n";
// Valid Python whose shape depends on the DEDENT tokens that flag suppressed.
const QByteArray kNeedsDedents =
    "def f():\n    if x:\n        y = 1\n    return y\n\n\ndef g():\n    pass\n";

} // namespace

class TestFuzzRegressions : public QObject {
    Q_OBJECT

private slots:
    void fileAfterAnOpenFStringParsesAsAlone() {
        // Each step on a fresh thread, so the test does not depend on what ran before it.
        FileResult after;
        std::thread([&] {
            analyzeSource(QStringLiteral("a.py"), kOpenFString);
            after = analyzeSource(QStringLiteral("b.py"), kNeedsDedents);
        }).join();
        QVERIFY2(after.diagnostics.isEmpty(),
                 qPrintable(after.diagnostics.value(0).message)); // valid Python
        QCOMPARE(after.functions.size(), 2);
        QCOMPARE(after.functions[0].qualifiedName, QStringLiteral("b.f"));
        QCOMPARE(after.functions[0].range.line, 1);
        QCOMPARE(after.functions[0].range.endLine, 4);
        QCOMPARE(after.functions[1].qualifiedName, QStringLiteral("b.g"));
        QCOMPARE(after.functions[1].range.line, 7);
        QCOMPARE(after.functions[1].range.endLine, 8);
    }

    void theFreshThreadCheckSeesCrossInputState() {
        // checkInput() compares with a fresh thread, so it would fail on what a previous input
        // left behind: with the pair above in sequence it passes only because the parser
        // starts clean.
        QByteArray broken;
        std::thread([&] {
            analyzeSource(fuzz::inputPath(), kOpenFString);
            broken = fuzz::checkInput(kNeedsDedents);
        }).join();
        QVERIFY2(broken.isEmpty(), broken.constData());
        // And it reports a result that breaks an invariant.
        FileResult bad = analyzeSource(fuzz::inputPath(), kNeedsDedents);
        QVERIFY(fuzz::brokenInvariant(kNeedsDedents, bad).isEmpty());
        bad.functions[0].range.endLine = bad.lines + 2;
        QVERIFY(fuzz::brokenInvariant(kNeedsDedents, bad).startsWith("function inside the file"));
    }

    void regressionInputs_data() {
        QTest::addColumn<QString>("path");
        const QStringList names = QDir(regressionsDir()).entryList(QDir::Files, QDir::Name);
        QVERIFY(!names.isEmpty());
        for (const QString& n : names)
            QTest::newRow(qPrintable(n)) << regressionsDir() + QLatin1Char('/') + n;
    }

    void regressionInputs() {
        QFETCH(QString, path);
        const QByteArray bytes = readAll(path);
        QByteArray broken;
        std::thread([&] { broken = fuzz::checkInput(bytes); }).join();
        QVERIFY2(broken.isEmpty(), broken.constData());
    }

    void regressionInputsInSequence() {
        // One thread for all of them, as libFuzzer runs inputs one after another.
        const QStringList names = QDir(regressionsDir()).entryList(QDir::Files, QDir::Name);
        QByteArray broken;
        std::thread([&] {
            for (const QString& n : names) {
                broken = fuzz::checkInput(readAll(regressionsDir() + QLatin1Char('/') + n));
                if (!broken.isEmpty()) {
                    broken = n.toUtf8() + ": " + broken;
                    return;
                }
            }
        }).join();
        QVERIFY2(broken.isEmpty(), broken.constData());
    }
};

QTEST_GUILESS_MAIN(TestFuzzRegressions)
#include "tst_fuzz_regressions.moc"
