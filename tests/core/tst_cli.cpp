// The cnready binary as a user runs it: exit codes, stderr lines, formats.
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
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
        // Every unreadable file gives its own reason, not only the first.
        QFile empty2(binary.filePath(QStringLiteral("y.py")));
        QVERIFY(empty2.open(QIODevice::WriteOnly));
        empty2.close();
        const Run two = cli({QStringLiteral("assess"), binary.path()});
        QCOMPARE(two.code, 3);
        QVERIFY2(two.err.contains(QStringLiteral("x.py: ")) &&
                     two.err.contains(QStringLiteral("; y.py: ")),
                 qPrintable(two.err));
    }
    void notebookFolderIsAssessed() {
        // A folder of notebooks only: read (not "no Python files", exit 3), the element loop
        // of a code cell found at its cell, the broken and nbformat 3 ones listed as not read.
        const QString heat = QStringLiteral(CNREADY_FIXTURES_DIR "/notebooks/heat");
        const Run r = cli({QStringLiteral("assess"), heat, QStringLiteral("--today"),
                           QStringLiteral("2026-06-01")});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains(QStringLiteral("| `relax.ipynb:cell 5:3-4` | R101 |")),
                 qPrintable(r.out));
        QVERIFY(!r.out.contains(QStringLiteral("**READY**")));
        QVERIFY(r.out.contains(QStringLiteral("`broken.ipynb` (unreadable)")));
        QVERIFY(!r.err.contains(QStringLiteral("no file imports numpy")));
        // One notebook given directly, the trial's case.
        const Run one = cli({QStringLiteral("assess"), heat + QStringLiteral("/relax.ipynb"),
                             QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(one.code, 0);
        const QJsonObject json = QJsonDocument::fromJson(one.out.toUtf8()).object();
        QVERIFY(json[QStringLiteral("counts")][QStringLiteral("blocks")].toInt() >= 1);
        QVERIFY(json[QStringLiteral("verdict")][QStringLiteral("key")].toString() !=
                QLatin1String("ready"));
    }
    void emptyOutputNameIsUsageError() {
        const Run r = cli({QStringLiteral("assess"), kExamples, QStringLiteral("-o"), QString()});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("-o/--output needs a file name")),
                 qPrintable(r.err));
    }
    void outputNeverReplacesAnAssessedFileOrADevice() {
        QTemporaryDir dir;
        const QString src = dir.filePath(QStringLiteral("model.py"));
        const QByteArray code = "import numpy as np\nu = np.zeros(10)\n";
        {
            QFile f(src);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(code);
        }
        const Run same = cli({QStringLiteral("assess"), dir.path(), QStringLiteral("-o"), src});
        QCOMPARE(same.code, 2);
        QVERIFY2(same.err.contains(QStringLiteral("is one of the Python files being assessed")),
                 qPrintable(same.err));
        QFile check(src);
        QVERIFY(check.open(QIODevice::ReadOnly));
        QCOMPARE(check.readAll(), code);
        // A report file inside the project folder is fine (`-o report.md` is the usual call).
        const QString md = dir.filePath(QStringLiteral("report.md"));
        QCOMPARE(cli({QStringLiteral("assess"), dir.path(), QStringLiteral("-o"), md}).code, 0);
        QVERIFY(QFileInfo(md).size() > 0);
#if defined(Q_OS_LINUX)
        // A FIFO is written into, not replaced by a regular file.
        const QString fifo = dir.filePath(QStringLiteral("pipe"));
        QCOMPARE(QProcess::execute(QStringLiteral("mkfifo"), {fifo}), 0);
        QProcess reader;
        reader.start(QStringLiteral("cat"), {fifo});
        QVERIFY(reader.waitForStarted());
        const Run piped = cli({QStringLiteral("assess"), kExamples, QStringLiteral("-o"), fifo});
        QCOMPARE(piped.code, 0);
        QVERIFY(reader.waitForFinished(30000));
        QVERIFY(reader.readAllStandardOutput().startsWith("# cuPyNumeric readiness: "));
        QVERIFY(!QFileInfo(fifo).isFile()); // still a FIFO
        if (QFileInfo::exists(QStringLiteral("/dev/full"))) {
            // A full device: the report cannot be written, which must not look like success.
            const Run full = cli({QStringLiteral("assess"), kExamples, QStringLiteral("-o"),
                                  QStringLiteral("/dev/full")});
            QCOMPARE(full.code, 3);
            QVERIFY(!QFileInfo(QStringLiteral("/dev/full")).isFile());
            QProcess toFull;
            toFull.setStandardOutputFile(QStringLiteral("/dev/full"));
            toFull.start(QStringLiteral(CNREADY_CLI_PATH), {QStringLiteral("assess"), kExamples});
            QVERIFY(toFull.waitForFinished(120000));
            QCOMPARE(toFull.exitCode(), 3);
            QVERIFY(toFull.readAllStandardError().contains("cannot write the report"));
        }
#endif
    }
    void explainTakesSeveralCodes() {
        const Run two =
            cli({QStringLiteral("explain"), QStringLiteral("R104"), QStringLiteral("R105")});
        QCOMPARE(two.code, 0);
        QVERIFY(two.out.startsWith(QStringLiteral("R104 host-sync-in-hot-path")));
        QVERIFY2(two.out.contains(QStringLiteral("\nR105 branch-on-array-value")),
                 qPrintable(two.out));
        const Run typo =
            cli({QStringLiteral("explain"), QStringLiteral("R104"), QStringLiteral("R9999")});
        QCOMPARE(typo.code, 2);
        QVERIFY(typo.out.isEmpty());
        QVERIFY(typo.err.contains(QStringLiteral("R9999")));
    }
    void explainVerdictPrintsTheNineRules() {
        const Run r = cli({QStringLiteral("explain"), QStringLiteral("verdict")});
        QCOMPARE(r.code, 0);
        qsizetype pos = 0;
        for (int n = 1; n <= 9; ++n) {
            const qsizetype at = r.out.indexOf(QStringLiteral("\n%1. ").arg(n), pos);
            QVERIFY2(at > pos || (n == 1 && at >= 0), qPrintable(QString::number(n) + r.out));
            pos = at;
        }
        QVERIFY(!r.out.contains(QStringLiteral("\n10. ")));
        // The report points to it.
        const Run md = cli({QStringLiteral("assess"), kExamples});
        QVERIFY(md.out.contains(QStringLiteral("of the verdict list (`cnready explain verdict`)")));
        QVERIFY(md.out.contains(QStringLiteral("\nWhat would change it: ")));
    }
    void summaryFitsAReviewMeeting() {
        const Run r = cli({QStringLiteral("assess"), kExamples, QStringLiteral("--summary"),
                           QStringLiteral("--today"), QStringLiteral("2026-11-30")});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.count(QLatin1Char('\n')) < 80, qPrintable(r.out));
        for (const char* h : {"## Gates", "## Top sites per code", "## Counts"})
            QVERIFY2(r.out.contains(QLatin1String(h)), h);
        QVERIFY(r.out.contains(QStringLiteral("**SIGNIFICANT REFACTOR** — ")));
        QVERIFY(r.out.contains(QStringLiteral("| R101 | ")));
        QVERIFY(!r.out.contains(QStringLiteral("## What works")));
        const Run bad = cli({QStringLiteral("assess"), kExamples, QStringLiteral("--summary"),
                             QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(bad.code, 2);
    }
    // Issue 16 item 8: the summary stays under 80 lines however big the project: 120 modules
    // with a dozen BLOCKS / REFACTOR codes each, several sites per code.
    void summaryStaysShortOnABigProject() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QByteArray body = "import numpy as np\n"
                                "\n"
                                "\n"
                                "def step(a: np.ndarray, b: np.ndarray, n: int, steps: int):\n"
                                "    f = np.vectorize(lambda v: v + 1.0)\n"
                                "    tags = np.empty(n, dtype=object)\n"
                                "    for t in range(steps):\n"
                                "        buf = np.zeros(n)\n"
                                "        a = a + b\n"
                                "        out = a.reshape(n, 1)\n"
                                "        if a.sum() > 0:\n"
                                "            print(float(a.max()))\n"
                                "        acc = np.concatenate([buf, a])\n"
                                "        idx = np.nonzero(a > 0)\n"
                                "        b[idx] = 0.0\n"
                                "        odd = a[::2]\n"
                                "    for i in range(len(a)):\n"
                                "        a[i] = a[i] * 2.0\n"
                                "    for row in b:\n"
                                "        total = sum(row)\n"
                                "    flat = b.ravel(order=\"F\")\n"
                                "    return f(a), tags, out, acc, odd, total, flat\n";
        for (int k = 0; k < 120; ++k) {
            QDir().mkpath(tmp.filePath(QStringLiteral("pkg%1").arg(k % 6)));
            QFile file(tmp.filePath(QStringLiteral("pkg%1/mod%2.py").arg(k % 6).arg(k)));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(body);
        }
        const Run full = cli({QStringLiteral("assess"), tmp.path(), QStringLiteral("--today"),
                              QStringLiteral("2026-11-30")});
        QCOMPARE(full.code, 0);
        QVERIFY(full.out.count(QLatin1Char('\n')) > 400); // the full report is long
        const Run r = cli({QStringLiteral("assess"), tmp.path(), QStringLiteral("--summary"),
                           QStringLiteral("--today"), QStringLiteral("2026-11-30")});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.count(QLatin1Char('\n')) < 80,
                 qPrintable(QString::number(r.out.count(QLatin1Char('\n'))) + r.out));
        QVERIFY(r.out.contains(QStringLiteral("**SIGNIFICANT REFACTOR** — ")));
        int codes = 0;
        for (const QString& l : r.out.split(QLatin1Char('\n')))
            codes += l.startsWith(QStringLiteral("| R1")) || l.startsWith(QStringLiteral("| R2"));
        QVERIFY2(codes >= 8, qPrintable(r.out));
    }
    void provisionalVerdictFailsAnyFailOn() {
        const QString project =
            QStringLiteral(CNREADY_SOURCE_DIR "/tests/fixtures/projects/provisional_syntax");
        const Run plain = cli({QStringLiteral("assess"), project});
        QCOMPARE(plain.code, 0);
        QVERIFY2(plain.out.contains(QStringLiteral("**READY** — Provisional: ")),
                 qPrintable(plain.out.left(3000)));
        QVERIFY(plain.out.contains(QStringLiteral("`broken.py`: syntax error at line")));
        // READY is below --fail-on not-recommended, yet a provisional verdict fails it.
        const Run gate = cli({QStringLiteral("assess"), project, QStringLiteral("--fail-on"),
                              QStringLiteral("not-recommended")});
        QCOMPARE(gate.code, 1);
        QVERIFY2(gate.err.contains(QStringLiteral("provisional")), qPrintable(gate.err));
        // The same code without the broken file passes the same --fail-on.
        const Run clean = cli({QStringLiteral("assess"), project + QStringLiteral("/solver.py"),
                               QStringLiteral("--fail-on"), QStringLiteral("not-recommended")});
        QCOMPARE(clean.code, 0);
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
    void nonsenseContextValuesAreUsageErrors() {
        const struct {
            QStringList args;
            const char* says;
        } cases[] = {
            {{QStringLiteral("--cuda"), QStringLiteral("banana")}, "like 12.4"},
            {{QStringLiteral("--os"), QStringLiteral("amiga")}, "linux, wsl2, macos, windows"},
            {{QStringLiteral("--compute-capability"), QStringLiteral("99.9")}, "X.Y"},
            {{QStringLiteral("--compute-capability"), QStringLiteral("eight")}, "X.Y"},
            {{QStringLiteral("--gpu"), QStringLiteral("A100"),
              QStringLiteral("--compute-capability"), QStringLiteral("9.0")},
             "A100 has compute capability 8.0"},
            {{QStringLiteral("--elements"), QStringLiteral("1.5")}, "whole number"},
            {{QStringLiteral("--elements-per-gpu"), QStringLiteral("1.0005K")}, "whole number"},
            {{QStringLiteral("--elements"), QStringLiteral("nan")}, "whole number"},
            {{QStringLiteral("--elements"), QStringLiteral("1e30")},
             "--elements 1e30 is too large: at most 9,000,000,000,000,000,000 elements (9e18)"},
            {{QStringLiteral("--elements-per-gpu"), QStringLiteral("9.1e18")},
             "--elements-per-gpu 9.1e18 is too large"},
            {{QStringLiteral("--elements"), QStringLiteral("16M"),
              QStringLiteral("--elements-per-gpu"), QStringLiteral("4M")},
             "give one of --elements or --elements-per-gpu"},
            {{QStringLiteral("--entry"), QStringLiteral("nope.py")},
             "--entry nope.py: not a Python file of"},
            {{QStringLiteral("--host-bandwidth"), QStringLiteral("1e9")}, "at most 1000000"},
        };
        for (const auto& c : cases) {
            const Run r = cli(QStringList{QStringLiteral("assess"), kExamples} + c.args);
            const QString label = c.args.join(QLatin1Char(' '));
            QVERIFY2(r.code == 2, qPrintable(label));
            QVERIFY2(r.out.isEmpty(), qPrintable(label));
            QVERIFY2(r.err.startsWith(QStringLiteral("cnready: ")), qPrintable(label));
            QVERIFY2(r.err.contains(QLatin1String(c.says)), qPrintable(label + " -> " + r.err));
        }
    }
    void singleFileIsTitledByItsName() {
        // A file given alone names the report; its folder, or several paths, name it as before.
        const QString file = kExamples + QStringLiteral("/thermal/legacy_probe.py");
        const Run one = cli({QStringLiteral("assess"), file});
        QCOMPARE(one.code, 0);
        QVERIFY2(one.out.startsWith(QStringLiteral("# cuPyNumeric readiness: legacy_probe.py\n")),
                 qPrintable(one.out.left(80)));
        const Run json = cli(
            {QStringLiteral("assess"), file, QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(QJsonDocument::fromJson(json.out.toUtf8())
                     .object()
                     .value(QStringLiteral("project"))
                     .toObject()
                     .value(QStringLiteral("name"))
                     .toString(),
                 QStringLiteral("legacy_probe.py"));
        const Run folder = cli({QStringLiteral("assess"), kExamples + QStringLiteral("/thermal")});
        QVERIFY2(folder.out.startsWith(QStringLiteral("# cuPyNumeric readiness: thermal\n")),
                 qPrintable(folder.out.left(80)));
    }
    void sensibleContextValuesStayAccepted() {
        const QStringList ok[] = {
            {QStringLiteral("--cuda"), QStringLiteral("12.4")},
            {QStringLiteral("--cuda"), QStringLiteral("11.8")}, // valid, the gate then fails it
            {QStringLiteral("--os"), QStringLiteral("WSL2")},
            {QStringLiteral("--gpu"), QStringLiteral("NVIDIA A100-80GB"),
             QStringLiteral("--compute-capability"), QStringLiteral("8.0")},
            {QStringLiteral("--gpu"), QStringLiteral("MysteryCard"),
             QStringLiteral("--compute-capability"), QStringLiteral("9.0")},
            {QStringLiteral("--elements"), QStringLiteral("1e9")},
            {QStringLiteral("--elements"), QStringLiteral("30M")},
            {QStringLiteral("--elements"), QStringLiteral("9e18")}, // the limit itself
            {QStringLiteral("--elements-per-gpu"), QStringLiteral("2.5K")},
            {QStringLiteral("--entry"), QStringLiteral("thermal/solver.py")},
            {QStringLiteral("--entry"), QStringLiteral("./thermal/solver.py")},
        };
        for (const QStringList& args : ok) {
            const Run r = cli(QStringList{QStringLiteral("assess"), kExamples} + args);
            QVERIFY2(r.code == 0, qPrintable(args.join(QLatin1Char(' ')) + " -> " + r.err));
        }
    }
    void subcommandHelpNamesTheCommand() {
        const Run a = cli({QStringLiteral("assess"), QStringLiteral("--help")});
        QCOMPARE(a.code, 0);
        QVERIFY2(a.out.startsWith(QStringLiteral("Usage: cnready assess [options] PATH...")),
                 qPrintable(a.out.left(80)));
        for (const char* cmd : {"explain", "rules", "manifest"}) {
            const Run r = cli({QLatin1String(cmd), QStringLiteral("--help")});
            QCOMPARE(r.code, 0);
            QVERIFY2(r.out.startsWith(QStringLiteral("Usage: cnready ") + QLatin1String(cmd)),
                     qPrintable(r.out.left(80)));
        }
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
    void todayIsAPlainDate() {
        for (const char* bad :
             {"2026-11-30T00:00", "2026-11-30 12:00", "30.11.2026", "2026-13-01", "2026-02-30"}) {
            const Run r = cli({QStringLiteral("assess"), kExamples, QStringLiteral("--today"),
                               QLatin1String(bad)});
            QVERIFY2(r.code == 2, bad);
            QVERIFY2(r.out.isEmpty(), bad);
            QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
            QVERIFY2(r.err.startsWith(QStringLiteral("cnready: --today takes a calendar date "
                                                     "YYYY-MM-DD")),
                     qPrintable(r.err));
            QVERIFY2(r.err.contains(QLatin1String(bad)), qPrintable(r.err));
        }
        const Run ok =
            cli({QStringLiteral("assess"), kExamples, QStringLiteral("--today"),
                 QStringLiteral("2026-11-30"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(ok.code, 0);
        // Day counts carry thousands separators in messages.
        const Run past =
            cli({QStringLiteral("assess"), kExamples, QStringLiteral("--today"),
                 QStringLiteral("1999-01-01"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(past.code, 0);
        QVERIFY2(past.err.contains(QStringLiteral("2026-05-22, 10,003 days after the date")),
                 qPrintable(past.err));
    }
    void rulesFormat() {
        const Run json =
            cli({QStringLiteral("rules"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(json.code, 0);
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(json.out.toUtf8(), &pe);
        QVERIFY2(pe.error == QJsonParseError::NoError, qPrintable(pe.errorString()));
        const QJsonArray rules = doc.object().value(QStringLiteral("rules")).toArray();
        const Run text = cli({QStringLiteral("rules")});
        QCOMPARE(rules.size(), text.out.count(QLatin1Char('\n')));
        QVERIFY(rules.size() > 10);
        bool r104 = false;
        for (const QJsonValue& v : rules) {
            const QJsonObject o = v.toObject();
            if (o.value(QStringLiteral("code")).toString() != QLatin1String("R104"))
                continue;
            r104 = true;
            QCOMPARE(o.value(QStringLiteral("name")).toString(),
                     QStringLiteral("host-sync-in-hot-path"));
            QCOMPARE(o.value(QStringLiteral("category")).toString(), QStringLiteral("BLOCKS"));
        }
        QVERIFY(r104);
        QCOMPARE(cli({QStringLiteral("rules"), QStringLiteral("--format=json")}).out, json.out);
        QCOMPARE(
            cli({QStringLiteral("rules"), QStringLiteral("--format"), QStringLiteral("text")}).out,
            text.out);
        // Unknown formats and stray arguments are usage errors, not ignored.
        for (const QStringList& bad :
             {QStringList{QStringLiteral("--format"), QStringLiteral("sarif")},
              QStringList{QStringLiteral("--format")}, QStringList{QStringLiteral("R104")},
              QStringList{QStringLiteral("--verbose")}}) {
            const Run r = cli(QStringList{QStringLiteral("rules")} + bad);
            QVERIFY2(r.code == 2, qPrintable(bad.join(' ')));
            QVERIFY2(r.out.isEmpty(), qPrintable(bad.join(' ')));
            QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        }
        const Run ex = cli({QStringLiteral("explain"), QStringLiteral("--format"),
                            QStringLiteral("json"), QStringLiteral("R104")});
        QCOMPARE(ex.code, 2);
        QVERIFY2(ex.err.contains(QStringLiteral("rule codes only")), qPrintable(ex.err));
    }
    void gpuMemoryAndStrictLookupEndToEnd() {
        const Run tiger =
            cli({QStringLiteral("assess"), kExamples, QStringLiteral("--gpu"),
                 QStringLiteral("GTX 1080 Tiger"), QStringLiteral("--format"),
                 QStringLiteral("json"), QStringLiteral("--today"), QStringLiteral("2026-11-30")});
        QCOMPARE(tiger.code, 0);
        QVERIFY2(tiger.out.contains(QStringLiteral("GTX 1080 Tiger (not in the catalog)")),
                 qPrintable(tiger.out.left(400)));
        const Run big =
            cli({QStringLiteral("assess"), kExamples, QStringLiteral("--gpu"),
                 QStringLiteral("RTX 4090"), QStringLiteral("--elements-per-gpu"),
                 QStringLiteral("1e10"), QStringLiteral("--format"), QStringLiteral("json"),
                 QStringLiteral("--today"), QStringLiteral("2026-11-30")});
        QCOMPARE(big.code, 0);
        const QJsonArray gates = QJsonDocument::fromJson(big.out.toUtf8())
                                     .object()
                                     .value(QStringLiteral("gates"))
                                     .toArray();
        const QJsonObject g2 = gates.at(1).toObject();
        QCOMPARE(g2.value(QStringLiteral("status")).toString(), QStringLiteral("uncertain"));
        QVERIFY2(g2.value(QStringLiteral("reason"))
                     .toString()
                     .contains(QStringLiteral("74.5 GiB per GPU, more than the RTX 4090's 24 GiB")),
                 qPrintable(g2.value(QStringLiteral("reason")).toString()));
    }
    void explainAndRulesReadTheRegistry() {
        const Run rules = cli({QStringLiteral("rules")});
        QCOMPARE(rules.code, 0);
        QVERIFY(rules.out.contains(QStringLiteral("R102")));
        const Run e = cli({QStringLiteral("explain"), QStringLiteral("r102")});
        QCOMPARE(e.code, 0);
        QVERIFY(e.out.contains(QStringLiteral("Use instead")));
    }
    // s11 trial: one missing path among several gave exit 3 and no report. What exists is
    // assessed; the missing path is named under "Files not fully read", the verdict is
    // provisional (so any --fail-on exits 1) and the run otherwise exits 0.
    void missingPathAmongSeveralIsReported() {
        const QString good = QStringLiteral(
            CNREADY_SOURCE_DIR "/tests/fixtures/projects/provisional_syntax/solver.py");
        const Run r = cli({QStringLiteral("assess"), good, QStringLiteral("/no/such/place.py")});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains(QStringLiteral("- `/no/such/place.py` (missing): ")),
                 qPrintable(r.out.left(2000)));
        QVERIFY2(r.out.contains(QStringLiteral("— Provisional: ")), qPrintable(r.out.left(2000)));
        QVERIFY2(r.err.contains(QStringLiteral("/no/such/place.py")), qPrintable(r.err));
        const Run gate = cli({QStringLiteral("assess"), good, QStringLiteral("/no/such/place.py"),
                              QStringLiteral("--fail-on"), QStringLiteral("not-recommended")});
        QCOMPARE(gate.code, 1);
        // The exit codes, this case included, are stated in --help.
        const Run h = cli({QStringLiteral("assess"), QStringLiteral("--help")});
        QVERIFY2(h.out.contains(QStringLiteral("Exit codes:")), qPrintable(h.out));
        QVERIFY2(h.out.contains(QStringLiteral("missing PATH")), qPrintable(h.out));
    }
    // s11 trial: the header said 4 files could not be assessed, the provisional sentence named
    // 3 (the binary file left out, an empty file counted). One list behind both.
    void headerAndProvisionalSentenceCountTheSameFiles() {
        QTemporaryDir dir;
        auto write = [&](const char* name, const QByteArray& bytes) {
            QFile f(dir.filePath(QLatin1String(name)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        };
        write("good.py", "import numpy as np\n\ndef f(a):\n    for i in range(len(a)):\n"
                         "        a[i] = a[i] * 2\n    return sum(a)\n");
        write("binary.py", QByteArray("\x7f"
                                      "ELF\0\0\0\x01",
                                      8));
        write("empty.py", "");
        write("broken.py", "import numpy as np\nx = np.zeros((3,\n");
        const Run r = cli({QStringLiteral("assess"), dir.path()});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains(QStringLiteral("2 files could not be assessed fully")),
                 qPrintable(r.out.left(1500)));
        QVERIFY2(r.out.contains(QStringLiteral("2 files were not read fully (`binary.py`: binary; "
                                               "`broken.py`: syntax error at line")),
                 qPrintable(r.out.left(3000)));
        QVERIFY2(!r.out.contains(QStringLiteral("`empty.py`: ")), qPrintable(r.out.left(3000)));
        // One parenthesis in the opening line, not two in a row.
        QFile nb(dir.filePath(QStringLiteral("cells.ipynb")));
        QVERIFY(nb.open(QIODevice::WriteOnly));
        nb.write(R"({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [)"
                 R"({"cell_type": "code", "metadata": {}, "source": ["x = 1\n"], )"
                 R"("outputs": [], "execution_count": null}]})");
        nb.close();
        const Run withNotebook = cli({QStringLiteral("assess"), dir.path()});
        QVERIFY2(withNotebook.out.contains(QStringLiteral("read 5 Python files, 1 of them a "
                                                          "notebook (")),
                 qPrintable(withNotebook.out.left(600)));
    }
    // s11 trial: brian2's code templates (`*.py_`) were never read and the report did not say
    // so. Python-like files cnready does not read are counted in the opening part.
    void pythonLikeFilesNotReadAreNamed() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("templates")));
        auto write = [&](const QString& name, const QByteArray& bytes) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        };
        write(QStringLiteral("solver.py"), "import numpy as np\nu = np.zeros(10)\n");
        write(QStringLiteral("templates/step.py_"), "{{ vector_code }}\n");
        write(QStringLiteral("templates/reset.py_"), "{{ reset_code }}\n");
        write(QStringLiteral("fast.pyx"), "def f(double[:] a): pass\n");
        write(QStringLiteral("stub.pyi"), "def f(a): ...\n");
        const Run r = cli({QStringLiteral("assess"), dir.path()});
        QCOMPARE(r.code, 0);
        QVERIFY2(
            r.out.contains(QStringLiteral("3 Python-like files were not read: 2 `.py_` "
                                          "(`templates/reset.py_`, …), 1 `.pyx` (`fast.pyx`)")),
            qPrintable(r.out.left(1500)));
        int headings = 0;
        for (const QString& l : r.out.split(QLatin1Char('\n')))
            headings += l.startsWith(QStringLiteral("## "));
        QCOMPARE(headings, 8);
        const QJsonObject project =
            QJsonDocument::fromJson(cli({QStringLiteral("assess"), dir.path(),
                                         QStringLiteral("--format"), QStringLiteral("json")})
                                        .out.toUtf8())
                .object()
                .value(QStringLiteral("project"))
                .toObject();
        QCOMPARE(project.value(QStringLiteral("notRead")).toArray().size(), 3);
    }
    // A file named on the command line that is missing is an input error (3), for --config as
    // for --manifest; a malformed configuration stays a usage error (2, as --help says).
    void missingNamedFilesExitThree() {
        for (const char* flag : {"--config", "--manifest", "--baseline", "--doctor-report"}) {
            const Run r = cli({QStringLiteral("assess"), kExamples, QLatin1String(flag),
                               QStringLiteral("/no/such/file.toml")});
            QVERIFY2(r.code == 3, qPrintable(QLatin1String(flag) + " -> " + r.err));
            QVERIFY2(r.err.contains(QStringLiteral("/no/such/file.toml")), qPrintable(r.err));
        }
        const Run port = cli({QStringLiteral("port"), kExamples, QStringLiteral("--config"),
                              QStringLiteral("/no/such/file.toml")});
        QCOMPARE(port.code, 3);
        QTemporaryDir dir;
        QFile bad(dir.filePath(QStringLiteral("cnready.toml")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("[tool.cnready\n");
        bad.close();
        QCOMPARE(
            cli({QStringLiteral("assess"), kExamples, QStringLiteral("--config"), bad.fileName()})
                .code,
            2);
    }
    // Qt's own parser messages ("Unknown option 'x'.") read like ours: one line naming the flag
    // and where the options are listed.
    void unknownOptionReadsLikeOurMessages() {
        const struct {
            QStringList args;
            QString line;
        } cases[] = {
            {{QStringLiteral("assess"), kExamples, QStringLiteral("--bogus-flag")},
             QStringLiteral(
                 "cnready: unknown option --bogus-flag (see 'cnready assess --help')\n")},
            {{QStringLiteral("port"), kExamples, QStringLiteral("--bogus")},
             QStringLiteral("cnready: unknown option --bogus (see 'cnready port --help')\n")},
            {{QStringLiteral("assess"), kExamples, QStringLiteral("--gpus")},
             QStringLiteral("cnready: --gpus needs a value (see 'cnready assess --help')\n")},
        };
        for (const auto& c : cases) {
            const Run r = cli(c.args);
            QCOMPARE(r.code, 2);
            QCOMPARE(r.err, c.line);
        }
    }
    // Nothing to rewrite: nothing to apply either.
    void portWithNoRewritesSaysNothingToApply() {
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("loop.py")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        // An element loop: the module is not READY (no import swap) and nothing else rewrites.
        f.write("import numpy as np\n\ndef f(a):\n    for i in range(len(a)):\n"
                "        a[i] = a[i] * 2\n    return a\n");
        f.close();
        const Run r = cli({QStringLiteral("port"), dir.path(), QStringLiteral("--diff")});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.startsWith(QStringLiteral("cnready: 0 rewrite(s)")), qPrintable(r.err));
        QVERIFY2(!r.err.contains(QStringLiteral("git apply")), qPrintable(r.err));
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
