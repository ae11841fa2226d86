// The cost model (cost/CostModel.h) on hand-built site facts with hand-computed bounds, the
// probe on a real element loop, and the order of the next steps by cost.
#include "analysis/FileAnalyzer.h"
#include "assess/Assessment.h"
#include "cost/CostModel.h"
#include "report/Report.h"

#include <QTest>

#include <optional>

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

/// The facts of a loop over the data with a trip count from the data (not known), innermost,
/// on data-sized arrays: an element loop before its per-pass work is added.
SiteWork dataLoop() {
    SiteWork w;
    w.known = true;
    w.dataLoops = 1;
    w.unknownTrips = 1;
    w.unknownDataTrips = 1;
    w.innermostData = true;
    w.size = SiteWork::Size::Data;
    return w;
}

/// The facts of whole-array work once per pass of a step loop, on data-sized arrays.
SiteWork perStep() {
    SiteWork w;
    w.known = true;
    w.stepLoops = 1;
    w.size = SiteWork::Size::Data;
    return w;
}

/// An element loop over `signal` of unknown length (probe.py in the tests of several files).
// nitime spectral.py's shape: the pairs of rows (channels) of `ts`, each pass a project call
// on two rows and a row write into the 3-D `fxy`.
const QByteArray kChannelPairs("import numpy as np\n"
                               "def csd(x, y, nfft):\n"
                               "    return np.fft.rfft(x, nfft) * np.fft.rfft(y, nfft).conj(), "
                               "nfft\n"
                               "def csd_all(ts, nfft):\n"
                               "    fxy = np.zeros((ts.shape[0], ts.shape[0], nfft // 2 + 1))\n"
                               "    for i in range(ts.shape[0]):\n"
                               "        for j in range(i, ts.shape[0]):\n"
                               "            temp, f = csd(ts[j], ts[i], nfft)\n"
                               "            fxy[i][j] = temp.squeeze()\n"
                               "    return fxy\n");

const QByteArray kSmoothProbe("import numpy as np\n"
                              "def smooth(signal: np.ndarray):\n"
                              "    out = np.zeros_like(signal)\n"
                              "    for i in range(1, len(signal) - 1):\n"
                              "        out[i] = (signal[i - 1] + signal[i + 1]) / 2.0\n"
                              "    return out\n");

