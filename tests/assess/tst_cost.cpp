// The cost model (cost/CostModel.h) on hand-built site facts with hand-computed bounds, the
// probe on a real element loop, and the order of the next steps by cost.
#include "analysis/FileAnalyzer.h"
#include "assess/Assessment.h"
#include "cost/CostModel.h"
#include "report/Report.h"

#include <QTest>

using namespace cnready;

namespace {

Finding finding(const QString& code, Category cat, const SiteWork& w) {
    Finding f;
    f.code = code;
    f.category = cat;
    f.range = SourceRange{QStringLiteral("m.py"), 3, 1, 3, 10};
    f.hot = true;
    f.work = w;
    return f;
}

cost::Inputs h100(qint64 elements) {
    cost::Inputs in; // H100 SXM stand-in: 3,350 GB/s, PCIe Gen5 64 GB/s, 10 µs per task
    in.elements = elements;
    return in;
}

bool near(double a, double b) {
    return std::abs(a - b) <= 1e-12 + 1e-6 * std::abs(b);
}

/// The site costs of one analysed snippet on the H100 stand-in with `elements` elements.
QList<cost::SiteCost> sitesOf(const QByteArray& source, qint64 elements) {
    const FileResult r = analyzeSource(QStringLiteral("m.py"), source);
    return cost::estimateSites(r.findings, h100(elements));
}

QString codesOf(const QByteArray& source) {
    QStringList out;
    for (const Finding& f : analyzeSource(QStringLiteral("m.py"), source).findings)
        out << QStringLiteral("%1@%2").arg(f.code).arg(f.range.line);
    return out.join(QLatin1Char(' '));
}

} // namespace

