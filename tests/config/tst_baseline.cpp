// CI output: baselines (only new findings fail --fail-on), SARIF fingerprints and base ids,
// GitHub annotations.
#include "common.h"

#include "baseline/Fingerprint.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnready;
using test::cli;
using test::Project;
using test::Run;
using test::writeFile;

namespace {

const QStringList kToday{QStringLiteral("--today"), QStringLiteral("2026-06-01")};

QJsonArray sarifResults(const Run& r) {
    return QJsonDocument::fromJson(r.out.toUtf8())
        .object()
        .value(QStringLiteral("runs"))
        .toArray()
        .first()
        .toObject()
        .value(QStringLiteral("results"))
        .toArray();
}

// ruleId → partial fingerprint of the R101 results.
QStringList r101Fingerprints(const Run& r) {
    QStringList out;
    for (const QJsonValue& v : sarifResults(r))
        if (v.toObject().value(QStringLiteral("ruleId")).toString() == QLatin1String("R101"))
            out << v.toObject()
                       .value(QStringLiteral("partialFingerprints"))
                       .toObject()
                       .value(QStringLiteral("cnready/v1"))
                       .toString();
    return out;
}

} // namespace

class TestBaseline : public QObject {
    Q_OBJECT
private slots:
    void normalisedLines() {
        QCOMPARE(normalizedSourceLine(QStringLiteral("  out[k]  =\tfield[k] * 2.0  ")),
                 QStringLiteral("out[k] = field[k] * 2.0"));
    }

    void roundTrip() {
        Project p;
        const QString baseline = p.path(QStringLiteral("cnready-baseline.json"));
        const QStringList assess{QStringLiteral("assess"), p.dir.path(),
                                 QStringLiteral("--fail-on"), QStringLiteral("light")};
        // Without a baseline the blocker fails --fail-on light.
        QCOMPARE(cli(assess + kToday).code, 1);
        const Run write =
            cli(assess + kToday + QStringList{QStringLiteral("--write-baseline"), baseline});
        QVERIFY2(write.err.contains(QStringLiteral("cnready: wrote baseline ")),
                 qPrintable(write.err));
        // Recording a baseline accepts what is there: the step succeeds despite --fail-on.
        QCOMPARE(write.code, 0);
        QFile f(baseline);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject doc = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(doc.value(QStringLiteral("schema")).toString(),
                 QStringLiteral("cnready-baseline"));
        const QJsonArray entries = doc.value(QStringLiteral("findings")).toArray();
        QVERIFY(!entries.isEmpty());
        bool sawLoop = false;
        for (const QJsonValue& e : entries) {
            QVERIFY(!e.toObject().contains(QStringLiteral("line"))); // no line numbers
            sawLoop =
                sawLoop ||
                (e.toObject().value(QStringLiteral("code")).toString() == QLatin1String("R101") &&
                 e.toObject().value(QStringLiteral("path")).toString() == QLatin1String("main.py"));
        }
        QVERIFY(sawLoop);
        const QStringList withBaseline =
            assess + kToday + QStringList{QStringLiteral("--baseline"), baseline};
        // Same tree: nothing new, exit 0.
        const Run same = cli(withBaseline);
        QCOMPARE(same.code, 0);
        QVERIFY2(same.err.contains(QStringLiteral(": 0 new finding(s), ")), qPrintable(same.err));
        QVERIFY(same.err.contains(QStringLiteral(" 0 stale entries\n")));
        // Lines shifted by an edit above: still nothing new.
        QVERIFY(
            writeFile(p.path(QStringLiteral("main.py")),
                      "\"\"\"A module docstring added later.\"\"\"\n\n" + test::blockerModule()));
        QCOMPARE(cli(withBaseline).code, 0);
        // One new blocker: exit 1, and the report still lists every finding.
        QVERIFY(writeFile(p.path(QStringLiteral("extra.py")), test::blockerModule("3.0")));
        const Run added = cli(withBaseline);
        QCOMPARE(added.code, 1);
        QVERIFY2(added.err.contains(QStringLiteral("the new findings alone give LIGHT REFACTOR")),
                 qPrintable(added.err));
        QVERIFY(added.out.contains(QStringLiteral("main.py:")));
        // The accepted blocker fixed: its entry is stale, and listed.
        QFile::remove(p.path(QStringLiteral("extra.py")));
        QVERIFY(writeFile(p.path(QStringLiteral("main.py")),
                          "import numpy as np\n\nN = 16_000_000\nx = np.zeros(N) * 2\n"));
        const Run fixed = cli(withBaseline);
        QCOMPARE(fixed.code, 0);
        QVERIFY2(fixed.err.contains(QStringLiteral("cnready:   stale: main.py R101 for k in "
                                                   "range(len(field)):")),
                 qPrintable(fixed.err));
    }

    void badBaselineIsInputError() {
        Project p;
        QVERIFY(writeFile(p.path(QStringLiteral("b.json")), "{\"schema\": \"other\"}"));
        const Run r =
            cli(QStringList{QStringLiteral("assess"), p.dir.path(), QStringLiteral("--baseline"),
                            p.path(QStringLiteral("b.json"))});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains(QStringLiteral("is not a cnready baseline")), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }

