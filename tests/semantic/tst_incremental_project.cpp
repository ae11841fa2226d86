// IncrementalProject (analysis/IncrementalProject.h): after one file of a generated project
// is written, the kept analysis brought up to date gives what a fresh full assessment of the
// same tree gives, finding for finding, gate for gate, in the JSON report byte for byte;
// also when the edit moves a cross-module fact (a parameter an array only through its
// callers, a function that returns an array) in files that were not touched.
#include "CorpusGenerator.h"
#include "analysis/IncrementalProject.h"
#include "analysis/ProjectAnalyzer.h"
#include "analysis/ProjectScanner.h"
#include "assess/Assessment.h"
#include "manifest/Manifest.h"
#include "report/Report.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnready;

namespace {

bool write(const QString& path, const QByteArray& text) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) == text.size();
}

// The solver's parameter `u` is an array only because the driver passes one; `build` returns
// an array its user loops over element by element.
const QByteArray kSolver = R"(def relax(u, steps):
    n = len(u)
    for it in range(steps):
        for i in range(1, n - 1):
            u[i] = 0.5 * (u[i - 1] + u[i + 1])
    return u
)";
const QByteArray kDriverArray = R"(import numpy as np
from xfacts.solver import relax


def main():
    grid = np.zeros(4_000_000)
    return relax(grid, 10)
)";
const QByteArray kDriverList = R"(import numpy as np
from xfacts.solver import relax


def main():
    grid = [0.0, 1.0, 2.0]
    return relax(grid, 10)
)";
const QByteArray kMakeArray = R"(import numpy as np


def build(n):
    return np.zeros(n)
)";
const QByteArray kMakeList = R"(import numpy as np


def build(n):
    return [0.0] * n
)";
const QByteArray kUser = R"(from xfacts.make import build


def use():
    a = build(1000)
    for i in range(len(a)):
        a[i] = a[i] * 2.0
    return a
)";

QStringList findingsOf(const QList<Finding>& list) {
    QStringList out;
    for (const Finding& f : list)
        out << QStringLiteral("%1 %2 %3 %4")
                   .arg(f.range.toString(), f.code, categoryName(f.category), f.message);
    return out;
}

QStringList findingsIn(const ProjectResult& p, const QString& path) {
    QStringList out;
    for (const Finding& f : p.findings)
        if (f.range.path == path)
            out << QStringLiteral("%1 %2").arg(f.range.line).arg(f.code);
    return out;
}

QByteArray jsonReport(const ProjectResult& p) {
    static const Manifest manifest = Manifest::bundled();
    const Assessment a = assess(p, ContextInput{}, manifest, {});
    return renderReport(ReportInput{p, a, manifest, QDate(2026, 12, 1)}, ReportFormat::Json);
}

} // namespace

