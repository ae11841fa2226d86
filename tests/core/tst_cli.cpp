// The cnready binary as a user runs it: exit codes, stderr lines, formats.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {
struct Run {
    int code = -1;
    QString out, err;
};
Run cli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(CNREADY_CLI_PATH), args);
    p.waitForFinished(120000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}
const QString kExamples = QStringLiteral(CNREADY_SOURCE_DIR "/assets/examples");
} // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void versionAndHelp() {
        const Run v = cli({QStringLiteral("--version")});
        QCOMPARE(v.code, 0);
        QVERIFY(v.out.startsWith(QStringLiteral("cnready ")));
        const Run h = cli({QStringLiteral("assess"), QStringLiteral("--help")});
        QCOMPARE(h.code, 0);
        QVERIFY(h.out.contains(QStringLiteral("--fail-on")));
    }
    void missingPathIsInputError() {
        const Run r = cli({QStringLiteral("assess"), QStringLiteral("/no/such/folder")});
        QCOMPARE(r.code, 3);
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY(r.err.contains(QStringLiteral("/no/such/folder")));
        QVERIFY(r.out.isEmpty());
    }
    void nothingToAssessIsInputError() {
        QTemporaryDir empty;
        const Run e = cli({QStringLiteral("assess"), empty.path()});
        QCOMPARE(e.code, 3);
        QVERIFY(e.err.contains(QStringLiteral("nothing to assess")));
        QVERIFY(e.out.isEmpty());
        QTemporaryDir binary;
        QFile f(binary.filePath(QStringLiteral("x.py")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray("\x7f"
                           "ELF\0\0\0\x01",
                           8));
        f.close();
        const Run b = cli({QStringLiteral("assess"), binary.path()});
        QCOMPARE(b.code, 3);
        QVERIFY(b.err.contains(QStringLiteral("x.py")));
    }
    void impossibleContextIsUsageError() {
        QCOMPARE(cli({QStringLiteral("assess"), kExamples, QStringLiteral("--elements"),
                      QStringLiteral("0")})
                     .code,
                 2);
        const Run r = cli({QStringLiteral("assess"), kExamples, QStringLiteral("--gpus"),
                           QStringLiteral("1"), QStringLiteral("--nodes"), QStringLiteral("4")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains(QStringLiteral("--nodes")));
    }
    void badOptionIsUsageError() {
        QCOMPARE(cli({QStringLiteral("assess"), kExamples, QStringLiteral("--gpus"),
                      QStringLiteral("zero")})
                     .code,
                 2);
        QCOMPARE(cli({QStringLiteral("frobnicate")}).code, 2);
        QCOMPARE(cli({QStringLiteral("explain"), QStringLiteral("R999")}).code, 2);
    }
    void assessPrintsAllEightHeadings() {
        const Run r = cli({QStringLiteral("assess"), kExamples});
        QCOMPARE(r.code, 0);
        const QStringList headings = {
            QStringLiteral("## Verdict"),
            QStringLiteral("## What works (SCALES findings)"),
            QStringLiteral("## What blocks (BLOCKS findings)"),
            QStringLiteral("## What's fixable (REFACTOR findings)"),
            QStringLiteral("## Compatibility / cost notes (INFO findings)"),
            QStringLiteral("## API support gaps"),
            QStringLiteral("## Decision-framework summary"),
            QStringLiteral("## Recommended next steps")};
        qsizetype pos = 0;
        for (const QString& h : headings) {
            const qsizetype at = r.out.indexOf(h, pos);
            QVERIFY2(at >= 0, qPrintable(h));
            pos = at;
        }
    }
    void explainAndRulesReadTheRegistry() {
        const Run rules = cli({QStringLiteral("rules")});
        QCOMPARE(rules.code, 0);
        QVERIFY(rules.out.contains(QStringLiteral("R102")));
        const Run e = cli({QStringLiteral("explain"), QStringLiteral("r102")});
        QCOMPARE(e.code, 0);
        QVERIFY(e.out.contains(QStringLiteral("Use instead")));
    }
    void outputFileIsWritten() {
        QTemporaryDir tmp;
        const QString file = tmp.filePath(QStringLiteral("report.md"));
        const Run r = cli({QStringLiteral("assess"), kExamples, QStringLiteral("-o"), file});
        QCOMPARE(r.code, 0);
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains("## Recommended next steps"));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
