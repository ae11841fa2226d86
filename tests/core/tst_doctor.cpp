// The cuPyNumeric Doctor round trip: reading Doctor's JSON, mapping entries to statements,
// confirming findings, staleness, the CLI option and the hand-off commands.
#include "doctor/DoctorChecks.h"
#include "doctor/DoctorMatch.h"
#include "doctor/DoctorReport.h"
#include "doctor/HandOff.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnready;

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
const QString kDir = QStringLiteral(CNREADY_FIXTURES_DIR "/doctor");
const QString kPilot = kDir + QStringLiteral("/pilot");

void write(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

// A one-file project under `dir` with `source` as m.py.
ProjectResult project(const QTemporaryDir& dir, const QByteArray& source,
                      const QString& name = QStringLiteral("m.py")) {
    write(dir.filePath(name), source);
    ProjectResult p;
    p.root = dir.path();
    FileResult f;
    f.path = name;
    p.files << f;
    return p;
}

Finding finding(const QString& code, int line, int endLine, const QString& path = "m.py") {
    Finding f;
    f.code = code;
    f.range = SourceRange{path, line, 1, endLine, 1};
    return f;
}

DoctorEntry entry(const QString& file, int line, const QString& source, const QString& desc) {
    DoctorEntry e;
    e.filename = file;
    e.lineno = line;
    e.source = source;
    e.description = desc;
    return e;
}

QJsonObject json(const Run& r) {
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

QStringList statuses(const QJsonObject& report) {
    QStringList out;
    for (const QJsonValue& f : report.value(QLatin1String("findings")).toArray())
        out << QStringLiteral("%1 %2 %3")
                   .arg(f[QLatin1String("location")].toString(),
                        f[QLatin1String("code")].toString(),
                        f[QLatin1String("doctor")][QLatin1String("status")].toString());
    return out;
}

const QString kEnv = QStringLiteral("CUPYNUMERIC_DOCTOR=1 CUPYNUMERIC_DOCTOR_FORMAT=json "
                                    "CUPYNUMERIC_DOCTOR_FILENAME=doctor-report.json "
                                    "CUPYNUMERIC_DOCTOR_TRACEBACK=1 CUPYNUMERIC_WARN=1");

} // namespace

class TestDoctor : public QObject {
    Q_OBJECT
    // The fixture report, copied with a modification time of now: a checkout writes files in
    // no fixed order, and a report older than the pilot's sources is (rightly) stale.
    QTemporaryDir m_tmp;
    QString m_report;

private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        m_report = m_tmp.filePath("run.json");
        QVERIFY(QFile::copy(kDir + "/run.json", m_report));
        QFile f(m_report);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.setFileTime(QDateTime::currentDateTime(), QFileDevice::FileModificationTime));
    }

    void readsTheDocumentedFormat() {
        QString why;
        const auto entries = parseDoctorJson(
            "[{\"filename\": \"/w/p/m.py\", \"lineno\": 3, \"source\": \"x = a.item() \",\n"
            "                 \"description\": \"repeated scalar item access\", \"reference\": "
            "null,\n"
            "                 \"traceback\": \"  File \\\"/w/p/main.py\\\", line 9, in <module>\\n "
            "   run()\\n  File \\\"/w/p/m.py\\\", line 3, in run\\n    x = a.item()\\n\"}]",
            &why);
        QVERIFY2(entries, qPrintable(why));
        QCOMPARE(entries->size(), 1);
        const DoctorEntry& e = entries->first();
        QCOMPARE(e.filename, QStringLiteral("/w/p/m.py"));
        QCOMPARE(e.lineno, 3);
        QCOMPARE(e.source, QStringLiteral("x = a.item()"));
        QCOMPARE(e.reference, QString());
        QCOMPARE(e.frames, (QList<DoctorFrame>{
                               {QStringLiteral("/w/p/main.py"), 9, QStringLiteral("<module>")},
                               {QStringLiteral("/w/p/m.py"), 3, QStringLiteral("run")}}));
    }

    void malformedReportsAreRefused_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        QTest::newRow("truncated")
            << QByteArray("[{\"filename\": \"/a.py\",") << QStringLiteral("not valid JSON");
        QTest::newRow("object") << QByteArray("{\"entries\": []}")
                                << QStringLiteral("expected a JSON array");
        QTest::newRow("not-object")
            << QByteArray("[3]") << QStringLiteral("entry 0 is not an object");
        QTest::newRow("no-lineno")
            << QByteArray("[{\"filename\": \"/a.py\", \"description\": \"x\"}]")
            << QStringLiteral("entry 0 has no positive integer \"lineno\"");
        QTest::newRow("fraction")
            << QByteArray("[{\"filename\": \"/a.py\", \"lineno\": 2.5, \"description\": \"x\"}]")
            << QStringLiteral("entry 0 has no positive integer \"lineno\"");
        QTest::newRow("no-description") << QByteArray("[{\"filename\": \"/a.py\", \"lineno\": 2}]")
                                        << QStringLiteral("entry 0 has no \"description\" string");
    }
    void malformedReportsAreRefused() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        QString why;
        QVERIFY(!parseDoctorJson(bytes, &why));
        QVERIFY2(why.contains(message), qPrintable(why));
    }

    void checksMapToOurCodes_data() {
        QTest::addColumn<QString>("description");
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("code");
        QTest::newRow("scalar") << "repeated scalar item access on one line"
                                << ""
                                << "R104";
        QTest::newRow("slice") << "repeated slice access in a loop"
                               << "b = a[i:i + 4]"
                               << "R101";
        QTest::newRow("strided") << "repeated slice access in a loop"
                                 << "b = a[::2]"
                                 << "R106";
        QTest::newRow("gather") << "whole array gathered to the host"
                                << ""
                                << "R104";
        QTest::newRow("stack") << "repeated hstack/vstack calls"
                               << ""
                               << "R203";
        QTest::newRow("nonzero") << "nonzero-style call"
                                 << ""
                                 << "R204";
        QTest::newRow("advanced") << "unoptimised advanced indexing"
                                  << ""
                                  << "R204";
        QTest::newRow("builtin") << "builtin reduction called on an array"
                                 << ""
                                 << "R110";
        QTest::newRow("iter") << "__iter__ called on an array"
                              << ""
                              << "R103";
        QTest::newRow("mpi") << "mpi4py imported"
                             << ""
                             << "R108";
        QTest::newRow("unknown") << "something new"
                                 << ""
                                 << "";
    }
    void checksMapToOurCodes() {
        QFETCH(QString, description);
        QFETCH(QString, source);
        QFETCH(QString, code);
        QCOMPARE(classifyDoctorCheck(description, source).code, code);
    }

    void continuationLineBelongsToItsStatement() {
        // Doctor names line 2; the finding spans line 1 only: the statement joins them.
        QTemporaryDir dir;
        const ProjectResult p = project(dir, "x = float(\n    a[0])\ny = 1\n");
        const DoctorReport r{
            {}, {}, {entry(dir.filePath("m.py"), 2, "a[0])", "scalar item access")}};
        const DoctorResult d = matchDoctorReport(r, p, {finding("R104", 1, 1)}, {});
        QCOMPARE(d.sites.size(), 1);
        QCOMPARE(d.sites[0].statementLine, 1);
        QCOMPARE(d.sites[0].statementEndLine, 2);
        QVERIFY(d.isConfirmed(finding("R104", 1, 1)));
        QVERIFY(d.runtimeOnly().isEmpty());
        // The line after the statement is its own statement: nothing confirmed there.
        const DoctorReport other{
            {}, {}, {entry(dir.filePath("m.py"), 3, "y = 1", "scalar item access")}};
        const DoctorResult o = matchDoctorReport(other, p, {finding("R104", 1, 1)}, {});
        QVERIFY(!o.isConfirmed(finding("R104", 1, 1)));
        QCOMPARE(o.runtimeOnly().size(), 1);
        QCOMPARE(o.runtimeOnly()[0].location(), QStringLiteral("m.py:3"));
    }

    void compoundHeaderIsTheStatement() {
        QTemporaryDir dir;
        const ProjectResult p = project(dir, "for i in range(\n        n):\n    y = a[i]\n");
        const DoctorReport r{{}, {}, {entry("/x/m.py", 2, "n):", "repeated slice access")}};
        const DoctorResult d = matchDoctorReport(r, p, {}, {});
        QCOMPARE(d.sites.size(), 1);
        QCOMPARE(d.sites[0].location(), QStringLiteral("m.py:1-2"));
    }

    void stringEntriesFollowTheirTraceback() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("pkg")));
        ProjectResult p = project(dir, "import numpy as np\n\ndef f(a):\n    return sum(a)\n",
                                  QStringLiteral("pkg/k.py"));
        write(dir.filePath("main.py"), "from pkg.k import f\nf(x)\n");
        FileResult main;
        main.path = QStringLiteral("main.py");
        p.files << main;
        DoctorEntry viaFrames = entry("<string>", 2, "", "builtin reduction on an array");
        viaFrames.frames = {{"/opt/lgpatch.py", 40, "run"},
                            {"/home/u/proj/pkg/k.py", 4, "f"},
                            {"<string>", 2, "<module>"}};
        const QList<Finding> fs{finding("R110", 4, 4, "pkg/k.py")};
        const DoctorResult d = matchDoctorReport(DoctorReport{{}, {}, {viaFrames}}, p, fs, {});
        QVERIFY(d.isConfirmed(fs[0]));
        QCOMPARE(d.outsideProject, 0);
        // No project frame: the script lgpatch ran, at the entry's own line.
        const DoctorEntry bare = entry("<string>", 2, "f(x)", "builtin reduction on an array");
        const DoctorResult e =
            matchDoctorReport(DoctorReport{{}, {}, {bare}}, p, fs, QStringLiteral("main.py"));
        QCOMPARE(e.sites.size(), 1);
        QCOMPARE(e.sites[0].location(), QStringLiteral("main.py:2"));
        QVERIFY(!e.sites[0].staleText);
        // Without an entry script it maps nowhere.
        QCOMPARE(matchDoctorReport(DoctorReport{{}, {}, {bare}}, p, fs, {}).outsideProject, 1);
    }

    void duplicatesAreOneSite() {
        QTemporaryDir dir;
        const ProjectResult p = project(dir, "idx = np.nonzero(a)\n");
        DoctorEntry one = entry("/a/m.py", 1, "idx = np.nonzero(a)", "nonzero-style call");
        DoctorEntry two = one;
        one.frames = {{"/a/main.py", 3, "<module>"}, {"/a/m.py", 1, "g"}};
        two.frames = {{"/a/other.py", 9, "<module>"}, {"/a/m.py", 1, "g"}};
        const DoctorResult d = matchDoctorReport(DoctorReport{{}, {}, {one, two}}, p, {}, {});
        QCOMPARE(d.entries, 2);
        QCOMPARE(d.sites.size(), 1);
        QCOMPARE(d.sites[0].occurrences, 2);
        QCOMPARE(d.sites[0].check.code, QStringLiteral("R204"));
    }

    void lineBeyondTheFileMatchesNothing() {
        QTemporaryDir dir;
        const ProjectResult p = project(dir, "x = a.item()\n");
        // No `source` to compare, and a line the one-line file does not have.
        const DoctorEntry far = entry("/a/m.py", 999, QString(), "scalar item access");
        const DoctorResult d = matchDoctorReport(DoctorReport{{}, {}, {far}}, p, {}, {});
        QCOMPARE(d.sites.size(), 1);
        QVERIFY(d.stale());
        QCOMPARE(d.staleTextCount(), 1);
        QVERIFY(d.runtimeOnly().isEmpty()); // not listed as a run-time only site
    }

    void staleByTextAndByTime() {
        QTemporaryDir dir;
        const ProjectResult p = project(dir, "x = a.item()\n");
        const DoctorEntry moved = entry("/a/m.py", 1, "x = b.item()", "scalar item access");
        DoctorReport r{{}, {}, {moved}};
        DoctorResult d = matchDoctorReport(r, p, {finding("R104", 1, 1)}, {});
        QVERIFY(d.stale());
        QCOMPARE(d.staleTextCount(), 1);
        QCOMPARE(d.sites[0].currentText, QStringLiteral("x = a.item()"));
        QVERIFY(!d.isConfirmed(finding("R104", 1, 1))); // the line it names is other code now
        QVERIFY(d.runtimeOnly().isEmpty());
        QVERIFY(d.newerSources.isEmpty()); // no report time known
        // Same text, but the report is older than the file.
        r.entries = {entry("/a/m.py", 1, "x = a.item()", "scalar item access")};
        r.modified = QFileInfo(dir.filePath("m.py")).lastModified().addSecs(-60);
        d = matchDoctorReport(r, p, {finding("R104", 1, 1)}, {});
        QVERIFY(d.stale());
        QCOMPARE(d.newerSources, QStringList{QStringLiteral("m.py")});
        QVERIFY(d.isConfirmed(finding("R104", 1, 1)));
        r.modified = r.modified.addSecs(120);
        QVERIFY(!matchDoctorReport(r, p, {finding("R104", 1, 1)}, {}).stale());
    }

    void cliMarksEveryFinding() {
        const Run r = cli({"assess", kPilot, "--today", "2026-06-01", "--format", "json",
                           "--doctor-report", m_report});
        QCOMPARE(r.code, 0);
        const QJsonObject o = json(r);
        QCOMPARE(statuses(o),
                 (QStringList{"kernels.py:7 R203 confirmed", "kernels.py:12 R204 confirmed",
                              "kernels.py:12 R001 static-only", "kernels.py:14 R110 confirmed",
                              "main.py:8-10 R101 confirmed"}));
        const QJsonObject d = o.value("doctorReport").toObject();
        QCOMPARE(d.value("entries").toInt(), 8);
        QCOMPARE(d.value("sites").toInt(), 6); // two nonzero stacks merged, one library entry
        QCOMPARE(d.value("outsideProject").toInt(), 1);
        // The float() on lines 9-10 is part of the element loop's site (R101 at 8-10): the
        // scalar-item-access entry on line 10 confirms that loop.
        QCOMPARE(d.value("confirmed").toInt(), 4);
        QCOMPARE(d.value("stale").toBool(), false);
        QStringList only;
        for (const QJsonValue& s : d.value("runtimeOnly").toArray())
            only << s["location"].toString() + ' ' + s["code"].toString() + ' ' +
                        s["check"].toString();
        QCOMPARE(only,
                 (QStringList{"kernels.py:13 R204 advanced-indexing", "main.py:1 R108 mpi4py"}));
        // Without the option: no `doctor` per finding, doctorReport null.
        const QJsonObject plain =
            json(cli({"assess", kPilot, "--today", "2026-06-01", "--format", "json"}));
        QVERIFY(plain.value("doctorReport").isNull());
        QVERIFY(!plain.value("findings").toArray().first().toObject().contains("doctor"));
    }

    void cliMarkdownAndSarif() {
        const Run md =
            cli({"assess", kPilot, "--today", "2026-06-01", "--doctor-report", m_report});
        QCOMPARE(md.code, 0);
        QVERIFY(md.out.contains("| Location | Code | Finding | Hot path | Recipe | Run time |\n"
                                "|---|---|---|---|---|---|\n"));
        QVERIFY(md.out.contains("| `main.py:8-10` | R101 |"));
        QVERIFY(
            md.out.contains("Replace the element loop by whole-array operations | confirmed |\n"));
        QVERIFY(md.out.contains("- `kernels.py:7` R203 in `grow`: "));
        QVERIFY(md.out.contains("(run time: confirmed)\n"));
        QVERIFY(md.out.contains(
            "cuPyNumeric Doctor report `" + m_report +
            "` (8 entries): 4 of 5 findings confirmed at run time, the rest static "
            "only. Run-time only (no static finding there; review them by hand): "
            "`kernels.py:13` R204 (unoptimised advanced indexing), `main.py:1` R108 (mpi4py "
            "imported). 1 entry outside the assessed files (libraries or other code) left "
            "out.\n"));
        // The eight headings stay as they are.
        for (const char* h :
             {"## Verdict", "## What works (SCALES findings)", "## What blocks (BLOCKS findings)",
              "## What's fixable (REFACTOR findings)",
              "## Compatibility / cost notes (INFO findings)", "## API support gaps",
              "## Decision-framework summary", "## Recommended next steps"})
            QCOMPARE(md.out.count(QLatin1String("\n") + h + "\n"), 1);
        const Run sarif = cli({"assess", kPilot, "--today", "2026-06-01", "--format", "sarif",
                               "--doctor-report", m_report});
        QCOMPARE(sarif.code, 0);
        const QJsonArray results =
            QJsonDocument::fromJson(sarif.out.toUtf8()).object()["runs"][0]["results"].toArray();
        QStringList props;
        for (const QJsonValue& v : results)
            props << v["ruleId"].toString() + ' ' + v["properties"]["doctor"].toString();
        QCOMPARE(props, (QStringList{"R203 confirmed", "R204 confirmed", "R001 static-only",
                                     "R110 confirmed", "R101 confirmed"}));
    }

    void cliStaleReport() {
        // A copy of the project, the report made older than its files.
        QTemporaryDir dir;
        for (const char* name : {"main.py", "kernels.py"})
            QVERIFY(QFile::copy(kPilot + '/' + name, dir.filePath(name)));
        const QString report =
            dir.filePath("../doctor-stale-" + QFileInfo(dir.path()).fileName() + ".json");
        QVERIFY(QFile::copy(kDir + "/run.json", report));
        {
            QFile f(report);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.setFileTime(QDateTime::currentDateTime().addDays(-1),
                                  QFileDevice::FileModificationTime));
        }
        const Run r =
            cli({"assess", dir.path(), "--today", "2026-06-01", "--doctor-report", report});
        QFile::remove(report);
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("is stale"), qPrintable(r.err));
        QVERIFY(r.out.contains(
            " **Stale report**: changed after the run: `kernels.py`, `main.py`; run Doctor "
            "again.\n"));
        // The text of a line that changed: flagged, and it confirms nothing.
        const Run t = cli({"assess", kPilot, "--today", "2026-06-01", "--format", "json",
                           "--doctor-report", kDir + "/stale_text.json"});
        const QJsonObject d = json(t).value("doctorReport").toObject();
        QVERIFY(d.value("stale").toBool());
        QCOMPARE(d.value("staleSites").toArray().size(), 1);
        QCOMPARE(d.value("staleSites")[0]["currentText"].toString(), "total += float(");
        QCOMPARE(d.value("confirmed").toInt(), 1);
    }

    void cliRefusesBadReports() {
        for (const char* name : {"/malformed.json", "/not_a_list.json", "/missing.json"}) {
            const Run r = cli({"assess", kPilot, "--doctor-report", kDir + name});
            QCOMPARE(r.code, 3);
            QVERIFY(r.out.isEmpty());
            QCOMPARE(r.err.count('\n'), 1);
            QVERIFY2(r.err.startsWith("cnready: ") && r.err.contains(kDir + name),
                     qPrintable(r.err));
        }
    }

    void handOffCommands() {
        QCOMPARE(doctorLegateCommand("run.py"),
                 "rm -f doctor-report.json && " + kEnv + " legate --gpus 1 run.py");
        QCOMPARE(doctorPatchCommand({}), "rm -f doctor-report.json && " + kEnv +
                                             " LEGATE_CONFIG=\"--gpus 1\" lgpatch --patch numpy "
                                             "main.py");
        QCOMPARE(doctorMultiNodeCommand("main.py", 2, 8),
                 "rm -f doctor-report.json && " + kEnv +
                     " legate --nodes 2 --ranks-per-node 1 --gpus 4 --launcher mpirun main.py");
        // In the report, with the context's nodes; never the removed variables and flags.
        const Run r =
            cli({"assess", kPilot, "--today", "2026-06-01", "--nodes", "2", "--gpus", "8"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("`" + doctorPatchCommand("main.py") + "`"));
        QVERIFY(r.out.contains("`" + doctorLegateCommand("main.py") + "`"));
        QVERIFY(r.out.contains("On 2 nodes: `" + doctorMultiNodeCommand("main.py", 2, 8) +
                               "` (`--launcher srun` under Slurm)."));
        const Run rules = cli({"explain", "R108"});
        QVERIFY(rules.out.contains(
            "legate --nodes 2 --ranks-per-node 1 --gpus 4 --launcher mpirun main.py"));
        for (const Run& x : {r, rules}) {
            QVERIFY(!x.out.contains("LEGATE_GPUS"));
            QVERIFY(!x.out.contains("eager-alloc"));
        }
    }
};

QTEST_GUILESS_MAIN(TestDoctor)
#include "tst_doctor.moc"