    void sarifForCodeScanning() {
        Project p;
        const QStringList args = QStringList{QStringLiteral("assess"), p.dir.path(),
                                             QStringLiteral("--format"), QStringLiteral("sarif")} +
                                 kToday;
        const Run r = cli(args);
        QCOMPARE(r.code, 0);
        const QJsonObject run = QJsonDocument::fromJson(r.out.toUtf8())
                                    .object()
                                    .value(QStringLiteral("runs"))
                                    .toArray()
                                    .first()
                                    .toObject();
        QVERIFY(run.value(QStringLiteral("originalUriBaseIds"))
                    .toObject()
                    .contains(QStringLiteral("%SRCROOT%")));
        QVERIFY(!r.out.contains(QStringLiteral("PROJECTROOT")));
        const QJsonObject artifact = sarifResults(r)
                                         .first()
                                         .toObject()
                                         .value(QStringLiteral("locations"))
                                         .toArray()
                                         .first()
                                         .toObject()
                                         .value(QStringLiteral("physicalLocation"))
                                         .toObject()
                                         .value(QStringLiteral("artifactLocation"))
                                         .toObject();
        QCOMPARE(artifact.value(QStringLiteral("uriBaseId")).toString(),
                 QStringLiteral("%SRCROOT%"));
        QCOMPARE(artifact.value(QStringLiteral("uri")).toString(), QStringLiteral("main.py"));
        const QStringList before = r101Fingerprints(r);
        QCOMPARE(before.size(), 1);
        QCOMPARE(before.first().size(), 32);
        QVERIFY(!sarifResults(r).first().toObject().contains(QStringLiteral("baselineState")));
        // Shifted lines keep the fingerprint; a second identical loop gets its own.
        QVERIFY(
            writeFile(p.path(QStringLiteral("main.py")), "# header\n\n" + test::blockerModule()));
        QCOMPARE(r101Fingerprints(cli(args)), before);
        QVERIFY(writeFile(p.path(QStringLiteral("main.py")),
                          test::blockerModule() +
                              "\n\ndef again(field):\n    out = np.zeros(len(field))\n"
                              "    for k in range(len(field)):\n"
                              "        out[k] = field[k] * 2.0\n    return out\n"
                              "\n\nagain(np.zeros(N))\n"));
        const QStringList two = r101Fingerprints(cli(args));
        QCOMPARE(two.size(), 2);
        QCOMPARE(two.first(), before.first());
        QVERIFY(two.last() != before.first());
        // Against a baseline: unchanged and new.
        const QString baseline = p.path(QStringLiteral("b.json"));
        QVERIFY(writeFile(p.path(QStringLiteral("main.py")), test::blockerModule()));
        QCOMPARE(cli(args + QStringList{QStringLiteral("--write-baseline"), baseline}).code, 0);
        QVERIFY(writeFile(p.path(QStringLiteral("extra.py")), test::blockerModule("3.0")));
        QStringList states;
        for (const QJsonValue& v :
             sarifResults(cli(args + QStringList{QStringLiteral("--baseline"), baseline})))
            if (v.toObject().value(QStringLiteral("ruleId")).toString() == QLatin1String("R101"))
                states << v.toObject().value(QStringLiteral("baselineState")).toString();
        QCOMPARE(states, (QStringList{QStringLiteral("new"), QStringLiteral("unchanged")}));
    }

    void githubAnnotations() {
        Project p;
        const Run r = cli(QStringList{QStringLiteral("assess"), p.dir.path(),
                                      QStringLiteral("--format"), QStringLiteral("github")} +
                          kToday);
        QCOMPARE(r.code, 0);
        const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        QVERIFY2(lines.first().startsWith(QStringLiteral("::error file=main.py,line=8,endLine=9,"
                                                         "title=R101 ")),
                 qPrintable(lines.first()));
        QVERIFY(lines.first().contains(QStringLiteral("::")));
        QVERIFY2(
            lines.last().startsWith(QStringLiteral("::notice title=cnready%3A LIGHT REFACTOR::")),
            qPrintable(lines.last()));
        QVERIFY(lines.last().endsWith(QStringLiteral("(1 blocker annotation)")));

        // Run from the folder above the project (a repository assessing `src/pkg`): the
        // annotation names the file as the runner finds it from there.
        const QFileInfo root(p.dir.path());
        const Run above = cli(QStringList{QStringLiteral("assess"), root.fileName(),
                                          QStringLiteral("--format"), QStringLiteral("github")} +
                                  kToday,
                              root.absolutePath());
        QVERIFY2(above.out.startsWith(
                     QStringLiteral("::error file=%1/main.py,line=8,").arg(root.fileName())),
                 qPrintable(above.out));
    }
};

QTEST_GUILESS_MAIN(TestBaseline)
#include "tst_baseline.moc"
