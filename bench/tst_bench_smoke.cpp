// Smoke test of the benchmark: the generator is deterministic and produces valid Python, and
// cnready-bench prints every figure with a positive value on a tiny corpus. Not a timing test.
#include "CorpusGenerator.h"

#include "parse/SyntaxTree.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnready;

class TestBenchSmoke : public QObject {
    Q_OBJECT
private slots:
    void generatorIsDeterministic() {
        const QByteArray a = bench::generateModule(7, 3, 400);
        QCOMPARE(bench::generateModule(7, 3, 400), a);
        QVERIFY(bench::generateModule(8, 3, 400) != a);
        QVERIFY(bench::generateModule(7, 4, 400) != a);
        const int lines = int(a.count('\n'));
        QVERIFY2(lines >= 400 && lines < 450, qPrintable(QString::number(lines)));
    }
    void generatedModulesParseCleanly() {
        for (int i = 0; i < 20; ++i) {
            const QByteArray m = bench::generateModule(1, i, 300);
            const SyntaxTree tree(m);
            QVERIFY2(
                !tree.hasErrors(),
                qPrintable(QStringLiteral("module %1, line %2").arg(i).arg(tree.firstErrorLine())));
        }
    }
    void corpusHasTheRequestedSize() {
        QTemporaryDir dir;
        bench::CorpusOptions o;
        o.totalLines = 5000;
        o.linesPerFile = 200;
        o.filesPerPackage = 10;
        const bench::CorpusStats s = bench::writeCorpus(dir.path() + QStringLiteral("/c"), o);
        QVERIFY(s.lines >= 5000 && s.lines < 5000 + 200);
        QVERIFY(s.files > 20);
        QVERIFY(QFile::exists(dir.path() + QStringLiteral("/c/pkg000/__init__.py")));
        QVERIFY(QFile::exists(dir.path() + QStringLiteral("/c/pkg001/mod00010.py")));
    }
    void benchPrintsPositiveFigures() {
        QProcess p;
        p.start(QStringLiteral(CNREADY_BENCH_PATH),
                {QStringLiteral("--lines"), QStringLiteral("3000"), QStringLiteral("--repeat"),
                 QStringLiteral("1"), QStringLiteral("--lines-per-file"), QStringLiteral("300")});
        QVERIFY(p.waitForFinished(120000));
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
                 qPrintable(out + QString::fromUtf8(p.readAllStandardError())));
        auto number = [&](const QString& label, const QString& pattern) {
            const QRegularExpression re(QStringLiteral("^%1\\s+%2").arg(label, pattern),
                                        QRegularExpression::MultilineOption);
            const auto m = re.match(out);
            return m.hasMatch() ? m.captured(1).toDouble() : -1.0;
        };
        const QString num = QStringLiteral("([0-9]+(?:\\.[0-9]+)?)");
        QVERIFY2(number(QStringLiteral("full:"), num + QStringLiteral(" lines/s")) > 0,
                 qPrintable(out));
        QVERIFY2(number(QStringLiteral("parse-only:"), num + QStringLiteral(" lines/s")) > 0,
                 qPrintable(out));
        QVERIFY2(number(QStringLiteral("ratio:"), num) > 0, qPrintable(out));
        QVERIFY2(number(QStringLiteral("peak-rss:"), num + QStringLiteral(" MiB")) > 0,
                 qPrintable(out));
        // The full run found something on a corpus full of element loops and stencils.
        const double inProject = number(QStringLiteral("findings:"), QStringLiteral("([0-9]+) "));
        const double inReport =
            number(QStringLiteral("findings:"), QStringLiteral("[0-9]+ \\(([0-9]+) in the report"));
        QVERIFY2(inProject > 0, qPrintable(out));
        // The assessment only drops findings (R304 on one GPU), never adds any.
        QVERIFY2(inReport > 0 && inReport <= inProject, qPrintable(out));
        // The bench times each step of the full run.
        QVERIFY2(out.contains(QRegularExpression(QStringLiteral(
                     "full steps:\\s+scan [0-9.]+ s, analyze [0-9.]+ s, assess [0-9.]+ s, "
                     "report [0-9.]+ s"))),
                 qPrintable(out));
        // Every full-run line count equals the generated count.
        const QRegularExpression gen(QStringLiteral("^generated:\\s+\\d+ files, (\\d+) lines"),
                                     QRegularExpression::MultilineOption);
        const QRegularExpression full(QStringLiteral("^full:.*\\((\\d+) lines in"),
                                      QRegularExpression::MultilineOption);
        QCOMPARE(full.match(out).captured(1), gen.match(out).captured(1));
    }
};

QTEST_GUILESS_MAIN(TestBenchSmoke)
#include "tst_bench_smoke.moc"
