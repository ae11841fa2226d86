// The project's facts (analysis/ProjectFacts.h): the per-function summaries a file exports,
// the facts the fixture projects yield when solved over them, that they change the findings,
// and that the result does not depend on thread timing. The findings themselves are checked
// line by line by tst_rule_fixtures on tests/fixtures/rules/xmod_parameter_facts and
// xmod_returns.
#include "analysis/FileAnalyzer.h"
#include "analysis/MemoryBudget.h"
#include "analysis/ProjectAnalyzer.h"
#include "analysis/ProjectFacts.h"
#include "analysis/ProjectScanner.h"
#include "model/ProjectResult.h"

#include <QtTest>

using namespace cnready;

namespace {

const QString kFixture = QStringLiteral(CNREADY_FIXTURES_DIR "/rules/xmod_parameter_facts");
const QString kReturns = QStringLiteral(CNREADY_FIXTURES_DIR "/rules/xmod_returns");

QString valueText(const SummaryValue& v) {
    switch (v.kind) {
    case SummaryValue::Kind::Array:
        return v.shape.isEmpty() ? QStringLiteral("array") : QStringLiteral("array") + v.shape;
    case SummaryValue::Kind::Module:
        return QStringLiteral("module");
    case SummaryValue::Kind::Other:
        return QStringLiteral("other");
    case SummaryValue::Kind::Parameter:
        return QStringLiteral("param%1").arg(v.parameter);
    case SummaryValue::Kind::CallResult:
        return QStringLiteral("call ") + v.callee;
    case SummaryValue::Kind::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

// "name(p:use,...) -> returns; callee[args|kw=value]; ..."
QString describe(const FunctionSummary& s) {
    static const char* uses[] = {"closed", "open", "array", "module"};
    QStringList params;
    for (const SummaryParameter& p : s.parameters)
        params << p.name + QLatin1Char(':') + QLatin1String(uses[int(p.use)]);
    QString out = s.qualifiedName + QLatin1Char('(') + params.join(QLatin1Char(',')) +
                  QStringLiteral(") -> ") + valueText(s.returns);
    for (const SummaryCall& c : s.calls) {
        QStringList args;
        for (const SummaryValue& v : c.positional)
            args << valueText(v);
        QStringList kws;
        for (const auto& [k, v] : c.keywords)
            kws << k + QLatin1Char('=') + valueText(v);
        out += QStringLiteral("; ") + c.callee + QLatin1Char('[') + args.join(QLatin1Char(',')) +
               (kws.isEmpty() ? QString() : QLatin1Char('|') + kws.join(QLatin1Char(','))) +
               (c.splat ? QStringLiteral(",*") : QString()) + QLatin1Char(']');
    }
    return out;
}

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
    void exportsSummaries() {
        const FileResult r = analyzeSource(QStringLiteral("pkg/m.py"), QByteArrayLiteral(R"(
import numpy as np
from pkg.solver import relax

def f(a, b: np.ndarray, lib, *, d):
    y = lib.zeros(3)
    return relax(b, a, 3, [1], y, k=np)

def g(x, shape=None):
    return 2.0 * x

class K:
    def m(self, z):
        return np.zeros_like(z)
)"));
        QStringList got;
        for (const FunctionSummary& s : r.summaries)
            got << describe(s);
        // b is annotated, a/lib/d are left to the project (lib is read like a module but no
        // call passes it one yet); shape is named like one; K.m is a method: its parameter
        // stays closed, and its result has the shape of its first written argument.
        QCOMPARE(got, (QStringList{
                          "pkg.m.f(a:open,b:array,lib:open,d:open) -> call pkg.solver.relax; "
                          "pkg.solver.relax[array,param0,other,other,unknown|k=module]",
                          "pkg.m.g(x:open,shape:closed) -> param0",
                          "pkg.m.K.m(self:closed,z:closed) -> array=0",
                          "() -> unknown",
                      }));
        QCOMPARE(r.reexports,
                 (QList<std::pair<QString, QString>>{
                     {QStringLiteral("pkg.m.relax"), QStringLiteral("pkg.solver.relax")}}));
    }

    void fixtureFactsInOnePass() {
        // relax(u), python_sum(a), by_keyword(values), outer(v), and inner(w), which outer
        // passes its own parameter on to: solved on the summaries, no second round of files.
        const ScanResult scan = scanProject({kFixture});
        QList<FileResult> files;
        for (const QString& rel : scan.files)
            files << analyzeFile(scan.root, rel);
        QStringList keys;
        for (const auto& [file, facts] : solveProjectFacts(files))
            for (const QString& k : facts.arrayParameters)
                keys << k;
        keys.sort();
        QCOMPARE(keys, (QStringList{"pkg.chain.outer(v", "pkg.kernels.inner(w",
                                    "pkg.mixed.by_keyword(values", "pkg.solver.python_sum(a",
                                    "pkg.solver.relax(u"}));
        MemoryBudget budget(0);
        QCOMPARE(applyProjectFacts(scan.root, files, {}, budget), 5);
        for (const FileResult& f : files) {
            QVERIFY(f.summaries.isEmpty());
            QVERIFY(f.reexports.isEmpty());
        }
        const ProjectResult p = mergeFileResults(scan.root, files);
        QCOMPARE(blocksAt(p, QStringLiteral("pkg/kernels.py")), QStringList{"5:R110"});
    }

    void returnsAcrossModules() {
        const ScanResult scan = scanProject({kReturns});
        QList<FileResult> files;
        for (const QString& rel : scan.files)
            files << analyzeFile(scan.root, rel);
        QStringList got;
        for (const auto& [file, facts] : solveProjectFacts(files)) {
            QStringList keys(facts.arrayParameters.begin(), facts.arrayParameters.end());
            for (const QString& k : facts.moduleParameters)
                keys << k + QStringLiteral(" module");
            for (auto it = facts.arrayReturns.cbegin(); it != facts.arrayReturns.cend(); ++it)
                keys << it.key() + QStringLiteral(" returns ") + it.value();
            keys.sort();
            got << files[file].path + QStringLiteral(": ") + keys.join(QStringLiteral("; "));
        }
        // energy through the package's re-export, kinetic because its parameter is an array,
        // Solver.step as a method of an instance (of no shape the engine can say: `+ self.n`);
        // fill's `lib` is the module main.py passes. "=0": the shape of the first argument.
        QCOMPARE(got, (QStringList{
                          "main.py: pkg.energy returns =0; pkg.physics.kinetic returns =0; "
                          "pkg.solver.Solver.step returns ",
                          "pkg/kernels.py: pkg.kernels.fill(lib module",
                          "pkg/physics.py: pkg.physics.kinetic(v",
                      }));
        // Without the facts the same files see none of it.
        const ProjectResult before = mergeFileResults(scan.root, files);
        QCOMPARE(blocksAt(before, QStringLiteral("main.py")), QStringList{});
        QCOMPARE(blocksAt(before, QStringLiteral("pkg/kernels.py")), QStringList{});
        const ProjectResult after = analyzeProject(scan);
        QCOMPARE(blocksAt(after, QStringLiteral("main.py")),
                 (QStringList{"16:R101", "19:R110", "22:R103"}));
        QCOMPARE(blocksAt(after, QStringLiteral("pkg/kernels.py")), QStringList{"4:R101"});
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