class TestCost : public QObject {
    Q_OBJECT
private slots:
    void elementLoop() {
        // for i in range(len(a)): out[i] = a[i] * 2 -- two element accesses per iteration.
        SiteWork w;
        w.known = true;
        w.dataLoops = 1;
        w.innermostData = true;
        w.elementAccesses = 2;
        w.size = SiteWork::Size::Data;
        const cost::SiteCost c =
            cost::estimate(finding(QStringLiteral("R101"), Category::Blocks, w), h100(1'000'000));
        QVERIFY(c.sizeKnown);
        QCOMPARE(c.tasksPerPass, 2e6);         // 1 M iterations x 2 accesses
        QVERIFY(near(c.gpuSeconds, 20.0));     // 2 M tasks x 10 µs
        QVERIFY(near(c.numpySeconds, 0.0008)); // 16 MB / 20 GB/s
        QCOMPARE(c.dominant, cost::Dominant::Tasks);
        QCOMPARE(cost::formatBound(c), QStringLiteral("≥ 20 s"));
    }
    void stencilStep() {
        // A 4096 x 4096 float64 Jacobi step: read and write the grid once, 268,435,456 bytes.
        SiteWork w;
        w.known = true;
        w.stepLoops = 1;
        w.size = SiteWork::Size::Data;
        const Finding f = finding(QStringLiteral("R005"), Category::Scales, w);
        const cost::SiteCost c = cost::estimate(f, h100(4096LL * 4096));
        QCOMPARE(c.bytesPerPass, 268435456.0);
        QVERIFY(near(c.gpuSeconds, 268435456.0 / 3350e9)); // 80.1 µs, ~0.1 ms (case study)
        QCOMPARE(c.dominant, cost::Dominant::Bandwidth);
        QCOMPARE(cost::formatBound(c), QStringLiteral("≥ 80 µs"));
        // Four GPUs share the bandwidth: a quarter of it.
        cost::Inputs four = h100(4096LL * 4096);
        four.gpus = 4;
        QVERIFY(near(cost::estimate(f, four).gpuSeconds, 268435456.0 / (4 * 3350e9)));
        // Unknown size: no number.
        w.size = SiteWork::Size::Unknown;
        const cost::SiteCost u =
            cost::estimate(finding(QStringLiteral("R005"), Category::Scales, w), four);
        QVERIFY(!u.sizeKnown);
        QCOMPARE(cost::formatBound(u), QStringLiteral("size unknown"));
    }
    void hostSyncPerPass() {
        // `if err.item() < tol` inside `for sweep in range(10_000)`: 10,000 round trips of one
        // float64 each: (10 µs drain + 8 B / 64 GB/s) x 10,000, the pageable 12 GB/s above.
        SiteWork w;
        w.known = true;
        w.smallPasses = 10'000;
        w.scalarValue = true;
        w.size = SiteWork::Size::Data;
        const cost::SiteCost c =
            cost::estimate(finding(QStringLiteral("R104"), Category::Blocks, w), h100(1 << 20));
        QCOMPARE(c.passesPerStep, 10'000.0);
        QVERIFY(near(c.gpuSeconds, 10'000 * (10e-6 + 8 / 64e9)));
        QCOMPARE(c.dominant, cost::Dominant::Tasks);
        QVERIFY(!c.gpuSecondsHigh); // the drain has no published upper bound
    }
    void growingStack() {
        // out = np.append(out, x[i]) for i over 10 M elements: pass k copies k elements,
        // read and written: 2 x 8 B x 1e7 x (1e7 + 1) / 2 = 8.0000008e14 bytes.
        SiteWork w;
        w.known = true;
        w.dataLoops = 1;
        w.innermostData = true;
        w.size = SiteWork::Size::Data;
        const cost::SiteCost c = cost::estimate(
            finding(QStringLiteral("R203"), Category::Refactor, w), h100(10'000'000));
        QCOMPARE(c.bytesPerPass, 8.0000008e14);
        QVERIFY(near(c.gpuSeconds, 8.0000008e14 / 3350e9)); // 238.8 s > 1e7 x 10 µs = 100 s
        QCOMPARE(c.dominant, cost::Dominant::Bandwidth);
        // In a step loop the stack grows every step: no number.
        w.dataLoops = 0;
        w.innermostData = false;
        w.stepLoops = 1;
        QVERIFY(!cost::estimate(finding(QStringLiteral("R203"), Category::Refactor, w),
                                h100(10'000'000))
                     .sizeKnown);
    }
    void gpuCatalogueBandwidth() {
        Context ctx;
        ctx.totalElements = 1000;
        ctx.gpuModel = QStringLiteral("A100");
        const cost::Inputs a100 = cost::inputsFor(ctx, 0);
        QCOMPARE(a100.gpuBandwidthGBps, 2039.0);
        QCOMPARE(a100.pcieGBps, 32.0);
        QVERIFY(!a100.gpuAssumed);
        ctx.gpuModel.clear();
        QVERIFY(cost::inputsFor(ctx, 0).gpuAssumed);
        QCOMPARE(cost::inputsFor(ctx, 5).hostBandwidthGBps, 5.0);
    }
    void probeElementLoop() {
        const FileResult r = analyzeSource(QStringLiteral("scale.py"),
                                           QByteArrayLiteral("import numpy as np\n"
                                                             "def scale(a):\n"
                                                             "    out = np.zeros(len(a))\n"
                                                             "    for i in range(len(a)):\n"
                                                             "        out[i] = a[i] * 2.0\n"
                                                             "    return out\n"));
        const auto it = std::find_if(r.findings.cbegin(), r.findings.cend(),
                                     [](const Finding& f) { return f.code == "R101"; });
        QVERIFY(it != r.findings.cend());
        QVERIFY(it->work.known);
        QCOMPARE(it->work.dataLoops, quint8(1));
        // The loop work counts one element access for `out[i] = a[i] * 2.0` (LoopWork's
        // elements): 1 M tasks x 10 µs.
        QCOMPARE(it->work.elementAccesses, quint16(1));
        QVERIFY(near(cost::estimate(*it, h100(1'000'000)).gpuSeconds, 10.0));
    }
    void shortTupleLoopPasses() {
        // `for name in ("u", "v")` runs its stencil twice per step, not once per datum and not
        // once: 2 passes x 10 µs (16 MB per pass at 3.35 TB/s is 4.8 µs, under the task's).
        const QByteArray src("import numpy as np\n"
                             "def relax(u: np.ndarray, v: np.ndarray, n_steps):\n"
                             "    for t in range(n_steps):\n"
                             "        for name in (\"u\", \"v\"):\n"
                             "            w = np.zeros_like(u)\n"
                             "            w[1:-1] = 0.5 * (u[2:] + u[:-2])\n"
                             "    return u\n");
        const QList<cost::SiteCost> sites = sitesOf(src, 1'000'000);
        QVERIFY2(!sites.isEmpty(), qPrintable(codesOf(src)));
        QVERIFY2(sites[0].sizeKnown, qPrintable(codesOf(src)));
        QCOMPARE(sites[0].passesPerStep, 2.0);
        // Two statements (the R201 allocation, the stencil line with R005 and R001 counted
        // once), each one 10 µs task per pass, 2 passes: 40 µs; their 4 x 16 MB of traffic at
        // 3.35 TB/s is 19.1 µs, under the tasks.
        QCOMPARE(sites[0].parts.size(), 2);
        QVERIFY2(near(sites[0].gpuSeconds, 40e-6),
                 qPrintable(QString::number(sites[0].gpuSeconds)));
    }
    void builtinInShortRange() {
        // `sum(a)` in `for k in range(3)`: the builtin walks all 1 M elements on each of the
        // 3 passes: 3 M tasks x 10 µs = 30 s (the short loop multiplies, it does not replace).
        const QByteArray src("import numpy as np\n"
                             "def total(a: np.ndarray, n_steps):\n"
                             "    s = 0.0\n"
                             "    for t in range(n_steps):\n"
                             "        for k in range(3):\n"
                             "            s = s + sum(a)\n"
                             "    return s\n");
        const QList<cost::SiteCost> sites = sitesOf(src, 1'000'000);
        QVERIFY2(!sites.isEmpty(), qPrintable(codesOf(src)));
        QCOMPARE(sites[0].code, QStringLiteral("R110"));
        QCOMPARE(sites[0].tasksPerPass, 3e6);
        QVERIFY(near(sites[0].gpuSeconds, 30.0));
    }
    void elementLoopOverShortCollection() {
        // An element loop whose own loop is a literal pair (`for k in (0, 1)`) and no data
        // loop around: 2 iterations x 2 accesses = 4 tasks, 40 µs -- not 1 M x 2 (20 s).
        SiteWork w;
        w.known = true;
        w.otherLoops = 1;
        w.innermostSmall = true;
        w.smallPasses = 2;
        w.elementAccesses = 2;
        w.size = SiteWork::Size::Data;
        const cost::SiteCost c =
            cost::estimate(finding(QStringLiteral("R101"), Category::Blocks, w), h100(1'000'000));
        QCOMPARE(c.tasksPerPass, 4.0);
        QVERIFY(near(c.gpuSeconds, 40e-6));
        // A short loop with no literal count (`for ax in range(u.ndim)`): at least 1 pass.
        w.smallPasses = 1;
        QCOMPARE(
            cost::estimate(finding(QStringLiteral("R101"), Category::Blocks, w), h100(1'000'000))
                .tasksPerPass,
            2.0);
    }
    void siteAddsItsStatements() {
        // Three statements in one step loop, each a task of at least 10 µs; the stencil line
        // has two codes (R005 and R001); on the test line the R104 of `float(r)` is folded into
        // the R105 (one wait per pass, analysis/SiteFolding.h): each statement counts once.
        // Tasks: 3 x 10 µs = 30 µs. Device traffic: 2 x 16 MB / 3.35 TB/s = 9.55 µs (under the
        // tasks). Host link: the tested value, at most 8 B / 64 GB/s = 0.125 ns. Bound: 30 µs
        // plus the link (one statement alone, the largest, was 10 µs plus the link).
        const QByteArray src("import numpy as np\n"
                             "def relax(u: np.ndarray, n_steps, tol):\n"
                             "    for t in range(n_steps):\n"
                             "        u[1:-1] = 0.5 * (u[2:] + u[:-2])\n"
                             "        r = np.abs(u).max()\n"
                             "        if float(r) < tol:\n"
                             "            break\n"
                             "    return u\n");
        const QList<cost::SiteCost> sites = sitesOf(src, 1'000'000);
        QVERIFY2(sites.size() == 1, qPrintable(codesOf(src)));
        const cost::SiteCost& c = sites[0];
        QVERIFY2(c.parts.size() == 3, qPrintable(c.parts.join(", ") + " / " + codesOf(src)));
        QVERIFY(near(c.taskSeconds, 30e-6));
        QVERIFY(near(c.memorySeconds, 2 * 16e6 / 3350e9));
        QVERIFY(c.linkSeconds > 0 && c.linkSeconds <= 8 / 64e9);
        QVERIFY2(near(c.gpuSeconds, 30e-6 + c.linkSeconds),
                 qPrintable(QString::number(c.gpuSeconds)));
        QCOMPARE(c.dominant, cost::Dominant::Tasks);
    }
    void tolistMovesTheArray() {
        // `u.tolist()` once per step of a 1 M-element float64 array: 8 MB over PCIe Gen5
        // (125 µs) after the drain (10 µs), then 1 M Python objects, >= 32 MB written at
        // 20 GB/s (1.6 ms): 1.735 ms; pageable 12 GB/s: 10 µs + 666.7 µs + 1.6 ms.
        const QByteArray src("import numpy as np\n"
                             "def sample(u: np.ndarray, n_steps):\n"
                             "    for t in range(n_steps):\n"
                             "        vals = u.tolist()\n"
                             "    return vals\n");
        const FileResult r = analyzeSource(QStringLiteral("m.py"), src);
        const auto it = std::find_if(r.findings.cbegin(), r.findings.cend(),
                                     [](const Finding& f) { return f.code == "R104"; });
        QVERIFY2(it != r.findings.cend(), qPrintable(codesOf(src)));
        const cost::SiteCost c = cost::estimate(*it, h100(1'000'000));
        QVERIFY(c.sizeKnown);
        QCOMPARE(c.hostBytesPerStep, 8e6);
        QVERIFY2(near(c.gpuSeconds, 10e-6 + 8e6 / 64e9 + 32e6 / 20e9),
                 qPrintable(QString::number(c.gpuSeconds)));
        QVERIFY(c.gpuSecondsHigh);
        QVERIFY(near(*c.gpuSecondsHigh, 10e-6 + 8e6 / 12e9 + 32e6 / 20e9));
        QCOMPARE(c.dominant, cost::Dominant::HostObjects);
        // The other host round trips stay one number: `.item()` and `float(a[0])` move 8 B.
        const QByteArray one("import numpy as np\n"
                             "def peek(u: np.ndarray, n_steps):\n"
                             "    s = 0.0\n"
                             "    for t in range(n_steps):\n"
                             "        u = u * 0.5\n"
                             "        s += u.max().item()\n"
                             "        s += float(u[0])\n"
                             "    return s\n");
        int syncs = 0;
        for (const Finding& f : analyzeSource(QStringLiteral("m.py"), one).findings) {
            if (f.code != QLatin1String("R104"))
                continue;
            ++syncs;
            const cost::SiteCost s = cost::estimate(f, h100(1'000'000));
            QCOMPARE(s.hostBytesPerStep, 8.0);
            QVERIFY(near(s.gpuSeconds, 10e-6 + 8 / 64e9));
        }
        QVERIFY2(syncs == 2, qPrintable(codesOf(one)));
    }
    void nextStepsByCost() {
        // RR-sync comes before RR-stack by priority; the stack over every element costs far
        // more than one sync per step, so its step comes first.
        const FileResult r = analyzeSource(
            QStringLiteral("run.py"), QByteArrayLiteral("import numpy as np\n"
                                                        "def run(u, x, n_steps, tol):\n"
                                                        "    for t in range(n_steps):\n"
                                                        "        u = 0.5 * (u + np.roll(u, 1))\n"
                                                        "        if float(np.abs(u).max()) < tol:\n"
                                                        "            break\n"
                                                        "    out = np.empty(0)\n"
                                                        "    for i in range(len(x)):\n"
                                                        "        out = np.append(out, x[i] * 2.0)\n"
                                                        "    return out\n"));
        const ProjectResult p = mergeFileResults(QString(), {r});
        ContextInput in;
        in.elements = 10'000'000;
        const Assessment a = assess(p, in, Manifest::bundled(), {});
        const ReportInput ri{p, a, Manifest::bundled(), QDate(2026, 11, 30)};
        QStringList recipes;
        for (const NextStep& s : recommendedSteps(ri))
            if (s.kind == QLatin1String("recipe"))
                recipes << s.recipe;
        QVERIFY2(recipes.indexOf(QStringLiteral("RR-stack")) >= 0 &&
                     recipes.indexOf(QStringLiteral("RR-sync")) >= 0,
                 qPrintable(recipes.join(QLatin1Char(' '))));
        QVERIFY2(recipes.indexOf(QStringLiteral("RR-stack")) <
                     recipes.indexOf(QStringLiteral("RR-sync")),
                 qPrintable(recipes.join(QLatin1Char(' '))));
    }
};

QTEST_GUILESS_MAIN(TestCost)
#include "tst_cost.moc"
