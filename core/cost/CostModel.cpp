#include "cost/CostModel.h"

#include "assess/Assessment.h"
#include "assess/GpuCatalog.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace cnready::cost {

namespace {

constexpr double kGB = 1e9;

bool isElementCode(const QString& c) {
    return c == QLatin1String("R101") || c == QLatin1String("R102") || c == QLatin1String("R103") ||
           c == QLatin1String("R110");
}
bool isSyncCode(const QString& c) {
    return c == QLatin1String("R104") || c == QLatin1String("R105");
}

/// Two significant digits below 100, whole numbers above: "0.25", "89", "2739".
QString num(double v) {
    return v >= 100 ? QString::number(v, 'f', 0) : QString::number(v, 'g', 2);
}

/// "8 B", "268 MB", "1.1 PB" (decimal units, two significant digits).
QString formatBytes(double b) {
    static const char* const units[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
    int u = 0;
    while (b >= 1000 && u < 6) {
        b /= 1000;
        ++u;
    }
    return QStringLiteral("%1 %2").arg(num(b), QLatin1String(units[u]));
}

/// "2nd", "100th": an ordinal for "every k-th step".
QString ordinal(qint64 k) {
    const qint64 tens = k % 100;
    const qint64 last = k % 10;
    const char* suffix = tens >= 11 && tens <= 13 ? "th"
                         : last == 1              ? "st"
                         : last == 2              ? "nd"
                         : last == 3              ? "rd"
                                                  : "th";
    return QString::number(k) + QLatin1String(suffix);
}

/// "40 M", "1.1 T": a count with two significant digits.
QString formatQuantity(double n) {
    if (n < 1e4)
        return QString::number(n, 'f', 0);
    static const char* const units[] = {"k", "M", "G", "T", "P", "E"};
    int u = -1;
    while (n >= 1000 && u < 5) {
        n /= 1000;
        ++u;
    }
    return QStringLiteral("%1 %2").arg(num(n), QLatin1String(units[u]));
}

/// ", and 2 calls handing a picked item to other code (≥ 1 task each, ...)", or empty.
QString passCallsText(const SiteWork& w) {
    if (w.passCalls == 0)
        return {};
    return QStringLiteral(", and %1 call%2 handing a picked item to other code (≥ 1 task each, "
                          "whatever the callee does)")
        .arg(w.passCalls)
        .arg(w.passCalls == 1 ? QString() : QStringLiteral("s"));
}

/// What one pass of a row loop does: its row accesses (one task each), its element accesses
/// and calls, and that the rows' length is not known.
QString rowPassText(const SiteWork& w) {
    const int rows = w.rowPicks;
    const int others = std::max(0, int(w.elementAccesses) - rows);
    auto plural = [](int n, const char* one, const char* many) {
        return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
    };
    QString t = rows > 0 ? QStringLiteral("one pass per row: %1 (a row read or written whole)")
                               .arg(plural(rows, "row access", "row accesses"))
                         : QStringLiteral("one pass per item the loops pick (its rank not known: "
                                          "a row or a number)");
    if (others > 0 || rows == 0)
        t += QStringLiteral(", %1").arg(rows > 0 ? plural(others, "other access", "other accesses")
                                                 : plural(others, "access", "accesses"));
    t += QStringLiteral(", one task each");
    if (w.passOps > 0)
        t += QStringLiteral(", %1").arg(plural(w.passOps, "array operation", "array operations"));
    return t + passCallsText(w) +
           QStringLiteral("; the rows' length is not known: size unknown, the data they touch "
                          "is not counted");
}

QString bandwidthText(double gbps) {
    return gbps >= 1000 ? QStringLiteral("~%1 TB/s").arg(QString::number(gbps / 1000, 'g', 3))
                        : QStringLiteral("~%1 GB/s").arg(QString::number(gbps, 'g', 3));
}

} // namespace

Inputs inputsFor(const Context& context, double hostGBps) {
    Inputs in;
    in.elements = std::max<qint64>(0, context.totalElements);
    in.sizeSource = context.sizeProvenance == Provenance::Given      ? SizeSource::Given
                    : context.sizeProvenance == Provenance::Inferred ? SizeSource::Inferred
                                                                     : SizeSource::Default;
    in.gpus = std::max(1, context.gpus);
    in.hostBandwidthGBps = hostGBps > 0                    ? hostGBps
                           : context.hostBandwidthGBps > 0 ? context.hostBandwidthGBps
                                                           : kDefaultHostBandwidthGBps;
    const GpuModel* g = context.gpuModel.isEmpty() ? nullptr : findGpu(context.gpuModel);
    if (g && g->memoryBandwidthGBps > 0) {
        in.gpuName = g->name;
        in.gpuBandwidthGBps = g->memoryBandwidthGBps;
        in.pcieGBps = g->pcieGBps > 0 ? g->pcieGBps : kAssumedPcieGBps;
        in.gpuAssumed = false;
    } else {
        in.gpuName = QStringLiteral("H100, assumed");
    }
    return in;
}

namespace {

/// A size with where it came from; elements < 0: unknown.
struct Sized {
    double elements = -1;
    QString from;
    bool known() const { return elements > 0; }
};

/// The size that stands for a site's symbolic data extents: the given size only. An inferred
/// project size is the size of one array; a site that touches it has its shape already (the
/// shapes follow values through the file's calls), and any other site would borrow the size
/// of an array it never touches. The assessor's default never stands in either.
Sized linkedSize(const QString& path, const Inputs& in) {
    Q_UNUSED(path);
    if (in.sizeSource == SizeSource::Given && in.elements > 0)
        return {double(in.elements), QStringLiteral("the given size")};
    return {};
}

/// The size of the largest array the site touches: its own literal shape, else linkedSize().
Sized arraySize(const SiteWork& w, const QString& path, const Inputs& in) {
    if (w.size == SiteWork::Size::Small && w.smallElements > 0)
        return {double(w.smallElements), QStringLiteral("its literal shape")};
    if (w.size != SiteWork::Size::Data)
        return {};
    if (w.dataElements > 0)
        return {double(w.dataElements), QStringLiteral("its own shape")};
    return linkedSize(path, in);
}

/// The GPUs a distributed operation on `elements` elements spreads over: all of them, but
/// never fewer than kMinGpuChunk elements each.
double sharingGpus(double elements, int gpus) {
    return std::clamp(std::ceil(elements / kMinGpuChunk), 1.0, double(std::max(1, gpus)));
}

/// Whether any loop of the site's function is around the site.
bool inLoop(const SiteWork& w) {
    return w.dataLoops + w.stepLoops + w.otherLoops > 0 || w.smallPasses > 1 || w.shapeTrips > 1 ||
           w.breaks || w.untilConverged;
}

} // namespace

SiteCost estimate(const Finding& f, const Inputs& in) {
    SiteCost c;
    c.site = findingSite(f);
    c.code = f.code;
    c.category = f.category;
    const SiteWork& w = f.work;
    const double bytes = w.bytesPerElement > 0 ? w.bytesPerElement : 8;
    const double host = in.hostBandwidthGBps * kGB;
    const Sized array = arraySize(w, f.range.path, in);
    const double arrayElements = array.known() ? array.elements : -1;
    // Passes per step: the literal loops around (a convergence loop's cap left out) and the
    // loops whose trip count the shapes give.
    const double literalPasses = std::max(1, int(w.smallPasses));
    const double knownPasses = literalPasses * double(std::max<qint64>(1, w.shapeTrips));
    c.passesPerStep = knownPasses;
    double gpusUsed = 1;           // the GPUs the work divides over (distributed work only)
    QString premise;               // what the figure assumes about the code
    double objectBytesPerStep = 0; // Python objects built on the host (`.tolist()`)
    auto unknown = [&c](const QString& why) {
        c.sizeKnown = false;
        c.unknownWhy = why;
        return c;
    };
    const QString trip = w.texts->trip.isEmpty() ? QStringLiteral("a loop")
                                                 : QStringLiteral("`%1`").arg(w.texts->trip.str());
    // The unit is one pass of the innermost loop of unknown trip count: the passes outside it
    // are not known, so none is counted.
    auto perPassOfUnknownLoop = [&]() {
        c.perPass = true;
        // An element loop over data runs once per datum: it ranks as kMinGpuChunk passes.
        c.perDataPass = w.unknownDataTrips > 0 && isElementCode(f.code);
        c.passNote = QStringLiteral("per pass of the loop over %1, whose trip count is not "
                                    "known from shapes")
                         .arg(trip);
        if (!w.texts->innerLoop.isEmpty() && !w.texts->outerLoop.isEmpty())
            c.passNote = QStringLiteral("per pass of the inner loop `%1`, whose trip count is "
                                        "not known from shapes; the passes of `%2` around it "
                                        "multiply it (not counted)")
                             .arg(w.texts->innerLoop.str(), w.texts->outerLoop.str());
        c.passesPerStep = 1;
    };
    c.perStep = w.stepLoops > 0 || w.untilConverged || w.calledInStep;
    if (!w.known)
        return unknown(QStringLiteral("no workload facts"));
    if (w.rebinding) {
        // `a, b = b, a`: two names change places; no element moves, no task runs.
        c.kind = QStringLiteral("rebinding");
        c.sizeKnown = true;
        c.tasksPerPass = 0;
        c.assumption = QStringLiteral("rebinding names moves no data and launches no task");
        return c;
    }
    if (array.known())
        c.sizeFrom = array.from;

    if (isElementCode(f.code)) {
        c.kind = QStringLiteral("element loop");
        // R102 and R110 are calls that walk an array element by element; R101 and R103 are
        // the loops themselves.
        const bool call = f.code == QLatin1String("R102") || f.code == QLatin1String("R110");
        double iterations = 0;
        double rowTasks = -1; // a loop over rows: its tasks, counted directly ...
        double rowPasses = 1; // ... in this many passes
        const bool dataNest = w.dataLoops > 0 || w.unknownDataTrips > 0;
        // A loop whose pass picks rows (`p[i]` of a 2-D `p`) runs once per row, not once per
        // element: one task per row operation, the rows' length not known.
        const bool rowPass =
            !call && f.code == QLatin1String("R101") && (w.rowPicks > 0 || w.passCalls > 0);
        // A builtin walking a row (R110 in a loop over rows) is that walk alone; the loop
        // (R103) adds its whole-row operations, at least one task per pass.
        const bool rowWalk = f.code == QLatin1String("R110") && w.rowLoop;
        const double ops = rowWalk ? 0 : std::max<int>(1, w.rowOps);
        const double walks = w.rowWalks;
        const QString walk = w.texts->rowWalk.isEmpty()
                                 ? QStringLiteral("a builtin")
                                 : QStringLiteral("`%1`").arg(w.texts->rowWalk.str());
        const QString opsText =
            rowWalk ? QString()
            : w.rowOps == 0
                ? QStringLiteral("at least 1 task")
                : QStringLiteral("%1 whole-row task%2")
                      .arg(formatQuantity(ops), ops == 1 ? QString() : QStringLiteral("s"));
        // `walkText`: how a pass's builtin walk reads the row, after the row loop's own tasks.
        auto walkText = [&](const QString& rest) {
            return opsText.isEmpty() ? QStringLiteral("%1 %2").arg(walk, rest)
                                     : QStringLiteral("%1 and %2 %3").arg(opsText, walk, rest);
        };
        if ((f.code == QLatin1String("R103") && w.rowLoop && !w.innermostSmall) || rowWalk) {
            // One pass takes one row: the pass's whole-row operations are one task each, a
            // builtin that walks the row reads it element by element (R110's pattern).
            const bool rowsKnown = w.unknownTrips == 0 && w.shapeTrips > 1;
            if (rowsKnown && (walks == 0 || w.rowElements > 0)) {
                rowTasks = knownPasses * (ops + walks * double(w.rowElements));
                premise =
                    QStringLiteral("%1 rows (trip counts from their shapes), each pass %2")
                        .arg(formatQuantity(knownPasses),
                             walks > 0 ? walkText(QStringLiteral("reading its %1 elements one "
                                                                 "task each")
                                                      .arg(formatQuantity(double(w.rowElements))))
                                       : opsText);
            } else if (walks > 0 && array.known() && w.unknownTrips == w.unknownDataTrips) {
                // The rows are not counted, but over all of them the builtin reads each element
                // of the array once: at least that many tasks, whatever the row length.
                rowTasks = literalPasses * walks * arrayElements;
                premise = QStringLiteral("%1 reads each row element by element, one task per "
                                         "element: over all rows each of the %2 elements of "
                                         "the array (%3) once, the rows' own tasks not counted")
                              .arg(walk, formatCount(qint64(arrayElements)), array.from);
            } else {
                // A walk over a row of unknown length has no size: an R110 on it is "size
                // unknown" (named by its site as a part left out), and the loop's R103 counts
                // its own whole-row tasks only.
                const bool lengthUnknown = walks > 0 && w.rowElements <= 0;
                if (rowWalk && lengthUnknown)
                    return unknown(QStringLiteral("the row's length"));
                if (w.unknownTrips > 0)
                    perPassOfUnknownLoop();
                else
                    rowPasses = knownPasses;
                rowTasks = ops + (lengthUnknown ? 0 : walks * double(w.rowElements));
                premise = QStringLiteral("one row per pass, %1")
                              .arg(walks == 0 ? opsText
                                   : lengthUnknown
                                       ? QStringLiteral("%1; %2 reads the row element by element, "
                                                        "the row's length not known (not counted)")
                                             .arg(opsText, walk)
                                       : walkText(QStringLiteral("reading its %1 elements one "
                                                                 "task each")
                                                      .arg(formatQuantity(double(w.rowElements)))));
            }
        } else if (!call && w.unknownTrips == 0 && w.shapeTrips > 1) {
            // Every loop's trip count is known: literal or from the shapes.
            iterations = knownPasses;
            premise = QStringLiteral("the loops' %1 iterations (trip counts from their shapes)")
                          .arg(formatQuantity(iterations));
        } else if (dataNest && w.unknownTrips == w.unknownDataTrips && !call && !rowPass &&
                   array.known()) {
            // The nest runs over the data extents of an array of known size.
            iterations = arrayElements * literalPasses;
            premise = QStringLiteral("the loop nest visits each of the %1 elements of its "
                                     "array once (%2)")
                          .arg(formatCount(qint64(arrayElements)), array.from);
            if (literalPasses > 1)
                premise +=
                    QStringLiteral(", %1 times (literal loops)").arg(formatQuantity(literalPasses));
        } else if (call && array.known() && w.unknownTrips == 0) {
            iterations = arrayElements * knownPasses;
            premise = QStringLiteral("one call per element of a %1-element array (%2)")
                          .arg(formatQuantity(arrayElements), array.from);
            if (knownPasses > 1)
                premise += QStringLiteral(", %1 times (the loops around)")
                               .arg(formatQuantity(knownPasses));
        } else if (w.unknownTrips > 0) {
            // One pass of the loop: its element accesses (a call walks its whole array).
            perPassOfUnknownLoop();
            iterations = call && array.known() ? arrayElements : 1;
            premise =
                call && array.known()
                    ? QStringLiteral("one call per element of a %1-element array (%2)")
                          .arg(formatQuantity(arrayElements), array.from)
                : rowPass
                    ? rowPassText(w)
                    : QStringLiteral("one iteration's element accesses%1").arg(passCallsText(w));
        } else if (literalPasses > 1 || w.innermostSmall) {
            // A short loop (`for k in range(3)`, `for name in ("a", "b")`, the axes of an
            // array): its own handful of iterations, not one per datum.
            iterations = literalPasses;
            premise = w.innermostSmall && literalPasses == 1
                          ? QStringLiteral("a short loop (trip count a handful, taken as 1)")
                          : QStringLiteral("the loop's literal %1 iterations")
                                .arg(formatQuantity(literalPasses));
        } else if (array.known()) {
            iterations = arrayElements;
            premise = QStringLiteral("one call per element of a %1-element array (%2)")
                          .arg(formatQuantity(arrayElements), array.from);
        } else {
            return unknown(QStringLiteral("the loop's trip count"));
        }
        // A pass's tasks: its element (or row) accesses and the calls handing a picked item to
        // project functions, or its array operations and those calls, whichever is more (an
        // access and the operation on it are often one task: count them once).
        const double accesses =
            call ? std::max<int>(1, w.elementAccesses)
                 : std::max({1, std::max(w.elementAccesses, w.rowPicks) + w.passCalls,
                             w.passOps + w.passCalls});
        if (rowTasks >= 0) {
            // A row loop: its tasks per pass (rowPasses passes), or all rows as one pass.
            c.passesPerStep = rowPasses;
            c.tasksPerPass = rowTasks;
            // A loop over rows (channels, windows) runs once per row, not once per datum: its
            // pass is not ranked as kMinGpuChunk passes.
            c.perDataPass = false;
        } else {
            c.passesPerStep = 1; // the loop's iterations are the tasks of its one pass
            c.tasksPerPass = iterations * accesses;
        }
        c.bytesPerPass = c.tasksPerPass * bytes;
        if (rowPass) {
            // The rows' length is not known: only the tasks are counted.
            c.kind = QStringLiteral("row loop");
            c.dataUnknown = true;
            c.bytesPerPass = 0;
            c.perDataPass = false; // once per row, not once per datum (see above)
        }
        // One task per element access, one after another: more GPUs do not help.
        gpusUsed = 1;
    } else if (isSyncCode(f.code)) {
        c.kind = QStringLiteral("host sync");
        const bool scalar = !w.wholeToHost && (w.scalarValue || f.code == QLatin1String("R105"));
        const double perSync = scalar ? bytes : arrayElements > 0 ? arrayElements * bytes : -1;
        if (perSync < 0)
            return unknown(QStringLiteral("the size of the array brought to the host"));
        double syncs = 1;
        if (w.unknownTrips > 0) {
            const Sized data = linkedSize(f.range.path, in);
            if (w.innermostData && w.unknownTrips == w.unknownDataTrips && data.known()) {
                syncs = data.elements;
                premise = QStringLiteral("one round trip per element of the %1-element loop "
                                         "(%2)")
                              .arg(formatQuantity(syncs), data.from);
            } else {
                perPassOfUnknownLoop();
            }
        }
        // Each sync drains the queue: at least one task's latency. The pass runs its other
        // array operations too (SiteWork::passOps, no fusion): at least one task each,
        // whatever their size, before the value can be read.
        c.tasksPerPass = syncs;
        if (inLoop(w) && w.passOps > 0) {
            c.passFloorTasks = double(w.passOps) * syncs;
            if (c.passFloorTasks > c.tasksPerPass)
                c.dataUnknown = true; // their data is not counted
        }
        c.bytesPerPass = syncs * perSync;
        c.hostBytesPerStep = c.bytesPerPass * c.passesPerStep;
        // A whole array crosses every GPU's link at once; one number comes from one GPU.
        gpusUsed = scalar ? 1 : sharingGpus(perSync / bytes, in.gpus);
        if (w.wholeToHost) {
            // Every element becomes a Python object on the host: >= 32 B written each.
            objectBytesPerStep = c.hostBytesPerStep / bytes * kPythonObjectBytes;
            premise = QStringLiteral("the whole %1-element array (%2, %3) crossing to the host "
                                     "on every pass, each element becoming a Python object "
                                     "(≥ 32 B written on the host)")
                          .arg(formatQuantity(perSync / bytes), formatBytes(perSync), array.from);
        } else if (premise.isEmpty()) {
            premise = QStringLiteral("one round trip of %1 per pass, the value read being "
                                     "one number")
                          .arg(formatBytes(perSync));
        }
        if (c.dataUnknown)
            premise += QStringLiteral("; the pass runs %1 array operation%2 for sure, one task "
                                      "each; the data they touch is not counted (size unknown)")
                           .arg(w.passOps)
                           .arg(w.passOps == 1 ? QString() : QStringLiteral("s"));
    } else if (f.code == QLatin1String("R203")) {
        c.kind = QStringLiteral("growing stack");
        if (!w.pieceKnown)
            return unknown(w.texts->piece.isEmpty()
                               ? QStringLiteral("the size of the appended value")
                               : QStringLiteral("the size of the appended value `%1`")
                                     .arg(w.texts->piece.str()));
        const double piece = double(w.pieceElements);
        double p = 0; // appends
        if (w.unknownTrips == 0 && knownPasses > 1) {
            p = knownPasses;
            premise = QStringLiteral("%1 appends of %2 element%3 each (trip counts from the "
                                     "loops), each copying the stack so far")
                          .arg(formatQuantity(p), formatQuantity(piece),
                               piece == 1 ? QString() : QStringLiteral("s"));
        } else if (w.unknownTrips > 0 && w.unknownTrips == w.unknownDataTrips && piece == 1 &&
                   linkedSize(f.range.path, in).known()) {
            const Sized data = linkedSize(f.range.path, in);
            p = data.elements;
            premise = QStringLiteral("one element appended per element of the %1-element "
                                     "data (%2), each append copying the stack so far")
                          .arg(formatQuantity(p), data.from);
        } else if (w.unknownTrips > 0) {
            // The first pass copies one piece; the later ones copy more.
            perPassOfUnknownLoop();
            p = 1;
            premise = QStringLiteral("%1 element%2 appended per pass; pass k copies the k "
                                     "pieces stacked so far, the bound is the first")
                          .arg(formatQuantity(piece), piece == 1 ? QString() : QStringLiteral("s"));
        } else if (w.stepLoops > 0) {
            return unknown(QStringLiteral("the step count (the stack grows every step)"));
        } else {
            return unknown(QStringLiteral("the number of appends"));
        }
        // Pass k copies the k pieces already stacked: p(p+1)/2 pieces, read and written.
        c.passesPerStep = 1;
        c.tasksPerPass = p;
        c.bytesPerPass = 2 * bytes * piece * p * (p + 1) / 2;
        gpusUsed = sharingGpus(piece * p, in.gpus);
    } else if (f.code == QLatin1String("R301")) {
        c.kind = QStringLiteral("host call");
        if (!array.known())
            return unknown(QStringLiteral("the size of the arrays handed to SciPy"));
        if (w.unknownTrips > 0)
            perPassOfUnknownLoop();
        // The array goes to the host and the result comes back: twice its bytes per call.
        c.tasksPerPass = 1;
        c.bytesPerPass = 2 * bytes * arrayElements;
        c.hostBytesPerStep = c.bytesPerPass * c.passesPerStep;
        gpusUsed = sharingGpus(arrayElements, in.gpus);
        premise = QStringLiteral("the %1-element array (%2) copied to the host for SciPy and "
                                 "back on every call")
                      .arg(formatQuantity(arrayElements), array.from);
    } else {
        c.kind = QStringLiteral("whole-array");
        // Without fusion each array operator of the statement is a task and each operand and
        // temporary a pass over the data (gpu-stack.md "L2 cache": `c = a*x + b*y` is three
        // tasks); a statement whose operators the probe did not count is one task, one read
        // and one write.
        const bool counted = w.statementOps > 0;
        const double ops = counted ? double(w.statementOps) : 1.0;
        const double sweeps = counted ? std::max(1.0, double(w.statementPasses)) : 2.0;
        const QString opsText =
            counted ? QStringLiteral("%1 task%2 (the statement's array operations, one task each "
                                     "without fusion)")
                          .arg(formatQuantity(ops), ops == 1 ? QString() : QStringLiteral("s"))
                    : QStringLiteral("one task");
        c.passFloorTasks = w.passOps;
        c.tasksPerPass = ops;
        if (!array.known()) {
            // In a loop a pass still runs its array operations, at least one task each,
            // whatever their size: a bound on the tasks, "size unknown" for the data.
            if (!inLoop(w))
                return unknown(QStringLiteral("the array size"));
            if (w.unknownTrips > 0)
                perPassOfUnknownLoop();
            c.dataUnknown = true;
            c.bytesPerPass = 0;
            premise = QStringLiteral("%1 per pass; the pass runs %2 array operation%3 for sure; "
                                     "the array size is not known: size unknown, the data they "
                                     "touch is not counted")
                          .arg(opsText)
                          .arg(w.passOps)
                          .arg(w.passOps == 1 ? QString() : QStringLiteral("s"));
        } else if (w.innermostSlab && (w.dataLoops > 0 || w.unknownTrips > 0)) {
            gpusUsed = sharingGpus(arrayElements, in.gpus);
            // A loop over a data extent whose pass works on one slab of the array.
            if (w.unknownTrips == 0 && w.shapeTrips > 1) {
                const double rows = double(w.shapeTrips);
                c.bytesPerPass = sweeps * bytes * arrayElements / rows;
                premise = QStringLiteral("%1 per pass on a slab of the %2-element array (%3), "
                                         "%4 slabs from the loop's shape, %5 sweeps over each "
                                         "slab (operands and temporaries)")
                              .arg(opsText, formatQuantity(arrayElements), array.from,
                                   formatQuantity(rows), formatQuantity(sweeps));
            } else {
                perPassOfUnknownLoop();
                c.bytesPerPass = 0; // the slab's share of the array is not known
                premise = QStringLiteral("%1 per pass on a slab of the %2-element array (%3), "
                                         "the slab's size not known")
                              .arg(opsText, formatQuantity(arrayElements), array.from);
            }
        } else {
            gpusUsed = sharingGpus(arrayElements, in.gpus);
            if (w.unknownTrips > 0)
                perPassOfUnknownLoop();
            c.bytesPerPass = sweeps * bytes * arrayElements;
            premise = counted ? QStringLiteral("%1 making %2 sweeps over the %3-element array (%4) "
                                               "(operands and temporaries, each taken at the "
                                               "array's size)")
                                    .arg(opsText, formatQuantity(sweeps),
                                         formatQuantity(arrayElements), array.from)
                              : QStringLiteral("one task reading and writing the %1-element array "
                                               "(%2) once")
                                    .arg(formatQuantity(arrayElements), array.from);
        }
    }
    if (w.breaks && !c.perPass) {
        c.perPass = true;
        c.passNote = w.breakCap > 0
                         ? QStringLiteral("per pass until it converges (the loop ends by "
                                          "`break`, at most %1 passes)")
                               .arg(formatQuantity(double(w.breakCap)))
                         : QStringLiteral("per pass until it converges (the loop ends by "
                                          "`break`)");
    }
    if (w.untilConverged) {
        // One pass of the loop is one step; how many steps run depends on the data.
        c.untilConverged = true;
        const QString loop = w.texts->converge.isEmpty()
                                 ? QStringLiteral("the step loop")
                                 : QStringLiteral("`%1`").arg(w.texts->converge.str());
        c.stepNote =
            QStringLiteral("one pass of %1 is one step; the loop ends by `break`, so it runs "
                           "until it converges and the number of steps is not known%2")
                .arg(
                    loop,
                    w.convergeCap > 0
                        ? QStringLiteral(" (at most %1)").arg(formatQuantity(double(w.convergeCap)))
                        : QString());
    }
    // A run every k-th step: a k-th of a call per step (k known), else the bound is per call.
    double perRun = 1; // calls per pass of the loops counted in passesPerStep
    if (w.everyKth) {
        if (w.everyK > 1)
            perRun = 1.0 / double(w.everyK);
        else if (w.everyK == 0)
            c.perCall = true;
    }
    c.passesPerStep *= perRun;
    c.hostBytesPerStep *= perRun;
    objectBytesPerStep *= perRun;
    c.sizeKnown = true;
    c.gpusUsed = gpusUsed;
    const double bandwidth = in.gpuBandwidthGBps * kGB * gpusUsed;
    const double link = in.pcieGBps * kGB * gpusUsed;
    // The statement's own tasks, or the pass's array operations when they are more.
    const double passTasks = std::max(c.tasksPerPass, c.passFloorTasks);
    const double taskTime = passTasks * in.taskSeconds;
    const double memoryTime = c.hostBytesPerStep > 0 ? 0 : c.bytesPerPass / bandwidth;
    const double linkTime = c.hostBytesPerStep > 0 ? c.bytesPerPass / link : 0;
    c.ownTaskSeconds = c.tasksPerPass * in.taskSeconds * c.passesPerStep;
    c.passFloorSeconds = c.passFloorTasks * in.taskSeconds * c.passesPerStep;
    // The tasks the bound counts: one set of numbers for the text, the JSON and the sums.
    c.tasksPerPass = passTasks;
    c.taskSeconds = taskTime * c.passesPerStep;
    c.memorySeconds = memoryTime * c.passesPerStep;
    c.linkSeconds = linkTime * c.passesPerStep;
    c.hostObjectSeconds = objectBytesPerStep / host;
    // Per pass: the tasks' latency and the memory traffic overlap at best (the larger bounds
    // it); a host round trip waits for the drain, then moves its bytes (they add), and the
    // Python objects are built after the copy.
    double perPass = std::max(taskTime, memoryTime) + linkTime;
    const double objectTime = c.hostObjectSeconds;
    c.dominant = objectTime > std::max({taskTime * c.passesPerStep, c.memorySeconds, c.linkSeconds})
                     ? Dominant::HostObjects
                 : taskTime >= std::max(memoryTime, linkTime) ? Dominant::Tasks
                 : linkTime > memoryTime                      ? Dominant::HostLink
                                                              : Dominant::Bandwidth;
    c.gpuSeconds = perPass * c.passesPerStep + objectTime;
    if (c.hostBytesPerStep > 0 &&
        (c.dominant == Dominant::HostLink || c.dominant == Dominant::HostObjects))
        c.gpuSecondsHigh =
            c.passesPerStep * (taskTime + c.bytesPerPass / (kPageablePcieGBps * kGB * gpusUsed)) +
            objectTime;
    // Host NumPy: memory-bound, and never below the interpreter's floor of one Python-level
    // operation per task the port would launch (kPythonOpSeconds).
    const double numpyMemory = c.bytesPerPass / host;
    const double numpyPython = passTasks * kPythonOpSeconds;
    const double numpyPass = std::max(numpyMemory, numpyPython);
    c.numpySeconds = c.passesPerStep * numpyPass + objectTime;
    c.rankSeconds = c.gpuSeconds * (c.perPass && c.perDataPass ? kMinGpuChunk : 1.0);
    // The units of the text: one pass of the loop (a loop of unknown trip count, or several
    // known passes), one call (a site run every k-th step), else the bound's own unit. The
    // GPU and the NumPy figure of one sentence are always of the same unit.
    const double passes = c.passesPerStep / perRun; // passes per call, step or run
    const QString callUnit = w.everyKth  ? QStringLiteral("call")
                             : c.perStep ? QStringLiteral("step")
                                         : QStringLiteral("run");
    const QString passUnit = c.perPass || passes > 1 ? QStringLiteral("pass") : callUnit;
    const QString gpu =
        QStringLiteral("%1 (%2)").arg(bandwidthText(in.gpuBandwidthGBps), in.gpuName);
    const QString across =
        gpusUsed > 1 ? QStringLiteral(" × %1 GPUs").arg(int(gpusUsed)) : QString();
    const QString numpyBasis =
        numpyPython > numpyMemory
            ? QStringLiteral(" (≥ 0.1 µs of Python per operation, assumed)")
            : QStringLiteral(" at %1").arg(bandwidthText(in.hostBandwidthGBps));
    QString what;
    QString unit = passUnit;
    double numpyShown = numpyPass;
    switch (c.dominant) {
    case Dominant::Tasks:
        what = QStringLiteral("≈ %1 task%2 per %4 × ≥ 10 µs ≥ %3 per %4")
                   .arg(formatQuantity(passTasks), passTasks == 1 ? QString() : QStringLiteral("s"),
                        formatSeconds(perPass), passUnit);
        if ((c.kind == QLatin1String("element loop") || c.kind == QLatin1String("row loop")) &&
            in.gpus > 1)
            what += QStringLiteral(" (one after another, whatever the GPU count)");
        break;
    case Dominant::Bandwidth:
        what = QStringLiteral("≈ %1 per %5 at %2%3 ≥ %4 per %5")
                   .arg(formatBytes(c.bytesPerPass), gpu, across, formatSeconds(perPass), passUnit);
        break;
    case Dominant::HostLink:
        what = QStringLiteral("≈ %1 per %5 over PCIe %2%3 ≥ %4 per %5")
                   .arg(formatBytes(c.bytesPerPass), bandwidthText(in.pcieGBps), across,
                        formatSeconds(perPass), passUnit);
        break;
    case Dominant::HostObjects:
        // The objects are built once per call (or step): that unit for both figures.
        unit = callUnit;
        numpyShown = c.numpySeconds / perRun;
        what =
            QStringLiteral("≈ %1 of Python objects per %4 written at %2 ≥ %3 per %4")
                .arg(formatBytes(objectBytesPerStep / perRun), bandwidthText(in.hostBandwidthGBps),
                     formatSeconds(objectTime / perRun), callUnit);
        break;
    }
    c.assumption = QStringLiteral("%1, against ≥ %2 per %3 in NumPy%4")
                       .arg(what, formatSeconds(numpyShown), unit, numpyBasis);
    if (passes > 1 && unit == QLatin1String("pass"))
        c.assumption +=
            QStringLiteral("; %1 passes per %2: ≥ %3 per %2, against ≥ %4 in NumPy")
                .arg(formatQuantity(passes), callUnit, formatSeconds(c.gpuSeconds / perRun),
                     formatSeconds(c.numpySeconds / perRun));
    if (w.everyKth && w.everyK > 1)
        c.assumption += QStringLiteral("; it runs only every %1 step (%2): ≥ %3 per step, against "
                                       "≥ %4 per step in NumPy")
                            .arg(ordinal(w.everyK), w.texts->every.str(),
                                 formatSeconds(c.gpuSeconds), formatSeconds(c.numpySeconds));
    c.premise = QStringLiteral("assumes %1").arg(premise);
    if (c.perPass)
        c.premise += QStringLiteral("; the bound is %1").arg(c.passNote);
    if (c.untilConverged)
        c.premise += QStringLiteral("; %1").arg(c.stepNote);
    if (c.perCall)
        c.premise += QStringLiteral("; it runs only every k-th step (k = %1, not known): the "
                                    "bound is per call")
                         .arg(w.texts->every.str());
    c.assumption += QStringLiteral("; ") + c.premise;
    return c;
}

namespace {

/// Whether `inner` lies within the lines of `outer` (an element loop's span holds its body).
bool withinLines(const SourceRange& inner, const SourceRange& outer) {
    return inner.path == outer.path && inner.line >= outer.line &&
           std::max(inner.line, inner.endLine) <= std::max(outer.line, outer.endLine);
}

/// What combine() needs of one finding's cost: its figures, not its text. A large project has
/// ~50k hot sites; keeping every statement's whole SiteCost (its assumption in words, ~0.5 kB)
/// until the sites are combined cost tens of MB at the report's peak. The text of the one
/// finding that names the site is estimated again (estimate() is a pure function).
// The flags go last (96 bytes, not 104 with `sizeKnown` padded out between the pointer and
// the numbers).
struct Figures {
    const Finding* finding = nullptr;
    double gpuSeconds = 0;
    double taskSeconds = 0; ///< SiteCost::ownTaskSeconds: the statement's own tasks
    double deviceBytes = 0; ///< bytes through device memory per step
    double hostBytes = 0;   ///< bytes over the host link per step (SiteCost::hostBytesPerStep)
    double gpus = 1;        ///< SiteCost::gpusUsed
    double ownSeconds = 0;  ///< the bound without the pass floor (see larger())
    /// The host NumPy baseline of the statement's own work (its bytes, its own operations at
    /// the Python floor) and the Python floor of its pass's array operations: a site adds the
    /// former and takes at least the largest of the latter (the pass floor is the pass's, not
    /// each statement's).
    double numpyOwn = 0;
    double numpyFloor = 0;
    /// A host sync whose bound is its pass's array operations, their data not counted
    /// (SiteCost::dataUnknown): the site's data is known when another statement sizes it.
    bool syncFloor = false;
    double memorySeconds = 0;
    double linkSeconds = 0;
    double hostObjectSeconds = 0;
    double numpySeconds = 0;
    std::optional<double> gpuSecondsHigh;
    double passFloorSeconds = 0; ///< SiteCost::passFloorSeconds
    double rankFactor = 1;       ///< SiteCost::rankSeconds / gpuSeconds
    bool sizeKnown = false;
    bool perCall = false;     ///< SiteCost::perCall
    bool perStep = false;     ///< SiteCost::perStep
    bool dataUnknown = false; ///< SiteCost::dataUnknown
    /// A whole-array statement: it stands for the whole statement's array work, so the
    /// statement's members of unknown size are covered (one pass over its largest array).
    bool wholeArray = false;
};

Figures figuresOf(const Finding& f, const SiteCost& c, const Inputs& in) {
    const double host = in.hostBandwidthGBps * kGB;
    const double numpyOwn = std::max(c.passesPerStep * c.bytesPerPass / host,
                                     c.ownTaskSeconds / in.taskSeconds * kPythonOpSeconds) +
                            c.hostObjectSeconds;
    return Figures{&f,
                   c.gpuSeconds,
                   c.ownTaskSeconds,
                   c.hostBytesPerStep > 0 ? 0.0 : c.bytesPerPass * c.passesPerStep,
                   c.hostBytesPerStep,
                   c.gpusUsed,
                   std::max(c.ownTaskSeconds, c.memorySeconds) + c.linkSeconds +
                       c.hostObjectSeconds,
                   numpyOwn,
                   c.passFloorSeconds / in.taskSeconds * kPythonOpSeconds,
                   c.kind == QLatin1String("host sync") && c.dataUnknown,
                   c.memorySeconds,
                   c.linkSeconds,
                   c.hostObjectSeconds,
                   c.numpySeconds,
                   c.gpuSecondsHigh,
                   c.passFloorSeconds,
                   c.perPass && c.perDataPass ? kMinGpuChunk : 1.0,
                   c.sizeKnown,
                   c.perCall,
                   c.perStep,
                   c.dataUnknown,
                   c.kind == QLatin1String("whole-array") && !c.dataUnknown};
}

/// A site's statement: the findings counted once, as the largest of them. 136 bytes: a large
/// project has ~100k hot sites, most of one statement each, all held at once by the report.
struct Statement {
    /// The finding whose range is the statement's: the first one, or an element loop's (its
    /// whole span).
    const Finding* first = nullptr;
    Figures largest; ///< the member with the largest bound (a known one before unknown)
    /// The members of unknown size: left out of a known site's bound, and named.
    QList<const Finding*> unknown;
    bool loop = false; ///< an element-loop finding: findings inside its span join it
    const SourceRange& range() const { return first->range; }
};

/// The largest rank factor among the known statements: a site inside a loop over data of
/// unknown trip count ranks as kMinGpuChunk passes of it.
double rankFactorOf(const QList<Statement>& statements) {
    double f = 1;
    for (const Statement& s : statements)
        if (s.largest.sizeKnown)
            f = std::max(f, s.largest.rankFactor);
    return f;
}

/// "R001 line 35 (the array size)" for each statement of unknown size of a site, once each.
QStringList unknownPartsOf(const QList<Statement>& statements, const Inputs& in) {
    QStringList out;
    for (const Statement& s : statements) {
        if (s.largest.sizeKnown && s.largest.wholeArray)
            continue; // one pass over the statement's largest array stands for all of it
        for (const Finding* f : s.unknown) {
            const QString part = QStringLiteral("%1 line %2 (%3)")
                                     .arg(f->code)
                                     .arg(f->range.line)
                                     .arg(estimate(*f, in).unknownWhy);
            if (!out.contains(part))
                out << part;
        }
    }
    return out;
}

/// Appends to a known site's assumption that its bound covers only the known part, naming
/// the statements left out.
void noteUnknownParts(SiteCost& c, const QList<Statement>& statements, const Inputs& in) {
    c.unknownParts = unknownPartsOf(statements, in);
    if (c.unknownParts.isEmpty())
        return;
    c.assumption +=
        QStringLiteral("; the bound covers only the known part: %1 %2 no size the "
                       "model can read and %3 not counted")
            .arg(c.unknownParts.join(QLatin1String(", ")),
                 c.unknownParts.size() == 1 ? QStringLiteral("has") : QStringLiteral("have"),
                 c.unknownParts.size() == 1 ? QStringLiteral("is") : QStringLiteral("are"));
}

/// A statement's own bound: without the pass floor (the floor is the pass's, whichever
/// statement carries it), so that the largest member of a statement or a site is the one with
/// the most work of its own (a whole-array line's traffic, not the host read beside it).
double ownSeconds(const SiteCost& c) {
    return std::max(c.ownTaskSeconds, c.memorySeconds) + c.linkSeconds + c.hostObjectSeconds;
}
double ownSeconds(const Figures& f) {
    return f.ownSeconds;
}

/// Whether `a` is the larger member: known before unknown, then by ownSeconds(), then by the
/// whole bound.
template <typename A, typename B> bool larger(const A& a, const B& b) {
    if (a.sizeKnown != b.sizeKnown)
        return a.sizeKnown;
    if (!a.sizeKnown)
        return false;
    const double x = ownSeconds(a), y = ownSeconds(b);
    return x != y ? x > y : a.gpuSeconds > b.gpuSeconds;
}

/// Whether a site has a known statement in a step loop: then its statements outside any step
/// loop are set-up, once per run, and stay out of its per-step figures.
bool anyPerStep(const QList<Statement>& statements) {
    return std::any_of(statements.cbegin(), statements.cend(),
                       [](const Statement& s) { return s.largest.sizeKnown && s.largest.perStep; });
}

/// Whether statement `s` counts in its site's figures (not set-up outside a step loop of a site
/// with per-step statements).
bool counts(const Statement& s, bool perStepSite) {
    return s.largest.sizeKnown && (!perStepSite || s.largest.perStep);
}

/// The statement that names a site: the largest that counts in its figures.
qsizetype topOf(const QList<Statement>& statements) {
    const bool step = anyPerStep(statements);
    qsizetype top = 0;
    for (qsizetype i = 1; i < statements.size(); ++i) {
        const bool a = counts(statements[i], step), b = counts(statements[top], step);
        if (a != b ? a : larger(statements[i].largest, statements[top].largest))
            top = i;
    }
    return top;
}

/// The sums of the statements that count in a site's figures (see SiteCost).
struct Totals {
    double tasks = 0, floor = 0, memory = 0, link = 0, objects = 0, numpy = 0, high = 0;
    double deviceBytes = 0, hostBytes = 0;
    double numpyFloor = 0;           ///< the largest of the statements' Figures::numpyFloor
    double minGpus = 0, maxGpus = 0; ///< the GPUs the statements' work divides over
    bool allHigh = true;
    int known = 0;
    double gpuSeconds() const { return std::max({tasks, floor, memory}) + link + objects; }
};

Totals totalsOf(const QList<Statement>& statements) {
    const bool step = anyPerStep(statements);
    Totals t;
    for (const Statement& s : statements) {
        if (!counts(s, step))
            continue;
        const Figures& p = s.largest;
        ++t.known;
        t.tasks += p.taskSeconds;
        t.floor = std::max(t.floor, p.passFloorSeconds);
        t.memory += p.memorySeconds;
        t.link += p.linkSeconds;
        t.objects += p.hostObjectSeconds;
        t.numpy += p.numpyOwn;
        t.numpyFloor = std::max(t.numpyFloor, p.numpyFloor);
        t.deviceBytes += p.deviceBytes;
        t.hostBytes += p.hostBytes;
        t.minGpus = t.known == 1 ? p.gpus : std::min(t.minGpus, p.gpus);
        t.maxGpus = std::max(t.maxGpus, p.gpus);
        t.allHigh = t.allHigh && p.gpuSecondsHigh.has_value();
        t.high += p.gpuSecondsHigh.value_or(0);
    }
    return t;
}

/// "R201 line 12 (≥ 80 µs per run)" for each set-up statement of a site with per-step ones.
QStringList perRunPartsOf(const QList<Statement>& statements) {
    QStringList out;
    if (!anyPerStep(statements))
        return out;
    for (const Statement& s : statements)
        if (s.largest.sizeKnown && !s.largest.perStep)
            out << QStringLiteral("%1 line %2 (≥ %3 per run)")
                       .arg(s.largest.finding->code)
                       .arg(s.range().line)
                       .arg(formatSeconds(s.largest.gpuSeconds));
    return out;
}

/// Appends to a site's assumption the set-up statements left out of its per-step figures.
void notePerRunParts(SiteCost& c, const QList<Statement>& statements) {
    c.perRunParts = perRunPartsOf(statements);
    if (!c.perRunParts.isEmpty())
        c.assumption += QStringLiteral("; set-up outside the step loop, once per run, not added "
                                       "to the per-step bound: %1")
                            .arg(c.perRunParts.join(QLatin1String(", ")));
}

/// The site's cost from its statements (at least one): sums of the parts that count (see
/// counts()), combined as in estimate(); the largest of them gives the code, kind and premise.
/// A site of several statements leads its assumption with the site's totals (tasks, bytes, the
/// bound and the NumPy baseline, one unit), and its figures are those totals per unit of the
/// bound (passesPerStep 1): one set of numbers for the table, the text and the JSON.
SiteCost combine(const QList<Statement>& statements, const Inputs& in) {
    const qsizetype top = topOf(statements);
    SiteCost c = estimate(*statements[top].largest.finding, in);
    if (!c.sizeKnown)
        return c;
    if (statements.size() == 1) {
        c.parts = {QStringLiteral("%1 line %2").arg(c.code).arg(statements[top].range().line)};
        c.rankSeconds = c.gpuSeconds * rankFactorOf(statements);
        noteUnknownParts(c, statements, in);
        return c;
    }
    const bool step = anyPerStep(statements);
    const Totals t = totalsOf(statements);
    // Tasks only when a statement's data is not known, or when a host sync's pass floor stands
    // for array work no statement of the site sizes.
    bool unsized = false, syncFloor = false;
    for (const Statement& s : statements) {
        if (!counts(s, step))
            continue;
        c.parts << QStringLiteral("%1 line %2").arg(s.largest.finding->code).arg(s.range().line);
        (s.largest.syncFloor ? syncFloor : unsized) |= s.largest.dataUnknown;
    }
    c.dataUnknown = unsized || (syncFloor && t.deviceBytes <= 0);
    // The top statement first.
    const QString first =
        QStringLiteral("%1 line %2").arg(c.code).arg(statements[top].range().line);
    c.parts.removeOne(first);
    c.parts.prepend(first);
    const double taskTime = std::max(t.tasks, t.floor);
    c.ownTaskSeconds = t.tasks;
    c.taskSeconds = taskTime;
    c.passFloorSeconds = t.floor;
    c.memorySeconds = t.memory;
    c.linkSeconds = t.link;
    c.hostObjectSeconds = t.objects;
    c.gpuSeconds = t.gpuSeconds();
    c.dominant = t.objects > std::max({taskTime, t.memory, t.link}) ? Dominant::HostObjects
                 : taskTime >= std::max(t.memory, t.link)           ? Dominant::Tasks
                 : t.link > t.memory                                ? Dominant::HostLink
                                                                    : Dominant::Bandwidth;
    c.gpuSecondsHigh = t.allHigh ? std::optional<double>(t.high) : std::nullopt;
    c.numpySeconds = std::max(t.numpy, t.numpyFloor);
    if (t.known > 1) {
        // The site's figures are its totals per unit of the bound.
        c.passesPerStep = 1;
        c.tasksPerPass = taskTime / in.taskSeconds;
        c.passFloorTasks = t.floor / in.taskSeconds;
        c.bytesPerPass = t.deviceBytes + t.hostBytes;
        c.hostBytesPerStep = t.hostBytes;
        c.gpusUsed = t.maxGpus;
        const QString unit = c.perCall   ? QStringLiteral("call")
                             : c.perPass ? QStringLiteral("pass")
                             : c.perStep ? QStringLiteral("step")
                                         : QStringLiteral("run");
        const QString tasks = QStringLiteral("%1 task%2")
                                  .arg(formatQuantity(c.tasksPerPass),
                                       c.tasksPerPass == 1 ? QString() : QStringLiteral("s"));
        const QString across = t.maxGpus <= 1 ? QString()
                               : t.minGpus == t.maxGpus
                                   ? QStringLiteral(" × %1 GPUs").arg(int(t.maxGpus))
                                   : QStringLiteral(" over up to %1 GPUs").arg(int(t.maxGpus));
        QString what;
        switch (c.dominant) {
        case Dominant::Tasks:
            what = QStringLiteral("≈ %1 per %2 × ≥ 10 µs").arg(tasks, unit);
            break;
        case Dominant::Bandwidth:
            what = QStringLiteral("%6, ≈ %1 per %2 at %3 (%4)%5")
                       .arg(formatBytes(t.deviceBytes), unit, bandwidthText(in.gpuBandwidthGBps),
                            in.gpuName, across, tasks);
            break;
        case Dominant::HostLink:
            what =
                QStringLiteral("%5, ≈ %1 per %2 over PCIe %3%4")
                    .arg(formatBytes(t.hostBytes), unit, bandwidthText(in.pcieGBps), across, tasks);
            break;
        case Dominant::HostObjects:
            what = QStringLiteral("%2, Python objects built on the host taking %1")
                       .arg(formatSeconds(t.objects), tasks);
            break;
        }
        c.assumption = QStringLiteral("%1 statements (%2): %3 ≥ %4 per %5, against ≥ %6 per %5 in "
                                      "NumPy (at %7, at least 0.1 µs of Python per operation); "
                                      "the largest, %8, %9")
                           .arg(t.known)
                           .arg(c.parts.join(QLatin1String(", ")), what,
                                formatSeconds(c.gpuSeconds), unit, formatSeconds(c.numpySeconds),
                                bandwidthText(in.hostBandwidthGBps), first, c.premise);
    }
    c.rankSeconds = c.gpuSeconds * rankFactorOf(statements);
    noteUnknownParts(c, statements, in);
    notePerRunParts(c, statements);
    return c;
}

} // namespace

namespace {

/// One hot site: its statements, and its place in the order the sites were first seen.
struct Site {
    qsizetype seen = 0;
    QList<Statement> statements;
};

/// The hot sites of `findings` with their statements (no list of the sites in order beside
/// it: `seen` gives the order, and a large project has ~100k sites).
struct SiteTable {
    QHash<SourceRange, Site> bySite;
};

SiteTable siteTable(const FindingSelection& findings, const Inputs& in,
                    const QSet<QString>& skipPaths) {
    SiteTable t;
    QHash<SourceRange, Site>& bySite = t.bySite;
    for (const Finding& f : findings) {
        if ((f.category == Category::Info && f.code != QLatin1String("R301")) ||
            !findingOnHotPath(f) || skipPaths.contains(f.range.path) || f.work.rebinding)
            continue;
        const SiteCost c = estimate(f, in);
        auto it = bySite.find(c.site);
        if (it == bySite.end()) {
            it = bySite.insert(c.site, Site{bySite.size(), {}});
            // Most sites keep one statement: room for exactly one (an append would round the
            // block up to a power of two, 256 bytes for 152).
            it->statements.reserve(1);
        }
        QList<Statement>& statements = it->statements;
        const bool loop = isElementCode(f.code) && f.range.endLine > f.range.line;
        Statement* same = nullptr;
        for (Statement& s : statements) {
            if (s.range().line == f.range.line || (s.loop && withinLines(f.range, s.range())) ||
                (loop && withinLines(s.range(), f.range))) {
                same = &s;
                break;
            }
        }
        if (!same) {
            statements << Statement{&f, figuresOf(f, c, in), {}, loop};
            if (!c.sizeKnown)
                statements.last().unknown << &f;
            continue;
        }
        if (!c.sizeKnown)
            same->unknown << &f;
        if (loop && !same->loop) {
            same->first = &f;
            same->loop = true;
        }
        if (larger(c, same->largest))
            same->largest = figuresOf(f, c, in);
    }
    // A loop finding seen after statements of its body: fold them into it.
    for (Site& site : bySite) {
        QList<Statement>& statements = site.statements;
        for (qsizetype i = 0; i < statements.size(); ++i) {
            if (!statements[i].loop)
                continue;
            for (qsizetype j = statements.size() - 1; j >= 0; --j) {
                if (j == i || !withinLines(statements[j].range(), statements[i].range()))
                    continue;
                if (larger(statements[j].largest, statements[i].largest))
                    statements[i].largest = statements[j].largest;
                statements[i].unknown << statements[j].unknown;
                statements.removeAt(j);
                if (j < i)
                    --i;
            }
        }
    }
    return t;
}

/// combine()'s size class and lower bound, from the figures alone (the same sums in the
/// same order, so the same doubles).
SiteBound boundOf(const SourceRange& site, const QList<Statement>& statements) {
    const Figures& t = statements[topOf(statements)].largest;
    SiteBound b{site, t.sizeKnown, t.gpuSeconds, t.gpuSeconds * rankFactorOf(statements),
                !t.perCall};
    if (!t.sizeKnown || statements.size() == 1)
        return b;
    b.gpuSeconds = totalsOf(statements).gpuSeconds();
    b.rankSeconds = b.gpuSeconds * rankFactorOf(statements);
    return b;
}

/// Every site's bound with its statements, sorted as estimateSites() sorts.
QList<std::pair<SiteBound, const QList<Statement>*>> sortedBounds(const SiteTable& t) {
    // In the order first seen, then sorted stably: ties keep that order.
    QList<std::pair<SiteBound, const QList<Statement>*>> bounds(t.bySite.size());
    for (auto it = t.bySite.cbegin(); it != t.bySite.cend(); ++it)
        bounds[it->seen] = {boundOf(it.key(), it->statements), &it->statements};
    std::stable_sort(bounds.begin(), bounds.end(), [](const auto& x, const auto& y) {
        const SiteBound& a = x.first;
        const SiteBound& b = y.first;
        if (a.sizeKnown != b.sizeKnown)
            return a.sizeKnown;
        if (a.sizeKnown && a.rankSeconds != b.rankSeconds)
            return a.rankSeconds > b.rankSeconds;
        if (a.site.path != b.site.path)
            return a.site.path < b.site.path;
        return a.site.line < b.site.line;
    });
    return bounds;
}

} // namespace

QList<SiteCost> estimateSites(const FindingSelection& findings, const Inputs& in,
                              const QSet<QString>& skipPaths, qsizetype limit, qsizetype* total) {
    // The order comes from the figures; the text (assumption, parts) is built only for the
    // sites returned: a report table shows eight of ~50k.
    const SiteTable t = siteTable(findings, in, skipPaths);
    const QList<std::pair<SiteBound, const QList<Statement>*>> bounds = sortedBounds(t);
    if (total)
        *total = bounds.size();
    const qsizetype n = limit < 0 ? bounds.size() : std::min(limit, bounds.size());
    QList<SiteCost> out;
    out.reserve(n);
    for (qsizetype i = 0; i < n; ++i)
        out << combine(*bounds[i].second, in);
    return out;
}

qsizetype forEachSite(const FindingSelection& findings, const Inputs& in,
                      const QSet<QString>& skipPaths,
                      const std::function<bool(const SiteBound&)>& wanted,
                      const std::function<void(const SiteCost&)>& visit) {
    const SiteTable t = siteTable(findings, in, skipPaths);
    const QList<std::pair<SiteBound, const QList<Statement>*>> bounds = sortedBounds(t);
    for (const auto& b : bounds)
        if (wanted(b.first))
            visit(combine(*b.second, in));
    return bounds.size();
}

QList<SiteBound> estimateSiteBounds(const FindingSelection& findings, const Inputs& in,
                                    const QSet<QString>& skipPaths) {
    const SiteTable t = siteTable(findings, in, skipPaths);
    const QList<std::pair<SiteBound, const QList<Statement>*>> bounds = sortedBounds(t);
    QList<SiteBound> out;
    out.reserve(bounds.size());
    for (const auto& b : bounds)
        out << b.first;
    return out;
}

QString formatSeconds(double s) {
    if (s <= 0)
        return QStringLiteral("0 s");
    if (s < 1e-6)
        return num(s * 1e9) + QStringLiteral(" ns");
    if (s < 1e-3)
        return num(s * 1e6) + QStringLiteral(" µs");
    if (s < 1)
        return num(s * 1e3) + QStringLiteral(" ms");
    if (s < 3600)
        return num(s) + QStringLiteral(" s");
    if (s < 86400 * 2)
        return num(s / 3600) + QStringLiteral(" h");
    return num(s / 86400) + QStringLiteral(" days");
}

QString formatBound(const SiteCost& c) {
    if (!c.sizeKnown)
        return QStringLiteral("size unknown");
    // Per pass of a loop of unknown count, per step (one pass of the step loop around), per
    // call (a site run every k-th step, k unknown) or per run (once, outside any step loop).
    QString unit = c.perCall   ? QStringLiteral(" per call")
                   : c.perPass ? QStringLiteral(" per pass")
                   : c.perStep ? QStringLiteral(" per step")
                               : QStringLiteral(" per run");
    QStringList notes;
    if (c.perCall)
        notes << QStringLiteral("every k-th step, k not known");
    else if (c.perPass && c.perStep)
        notes << QStringLiteral("within a step");
    // What the site is ranked by, when it is not the bound itself.
    if (c.rankSeconds > c.gpuSeconds)
        notes << QStringLiteral("≥ %1 if it runs %2 passes, assumed: ranked by it")
                     .arg(formatSeconds(c.rankSeconds), formatCount(qint64(kMinGpuChunk)));
    if (c.untilConverged && !c.perPass)
        notes << QStringLiteral("until it converges");
    if (c.dataUnknown)
        notes << QStringLiteral("tasks only, data size unknown");
    if (!c.unknownParts.isEmpty())
        notes << QStringLiteral("known part only");
    if (!c.perRunParts.isEmpty())
        notes << QStringLiteral("set-up per run not added");
    if (!notes.isEmpty())
        unit += QStringLiteral(" (%1)").arg(notes.join(QLatin1String("; ")));
    if (c.gpuSecondsHigh)
        return QStringLiteral("%1 – %2%3")
            .arg(formatSeconds(c.gpuSeconds), formatSeconds(*c.gpuSecondsHigh), unit);
    return QStringLiteral("≥ %1%2").arg(formatSeconds(c.gpuSeconds), unit);
}

QString formatBoundShort(const SiteCost& c) {
    if (!c.sizeKnown)
        return QStringLiteral("size unknown");
    QString bound = c.gpuSecondsHigh
                        ? QStringLiteral("%1 – %2").arg(formatSeconds(c.gpuSeconds),
                                                        formatSeconds(*c.gpuSecondsHigh))
                        : QStringLiteral("≥ %1").arg(formatSeconds(c.gpuSeconds));
    bound += c.perCall          ? QStringLiteral("/call")
             : c.perPass        ? QStringLiteral("/pass")
             : c.untilConverged ? QStringLiteral(" conv.")
             : c.perStep        ? QStringLiteral("/step")
                                : QStringLiteral("/run");
    if (c.dataUnknown)
        bound += QStringLiteral(" tasks");
    if (!c.unknownParts.isEmpty())
        bound += QStringLiteral(" +?");
    if (c.rankSeconds > c.gpuSeconds)
        bound += QStringLiteral(", %1 ×65,536").arg(formatSeconds(c.rankSeconds));
    return bound;
}

QString dominantKey(Dominant d) {
    switch (d) {
    case Dominant::Tasks:
        return QStringLiteral("tasks");
    case Dominant::Bandwidth:
        return QStringLiteral("bandwidth");
    case Dominant::HostLink:
        return QStringLiteral("host-link");
    case Dominant::HostObjects:
        return QStringLiteral("host-objects");
    }
    return {};
}

} // namespace cnready::cost
