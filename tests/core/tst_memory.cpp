// Memory-saving steps of the project analysis keep values and order: StringPool shares equal
// strings between results, the merge moves findings and API uses into the project lists, and
// the assessment's counted findings share the project's list instead of copying it.
#include "analysis/FileAnalyzer.h"
#include "analysis/MemoryBudget.h"
#include "analysis/ProjectAnalyzer.h"
#include "assess/Assessment.h"
#include "manifest/Manifest.h"
#include "model/ProjectResult.h"
#include "model/StringPool.h"

#include <QTemporaryDir>
#include <QThread>

#include <QtTest>
#include <atomic>

using namespace cnready;

namespace {

Finding finding(const QString& path, int line, const QString& function, const QString& message) {
    Finding f;
    f.code = QStringLiteral("R101");
    f.category = Category::Blocks;
    f.range = SourceRange{path, line, 1, line, 10};
    f.function = function;
    f.message = message;
    f.snippet = QStringLiteral("for i in range(n):");
    return f;
}

// A string built at run time, so that two calls give two separate heap blocks.
QString fresh(const char* text) {
    return QString::fromUtf8(QByteArray(text));
}

} // namespace

class TestMemory : public QObject {
    Q_OBJECT
private slots:
    void poolSharesEqualStrings() {
        FileResult a, b;
        a.path = fresh("pkg/a.py");
        b.path = fresh("pkg/b.py");
        a.findings << finding(a.path, 3, fresh("step"), fresh("element loop over `u`"));
        b.findings << finding(b.path, 7, fresh("step"), fresh("element loop over `u`"));
        ApiUse u;
        u.name = fresh("numpy.linalg.norm");
        u.range = SourceRange{a.path, 4, 5, 4, 20};
        a.apiUses << u;
        u.name = fresh("numpy.linalg.norm");
        b.apiUses << u;
        QVERIFY(a.findings[0].function.constData() != b.findings[0].function.constData());

        StringPool pool;
        pool.compact(a);
        pool.compact(b);
        QCOMPARE(b.findings[0].function.constData(), a.findings[0].function.constData());
        QCOMPARE(b.findings[0].message.constData(), a.findings[0].message.constData());
        QCOMPARE(b.findings[0].snippet.constData(), a.findings[0].snippet.constData());
        QCOMPARE(b.apiUses[0].name.constData(), a.apiUses[0].name.constData());
        // Values are unchanged.
        QCOMPARE(a.findings[0], finding(QStringLiteral("pkg/a.py"), 3, QStringLiteral("step"),
                                        QStringLiteral("element loop over `u`")));
        QCOMPARE(b.findings[0].range.path, QStringLiteral("pkg/b.py"));
        QCOMPARE(b.apiUses[0].name, QStringLiteral("numpy.linalg.norm"));
        // step, message, snippet, R101, two paths, the API name.
        QCOMPARE(pool.size(), qsizetype(7));
    }

    void poolKeepsNullAndEmptyApart() {
        FileResult r;
        r.findings << finding(QStringLiteral("m.py"), 1, QString(), QStringLiteral("x"));
        r.findings << finding(QStringLiteral("m.py"), 2, QStringLiteral(""), QStringLiteral("x"));
        StringPool pool;
        pool.compact(r);
        QVERIFY(r.findings[0].function.isNull());
        QVERIFY(!r.findings[1].function.isNull());
        QVERIFY(r.findings[1].function.isEmpty());
    }

    void poolTrimsSpareCapacity() {
        FileResult r;
        QString snippet = QStringLiteral("    x = np.zeros(n)    ").repeated(40);
        snippet.truncate(12); // keeps the long block
        QVERIFY(snippet.capacity() > 100);
        Finding f = finding(QStringLiteral("m.py"), 1, QString(), QStringLiteral("x"));
        f.snippet = snippet;
        snippet.clear();
        r.findings.reserve(100);
        r.findings << f;
        f = {};
        StringPool pool;
        pool.compact(r);
        QCOMPARE(r.findings[0].snippet, QStringLiteral("    x = np.z"));
        QCOMPARE(r.findings[0].snippet.capacity(), r.findings[0].snippet.size());
        QCOMPARE(r.findings.capacity(), qsizetype(1));
    }