class TestIncrementalProject : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    IncrementalProject m_kept;
    QString m_generated; ///< one generated module (relative path)

    // The kept analysis after `changed` equals a full run over the tree as it is now.
    void compareWithFullRun(const QStringList& changed, IncrementalProject::UpdateStats* st) {
        const ScanResult scan = scanProject({m_dir.path()});
        const ProjectResult inc = m_kept.update(scan, changed, st);
        const ProjectResult full = analyzeProject(scan);
        QCOMPARE(inc.files.size(), full.files.size());
        QCOMPARE(findingsOf(inc.findings), findingsOf(full.findings));
        QVERIFY(inc.findings == full.findings);
        QVERIFY(inc.offComputePath == full.offComputePath);
        QVERIFY(inc.suppressed == full.suppressed);
        QVERIFY(inc.apiUses == full.apiUses);
        QVERIFY(inc.diagnostics == full.diagnostics);
        QCOMPARE(inc.hotFunctions, full.hotFunctions);
        QCOMPARE(inc.totalLines, full.totalLines);
        QCOMPARE(inc.totalBytes, full.totalBytes);
        // Gates, verdict, context, API gaps: the whole JSON report.
        QCOMPARE(jsonReport(inc), jsonReport(full));
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        bench::CorpusOptions o;
        o.totalLines = 30'000;
        o.linesPerFile = 100;
        QVERIFY(bench::writeCorpus(m_dir.path(), o).files > 200);
        QVERIFY(write(m_dir.filePath(QStringLiteral("xfacts/__init__.py")), ""));
        QVERIFY(write(m_dir.filePath(QStringLiteral("xfacts/solver.py")), kSolver));
        QVERIFY(write(m_dir.filePath(QStringLiteral("xfacts/driver.py")), kDriverArray));
        QVERIFY(write(m_dir.filePath(QStringLiteral("xfacts/make.py")), kMakeArray));
        QVERIFY(write(m_dir.filePath(QStringLiteral("xfacts/user.py")), kUser));
        const ScanResult scan = scanProject({m_dir.path()});
        for (const QString& f : scan.files)
            if (m_generated.isEmpty() && !f.endsWith(QLatin1String("__init__.py")))
                m_generated = f;
        QVERIFY(m_generated.startsWith(QLatin1String("pkg")));
        const ProjectResult first = m_kept.analyzeAll(scan);
        QVERIFY(m_kept.holds(scan.root));
        // The first run is a full run.
        QCOMPARE(findingsOf(first.findings), findingsOf(analyzeProject(scan).findings));
        // The facts are there to be moved: an element loop in the solver and in the user.
        QVERIFY(findingsIn(first, QStringLiteral("xfacts/solver.py"))
                    .contains(QStringLiteral("4 R101")));
        QVERIFY(
            findingsIn(first, QStringLiteral("xfacts/user.py")).contains(QStringLiteral("6 R101")));
    }

    // A local edit: one file analysed, no facts move.
    void localEdit() {
        QFile f(m_dir.filePath(m_generated));
        QVERIFY(f.open(QIODevice::Append));
        f.write("\n\nlate = np.vectorize(abs)\n");
        f.close();
        IncrementalProject::UpdateStats st;
        compareWithFullRun({m_generated}, &st);
        QCOMPARE(st.analysed, 1);
        QCOMPARE(st.factsReanalysed, 0);
    }

    // The driver now passes a list: the solver's parameter is no array any more, and the
    // solver, which nobody touched, loses its element loop.
    void callerMovesAParameterFact() {
        QVERIFY(write(m_dir.filePath(QStringLiteral("xfacts/driver.py")), kDriverList));
        IncrementalProject::UpdateStats st;
        compareWithFullRun({QStringLiteral("xfacts/driver.py")}, &st);
        QCOMPARE(st.analysed, 1);
        QCOMPARE(st.factsReanalysed, 1);
        const ProjectResult p = m_kept.update(m_kept.scan(), {});
        QVERIFY(
            !findingsIn(p, QStringLiteral("xfacts/solver.py")).contains(QStringLiteral("4 R101")));
        // ... and back.
        QVERIFY(write(m_dir.filePath(QStringLiteral("xfacts/driver.py")), kDriverArray));
        compareWithFullRun({QStringLiteral("xfacts/driver.py")}, &st);
        QCOMPARE(st.factsReanalysed, 1);
    }

    // `build` returns a list now: its user's loop is no element loop of an array.
    void calleeMovesAReturnFact() {
        QVERIFY(write(m_dir.filePath(QStringLiteral("xfacts/make.py")), kMakeList));
        IncrementalProject::UpdateStats st;
        compareWithFullRun({QStringLiteral("xfacts/make.py")}, &st);
        QCOMPARE(st.factsReanalysed, 1);
        const ProjectResult p = m_kept.update(m_kept.scan(), {});
        QVERIFY(
            !findingsIn(p, QStringLiteral("xfacts/user.py")).contains(QStringLiteral("6 R101")));
        QVERIFY(write(m_dir.filePath(QStringLiteral("xfacts/make.py")), kMakeArray));
        compareWithFullRun({QStringLiteral("xfacts/make.py")}, &st);
        QCOMPARE(st.factsReanalysed, 1);
    }

    // A new module (a second caller that passes a list) and a removed one.
    void addedAndRemovedFiles() {
        QVERIFY(write(m_dir.filePath(QStringLiteral("xfacts/second.py")),
                      "from xfacts.solver import relax\n\n\ndef again():\n"
                      "    return relax([1.0, 2.0], 3)\n"));
        IncrementalProject::UpdateStats st;
        compareWithFullRun({}, &st);
        QCOMPARE(st.analysed, 1);
        // The solver loses its array parameter, the driver the array `relax` returned.
        QCOMPARE(st.factsReanalysed, 2);
        QVERIFY(QFile::remove(m_dir.filePath(QStringLiteral("xfacts/second.py"))));
        QVERIFY(QFile::remove(m_dir.filePath(m_generated)));
        compareWithFullRun({}, &st);
        QCOMPARE(st.removed, 2);
        QCOMPARE(st.analysed, 0);
        // Both get them back; nothing else of the project is read.
        QCOMPARE(st.factsReanalysed, 2);
    }
};

QTEST_GUILESS_MAIN(TestIncrementalProject)
#include "tst_incremental_project.moc"
