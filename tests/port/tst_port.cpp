// The port preview (core/port, `cnready port`): every rewrite fires where it is safe and stays
// silent where it is not, with exact expected diffs; and the diff test of issue 18: the printed
// diff applies with `git apply` on a copy of a fixture project, and the copy assesses with the
// findings it claims to fix gone and no new BLOCKS / REFACTOR / INFO finding.
#include "analysis/ProjectAnalyzer.h"
#include "manifest/Manifest.h"
#include "port/PortPlan.h"

#include <QDirIterator>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "../common/WriteFile.h"

using namespace cnready;

namespace {

using test::writeFile;

// The diff of a one-module project holding `source` as mod.py.
QByteArray diffOf(const QByteArray& source, const QString& name = QStringLiteral("mod.py")) {
    QTemporaryDir dir;
    writeFile(dir.path() + QLatin1Char('/') + name, source);
    const ProjectResult project = analyzeProject(scanProject({dir.path()}));
    return renderPortDiff(planPort(project, Manifest::bundled()));
}

// Runs a program; returns its exit code, stdout in `out`.
int run(const QString& program, const QStringList& args, const QString& cwd,
        QByteArray* out = nullptr, QByteArray* err = nullptr) {
    QProcess p;
    p.setWorkingDirectory(cwd);
    p.start(program, args);
    if (!p.waitForFinished(120'000))
        return -1;
    if (out)
        *out = p.readAllStandardOutput();
    if (err)
        *err = p.readAllStandardError();
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

// Findings other than SCALES as "path:line CODE", sorted: the counted ones, or (`noOps`) the
// notes of keywords that change nothing (PathRole::NoOp), which the port removes as well.
QStringList countedFindings(const QString& root, bool noOps = false) {
    const ProjectResult r = analyzeProject(scanProject({root}));
    QStringList out;
    for (const Finding& f : noOps ? r.offComputePath : r.findings)
        if (f.category != Category::Scales && (!noOps || f.pathRole == PathRole::NoOp))
            out << QStringLiteral("%1:%2 %3").arg(f.range.path).arg(f.range.line).arg(f.code);
    out.sort();
    return out;
}

const QByteArray kHeader = "import numpy as np\n\nN = 16_000_000\n\n\n";

} // namespace

class TestPort : public QObject {
    Q_OBJECT

private slots:
    void builtinSumOnVectorBecomesNpSum() {
        const QByteArray src = kHeader + "def f():\n    a = np.ones(N)\n    "
                                         "for i in range(N):\n        a[i] = i\n"
                                         "    return sum(a)\n";
        QCOMPARE(diffOf(src), QByteArray("# cnready port: mod.py fixes R110; keeps import "
                                         "numpy: the module's verdict is LIGHT REFACTOR after "
                                         "these fixes; the swap needs READY\n"
                                         "diff --git a/mod.py b/mod.py\n"
                                         "--- a/mod.py\n+++ b/mod.py\n"
                                         "@@ -7,4 +7,4 @@\n"
                                         "     a = np.ones(N)\n"
                                         "     for i in range(N):\n"
                                         "         a[i] = i\n"
                                         "-    return sum(a)\n"
                                         "+    return np.sum(a)\n"));
    }
    void builtinMaxOnUnknownRankStaysSilent() {
        // A parameter annotated as an array: rank unknown, so max() compares rows.
        const QByteArray src = "import numpy as np\n\n\ndef f(a: np.ndarray):\n"
                               "    for i in range(len(a)):\n        a[i] = i\n"
                               "    return max(a)\n";
        QVERIFY2(!diffOf(src).contains("np.max"), diffOf(src).constData());
    }
    void builtinSumOnUnknownRankKeepsItsMeaning() {
        const QByteArray src = "import numpy as np\n\n\ndef f(a: np.ndarray):\n"
                               "    for i in range(len(a)):\n        a[i] = i\n"
                               "    return sum(a)\n";
        QVERIFY2(diffOf(src).contains("+    return np.sum(a, axis=0)\n"), diffOf(src).constData());
    }
    void defaultOrderRemoved() {
        const QByteArray src = kHeader + "def f(a):\n    return np.zeros((N, 3), order=\"C\")\n";
        QVERIFY2(diffOf(src).contains("-    return np.zeros((N, 3), order=\"C\")\n"
                                      "+    return np.zeros((N, 3))\n"),
                 diffOf(src).constData());
    }
    void asarrayNoneOrderRemoved() {
        const QByteArray src = kHeader + "def f(a):\n    return np.asarray(a, order=None)\n";
        QVERIFY2(diffOf(src).contains("+    return np.asarray(a)\n"), diffOf(src).constData());
    }
    void nonDefaultOrderStays() {
        // 'F' is a layout request; 'C' on np.array is not its default ('K').
        const QByteArray src = kHeader + "def f(a):\n    b = np.asarray(a, order=\"F\")\n"
                                         "    return np.array(b, order=\"C\")\n";
        QVERIFY2(!diffOf(src).contains("fixes R109"), diffOf(src).constData());
    }
    void rebindBecomesInPlace() {
        const QByteArray src = kHeader + "def f(steps):\n    pos = np.zeros(N)\n"
                                         "    vel = np.ones(N)\n    for t in range(steps):\n"
                                         "        pos = pos + 0.5 * vel\n    return pos\n";
        QVERIFY2(diffOf(src).contains("-        pos = pos + 0.5 * vel\n"
                                      "+        pos += 0.5 * vel\n"),
                 diffOf(src).constData());
    }
    void rebindThatWouldChangeTheResultStays_data() {
        QTest::addColumn<QByteArray>("body");
        // Broadcasting to a larger shape: `acc += grid` would raise.
        QTest::newRow("broadcast")
            << QByteArray("    acc = np.zeros(N)\n    grid = np.ones((3, N))\n"
                          "    for t in range(steps):\n"
                          "        acc = acc + grid\n    return acc\n");
        // float32 plus float64 is float64; in place it would stay float32.
        QTest::newRow("float32") << QByteArray("    a = np.zeros(N, dtype=np.float32)\n"
                                               "    for t in range(steps):\n"
                                               "        a = a + 1.0\n    return a\n");
        // A complex operand makes a complex result; in place it would raise.
        QTest::newRow("complex") << QByteArray("    a = np.zeros(N)\n    for t in range(steps):\n"
                                               "        a = a + 1j\n    return a\n");
        // `np.array(src, copy=False)` may be `src` itself: the caller would see the update.
        QTest::newRow("no copy") << QByteArray("    x = np.array(src, dtype=float, copy=False)\n"
                                               "    for t in range(steps):\n"
                                               "        x = x + 1.0\n    return x\n");
        // `out=x` hands back x under another name.
        QTest::newRow("out alias")
            << QByteArray("    x = np.zeros(N)\n    z = np.negative(x, out=x)\n"
                          "    for t in range(steps):\n"
                          "        x = x + 1.0\n    return z\n");
    }
    void rebindThatWouldChangeTheResultStays() {
        QFETCH(QByteArray, body);
        const QByteArray src = kHeader + "def f(src, steps):\n" + body;
        QVERIFY2(!diffOf(src).contains("+="), diffOf(src).constData());
    }
    void rebindByANumberBecomesInPlace() {
        const QByteArray src = kHeader + "def f(steps):\n    x = np.zeros(N)\n"
                                         "    for t in range(steps):\n"
                                         "        x = x * 0.5\n    return x\n";
        QVERIFY2(diffOf(src).contains("+        x *= 0.5\n"), diffOf(src).constData());
    }
    void rebindOfParameterStays() {
        const QByteArray src = kHeader + "def f(pos, vel, steps):\n    vel = np.ones(N)\n"
                                         "    for t in range(steps):\n"
                                         "        pos = pos + 0.5 * vel\n    return pos\n";
        QVERIFY2(!diffOf(src).contains("+="), diffOf(src).constData());
    }
    void rebindOfAliasedNameStays() {
        const QByteArray src = kHeader + "def f(steps):\n    pos = np.zeros(N)\n"
                                         "    start = pos\n    vel = np.ones(N)\n"
                                         "    for t in range(steps):\n"
                                         "        pos = pos + 0.5 * vel\n    return pos, start\n";
        QVERIFY2(!diffOf(src).contains("+="), diffOf(src).constData());
    }
    void rebindOfIntegerArrayStays() {
        const QByteArray src = kHeader + "def f(steps):\n    pos = np.zeros(N, dtype=np.int64)\n"
                                         "    vel = np.ones(N)\n    for t in range(steps):\n"
                                         "        pos = pos + 0.5 * vel\n    return pos\n";
        QVERIFY2(!diffOf(src).contains("+="), diffOf(src).constData());
    }
    void importSwapOnlyForReadyModules() {
        const QByteArray ready =
            kHeader + "def f(a):\n    return np.zeros((N, 3), order=\"C\") * np.ones((N, 3))\n";
        QVERIFY(diffOf(ready).contains("-import numpy as np\n+import cupynumeric as np\n"));
        QVERIFY(diffOf(ready).contains("import numpy -> cupynumeric (module READY after these "
                                       "fixes)"));
        // An element loop is left (R101): not READY, no swap, the other fix still shown.
        const QByteArray notReady = ready +
                                    "\n\ndef g(u: np.ndarray):\n    for i in range(len(u)):\n"
                                    "        u[i] = u[i] * 2.0\n    return u\n";
        QVERIFY(diffOf(notReady).contains("fixes R109; keeps import numpy: the module's verdict "
                                          "is LIGHT REFACTOR after these fixes; the swap needs "
                                          "READY\n"));
        QVERIFY(!diffOf(notReady).contains("cupynumeric"));
        // A test module keeps host NumPy as its reference.
        QVERIFY(!diffOf(ready, QStringLiteral("test_mod.py")).contains("cupynumeric"));
        // A NumPy name the manifest marks not implemented, used without a call, would raise
        // AttributeError under cuPyNumeric: no swap.
        const QByteArray missingName = ready + "\n\nWIDE = np.longdouble\n";
        QVERIFY2(!diffOf(missingName).contains("cupynumeric"), diffOf(missingName).constData());
        // A module with no array work on the compute path (a plotting helper, a driver that
        // only builds labels) gains nothing from the swap.
        const QByteArray noWork = "import numpy as np\n\n\ndef label(freqs):\n"
                                  "    return [str(f) for f in freqs]\n";
        QVERIFY2(!diffOf(noWork).contains("cupynumeric"), diffOf(noWork).constData());
        QVERIFY2(diffOf(noWork).contains("keeps import numpy: no whole-array work on the compute "
                                         "path"),
                 diffOf(noWork).constData());
        // A module that tests types against NumPy's own would change what it does: arrays from
        // host libraries no longer match `np.ndarray` once the name means cuPyNumeric's type.
        const QByteArray typeTest = ready + "\n\ndef h(x):\n    return isinstance(x, np.ndarray)\n";
        QVERIFY2(!diffOf(typeTest).contains("cupynumeric"), diffOf(typeTest).constData());
        QVERIFY2(diffOf(typeTest).contains("keeps import numpy: it names NumPy's own types"),
                 diffOf(typeTest).constData());
        // An annotation tests nothing: the swap stays.
        const QByteArray annotated = ready + "\n\ndef h(x: np.ndarray) -> np.ndarray:\n"
                                             "    return x * 2.0\n";
        QVERIFY2(diffOf(annotated).contains("+import cupynumeric as np\n"),
                 diffOf(annotated).constData());
        // Nor does a plotting module, whatever arithmetic it does.
        QVERIFY(!diffOf(ready, QStringLiteral("plotting.py")).contains("cupynumeric"));
    }
    void notebooksAreSkippedWithALine() {
        const QByteArray nb =
            "{\"nbformat\": 4, \"nbformat_minor\": 5, \"metadata\": {}, \"cells\": ["
            "{\"cell_type\": \"code\", \"metadata\": {}, \"source\": [\"import numpy as np\\n\", "
            "\"a = np.zeros((16000000, 3), order='C')\\n\"], \"outputs\": [], "
            "\"execution_count\": null}]}";
        const QByteArray d = diffOf(nb, QStringLiteral("demo.ipynb"));
        QVERIFY2(d.startsWith("# cnready port: demo.ipynb skipped: notebooks are not rewritten"),
                 d.constData());
        QVERIFY(!d.contains("diff --git"));
    }
    // Nothing to rewrite: no diff, only the line that says why the import stays.
    void nothingToRewriteSaysWhyTheImportStays() {
        const QByteArray d =
            diffOf("import numpy as np\n\n\ndef f(u: np.ndarray):\n    for i in range(len(u)):\n"
                   "        u[i] = u[i] * 2.0\n    return u\n");
        QCOMPARE(d, QByteArray("# cnready port: mod.py keeps import numpy: the module's verdict is "
                               "LIGHT REFACTOR; the swap needs READY\n"));
        QCOMPARE(diffOf("def f(u):\n    return [x * 2 for x in u]\n"), QByteArray());
    }

    // Issue 18, "Must show": the diff test.
    void diffAppliesAndRemovesTheFindings() {
        if (QStandardPaths::findExecutable(QStringLiteral("git")).isEmpty())
            QSKIP("git is not installed");
        QTemporaryDir dir;
        const QString from = QStringLiteral(CNREADY_FIXTURES_DIR "/projects/port_mechanical");
        const QString root = dir.path() + QStringLiteral("/project");
        QDirIterator it(from, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString f = it.next();
            const QString to = root + QLatin1Char('/') + QDir(from).relativeFilePath(f);
            QDir().mkpath(QFileInfo(to).absolutePath());
            QVERIFY(QFile::copy(f, to));
        }
        QCOMPARE(run(QStringLiteral("git"), {QStringLiteral("init"), QStringLiteral("-q")}, root),
                 0);
        const QStringList before = countedFindings(root);
        const QStringList notesBefore = countedFindings(root, true);

        QByteArray diff, err;
        QCOMPARE(run(QStringLiteral(CNREADY_CLI_PATH),
                     {QStringLiteral("port"), root, QStringLiteral("--diff")}, root, &diff, &err),
                 0);
        QVERIFY2(diff.contains("# cnready port: pkg/sim.py fixes R109, R110, R202; import numpy "
                               "-> cupynumeric (module READY after these fixes)\n"),
                 diff.constData());
        QVERIFY2(diff.contains("# cnready port: pkg/layout.py fixes R109; keeps import numpy: "
                               "the module's verdict is LIGHT REFACTOR after these fixes; the "
                               "swap needs READY\n"),
                 diff.constData());
        const QString patch = dir.path() + QStringLiteral("/port.diff");
        writeFile(patch, diff);
        QByteArray out;
        QCOMPARE(run(QStringLiteral("git"),
                     {QStringLiteral("apply"), QStringLiteral("--check"), patch}, root, &out, &err),
                 0);
        QCOMPARE(run(QStringLiteral("git"), {QStringLiteral("apply"), patch}, root, &out, &err), 0);

        // What the diff claims: the sites of its rewrites, "path:line CODE": counted findings,
        // and the default-order keywords, notes that count for nothing but go all the same.
        const QStringList claimed = {QStringLiteral("pkg/sim.py:10 R202"),
                                     QStringLiteral("pkg/sim.py:13 R110")};
        const QStringList claimedNotes = {QStringLiteral("pkg/layout.py:6 R109"),
                                          QStringLiteral("pkg/sim.py:11 R109"),
                                          QStringLiteral("pkg/sim.py:12 R109")};
        for (const QString& c : claimed)
            QVERIFY2(before.contains(c), qPrintable(c + QStringLiteral(" was not found before")));
        QCOMPARE(notesBefore, claimedNotes);
        QStringList expected = before;
        for (const QString& c : claimed)
            expected.removeOne(c);
        QCOMPARE(countedFindings(root), expected);
        QCOMPARE(countedFindings(root, true), QStringList());

        // A second preview of the ported copy has nothing left to do in pkg/sim.py.
        QCOMPARE(run(QStringLiteral(CNREADY_CLI_PATH),
                     {QStringLiteral("port"), root, QStringLiteral("--diff")}, root, &diff, &err),
                 0);
        QVERIFY2(!diff.contains("pkg/sim.py"), diff.constData());
    }

    void cliExitCodes() {
        QByteArray out, err;
        QCOMPARE(run(QStringLiteral(CNREADY_CLI_PATH), {QStringLiteral("port")}, QDir::tempPath(),
                     &out, &err),
                 2);
        QCOMPARE(run(QStringLiteral(CNREADY_CLI_PATH),
                     {QStringLiteral("port"), QStringLiteral("/no/such/folder")}, QDir::tempPath(),
                     &out, &err),
                 3);
        QCOMPARE(err, QByteArray("cnready: no such file or folder: /no/such/folder\n"));
        QCOMPARE(run(QStringLiteral(CNREADY_CLI_PATH),
                     {QStringLiteral("port"), QStringLiteral("--help")}, QDir::tempPath(), &out),
                 0);
        QVERIFY(out.startsWith("Usage: cnready port"));
        QVERIFY(out.contains("--diff"));
    }

    void onlyTakesAnAbsolutePathInsideTheProject() {
        QTemporaryDir dir;
        writeFile(dir.path() + QStringLiteral("/mod.py"),
                  kHeader + "def total(x: np.ndarray):\n    v = np.zeros(N)\n    return sum(v)\n");
        QByteArray rel, abs, err;
        QCOMPARE(run(QStringLiteral(CNREADY_CLI_PATH),
                     {QStringLiteral("port"), dir.path(), QStringLiteral("--only"),
                      QStringLiteral("mod.py")},
                     dir.path(), &rel, &err),
                 0);
        QCOMPARE(run(QStringLiteral(CNREADY_CLI_PATH),
                     {QStringLiteral("port"), dir.path(), QStringLiteral("--only"),
                      dir.path() + QStringLiteral("/mod.py")},
                     dir.path(), &abs, &err),
                 0);
        QVERIFY(rel.contains("np.sum"));
        QCOMPARE(abs, rel);
        // Outside the project it is still refused.
        QCOMPARE(run(QStringLiteral(CNREADY_CLI_PATH),
                     {QStringLiteral("port"), dir.path(), QStringLiteral("--only"),
                      QStringLiteral("/etc/hostname")},
                     dir.path(), &abs, &err),
                 2);
    }
};

QTEST_GUILESS_MAIN(TestPort)
#include "tst_port.moc"
