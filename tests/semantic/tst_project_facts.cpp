// The project's parameter facts (ProjectAnalyzer's applyParameterFacts): what a file exports
// for them, which facts the fixture project yields, that they change the findings, and that
// the result does not depend on thread timing. The findings themselves are checked line by
// line by tst_rule_fixtures on tests/fixtures/rules/xmod_parameter_facts.
#include "analysis/FileAnalyzer.h"
#include "analysis/MemoryBudget.h"
#include "analysis/ProjectAnalyzer.h"
#include "analysis/ProjectScanner.h"
#include "model/ProjectResult.h"

#include <QtTest>

using namespace cnready;

namespace {

const QString kFixture = QStringLiteral(CNREADY_FIXTURES_DIR "/rules/xmod_parameter_facts");

QStringList blocksAt(const ProjectResult& p, const QString& path) {
    QStringList out;
    for (const Finding& f : p.findings)
        if (f.range.path == path && f.category == Category::Blocks)
            out << QStringLiteral("%1:%2").arg(f.range.line).arg(f.code);
    out.sort();
    return out;
}

} // namespace

class TestProjectFacts : public QObject {
    Q_OBJECT
private slots:
    void exportsOpenParametersAndArgumentKinds() {
        const FileResult r = analyzeSource(QStringLiteral("pkg/m.py"), QByteArrayLiteral(R"(
import numpy as np
from pkg.solver import relax

def f(a, b: np.ndarray, c=1.0, shape=None, *, d):
    return a, b, c, shape, d

def g(x):
    return x.shape

def run(q):
    grid = np.zeros(4)
    relax(grid, [1, 2], q, *q)
    relax(grid, k=grid, j=q, i=3)
    relax(q)

class K:
    def m(self, z):
        return z
)"));
        QStringList open;
        for (const OpenParameter& p : r.openParameters)
            open << QStringLiteral("%1(%2@%3").arg(p.function, p.name).arg(p.position);
        // b is annotated, c has a number default, shape is named like one, g's x is used as an
        // array, K.m is a method: only a, d (keyword-only) and run's q stay open.
        QCOMPARE(open, (QStringList{"pkg.m.f(a@0", "pkg.m.f(d@-1", "pkg.m.run(q@0"}));
        QCOMPARE(r.callArguments.size(), r.calls.size());
        QStringList relax;
        for (qsizetype i = 0; i < r.calls.size(); ++i)
            if (r.calls[i].callee == QLatin1String("pkg.solver.relax")) {
                const CallArguments& a = r.callArguments[i];
                relax << QStringLiteral("%1/%2/%3/%4/%5")
                             .arg(a.arrayArgs)
                             .arg(a.otherArgs)
                             .arg(a.positional)
                             .arg(a.splat)
                             .arg(a.keywords);
            }
        QCOMPARE(relax, (QStringList{"1/2/3/1/", "1/0/1/0/Ak,Uj,Oi", "0/0/1/0/"}));
    }

    void fixtureFactsAndRounds() {
        const ScanResult scan = scanProject({kFixture});
        QList<FileResult> files;
        for (const QString& rel : scan.files)
            files << analyzeFile(scan.root, rel);
        MemoryBudget budget(0);
        // relax(u), python_sum(a), by_keyword(values), outer(v) in the first round; inner(w)
        // in the second, once outer's v is an array that it passes on.
        QCOMPARE(applyParameterFacts(scan.root, files, {}, budget), 5);
        for (const FileResult& f : files) {
            QVERIFY(f.callArguments.isEmpty());
            QVERIFY(f.openParameters.isEmpty());
        }
        const ProjectResult p = mergeFileResults(scan.root, files);
        QCOMPARE(blocksAt(p, QStringLiteral("pkg/kernels.py")), QStringList{"5:R110"});
    }

    void withoutFactsTheSolverLooksClean() {
        // The same files merged without the pass: the solver's loops are not seen as array
        // code (this is what the facts add).
        const ScanResult scan = scanProject({kFixture});
        QList<FileResult> files;
        for (const QString& rel : scan.files)
            files << analyzeFile(scan.root, rel);
        const ProjectResult before = mergeFileResults(scan.root, files);
        QCOMPARE(blocksAt(before, QStringLiteral("pkg/solver.py")), QStringList{});
        const ProjectResult after = analyzeProject(scan);
        QCOMPARE(blocksAt(after, QStringLiteral("pkg/solver.py")),
                 (QStringList{"11:R101", "13:R104", "22:R101"}));
    }

    void sameResultOnOneThreadAndMany() {
        const ScanResult scan = scanProject({kFixture});
        const ProjectResult many = analyzeProject(scan);
        const int threads = QThreadPool::globalInstance()->maxThreadCount();
        QThreadPool::globalInstance()->setMaxThreadCount(1);
        const ProjectResult one = analyzeProject(scan);
        QThreadPool::globalInstance()->setMaxThreadCount(threads);
        QCOMPARE(one.findings, many.findings);
        QCOMPARE(one.apiUses, many.apiUses);
    }
};

QTEST_GUILESS_MAIN(TestProjectFacts)
#include "tst_project_facts.moc"