cost::Inputs h100(qint64 elements) {
    cost::Inputs in; // H100 SXM stand-in: 3,350 GB/s, PCIe Gen5 64 GB/s, 10 µs per task
    in.elements = elements;
    in.gpuName = QStringLiteral("H100, assumed");
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

/// The report input of several analysed files (path, source) with `given` as the context.
struct Analysed {
    ProjectResult project;
    Assessment assessment;
    Manifest manifest = Manifest::bundled(); // ReportInput holds a reference: it must outlive it
    ReportInput report() const {
        return ReportInput{project, assessment, manifest, QDate(2026, 11, 30)};
    }
};
Analysed analyse(const QList<QPair<QString, QByteArray>>& files, const ContextInput& given) {
    QList<FileResult> results;
    for (const auto& [path, source] : files)
        results << analyzeSource(path, source);
    Analysed a;
    a.project = mergeFileResults(QString(), results);
    a.assessment = assess(a.project, given, Manifest::bundled(), {});
    return a;
}

/// The cost of the site at `path:line` (its first line), or a cost with an empty code.
cost::SiteCost siteAt(const QList<cost::SiteCost>& sites, const QString& path, int line) {
    for (const cost::SiteCost& c : sites)
        if (c.site.path == path && c.site.line == line)
            return c;
    return {};
}

QString describe(const QList<cost::SiteCost>& sites) {
    QStringList out;
    for (const cost::SiteCost& c : sites)
        out << QStringLiteral("%1 %2 %3 %4")
                   .arg(c.site.toString(), c.code, cost::formatBound(c),
                        c.sizeKnown ? c.assumption : c.unknownWhy);
    return out.join(QLatin1String("\n"));
}

/// The first finding with `code` of `source` analysed as `path`, or nullopt.
std::optional<Finding> firstFinding(const QByteArray& source, const char* code,
                                    const QString& path = QStringLiteral("m.py")) {
    for (const Finding& f : analyzeSource(path, source).findings)
        if (f.code == QLatin1String(code))
            return f;
    return std::nullopt;
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
        SiteWork w = dataLoop();
        w.elementAccesses = 2;
        const cost::SiteCost c =
            cost::estimate(finding(QStringLiteral("R101"), Category::Blocks, w), h100(1'000'000));
        QVERIFY(c.sizeKnown);
        QCOMPARE(c.tasksPerPass, 2e6);     // 1 M iterations x 2 accesses
        QVERIFY(near(c.gpuSeconds, 20.0)); // 2 M tasks x 10 µs
        // NumPy runs the same 2 M element accesses in the interpreter: at least 0.1 µs each,
        // 0.2 s (not 16 MB / 20 GB/s = 0.8 ms, which would make Python loops free).
        QVERIFY2(near(c.numpySeconds, 0.2), qPrintable(c.assumption));
        QVERIFY(c.assumption.contains(QStringLiteral("0.1 µs of Python per operation")));
        QCOMPARE(c.dominant, cost::Dominant::Tasks);
        // No step loop is around it: the figure is per run.
        QCOMPARE(cost::formatBound(c), QStringLiteral("≥ 20 s per run"));
    }
    void stencilStep() {
        // A 4096 x 4096 float64 Jacobi step: read and write the grid once, 268,435,456 bytes.
        SiteWork w = perStep();
        const Finding f = finding(QStringLiteral("R005"), Category::Scales, w);
        const cost::SiteCost c = cost::estimate(f, h100(4096LL * 4096));
        QCOMPARE(c.bytesPerPass, 268435456.0);
        QVERIFY(near(c.gpuSeconds, 268435456.0 / 3350e9)); // 80.1 µs, ~0.1 ms (case study)
        QCOMPARE(c.dominant, cost::Dominant::Bandwidth);
        QCOMPARE(cost::formatBound(c), QStringLiteral("≥ 80 µs per step"));
        // Four GPUs share the bandwidth: a quarter of it.
        cost::Inputs four = h100(4096LL * 4096);
        four.gpus = 4;
        QVERIFY(near(cost::estimate(f, four).gpuSeconds, 268435456.0 / (4 * 3350e9)));
        // Unknown size in the step loop: its one task per step still counts, the data does not.
        w.size = SiteWork::Size::Unknown;
        const cost::SiteCost u =
            cost::estimate(finding(QStringLiteral("R005"), Category::Scales, w), four);
        QVERIFY(u.sizeKnown && u.dataUnknown);
        QCOMPARE(cost::formatBound(u),
                 QStringLiteral("≥ 10 µs per step (tasks only, data size unknown)"));
        // Outside any loop nothing says how often it runs: no number.
        w.stepLoops = 0;
        const cost::SiteCost o =
            cost::estimate(finding(QStringLiteral("R005"), Category::Scales, w), four);
        QVERIFY(!o.sizeKnown);
        QCOMPARE(cost::formatBound(o), QStringLiteral("size unknown"));
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
        SiteWork w = dataLoop();
        w.pieceKnown = true;
        w.pieceElements = 1;
        const cost::SiteCost c = cost::estimate(
            finding(QStringLiteral("R203"), Category::Refactor, w), h100(10'000'000));
        QCOMPARE(c.bytesPerPass, 8.0000008e14);
        QVERIFY(near(c.gpuSeconds, 8.0000008e14 / 3350e9)); // 238.8 s > 1e7 x 10 µs = 100 s
        QCOMPARE(c.dominant, cost::Dominant::Bandwidth);
        // In a step loop the stack grows every step: no number.
        w.dataLoops = 0;
        w.unknownTrips = 0;
        w.unknownDataTrips = 0;
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
        const std::optional<Finding> it =
            firstFinding(QByteArrayLiteral("import numpy as np\n"
                                           "def scale(a):\n"
                                           "    out = np.zeros(len(a))\n"
                                           "    for i in range(len(a)):\n"
                                           "        out[i] = a[i] * 2.0\n"
                                           "    return out\n"),
                         "R101", QStringLiteral("scale.py"));
        QVERIFY(it);
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
        // A site of several statements gives its totals per step: 2 passes of 4 tasks.
        QCOMPARE(sites[0].passesPerStep, 1.0);
        QCOMPARE(sites[0].tasksPerPass, 8.0);
        // Two statements (the R201 allocation, the stencil line with R005 and R001 counted
        // once): `np.zeros_like(u)` is 1 task writing 1 pass; the stencil line without fusion is
        // 3 tasks (u[2:] + u[:-2], 0.5 * tmp, the copy into w[1:-1]) and 7 passes (3 + 2 + 2):
        // 4 tasks x 10 µs x 2 passes = 80 µs; their 8 x 8 MB x 2 of traffic at 3.35 TB/s is
        // 38.2 µs, under the tasks.
        QCOMPARE(sites[0].parts.size(), 2);
        QVERIFY2(near(sites[0].gpuSeconds, 80e-6),
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
        // Three statements in one step loop; the stencil line has two codes (R005 and R001); on
        // the test line the R104 of `float(r)` is folded into the R105 (one wait per pass,
        // analysis/SiteFolding.h): each statement counts once. Without fusion the stencil line
        // is 3 tasks and 7 passes over u (u[2:] + u[:-2]: 3, 0.5 * tmp: 2, the copy: 2), the
        // reduction line 2 tasks (np.abs, .max) and 3 passes (u, the temporary, its read by
        // max), the test 1 drain. Tasks: 6 x 10 µs = 60 µs. Device traffic: 10 x 8 MB /
        // 3.35 TB/s = 23.9 µs (under the tasks). Host link: the tested value, at most 8 B /
        // 64 GB/s = 0.125 ns. Bound: 60 µs plus the link.
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
        QVERIFY(near(c.taskSeconds, 60e-6));
        QVERIFY(near(c.memorySeconds, 10 * 8e6 / 3350e9));
        QVERIFY(c.linkSeconds > 0 && c.linkSeconds <= 8 / 64e9);
        QVERIFY2(near(c.gpuSeconds, 60e-6 + c.linkSeconds),
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
        const std::optional<Finding> it = firstFinding(src, "R104");
        QVERIFY2(it, qPrintable(codesOf(src)));
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
            // The read waits for the pass's array operations (u * 0.5, u.max(): 2 tasks).
            QCOMPARE(f.work.passOps, quint16(2));
            QVERIFY2(near(s.gpuSeconds, 20e-6 + 8 / 64e9), qPrintable(s.assumption));
        }
        QVERIFY2(syncs == 2, qPrintable(codesOf(one)));
    }
    // ---- The reviewer's findings on the table (issue 20, second pass) -------------------
    void stackOfBlocksCopiesBlocks() {
        // A 512 x 64 block appended on each of 1,000 passes: pass k copies k blocks, read and
        // written: 2 x 8 B x 32,768 x 1,000 x 1,001 / 2 = 262,406,144,000 B, 78.3 ms at
        // 3.35 TB/s (over the 1,000 tasks' 10 ms). One element per append would be 512 x 64
        // times less.
        const QByteArray src("import numpy as np\n"
                             "ROWS = 512\n"
                             "def gather(n_steps):\n"
                             "    for t in range(n_steps):\n"
                             "        table = np.empty((0, 64))\n"
                             "        for k in range(1000):\n"
                             "            block = np.ones((ROWS, 64)) * k\n"
                             "            table = np.vstack([table, block])\n"
                             "    return table\n");
        const std::optional<Finding> it = firstFinding(src, "R203");
        QVERIFY2(it, qPrintable(codesOf(src)));
        QVERIFY(it->work.pieceKnown);
        QCOMPARE(it->work.pieceElements, qint64(512 * 64));
        const cost::SiteCost c = cost::estimate(*it, h100(1'000'000));
        QVERIFY(c.sizeKnown);
        QCOMPARE(c.tasksPerPass, 1000.0);
        QCOMPARE(c.bytesPerPass, 262406144000.0);
        QVERIFY2(near(c.gpuSeconds, 262406144000.0 / 3350e9), qPrintable(c.assumption));
        // Appending a slice of a parameter (its shape unknown): no figure, not one element.
        const QByteArray unknownPiece("import numpy as np\n"
                                      "def windows(traces, width):\n"
                                      "    table = np.empty((0, width))\n"
                                      "    for w in range(1000):\n"
                                      "        block = traces[:, w * width:(w + 1) * width]\n"
                                      "        table = np.vstack([table, block])\n"
                                      "    return table\n");
        const std::optional<Finding> ut = firstFinding(unknownPiece, "R203");
        QVERIFY2(ut, qPrintable(codesOf(unknownPiece)));
        const cost::SiteCost uc = cost::estimate(*ut, h100(1'000'000));
        QVERIFY2(!uc.sizeKnown, qPrintable(uc.assumption));
        QVERIFY(uc.unknownWhy.contains(QLatin1String("appended value")));
    }
    void unknownTripCountIsPerPass() {
        // A reshape of a 512 x 64 buffer in `for f in range(frames)`: `frames` is a parameter,
        // so the trip count is not known. One pass: the reshape reads and writes the 32,768
        // elements, 524,288 B / 3.35 TB/s = 0.16 µs, and the pass runs two array operations for
        // sure (`shaped * 2.0`, `total + tmp`; the reshape is a view): >= 2 x 10 µs = 20 µs per
        // pass -- not sqrt(32,768) = 181 passes.
        const QByteArray src("import numpy as np\n"
                             "def energy(flat, frames):\n"
                             "    total = 0.0\n"
                             "    for f in range(frames):\n"
                             "        shaped = flat.reshape(512, 64)\n"
                             "        total = total + shaped * 2.0\n"
                             "    return total\n");
        const std::optional<Finding> it = firstFinding(src, "R206");
        QVERIFY2(it, qPrintable(codesOf(src)));
        QCOMPARE(it->work.unknownTrips, quint8(1));
        QCOMPARE(it->work.texts->trip.str(), QStringLiteral("frames"));
        const cost::SiteCost c = cost::estimate(*it, h100(1'000'000));
        QVERIFY2(c.sizeKnown, qPrintable(c.unknownWhy));
        QVERIFY(c.perPass);
        QCOMPARE(c.passesPerStep, 1.0);
        QVERIFY2(near(c.gpuSeconds, 20e-6), qPrintable(c.assumption));
        QVERIFY(near(c.passFloorSeconds, 20e-6));
        QVERIFY(c.assumption.contains(QLatin1String("`frames`")));
        QVERIFY(cost::formatBound(c).endsWith(QLatin1String("per pass")));
    }
    void convergenceLoopIsOnePass() {
        // `for sweep in range(10_000)` that ends by `break`: one step, not 10,000. On 1 M
        // float64 elements the pass has the update line (R001 without fusion: two np.roll, the
        // sum and 0.5 * tmp, 4 tasks and 9 passes over 8 MB) and the test line (np.abs and .max:
        // 2 tasks, 3 passes; its R105 sync, 10 µs and 8 B, is the smaller finding of the line):
        // 6 x 10 µs = 60 µs, over 12 x 8 MB / 3.35 TB/s = 28.7 µs.
        const QByteArray src("import numpy as np\n"
                             "def settle(field: np.ndarray, tol):\n"
                             "    for sweep in range(10_000):\n"
                             "        update = 0.5 * (np.roll(field, 1) + np.roll(field, -1))\n"
                             "        if np.abs(update).max().item() < tol:\n"
                             "            break\n"
                             "        field = update\n"
                             "    return field\n");
        const QList<cost::SiteCost> sites = sitesOf(src, 1'000'000);
        QVERIFY2(sites.size() == 1, qPrintable(describe(sites) + " / " + codesOf(src)));
        const cost::SiteCost& c = sites[0];
        // No other step loop is around it: its passes are the steps, their number not known
        // (at most 10,000).
        QVERIFY(!c.perPass);
        QVERIFY2(c.assumption.contains(QLatin1String("until it converges")) &&
                     c.assumption.contains(QLatin1String("not known (at most 10 k)")),
                 qPrintable(c.assumption));
        QCOMPARE(cost::formatBound(c), QStringLiteral("≥ 60 µs per step (until it converges)"));
        QCOMPARE(c.passesPerStep, 1.0);
        QVERIFY2(c.gpuSeconds >= 60e-6 && c.gpuSeconds <= 60e-6 + 1e-9,
                 qPrintable(describe(sites)));
    }
    void convergenceWhileLoopIsAStepLoop() {
        // `while True: ... if ... < tol: break` is the step loop of `relax`: one pass is one
        // step, and how many steps run depends on the data. On a 2048 x 2048 float64 field a
        // step makes, without fusion, 9 passes of 33,554,432 B on line 5 (two np.roll, their sum,
        // 0.5 * tmp) and 6 on line 6 (nxt - u: 3, np.abs: 2, .max: 1; its 8-byte sync, 10 µs, is
        // the smaller finding of that line): 15 x 33,554,432 = 503,316,480 B / 3.35e12 =
        // 150.2 µs per step, over the 7 tasks' 70 µs. The row says it is per step and that the
        // number of steps is not known, not "per pass".
        const QByteArray src("import numpy as np\n"
                             "def relax(tol):\n"
                             "    u = np.zeros((2048, 2048))\n"
                             "    while True:\n"
                             "        nxt = 0.5 * (np.roll(u, 1) + np.roll(u, -1))\n"
                             "        if float(np.abs(nxt - u).max()) < tol:\n"
                             "            break\n"
                             "        u = nxt\n"
                             "    return u\n");
        const QList<cost::SiteCost> sites = sitesOf(src, 0);
        const cost::SiteCost c = siteAt(sites, QStringLiteral("m.py"), 4);
        QVERIFY2(c.sizeKnown && near(c.gpuSeconds, 503316480.0 / 3350e9),
                 qPrintable(describe(sites)));
        QCOMPARE(cost::formatBound(c), QStringLiteral("≥ 150 µs per step (until it converges)"));
        QVERIFY2(c.assumption.contains(QLatin1String("one pass of `while True` is one step")) &&
                     c.assumption.contains(QLatin1String("number of steps is not known")),
                 qPrintable(c.assumption));
        // A step count given by a parameter (`range(max_iter)`) is a cap as well: the same row.
        QByteArray capped = src;
        capped.replace("def relax(tol)", "def relax(tol, max_iter)");
        capped.replace("while True", "for it in range(max_iter)");
        const QList<cost::SiteCost> cs = sitesOf(capped, 0);
        const cost::SiteCost cc = siteAt(cs, QStringLiteral("m.py"), 4);
        QVERIFY2(
            near(cc.gpuSeconds, 503316480.0 / 3350e9) &&
                cost::formatBound(cc).endsWith(QLatin1String("per step (until it converges)")) &&
                cc.assumption.contains(QLatin1String("`for it in range(max_iter)`")),
            qPrintable(describe(cs)));
        // A `range()` the model cannot class (a bound read from a dict) that breaks and whose
        // variable picks no data is the step loop as well.
        QByteArray dict = src;
        dict.replace("def relax(tol)", "def relax(tol, opts)");
        dict.replace("while True", "for it in range(opts[\"max_iter\"])");
        const QList<cost::SiteCost> ds = sitesOf(dict, 0);
        const cost::SiteCost dc = siteAt(ds, QStringLiteral("m.py"), 4);
        QVERIFY2(near(dc.gpuSeconds, 503316480.0 / 3350e9) &&
                     cost::formatBound(dc) ==
                         QStringLiteral("≥ 150 µs per step (until it converges)"),
                 qPrintable(describe(ds)));
        // Inside a time-step loop, the same `while` is an inner solve: its passes per step are
        // not known, so the bound is per pass of it.
        const QByteArray inner("import numpy as np\n"
                               "def implicit(n_steps, tol):\n"
                               "    u = np.zeros((2048, 2048))\n"
                               "    for t in range(n_steps):\n"
                               "        while True:\n"
                               "            u = 0.5 * (np.roll(u, 1) + np.roll(u, -1))\n"
                               "            if float(np.abs(u).max()) < tol:\n"
                               "                break\n"
                               "    return u\n");
        const QList<cost::SiteCost> is = sitesOf(inner, 0);
        const cost::SiteCost ic = siteAt(is, QStringLiteral("m.py"), 4);
        // Per pass: 9 passes of 33,554,432 B on line 6 and 3 on line 7 (np.abs: 2, .max: 1),
        // 402,653,184 B / 3.35 TB/s = 120.2 µs; the pass is within a step.
        QVERIFY2(near(ic.gpuSeconds, 402653184.0 / 3350e9) &&
                     cost::formatBound(ic) == QStringLiteral("≥ 120 µs per pass (within a step)") &&
                     ic.passNote.contains(QLatin1String("until it converges")),
                 qPrintable(describe(is)));
        // A `while` whose condition ends it (no `break`) is an ordinary step loop: per step.
        const QByteArray plain("import numpy as np\n"
                               "def until(tol):\n"
                               "    u = np.zeros((2048, 2048))\n"
                               "    err = 1.0\n"
                               "    while err > tol:\n"
                               "        u = 0.5 * (np.roll(u, 1) + np.roll(u, -1))\n"
                               "        err = float(np.abs(u).max())\n"
                               "    return u\n");
        const QList<cost::SiteCost> ps = sitesOf(plain, 0);
        const cost::SiteCost pc = siteAt(ps, QStringLiteral("m.py"), 5);
        // The same 12 passes of 33,554,432 B as the inner solve, 120.2 µs, per step.
        QVERIFY2(pc.sizeKnown && cost::formatBound(pc) == QStringLiteral("≥ 120 µs per step"),
                 qPrintable(describe(ps)));
    }
    void scipyOnHotPathIsARoundTrip() {
        // `scipy.ndimage.uniform_filter(field)` on every step of 1 M float64 elements: 8 MB to
        // the host and 8 MB back over PCIe Gen5 64 GB/s (250 µs) after a 10 µs drain:
        // 260 µs; over pageable memory (12 GB/s) 10 µs + 1.333 ms. On an A100 (PCIe Gen4,
        // 32 GB/s): 10 µs + 500 µs.
        const QByteArray src("import numpy as np\n"
                             "import scipy.ndimage\n"
                             "def smooth(field: np.ndarray, n_steps):\n"
                             "    for t in range(n_steps):\n"
                             "        field = scipy.ndimage.uniform_filter(field, size=3)\n"
                             "    return field\n");
        const QList<cost::SiteCost> sites = sitesOf(src, 1'000'000);
        const auto it = std::find_if(sites.cbegin(), sites.cend(), [](const cost::SiteCost& c) {
            return c.code == QLatin1String("R301");
        });
        QVERIFY2(it != sites.cend(), qPrintable(describe(sites) + " / " + codesOf(src)));
        QCOMPARE(it->kind, QStringLiteral("host call"));
        QCOMPARE(it->hostBytesPerStep, 16e6);
        QVERIFY2(near(it->gpuSeconds, 10e-6 + 16e6 / 64e9), qPrintable(it->assumption));
        QVERIFY(it->gpuSecondsHigh);
        QVERIFY(near(*it->gpuSecondsHigh, 10e-6 + 16e6 / 12e9));
        QCOMPARE(it->dominant, cost::Dominant::HostLink);
        cost::Inputs a100 = h100(1'000'000);
        a100.pcieGBps = 32;
        const FileResult r = analyzeSource(QStringLiteral("m.py"), src);
        QVERIFY(near(cost::estimateSites(r.findings, a100).constFirst().gpuSeconds,
                     10e-6 + 16e6 / 32e9));
    }
    void eachFileHasItsOwnSize() {
        // No size given: the project's inferred size is solver.py's 4096 x 4096 plate. The
        // plate's own step is sized by it (a stencil over 16,777,216 float64 without fusion: 3
        // sums of 3 passes, 0.25 * tmp 2, the copy 2: 13 x 134,217,728 B / 3.35 TB/s =
        // 520.8 µs); probe.py has no size of its own, so its
        // element loop over `len(signal)` gets no figure -- not the plate's.
        const QByteArray solver("import numpy as np\n"
                                "GRID = 4096\n"
                                "def run(n_steps):\n"
                                "    u = np.zeros((GRID, GRID))\n"
                                "    for t in range(n_steps):\n"
                                "        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + "
                                "u[1:-1, :-2] + u[1:-1, 2:])\n"
                                "    return u\n");
        const QByteArray& probe = kSmoothProbe;
        const Analysed a = analyse(
            {{QStringLiteral("solver.py"), solver}, {QStringLiteral("probe.py"), probe}}, {});
        QCOMPARE(a.assessment.context.totalElements, qint64(4096) * 4096);
        const QList<cost::SiteCost> sites = siteCosts(a.report());
        const cost::SiteCost step = siteAt(sites, QStringLiteral("solver.py"), 5);
        QVERIFY2(step.sizeKnown, qPrintable(describe(sites)));
        QVERIFY2(near(step.gpuSeconds, 13 * 134217728.0 / 3350e9), qPrintable(describe(sites)));
        const cost::SiteCost loop = siteAt(sites, QStringLiteral("probe.py"), 4);
        QVERIFY2(loop.code == QLatin1String("R101"), qPrintable(describe(sites)));
        // Per pass of the loop: one iteration's accesses, one task each (10 µs per access).
        QVERIFY2(loop.perPass, qPrintable(describe(sites)));
        QVERIFY(loop.tasksPerPass < 10);
        QVERIFY(loop.assumption.contains(QLatin1String("len(signal) - 1")));
        // Given a size, the symbolic extents take it: 1 M iterations, one task per access.
        ContextInput given;
        given.elements = 1'000'000;
        const Analysed g = analyse(
            {{QStringLiteral("solver.py"), solver}, {QStringLiteral("probe.py"), probe}}, given);
        const QList<cost::SiteCost> gs = siteCosts(g.report());
        const cost::SiteCost gl = siteAt(gs, QStringLiteral("probe.py"), 4);
        QVERIFY2(!gl.perPass && gl.tasksPerPass >= 1e6, qPrintable(describe(gs)));
        // ... but the plate keeps its own shape (4096 x 4096), not the given 1 M.
        QVERIFY2(
            near(siteAt(gs, QStringLiteral("solver.py"), 5).gpuSeconds, 13 * 134217728.0 / 3350e9),
            qPrintable(describe(gs)));
    }
    void onlyDistributedWorkDividesByGpus() {
        // An element loop's 2 M tasks run one after another on 4 GPUs as on 1: its bound and
        // its device traffic (16 MB at one GPU's 3.35 TB/s, 4.8 µs) stay those of one GPU.
        SiteWork w = dataLoop();
        w.elementAccesses = 2;
        cost::Inputs four = h100(1'000'000);
        four.gpus = 4;
        const Finding loop = finding(QStringLiteral("R101"), Category::Blocks, w);
        const cost::SiteCost one = cost::estimate(loop, h100(1'000'000));
        const cost::SiteCost on4 = cost::estimate(loop, four);
        QVERIFY(near(on4.gpuSeconds, one.gpuSeconds));
        QVERIFY2(near(on4.memorySeconds, 16e6 / 3350e9), qPrintable(on4.assumption));
        // A whole-array step over 100,000 elements splits over 2 GPUs at most (65,536-element
        // floor per GPU): 1.6 MB / (2 x 3.35 TB/s) = 0.239 µs of traffic, not a quarter.
        const Finding step = finding(QStringLiteral("R005"), Category::Scales, perStep());
        cost::Inputs small = four;
        small.elements = 100'000;
        QVERIFY(near(cost::estimate(step, small).memorySeconds, 1.6e6 / (2 * 3350e9)));
        // 16 M elements spread over all 4.
        small.elements = 16'000'000;
        QVERIFY(near(cost::estimate(step, small).memorySeconds, 256e6 / (4 * 3350e9)));
    }
    void unknownSitesAreListedNotHidden() {
        // Nine sized sites and one whose appended value has no known size: the table shows
        // eight, counts one more, and names the unknown site by file:line on its own line.
        QByteArray src("import numpy as np\n");
        for (int k = 0; k < 9; ++k)
            src += QStringLiteral("def f%1(a: np.ndarray, n_steps):\n"
                                  "    for t in range(n_steps):\n"
                                  "        a = a * %2.0\n"
                                  "    return a\n")
                       .arg(k)
                       .arg(k + 2)
                       .toUtf8();
        const int unknownLine = 1 + 9 * 4 + 3;
        src += "def g(traces, width):\n"
               "    table = np.empty((0, width))\n"
               "    for w in range(1000):\n"
               "        table = np.vstack([table, traces[:, w * width:(w + 1) * width]])\n"
               "    return table\n";
        ContextInput given;
        given.elements = 1'000'000;
        const Analysed a = analyse({{QStringLiteral("m.py"), src}}, given);
        const QString md = QString::fromUtf8(renderMarkdown(a.report()));
        const qsizetype at = md.indexOf(QLatin1String("**Where the time would go**"));
        QVERIFY(at >= 0);
        const QString table = md.mid(at, md.indexOf(QLatin1String("\n1. "), at) - at);
        QVERIFY2(table.contains(QLatin1String("| and 1 more site with smaller bounds |")),
                 qPrintable(table));
        QVERIFY2(table.contains(QStringLiteral("Size unknown (no bound; what is missing in "
                                               "brackets): `m.py:%1-%2` R203")
                                    .arg(unknownLine)
                                    .arg(unknownLine + 1)),
                 qPrintable(table));
    }
    void perPassBoundsDoNotRankSteps() {
        // probe.py's element loop has a bound only per pass (`len(signal)` is not known:
        // no size given and the file has no size of its own); step.py's allocation has one
        // per step (4096 x 4096 zeros, >= 80 µs against the loop's 30 µs per pass). A per-pass
        // bound says nothing of the step, so RR-loop keeps its priority place before RR-alloc
        // instead of sinking under the larger per-step figure.
        const QByteArray& probe = kSmoothProbe;
        const QByteArray step("import numpy as np\n"
                              "def run(n_steps):\n"
                              "    for t in range(n_steps):\n"
                              "        buf = np.zeros((4096, 4096))\n"
                              "        buf += 1.0\n"
                              "    return buf\n");
        const Analysed a =
            analyse({{QStringLiteral("probe.py"), probe}, {QStringLiteral("step.py"), step}}, {});
        const QList<cost::SiteCost> sites = siteCosts(a.report());
        QVERIFY2(siteAt(sites, QStringLiteral("probe.py"), 4).perPass, qPrintable(describe(sites)));
        QVERIFY2(!siteAt(sites, QStringLiteral("step.py"), 3).perPass &&
                     siteAt(sites, QStringLiteral("step.py"), 3).sizeKnown,
                 qPrintable(describe(sites)));
        QStringList recipes;
        for (const NextStep& s : recommendedSteps(a.report()))
            if (s.kind == QLatin1String("recipe"))
                recipes << s.recipe;
        QVERIFY2(recipes.indexOf(QStringLiteral("RR-loop")) >= 0 &&
                     recipes.indexOf(QStringLiteral("RR-loop")) <
                         recipes.indexOf(QStringLiteral("RR-alloc")),
                 qPrintable(recipes.join(QLatin1Char(' '))));
    }
    void sizeComesOnlyFromTouchedArrays() {
        // The file's size evidence is a 1,000,000-element table built in `table()`. `shrink`
        // loops over a parameter nothing in the file sizes: it touches no array of known size,
        // so it is "size unknown" instead of borrowing the table's 1 M. `decay` allocates the
        // table's shape itself: 2 x 8 MB / 3.35 TB/s = 4.8 µs of traffic, under the 10 µs task
        // floor, so >= 10 µs per step.
        const QByteArray src("import numpy as np\n"
                             "TABLE = 1_000_000\n"
                             "def table():\n"
                             "    return np.zeros(TABLE)\n"
                             "def shrink(bands: np.ndarray, n_steps):\n"
                             "    for t in range(n_steps):\n"
                             "        bands = bands * 0.5\n"
                             "    return bands\n"
                             "def decay(n_steps):\n"
                             "    u = np.zeros(TABLE)\n"
                             "    for t in range(n_steps):\n"
                             "        u = u * 0.5\n"
                             "    return u\n");
        const Analysed a = analyse({{QStringLiteral("m.py"), src}}, {});
        QCOMPARE(a.assessment.context.totalElements, qint64(1'000'000));
        const QList<cost::SiteCost> sites = siteCosts(a.report());
        const cost::SiteCost shrink = siteAt(sites, QStringLiteral("m.py"), 6);
        // `bands` has no size of its own: its one task per step is counted (10 µs), its data is
        // not, and no size is borrowed from the table.
        QVERIFY2(!shrink.code.isEmpty() && shrink.dataUnknown && shrink.bytesPerPass == 0 &&
                     near(shrink.gpuSeconds, 10e-6),
                 qPrintable(describe(sites)));
        const cost::SiteCost decay = siteAt(sites, QStringLiteral("m.py"), 11);
        QVERIFY2(decay.sizeKnown && near(decay.gpuSeconds, 10e-6), qPrintable(describe(sites)));
    }
    void unknownPartsAreNamed() {
        // The relaxation's array work on `grid` (a parameter nothing sizes) has no size, but a
        // pass runs its 6 array operations for sure (np.roll, the difference; 0.25 * delta, the
        // in-place add; np.abs, .max): >= 6 x 10 µs = 60 µs per step, tasks only, the data
        // part "size unknown" -- no longer the sync's 10 µs alone.
        const QByteArray src("import numpy as np\n"
                             "def relax(grid, eps):\n"
                             "    for it in range(500):\n"
                             "        delta = np.roll(grid, 1) - grid\n"
                             "        grid += 0.25 * delta\n"
                             "        if float(np.abs(delta).max()) < eps:\n"
                             "            break\n"
                             "    return grid\n");
        const QList<cost::SiteCost> sites = sitesOf(src, 0);
        const cost::SiteCost c = siteAt(sites, QStringLiteral("m.py"), 3);
        QVERIFY2(c.sizeKnown && c.dataUnknown && near(c.gpuSeconds, 60e-6),
                 qPrintable(describe(sites)));
        QVERIFY2(c.parts.contains(QLatin1String("R001 line 4")), qPrintable(describe(sites)));
        QCOMPARE(cost::formatBound(c),
                 QStringLiteral("≥ 60 µs per step (until it converges; tasks only, data size "
                                "unknown)"));
    }
    void bufferSwapMovesNothing() {
        // A double-buffered smoother over 2048 x 2048 float64: the update without fusion makes
        // 7 passes of 33.5 MB (a[2:] + a[:-2]: 3, 0.5 * tmp: 2, the copy: 2) = 234,881,024 B,
        // 70.1 µs at 3.35 TB/s. The swap `a, b = b, a` rebinds two names: no bytes, no task, so
        // the site's bound is the update alone.
        const QByteArray src("import numpy as np\n"
                             "def smooth(n_steps):\n"
                             "    a = np.zeros((2048, 2048))\n"
                             "    b = np.zeros((2048, 2048))\n"
                             "    for t in range(n_steps):\n"
                             "        b[1:-1] = 0.5 * (a[2:] + a[:-2])\n"
                             "        a, b = b, a\n"
                             "    return a\n");
        QVERIFY2(codesOf(src).contains(QLatin1String("R006@7")), qPrintable(codesOf(src)));
        const QList<cost::SiteCost> sites = sitesOf(src, 0);
        const cost::SiteCost c = siteAt(sites, QStringLiteral("m.py"), 5);
        QVERIFY2(c.sizeKnown && near(c.gpuSeconds, 234881024.0 / 3350e9),
                 qPrintable(describe(sites)));
        // A loop that only swaps is no row at all.
        const QByteArray swapOnly("import numpy as np\n"
                                  "def flip(n_steps):\n"
                                  "    a = np.zeros((2048, 2048))\n"
                                  "    b = np.ones((2048, 2048))\n"
                                  "    for t in range(n_steps):\n"
                                  "        a, b = b, a\n"
                                  "    return a\n");
        QVERIFY2(codesOf(swapOnly).contains(QLatin1String("R006@6")),
                 qPrintable(codesOf(swapOnly)));
        const QList<cost::SiteCost> none = sitesOf(swapOnly, 0);
        QVERIFY2(siteAt(none, QStringLiteral("m.py"), 5).code.isEmpty(),
                 qPrintable(describe(none)));
    }
    void rowLoopCountsRows() {
        // `for r in table` over a 500 x 2000 table takes one row per pass. With `r.max()` a
        // pass is one task: 500 tasks x 10 µs = 5 ms (not one task per element, 10 s). With
        // the builtin `max(r)` each pass reads its 2000 elements one by one as well:
        // 500 x (1 + 2000) = 1,000,500 tasks = 10.005 s.
        const QByteArray method("import numpy as np\n"
                                "def peaks(n):\n"
                                "    table = np.zeros((500, 2000))\n"
                                "    out = []\n"
                                "    for r in table:\n"
                                "        out.append(r.max())\n"
                                "    return out\n");
        const QList<cost::SiteCost> m = sitesOf(method, 0);
        const cost::SiteCost rm = siteAt(m, QStringLiteral("m.py"), 5);
        QVERIFY2(rm.code == QLatin1String("R103") && near(rm.gpuSeconds, 500 * 10e-6),
                 qPrintable(describe(m)));
        QByteArray builtin = method;
        builtin.replace("r.max()", "max(r)");
        const QList<cost::SiteCost> b = sitesOf(builtin, 0);
        const cost::SiteCost rb = siteAt(b, QStringLiteral("m.py"), 5);
        QVERIFY2(near(rb.gpuSeconds, 1'000'500 * 10e-6), qPrintable(describe(b)));
        // A table of unknown shape, 1 M elements given: `max(r)` still reads every element
        // once over all rows (>= 1 M tasks, 10 s); `r.max()` is per pass of the row loop.
        const QByteArray param("import numpy as np\n"
                               "def peaks(table: np.ndarray):\n"
                               "    out = []\n"
                               "    for r in table:\n"
                               "        out.append(max(r))\n"
                               "    return out\n");
        const QList<cost::SiteCost> p = sitesOf(param, 1'000'000);
        const cost::SiteCost pb = siteAt(p, QStringLiteral("m.py"), 4);
        QVERIFY2(near(pb.gpuSeconds, 10.0) && pb.assumption.contains(QLatin1String("`max(r)`")),
                 qPrintable(describe(p)));
        QByteArray paramMethod = param;
        paramMethod.replace("max(r)", "r.max()");
        const QList<cost::SiteCost> pm = sitesOf(paramMethod, 1'000'000);
        const cost::SiteCost pmc = siteAt(pm, QStringLiteral("m.py"), 4);
        QVERIFY2(pmc.perPass && near(pmc.gpuSeconds, 10e-6), qPrintable(describe(pm)));
    }
    void rowWalkIsReportedAndCosted() {
        // The builtin `max(r)` over the rows of a 500 x 2000 table reads each row's 2000
        // elements one by one: R110 reports it, and its own bound is 500 x 2000 = 1,000,000
        // tasks x 10 µs = 10 s. The loop's R103 adds one task per row for the pass and holds
        // the walk already (500 x (1 + 2000) tasks = 10.005 s): the site is that, counted once.
        const QByteArray src("import numpy as np\n"
                             "def peaks(n):\n"
                             "    table = np.zeros((500, 2000))\n"
                             "    out = []\n"
                             "    for r in table:\n"
                             "        out.append(max(r))\n"
                             "    return out\n");
        QCOMPARE(codesOf(src), QStringLiteral("R103@5 R110@6"));
        const FileResult r = analyzeSource(QStringLiteral("m.py"), src);
        const auto walk = std::find_if(r.findings.cbegin(), r.findings.cend(),
                                       [](const Finding& f) { return f.code == "R110"; });
        QVERIFY(walk != r.findings.cend());
        const cost::SiteCost w = cost::estimate(*walk, h100(0));
        QVERIFY2(w.sizeKnown && near(w.gpuSeconds, 1'000'000 * 10e-6) && !w.perPass,
                 qPrintable(w.assumption + w.unknownWhy));
        QVERIFY2(w.assumption.contains(QLatin1String("`max(r)` reading its 2000 elements")),
                 qPrintable(w.assumption));
        const QList<cost::SiteCost> sites = sitesOf(src, 0);
        QVERIFY2(sites.size() == 1 && near(sites[0].gpuSeconds, 1'000'500 * 10e-6),
                 qPrintable(describe(sites)));
        // `r.max()` is one whole-row task: no R110, 500 tasks = 5 ms.
        QByteArray method = src;
        method.replace("max(r)", "r.max()");
        QCOMPARE(codesOf(method), QStringLiteral("R103@5"));
        // Rows of unknown length, 1 M elements given: over all rows the walk reads each element
        // once, 1 M tasks = 10 s, the same as the loop's bound.
        const QByteArray param("import numpy as np\n"
                               "def totals(table: np.ndarray):\n"
                               "    out = []\n"
                               "    for i, r in enumerate(table):\n"
                               "        out.append(sum(r))\n"
                               "    return out\n");
        QCOMPARE(codesOf(param), QStringLiteral("R103@4 R110@5"));
        const FileResult pr = analyzeSource(QStringLiteral("m.py"), param);
        const auto pw = std::find_if(pr.findings.cbegin(), pr.findings.cend(),
                                     [](const Finding& f) { return f.code == "R110"; });
        QVERIFY(pw != pr.findings.cend());
        const cost::SiteCost pc = cost::estimate(*pw, h100(1'000'000));
        QVERIFY2(pc.sizeKnown && near(pc.gpuSeconds, 10.0), qPrintable(pc.assumption));
        const QList<cost::SiteCost> ps = sitesOf(param, 1'000'000);
        QVERIFY2(ps.size() == 1 && near(ps[0].gpuSeconds, 10.0), qPrintable(describe(ps)));
        // No size at all: the walk's length is unknown, so the row says it covers only the
        // loop's own task per row (10 µs per pass) and names the walk, instead of counting
        // the row as one element (20 µs).
        const QList<cost::SiteCost> ns = sitesOf(param, 0);
        QVERIFY2(ns.size() == 1 && near(ns[0].gpuSeconds, 10e-6) &&
                     cost::formatBound(ns[0]) ==
                         QStringLiteral("≥ 10 µs per pass (known part only)") &&
                     ns[0].assumption.contains(QLatin1String("R110 line 5 (the row's length)")),
                 qPrintable(describe(ns)));
    }
    void rowWalkIsOneSiteInNextSteps() {
        // R110's `max(r)` lies in the loop R103 reports: rewriting the loop fixes both, so
        // RR-loop lists one site, the loop.
        const Analysed a =
            analyse({{QStringLiteral("m.py"), QByteArrayLiteral("import numpy as np\n"
                                                                "def peaks(table: np.ndarray):\n"
                                                                "    out = []\n"
                                                                "    for r in table:\n"
                                                                "        out.append(max(r))\n"
                                                                "    return out\n")}},
                    {});
        QStringList lines;
        for (const NextStep& st : recommendedSteps(a.report()))
            if (st.recipe == QLatin1String("RR-loop"))
                lines << st.text;
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines[0].contains(QLatin1String("at 1 site: `m.py:4-5`")), qPrintable(lines[0]));
    }
    void everyKthStepIsDivided() {
        // `rms` reads a 2048 x 2048 float64 plate: 2 x 33.5 MB / 3.35 TB/s = 20.0 µs per run.
        // It runs on every 50th step only (`every` defaults to 50): 0.40 µs per step.
        const QByteArray src("import numpy as np\n"
                             "def rms(u):\n"
                             "    return np.sqrt(np.mean(u * u))\n"
                             "def run(n_steps, every=50):\n"
                             "    u = np.zeros((2048, 2048))\n"
                             "    r = 0.0\n"
                             "    for s in range(n_steps):\n"
                             "        u += 1.0\n"
                             "        if (s + 1) % every == 0:\n"
                             "            r = rms(u)\n"
                             "    return u, r\n");
        const QList<cost::SiteCost> sites = sitesOf(src, 0);
        const cost::SiteCost c = siteAt(sites, QStringLiteral("m.py"), 3);
        QVERIFY2(c.sizeKnown && near(c.gpuSeconds, 67108864.0 / 3350e9 / 50),
                 qPrintable(describe(sites)));
        QVERIFY2(c.assumption.contains(QLatin1String("every 50th step")), qPrintable(c.assumption));
        // k not known (a parameter without a default): the bound is per run, said so.
        QByteArray open = src;
        open.replace("every=50", "every");
        const QList<cost::SiteCost> o = sitesOf(open, 0);
        const cost::SiteCost oc = siteAt(o, QStringLiteral("m.py"), 3);
        QVERIFY2(near(oc.gpuSeconds, 67108864.0 / 3350e9) &&
                     cost::formatBound(oc).contains(QLatin1String("every k-th step")),
                 qPrintable(describe(o)));
    }
    void elementLoopRanksAboveOneCall() {
        // No size: probe.py's element loop is >= 30 µs per pass of `len(signal) - 1`, step.py's
        // allocation >= 80 µs per step. A loop over data of unknown trip count ranks as 65,536
        // passes (>= 2 s), so the table lists it first; a loop that ends by `break` (at least
        // one pass, not one per datum) ranks by its one pass, under the allocation.
        const QByteArray& probe = kSmoothProbe;
        const QByteArray step("import numpy as np\n"
                              "def run(n_steps, tol):\n"
                              "    for t in range(n_steps):\n"
                              "        buf = np.zeros((4096, 4096))\n"
                              "        buf += 1.0\n"
                              "    return buf\n"
                              "def settle(x: np.ndarray, tol):\n"
                              "    for k in range(10_000):\n"
                              "        if float(x.max()) < tol:\n"
                              "            break\n"
                              "    return x\n");
        const Analysed a =
            analyse({{QStringLiteral("probe.py"), probe}, {QStringLiteral("step.py"), step}}, {});
        const QList<cost::SiteCost> sites = siteCosts(a.report());
        QVERIFY2(sites.size() >= 3, qPrintable(describe(sites)));
        QVERIFY2(sites[0].site.path == QLatin1String("probe.py") && sites[0].perPass,
                 qPrintable(describe(sites)));
        QVERIFY2(sites[1].site.path == QLatin1String("step.py") && sites[1].site.line == 3,
                 qPrintable(describe(sites)));
        QVERIFY2(sites[2].site.path == QLatin1String("step.py") && sites[2].site.line == 8,
                 qPrintable(describe(sites)));
    }
    // ---- A fresh reviewer's findings (issue 20, third pass) ------------------------------
    void statementOpsAndTemporaries() {
        // `c = a*x + b*y` without fusion (gpu-stack.md "L2 cache"): three tasks (a*x, b*y, the
        // sum) and nine passes over 100 M float64 elements (a, x, tmp1; b, y, tmp2; tmp1,
        // tmp2, c): 9 x 800 MB = 7.2 GB at 3.35 TB/s = 2.149 ms, over the 3 x 10 µs tasks.
        // One task reading and writing once would be 1.6 GB, 0.478 ms.
        const QByteArray src("import numpy as np\n"
                             "def axpby(a: np.ndarray, x: np.ndarray, b: np.ndarray,\n"
                             "          y: np.ndarray, n_steps):\n"
                             "    for t in range(n_steps):\n"
                             "        c = a * x + b * y\n"
                             "    return c\n");
        const std::optional<Finding> it = firstFinding(src, "R001");
        QVERIFY2(it, qPrintable(codesOf(src)));
        QCOMPARE(it->work.statementOps, quint16(3));
        QCOMPARE(it->work.statementPasses, quint16(9));
        const cost::SiteCost c = cost::estimate(*it, h100(100'000'000));
        QVERIFY2(c.sizeKnown, qPrintable(c.unknownWhy));
        QCOMPARE(c.tasksPerPass, 3.0);
        QCOMPARE(c.bytesPerPass, 9 * 8 * 1e8);
        QVERIFY2(near(c.gpuSeconds, 7.2e9 / 3350e9), qPrintable(c.assumption));
        QCOMPARE(c.dominant, cost::Dominant::Bandwidth);
        QVERIFY2(c.assumption.contains(QLatin1String("3 tasks")), qPrintable(c.assumption));
        QVERIFY2(c.assumption.contains(QLatin1String("9 sweeps")), qPrintable(c.assumption));
        // On 1 M elements the tasks dominate: 3 x 10 µs = 30 µs (9 x 8 MB is 21.5 µs).
        QVERIFY(near(cost::estimate(*it, h100(1'000'000)).gpuSeconds, 30e-6));
    }
    void unknownSizeInLoopCountsTasks() {
        // `u` has no shape the model can read, but each pass of the step loop still runs the
        // statement's three array operations (u ** 2, u + tmp, 0.5 * tmp): >= 3 x 10 µs =
        // 30 µs per step, the data part "size unknown" -- not "size unknown" alone.
        const QByteArray src("import numpy as np\n"
                             "def relax(u, n_steps):\n"
                             "    u = np.asarray(u)\n"
                             "    for t in range(n_steps):\n"
                             "        u = 0.5 * (u + u ** 2)\n"
                             "    return u\n");
        cost::Inputs in = h100(0);
        in.sizeSource = cost::SizeSource::Default;
        const QList<cost::SiteCost> sites =
            cost::estimateSites(analyzeSource(QStringLiteral("m.py"), src).findings, in);
        QVERIFY2(!sites.isEmpty(), qPrintable(codesOf(src)));
        const cost::SiteCost& c = sites[0];
        QVERIFY2(c.sizeKnown && c.dataUnknown, qPrintable(describe(sites)));
        QCOMPARE(c.bytesPerPass, 0.0);
        QVERIFY2(near(c.gpuSeconds, 30e-6), qPrintable(describe(sites)));
        QCOMPARE(cost::formatBound(c),
                 QStringLiteral("≥ 30 µs per step (tasks only, data size unknown)"));
        // Outside any loop the same statement keeps no figure: nothing says how often it runs.
        const QByteArray once("import numpy as np\n"
                              "def relax(u):\n"
                              "    u = np.asarray(u)\n"
                              "    u = 0.5 * (u + u ** 2)\n"
                              "    return u\n");
        for (const cost::SiteCost& o :
             cost::estimateSites(analyzeSource(QStringLiteral("m.py"), once).findings, in))
            QVERIFY2(!o.sizeKnown, qPrintable(cost::formatBound(o)));
    }
    void unknownTripLoopPassFloor() {
        // Hand-built: a whole-array statement of unknown size in a loop of unknown trip count
        // whose pass runs 4 array operations for sure, the statement itself 1: >= 4 x 10 µs per
        // pass (the pass floor), tasks only.
        SiteWork w = dataLoop();
        w.innermostData = false;
        w.size = SiteWork::Size::Unknown;
        w.statementOps = 1;
        w.statementPasses = 2;
        w.passOps = 4;
        w.texts.set(&SiteTexts::trip, QStringLiteral("n_windows"));
        cost::Inputs in = h100(0);
        in.sizeSource = cost::SizeSource::Default;
        const cost::SiteCost c =
            cost::estimate(finding(QStringLiteral("R001"), Category::Scales, w), in);
        QVERIFY2(c.sizeKnown, qPrintable(c.unknownWhy));
        QVERIFY(c.perPass && c.dataUnknown);
        QVERIFY(near(c.gpuSeconds, 40e-6));
        QVERIFY(near(c.passFloorSeconds, 40e-6));
        // One set of numbers: the tasks the bound counts (the floor's 4), the statement's own 1
        // kept apart for the site's sums.
        QCOMPARE(c.tasksPerPass, 4.0);
        QVERIFY(near(c.taskSeconds, 40e-6));
        QVERIFY(near(c.ownTaskSeconds, 10e-6));
        QCOMPARE(cost::formatBound(c),
                 QStringLiteral("≥ 40 µs per pass (tasks only, data size unknown)"));
        QVERIFY(c.assumption.contains(QLatin1String("`n_windows`")));
    }
    void rowLoopWithHeavyCall() {
        // nitime snr.py's shape: a loop over the rows of a 2-D `p`, each pass handing a row of
        // `data` to a project function (FFTs) and writing a row of `p`. One pass: the row write
        // `p[i]` (a row access, one task) and the call (>= 1 task): >= 2 x 10 µs = 20 µs per pass
        // of `range(p.shape[0])`, the rows' length not known -- not "the 2 elements of its
        // array (its literal shape)", which came from the tuple `p.shape`.
        const QByteArray src(
            "import numpy as np\n"
            "def psd(x, Fs=1.0, BW=None):\n"
            "    f = np.fft.rfft(x)\n"
            "    return Fs, np.abs(f) ** 2, BW\n"
            "class SNR:\n"
            "    def __init__(self, data, rate, bandwidth):\n"
            "        self.data = data\n"
            "        self.rate = rate\n"
            "        self.bandwidth = bandwidth\n"
            "    def noise_psd(self):\n"
            "        p = np.empty((self.data.shape[0], self.data.shape[-1] // 2 + 1))\n"
            "        for i in range(p.shape[0]):\n"
            "            _, p[i], _ = psd(self.data[i], Fs=self.rate, BW=self.bandwidth)\n"
            "        return np.mean(p, 0)\n");
        const std::optional<Finding> it = firstFinding(src, "R101");
        QVERIFY2(it, qPrintable(codesOf(src)));
        QVERIFY2(it->work.size != SiteWork::Size::Small, "a shape tuple sized the site");
        QCOMPARE(it->work.rowPicks, quint16(1));
        QCOMPARE(it->work.passCalls, quint16(1));
        cost::Inputs in = h100(0);
        in.sizeSource = cost::SizeSource::Default;
        const cost::SiteCost c = cost::estimate(*it, in);
        QVERIFY2(c.sizeKnown, qPrintable(c.unknownWhy));
        QCOMPARE(c.kind, QStringLiteral("row loop"));
        QVERIFY(c.perPass && c.dataUnknown);
        QCOMPARE(c.tasksPerPass, 2.0);
        QVERIFY2(near(c.gpuSeconds, 20e-6), qPrintable(c.assumption));
        QVERIFY2(!c.assumption.contains(QLatin1String("literal shape")), qPrintable(c.assumption));
        QVERIFY2(c.assumption.contains(QLatin1String("1 row access")), qPrintable(c.assumption));
    }
    void nestedRowLoopNamesBothLoops() {
        // nitime spectral.py's shape: the pairs of rows of `ts`, each pass a project call on two
        // rows and a row write into the 3-D `fxy`. The bound is per pass of the inner loop, and
        // its label names the outer loop whose passes multiply it.
        const QByteArray& src = kChannelPairs;
        const std::optional<Finding> it = firstFinding(src, "R101");
        QVERIFY2(it, qPrintable(codesOf(src)));
        QCOMPARE(it->work.texts->innerLoop.str(), QStringLiteral("for j in range(i, ts.shape[0])"));
        QCOMPARE(it->work.texts->outerLoop.str(), QStringLiteral("for i in range(ts.shape[0])"));
        const cost::SiteCost c = cost::estimate(*it, h100(1'000'000));
        QCOMPARE(c.kind, QStringLiteral("row loop"));
        QVERIFY2(c.passNote.contains(QLatin1String("inner loop `for j in range(i, ts.shape[0])`")),
                 qPrintable(c.passNote));
        QVERIFY2(c.passNote.contains(QLatin1String("`for i in range(ts.shape[0])` around it")),
                 qPrintable(c.passNote));
        // One call (>= 1 task) and the row accesses, one task each.
        QVERIFY2(c.tasksPerPass >= 2, qPrintable(c.assumption));
    }
    void sizesComeFromShapesOnly() {
        // nitime autoregressive.py's Levinson-Durbin loop: `w[1:p]` is sliced by a counter
        // `p = 2` that grows each pass, and `w` has `order + 1` elements: no shape gives a
        // number, so no "1-element array (its literal shape)"; the pass's array operations
        // still give a task bound, the data part "size unknown".
        const QByteArray src("import numpy as np\n"
                             "def ar_est(x, order):\n"
                             "    rxx_m = np.correlate(x, x, 'full')[:order + 1]\n"
                             "    w = np.zeros((order + 1, ), rxx_m.dtype)\n"
                             "    b = rxx_m[0].real\n"
                             "    w_k = rxx_m[1] / b\n"
                             "    w[1] = w_k\n"
                             "    p = 2\n"
                             "    while p <= order:\n"
                             "        b *= 1 - (w_k * w_k.conj()).real\n"
                             "        w_k = (rxx_m[p] - (w[1:p] * rxx_m[1:p][::-1]).sum()) / b\n"
                             "        w[1:p] = w[1:p] - w_k * w[1:p][::-1].conj()\n"
                             "        w[p] = w_k\n"
                             "        p += 1\n"
                             "    return w[1:], b\n");
        const std::optional<Finding> it = firstFinding(src, "R002");
        QVERIFY2(it, qPrintable(codesOf(src)));
        QCOMPARE(it->work.smallElements, qint64(0));
        QCOMPARE(it->work.dataElements, qint64(0));
        cost::Inputs in = h100(0);
        in.sizeSource = cost::SizeSource::Default;
        const QList<cost::SiteCost> sites =
            cost::estimateSites(analyzeSource(QStringLiteral("m.py"), src).findings, in);
        QVERIFY2(!sites.isEmpty(), qPrintable(codesOf(src)));
        QVERIFY2(!describe(sites).contains(QLatin1String("literal shape")),
                 qPrintable(describe(sites)));
        QVERIFY2(sites[0].sizeKnown && sites[0].dataUnknown, qPrintable(describe(sites)));
        // A literal slice still sizes: `v[:3]` of `np.zeros(10)` is 3 elements.
        const std::optional<Finding> lit =
            firstFinding(QByteArrayLiteral("import numpy as np\n"
                                           "def f(n_steps):\n"
                                           "    v = np.zeros(10)\n"
                                           "    for t in range(n_steps):\n"
                                           "        v[:3] = v[:3] * 2.0\n"
                                           "    return v\n"),
                         "R001");
        QVERIFY(lit);
        QCOMPARE(lit->work.size, SiteWork::Size::Small);
        QCOMPARE(lit->work.smallElements, qint64(10));
    }
    void setUpIsPerRunNotPerStep() {
        // Trials (not a step loop) each allocate `v` once and then run a step loop. The
        // allocation (R201: one task writing 800 MB once, 238.8 µs) is set-up, once per run: the
        // site's per-step bound is the stencil line's alone and names the set-up apart (before,
        // the two were added: 1.9 ms "per step"). Stencil on 100 M elements: 3 tasks
        // (u[2:] + u[:-2], 0.5 * tmp, the slice copy) and 7 passes (3 + 2 + 2) x 800 MB = 5.6 GB
        // at 3.35 TB/s = 1.672 ms per step -- one pass of the step loop: the 3 trials around it
        // repeat the run, they do not multiply the step.
        const QByteArray src("import numpy as np\n"
                             "def run(u: np.ndarray, n_steps, n_trials):\n"
                             "    for trial in range(n_trials):\n"
                             "        v = np.zeros_like(u)\n"
                             "        for step in range(n_steps):\n"
                             "            v[1:-1] = 0.5 * (v[2:] + v[:-2])\n"
                             "    return v\n");
        const QList<cost::SiteCost> sites = sitesOf(src, 100'000'000);
        QVERIFY2(!sites.isEmpty(), qPrintable(codesOf(src)));
        const cost::SiteCost& c = sites[0];
        QVERIFY2(c.perStep, qPrintable(describe(sites)));
        QVERIFY2(c.perRunParts == QStringList{QStringLiteral("R201 line 4 (≥ 239 µs per run)")},
                 qPrintable(describe(sites)));
        QVERIFY2(near(c.gpuSeconds, 7 * 8e8 / 3350e9), qPrintable(describe(sites)));
        QCOMPARE(c.passesPerStep, 1.0);
        QVERIFY2(cost::formatBound(c).contains(QLatin1String("per step")),
                 qPrintable(cost::formatBound(c)));
        QVERIFY2(c.assumption.contains(QLatin1String("once per run, not added")),
                 qPrintable(c.assumption));
        QCOMPARE(cost::formatBound(c),
                 QStringLiteral("≥ 1.7 ms per step (set-up per run not added)"));
    }
    void calledFromAStepLoopIsPerStep() {
        // `diffuse` has no loop of its own, but `run` calls it once per step: its stencil (3
        // tasks, 7 passes x 8 MB = 56 MB, 16.7 µs at 3.35 TB/s, under the 30 µs of tasks) is a
        // step's. Called once, outside any loop, it is not (a site outside any step loop is per
        // run: elementLoop).
        const QByteArray src("import numpy as np\n"
                             "def diffuse(src: np.ndarray, dst: np.ndarray):\n"
                             "    dst[1:-1] = 0.5 * (src[2:] + src[:-2])\n"
                             "    return dst\n"
                             "def run(u: np.ndarray, v: np.ndarray, n_steps):\n"
                             "    for step in range(n_steps):\n"
                             "        diffuse(u, v)\n"
                             "    return v\n");
        const std::optional<Finding> it = firstFinding(src, "R005");
        QVERIFY2(it, qPrintable(codesOf(src)));
        QVERIFY(it->work.calledInStep);
        const cost::SiteCost c = cost::estimate(*it, h100(1'000'000));
        QVERIFY2(near(c.gpuSeconds, 30e-6), qPrintable(c.assumption));
        QCOMPARE(cost::formatBound(c), QStringLiteral("≥ 30 µs per step"));
        QByteArray once = src;
        once.replace("    for step in range(n_steps):\n        diffuse(u, v)\n",
                     "    diffuse(u, v)\n");
        const std::optional<Finding> o = firstFinding(once, "R005");
        QVERIFY2(o, qPrintable(codesOf(once)));
        QVERIFY(!o->work.calledInStep);
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
    // ---- A fresh reviewer's findings (issue 20, s14 check) ---------------------------------
    void everyKthStepSaysPerCallAndPerStep() {
        // `rms` reads a 2048 x 2048 float64 plate: 2 x 33,554,432 B = 67,108,864 B per call:
        // GPU 67.1 MB / 3.35 TB/s = 20.03 µs per call, NumPy 67.1 MB / 20 GB/s = 3.36 ms per
        // call; every 50th step: 401 ns per step on the GPU, 67 µs per step in NumPy. Both
        // figures of each sentence in one unit; "per call", never "per run".
        const QByteArray src("import numpy as np\n"
                             "def rms(u):\n"
                             "    return np.sqrt(np.mean(u * u))\n"
                             "def run(n_steps, every=50):\n"
                             "    u = np.zeros((2048, 2048))\n"
                             "    r = 0.0\n"
                             "    for s in range(n_steps):\n"
                             "        u += 1.0\n"
                             "        if (s + 1) % every == 0:\n"
                             "            r = rms(u)\n"
                             "    return u, r\n");
        const cost::SiteCost c = siteAt(sitesOf(src, 0), QStringLiteral("m.py"), 3);
        QVERIFY2(c.sizeKnown && near(c.gpuSeconds, 67108864.0 / 3350e9 / 50),
                 qPrintable(c.assumption));
        QVERIFY(near(c.numpySeconds, 67108864.0 / 20e9 / 50));
        QVERIFY2(c.assumption.startsWith(QStringLiteral(
                     "≈ 67 MB per call at ~3.35 TB/s (H100, assumed) ≥ 20 µs per call, against "
                     "≥ 3.4 ms per call in NumPy at ~20 GB/s")),
                 qPrintable(c.assumption));
        QVERIFY2(
            c.assumption.contains(QStringLiteral("every 50th step (`every` = 50, its default): "
                                                 "≥ 401 ns per step, against ≥ 67 µs per "
                                                 "step in NumPy")),
            qPrintable(c.assumption));
        QVERIFY2(!c.assumption.contains(QStringLiteral("per run")), qPrintable(c.assumption));
        QCOMPARE(cost::formatBound(c), QStringLiteral("≥ 401 ns per step"));
        // k not known: per call, and said so.
        QByteArray open = src;
        open.replace("every=50", "every");
        const cost::SiteCost o = siteAt(sitesOf(open, 0), QStringLiteral("m.py"), 3);
        QCOMPARE(cost::formatBound(o),
                 QStringLiteral("≥ 20 µs per call (every k-th step, k not known)"));
        QVERIFY2(o.assumption.contains(QStringLiteral("≥ 20 µs per call, against ≥ 3.4 ms per call "
                                                      "in NumPy")),
                 qPrintable(o.assumption));
    }
    void severalStatementsOneSetOfNumbers() {
        // siteAddsItsStatements' relax loop: 3 + 2 + 1 = 6 tasks per step (60 µs, above the
        // 23.9 µs of device traffic). NumPy: the stencil's 7 sweeps x 8 MB / 20 GB/s = 2.8 ms,
        // the reduction's 3 x 8 MB = 1.2 ms, the test's 1 B under its own 0.1 µs of Python:
        // 4.0001 ms (the pass's 5 array operations at 0.1 µs each, 0.5 µs, are a floor for the
        // site, not added once per statement). The row leads with the site's totals; the JSON
        // figures are the same.
        const QByteArray src("import numpy as np\n"
                             "def relax(u: np.ndarray, n_steps, tol):\n"
                             "    for t in range(n_steps):\n"
                             "        u[1:-1] = 0.5 * (u[2:] + u[:-2])\n"
                             "        r = np.abs(u).max()\n"
                             "        if float(r) < tol:\n"
                             "            break\n"
                             "    return u\n");
        const QList<cost::SiteCost> sites = sitesOf(src, 1'000'000);
        QVERIFY2(sites.size() == 1, qPrintable(describe(sites)));
        const cost::SiteCost& c = sites[0];
        QCOMPARE(c.parts.size(), 3);
        QCOMPARE(c.tasksPerPass, 6.0);
        QCOMPARE(c.passesPerStep, 1.0);
        QVERIFY(near(c.taskSeconds, 60e-6));
        QVERIFY2(near(c.numpySeconds, 2.8e-3 + 1.2e-3 + 1e-7), qPrintable(describe(sites)));
        QVERIFY2(
            c.assumption.startsWith(
                QStringLiteral(
                    "3 statements (%1): ≈ 6 tasks per step × ≥ 10 µs ≥ 60 µs per step, against "
                    "≥ 4 ms per step in NumPy")
                    .arg(c.parts.join(QStringLiteral(", ")))),
            qPrintable(c.assumption));
        // The largest statement's premise follows, without figures of its own.
        QVERIFY2(c.assumption.contains(QStringLiteral("; the largest, ")) &&
                     !c.assumption.contains(QStringLiteral("per pass, against")),
                 qPrintable(c.assumption));
    }
    void rowLoopsDoNotRankAsDataPasses() {
        // nitime coherence.py's shape: a loop over the pairs of channels (rows): per pass of
        // the inner loop, ranked by that figure (a few channels, not 65,536 passes). The
        // element loop of kSmoothProbe (2 accesses + 1 write = 3 tasks, 30 µs per pass) ranks as
        // 65,536 passes: 1.97 s, and its bound says so.
        const QByteArray& src = kChannelPairs;
        const std::optional<Finding> it = firstFinding(src, "R101");
        QVERIFY2(it, qPrintable(codesOf(src)));
        cost::Inputs in = h100(0);
        in.sizeSource = cost::SizeSource::Default;
        const cost::SiteCost row = cost::estimate(*it, in);
        QCOMPARE(row.kind, QStringLiteral("row loop"));
        QVERIFY(row.perPass && !row.perDataPass);
        QCOMPARE(row.rankSeconds, row.gpuSeconds);
        QVERIFY2(!cost::formatBound(row).contains(QStringLiteral("65,536")),
                 qPrintable(cost::formatBound(row)));
        const std::optional<Finding> loop = firstFinding(kSmoothProbe, "R101");
        QVERIFY(loop);
        const cost::SiteCost el = cost::estimate(*loop, in);
        QVERIFY(el.perPass && el.perDataPass);
        QVERIFY2(near(el.gpuSeconds, 30e-6), qPrintable(el.assumption));
        QVERIFY(near(el.rankSeconds, 30e-6 * 65536));
        QCOMPARE(cost::formatBound(el),
                 QStringLiteral("≥ 30 µs per pass (≥ 2 s if it runs 65,536 passes, assumed: "
                                "ranked by it)"));
        // Abridged (the chart, the findings table): both figures too.
        QCOMPARE(cost::formatBoundShort(el), QStringLiteral("≥ 30 µs/pass, 2 s ×65,536"));
        QCOMPARE(cost::formatBoundShort(row),
                 QStringLiteral("≥ %1/pass tasks").arg(cost::formatSeconds(row.gpuSeconds)));
    }
    void hostSyncCountsThePassOperations() {
        // nitime utils.py adaptive_weights' shape: a convergence loop whose pass runs, besides
        // the host read of the test, k = e * s (1), k /= e * s + 1.0 (the in-place divide, *,
        // +: 3), s = np.sum(k**2 * d, axis=0) (**, *, sum: 3) and the test's np.percentile(s**2,
        // 95) (**, percentile: 2): 9 array operations, at least one task each, >= 90 µs per
        // step (plus the 1-byte flag over PCIe), not the sync's lone 10 µs.
        const QByteArray src("import numpy as np\n"
                             "def adapt(d: np.ndarray, e: np.ndarray, max_iter):\n"
                             "    s = d.mean(axis=0)\n"
                             "    for n in range(max_iter):\n"
                             "        k = e * s\n"
                             "        k /= e * s + 1.0\n"
                             "        s = np.sum(k**2 * d, axis=0)\n"
                             "        if np.percentile(s**2, 95) < 1e-12:\n"
                             "            break\n"
                             "    return s\n");
        const std::optional<Finding> sync = firstFinding(src, "R105");
        QVERIFY2(sync, qPrintable(codesOf(src)));
        QCOMPARE(sync->work.passOps, quint16(9));
        cost::Inputs in = h100(0);
        in.sizeSource = cost::SizeSource::Default;
        const cost::SiteCost c = cost::estimate(*sync, in);
        QVERIFY2(c.sizeKnown, qPrintable(c.unknownWhy));
        QCOMPARE(c.tasksPerPass, 9.0);
        QVERIFY2(near(c.gpuSeconds, 90e-6 + 1 / 64e9), qPrintable(c.assumption));
        QVERIFY(c.dataUnknown);
        QVERIFY2(c.assumption.contains(QStringLiteral("the pass runs 9 array operations for sure")),
                 qPrintable(c.assumption));
        QVERIFY2(cost::formatBound(c).contains(QStringLiteral("tasks only, data size unknown")),
                 qPrintable(cost::formatBound(c)));
    }
    void uncostedRecipesFollowCostedOnes() {
        // The example's shape: a module-level np.vectorize never called (R102, RR-where, no size),
        // a 4096 x 4096 allocation per step (R201, RR-alloc: 134 MB / 3.35 TB/s = 40 µs) and an
        // in-place candidate on it (R202, RR-inplace, same site). RR-where comes first by
        // priority (30 against 60, 61), but has no bound: the costed recipes come first, the
        // site's tie broken by priority (RR-alloc before RR-inplace), then RR-where.
        const QByteArray src("import numpy as np\n"
                             "def _classify(v):\n"
                             "    return 1 if v > 0 else 0\n"
                             "classify_all = np.vectorize(_classify)\n"
                             "def run(n_steps):\n"
                             "    acc = np.zeros((4096, 4096))\n"
                             "    for t in range(n_steps):\n"
                             "        buf = np.zeros((4096, 4096))\n"
                             "        acc = acc + buf\n"
                             "    return acc\n");
        const Analysed a = analyse({{QStringLiteral("m.py"), src}}, {});
        QStringList recipes;
        for (const NextStep& s : recommendedSteps(a.report()))
            if (s.kind == QStringLiteral("recipe"))
                recipes << s.recipe;
        QCOMPARE(recipes.join(QLatin1Char(' ')), QStringLiteral("RR-alloc RR-inplace RR-where"));
    }
};

QTEST_GUILESS_MAIN(TestCost)
#include "tst_cost.moc"