    void mergeMovesFindingsAndApiUsesIntoTheProjectLists() {
        FileResult a, b;
        a.path = QStringLiteral("b_mod.py");
        a.moduleName = QStringLiteral("b_mod");
        b.path = QStringLiteral("a_mod.py");
        b.moduleName = QStringLiteral("a_mod");
        a.findings << finding(a.path, 2, QStringLiteral("f"), QStringLiteral("one"));
        Finding conditional = finding(a.path, 5, QStringLiteral("g"), QStringLiteral("two"));
        conditional.requiresHotFunction = QStringLiteral("b_mod.g");
        a.findings << conditional;
        Finding dropped = finding(a.path, 9, QStringLiteral("h"), QStringLiteral("three"));
        dropped.requiresHotFunction = QStringLiteral("b_mod.h");
        a.findings << dropped;
        a.functions << FunctionInfo{QStringLiteral("b_mod.g"), SourceRange{a.path, 4, 1, 6, 1},
                                    false};
        a.functions << FunctionInfo{QStringLiteral("b_mod.h"), SourceRange{a.path, 8, 1, 9, 1},
                                    false};
        b.calls << CallSite{QString(), QStringLiteral("b_mod.g"), true, 3};
        b.findings << finding(b.path, 1, QString(), QStringLiteral("four"));
        ApiUse u;
        u.name = QStringLiteral("numpy.std");
        u.range = SourceRange{a.path, 5, 1, 5, 9};
        u.function = QStringLiteral("g");
        u.requiresHotFunction = QStringLiteral("b_mod.g");
        a.apiUses << u;

        const ProjectResult p = mergeFileResults(QStringLiteral("/r"), {a, b});
        QCOMPARE(p.files.size(), qsizetype(2));
        QCOMPARE(p.files[0].path, QStringLiteral("a_mod.py"));
        for (const FileResult& f : p.files) {
            QVERIFY(f.findings.isEmpty());
            QVERIFY(f.apiUses.isEmpty());
        }
        QCOMPARE(p.findings.size(), qsizetype(3));
        QCOMPARE(p.findings[0].message, QStringLiteral("four"));
        QCOMPARE(p.findings[1].message, QStringLiteral("one"));
        QCOMPARE(p.findings[2].message, QStringLiteral("two"));
        QVERIFY(p.findings[2].hot);
        QVERIFY(!p.findings[1].hot);
        QCOMPARE(p.findings.capacity(), p.findings.size());
        QCOMPARE(p.apiUses.size(), qsizetype(1));
        QVERIFY(p.apiUses[0].hot);
        QCOMPARE(p.files[0].functions.size(), qsizetype(0));
        QCOMPARE(p.files[1].functions.size(), qsizetype(2));
    }

    void projectAnalysisSharesStringsAcrossFiles() {
        QTemporaryDir dir;
        const QByteArray src = "import numpy as np\n\n\ndef step(u):\n"
                               "    for i in range(len(u)):\n        u[i] = u[i] * 2\n"
                               "    return np.linalg.norm(u)\n";
        for (const char* name : {"a.py", "b.py"}) {
            QFile f(dir.filePath(QString::fromLatin1(name)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(src);
        }
        const ProjectResult p = analyzeProject(scanProject({dir.path()}));
        // Same as analyzing each file alone, in the project's order.
        QList<Finding> expected = analyzeSource(QStringLiteral("a.py"), src).findings;
        expected << analyzeSource(QStringLiteral("b.py"), src).findings;
        // `step` is not called from a loop: findings conditional on it are dropped.
        expected.removeIf([](const Finding& f) { return !f.requiresHotFunction.isEmpty(); });
        std::sort(expected.begin(), expected.end(), findingLess);
        QVERIFY(!expected.isEmpty());
        QCOMPARE(p.findings.size(), expected.size());
        for (qsizetype i = 0; i < expected.size(); ++i) {
            QCOMPARE(p.findings[i].range, expected[i].range);
            QCOMPARE(p.findings[i].message, expected[i].message);
            QCOMPARE(p.findings[i].snippet, expected[i].snippet);
            QCOMPARE(p.findings[i].function, expected[i].function);
        }
        // The second file's strings are the first file's instances.
        const qsizetype half = p.findings.size() / 2;
        QCOMPARE(p.findings[half].range.path, QStringLiteral("b.py"));
        QCOMPARE(p.findings[half].snippet.constData(), p.findings[0].snippet.constData());
        QCOMPARE(p.findings[half].function.constData(), p.findings[0].function.constData());
        QVERIFY(p.apiUses.size() >= 2);
        const ApiUse& first = p.apiUses.first();
        QCOMPARE(first.range.path, QStringLiteral("a.py"));
        const auto twin = std::find_if(p.apiUses.cbegin(), p.apiUses.cend(), [&](const ApiUse& u) {
            return u.range.path == QLatin1String("b.py") && u.name == first.name;
        });
        QVERIFY(twin != p.apiUses.cend());
        QCOMPARE(twin->name.constData(), first.name.constData());
    }
    void assessmentSharesTheProjectFindings() {
        ProjectResult p;
        Finding rng = finding(QStringLiteral("m.py"), 2, QStringLiteral("f"), QStringLiteral("b"));
        rng.code = QStringLiteral("R304");
        rng.category = Category::Info;
        Finding scales = finding(QStringLiteral("m.py"), 3, QString(), QStringLiteral("c"));
        scales.code = QStringLiteral("R001");
        scales.category = Category::Scales;
        p.findings = {finding(QStringLiteral("m.py"), 1, QStringLiteral("f"), QStringLiteral("a")),
                      rng, scales};
        const Manifest manifest = Manifest::bundled();
        // One GPU: the R304 note does not count; the other two are the project's own entries.
        const Assessment one = assess(p, ContextInput{}, manifest, {});
        QCOMPARE(one.droppedRngFindings, 1);
        QCOMPARE(one.findings.size(), qsizetype(2));
        QCOMPARE(&one.findings[0], &p.findings.at(0)); // at(): no detach
        QCOMPARE(&one.findings[1], &p.findings.at(2));
        QStringList codes;
        for (const Finding& f : one.findings)
            codes << f.code;
        QCOMPARE(codes, QStringList({QStringLiteral("R101"), QStringLiteral("R001")}));
        QCOMPARE(one.findings.toList(), QList<Finding>({p.findings.at(0), p.findings.at(2)}));
        // Four GPUs: every finding counts, and the list is the project's (no copy at all).
        ContextInput four;
        four.gpus = 4;
        const Assessment many = assess(p, four, manifest, {});
        QCOMPARE(many.droppedRngFindings, 0);
        QCOMPARE(many.findings.size(), qsizetype(3));
        QCOMPARE(many.findings.toList().constData(), p.findings.constData());
        // Appending makes the selection a list of its own; the project's stays as it was.
        FindingSelection copy = one.findings;
        copy << scales;
        QCOMPARE(copy.size(), qsizetype(3));
        QCOMPARE(copy[2].code, QStringLiteral("R001"));
        QCOMPARE(p.findings.size(), qsizetype(3));
        QCOMPARE(one.findings.size(), qsizetype(2));
    }

    void budgetMakesAReservationWaitUntilItFits() {
        MemoryBudget budget(100);
        auto first = std::make_unique<MemoryBudget::Ticket>(budget.reserve(80));
        QCOMPARE(budget.reserved(), qint64(80));
        std::atomic<bool> granted{false};
        QThread* waiter = QThread::create([&] {
            const MemoryBudget::Ticket second = budget.reserve(50);
            granted = true;
            QCOMPARE(second.bytes(), qint64(50));
        });
        waiter->start();
        // 80 + 50 is over 100: the second reservation must still be waiting.
        QTest::qWait(100);
        QVERIFY(!granted);
        first.reset(); // gives 80 back
        QVERIFY(waiter->wait(5000));
        QVERIFY(granted);
        delete waiter;
        QCOMPARE(budget.reserved(), qint64(0));
        QCOMPARE(budget.peakReserved(), qint64(80)); // never 130
    }
    void budgetLetsOneFileLargerThanItselfThrough() {
        MemoryBudget budget(10);
        {
            const MemoryBudget::Ticket big = budget.reserve(1000); // nothing else reserved
            QCOMPARE(big.bytes(), qint64(1000));
            QCOMPARE(budget.reserved(), qint64(1000));
        }
        QCOMPARE(budget.reserved(), qint64(0));
        MemoryBudget unlimited(0);
        const MemoryBudget::Ticket a = unlimited.reserve(1'000'000);
        const MemoryBudget::Ticket b = unlimited.reserve(1'000'000); // no limit: no wait
        QCOMPARE(unlimited.reserved(), qint64(2'000'000));
    }
    void tinyBudgetAnalyzesEveryFileOneAtATimeWithTheSameResult() {
        QTemporaryDir dir;
        // Files big enough (~50 kB, ten or more milliseconds each) that two workers without the
        // budget would hold reservations at the same time.
        QByteArray src = "import numpy as np\n";
        for (int k = 0; k < 500; ++k)
            src += "\n\ndef f" + QByteArray::number(k) +
                   "(n):\n    x = np.zeros(n)\n    for i in range(10):\n"
                   "        x[0] = float(np.sum(x))\n    return x\n";
        for (int i = 0; i < 6; ++i) {
            QFile f(dir.filePath(QStringLiteral("m%1.py").arg(i)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(src);
        }
        const ScanResult scan = scanProject({dir.path()});
        MemoryBudget oneAtATime(1); // every file is over it: they take turns
        const ProjectResult serial = analyzeProject(scan, AnalyzerLimits{}, oneAtATime);
        const ProjectResult free = analyzeProject(scan);
        // Taking turns means no two reservations were ever held together: the peak is one
        // file's estimate, not two (all six files have the same size).
        QCOMPARE(oneAtATime.peakReserved(), MemoryBudget::estimateForSource(src.size()));
        QCOMPARE(oneAtATime.reserved(), qint64(0));
        QCOMPARE(serial.files.size(), 6);
        QVERIFY(serial.findings.size() >= 6);
        QCOMPARE(serial.findings, free.findings);
        QCOMPARE(serial.totalLines, free.totalLines);
    }
};

QTEST_GUILESS_MAIN(TestMemory)
#include "tst_memory.moc"
