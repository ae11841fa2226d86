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

QString bandwidthText(double gbps) {
    return gbps >= 1000 ? QStringLiteral("~%1 TB/s").arg(QString::number(gbps / 1000, 'g', 3))
                        : QStringLiteral("~%1 GB/s").arg(QString::number(gbps, 'g', 3));
}

} // namespace

Inputs inputsFor(const Context& context, double hostGBps) {
    Inputs in;
    in.elements = std::max<qint64>(0, context.totalElements);
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

SiteCost estimate(const Finding& f, const Inputs& in) {
    SiteCost c;
    c.site = findingSite(f);
    c.code = f.code;
    c.category = f.category;
    const SiteWork& w = f.work;
    const double n = double(in.elements);
    const double bytes = w.bytesPerElement > 0 ? w.bytesPerElement : 8;
    const double gpus = std::max(1, in.gpus);
    const double bandwidth = in.gpuBandwidthGBps * kGB * gpus;
    const double link = in.pcieGBps * kGB * gpus;
    const double host = in.hostBandwidthGBps * kGB;
    double arrayElements = -1; // -1: unknown
    if (w.size == SiteWork::Size::Data)
        arrayElements = n;
    else if (w.size == SiteWork::Size::Small && w.smallElements > 0)
        arrayElements = double(w.smallElements);
    c.passesPerStep = std::max(1, int(w.smallPasses));
    QString premise; // what the figure assumes about the code
    auto unknown = [&c](const QString& why) {
        c.sizeKnown = false;
        c.unknownWhy = why;
        return c;
    };
    if (!w.known)
        return unknown(QStringLiteral("no workload facts"));

    if (isElementCode(f.code)) {
        c.kind = QStringLiteral("element loop");
        double iterations = 0;
        if (w.dataLoops > 0) {
            iterations = n * w.smallPasses;
            premise = QStringLiteral("the loop nest visits each of the %1 hot-path elements once")
                          .arg(formatCount(in.elements));
        } else if (w.smallPasses > 1) {
            iterations = w.smallPasses;
            premise = QStringLiteral("the loop's literal %1 iterations").arg(w.smallPasses);
        } else if (arrayElements > 0) {
            iterations = arrayElements;
            premise = QStringLiteral("one call per element of a %1-element array")
                          .arg(formatQuantity(arrayElements));
        } else {
            return unknown(QStringLiteral("the loop's trip count"));
        }
        const double accesses = std::max<int>(1, w.elementAccesses);
        c.passesPerStep = 1; // the loop's iterations are the tasks of its one pass
        c.tasksPerPass = iterations * accesses;
        c.bytesPerPass = c.tasksPerPass * bytes;
    } else if (isSyncCode(f.code)) {
        c.kind = QStringLiteral("host sync");
        const bool scalar = w.scalarValue || f.code == QLatin1String("R105");
        const double perSync = scalar ? bytes : arrayElements > 0 ? arrayElements * bytes : -1;
        if (perSync < 0)
            return unknown(QStringLiteral("the size of the array brought to the host"));
        const double syncs = w.innermostData ? n : 1;
        // Literal loops around it (`for sweep in range(10_000)`) are passes of the step.
        c.tasksPerPass = syncs; // each sync drains the queue: at least one task's latency
        c.hostBytesPerStep = syncs * perSync * c.passesPerStep;
        c.bytesPerPass = syncs * perSync;
        premise = w.innermostData
                      ? QStringLiteral("one round trip per element of the %1-element loop")
                            .arg(formatQuantity(n))
                      : QStringLiteral("one round trip of %1 per pass, the value read being "
                                       "one number")
                            .arg(formatBytes(perSync));
    } else if (f.code == QLatin1String("R203")) {
        c.kind = QStringLiteral("growing stack");
        double p = 0;
        double piece = 1; // elements appended per pass
        if (w.innermostData && !w.innermostSlab) {
            p = n;
            premise = QStringLiteral("one element appended per hot-path element (%1), each "
                                     "append copying the stack so far")
                          .arg(formatQuantity(n));
        } else if (w.innermostData) {
            p = std::max(1.0, std::floor(std::sqrt(n)));
            piece = p;
            premise = QStringLiteral("%1 appends of a %1-element slab (a square %2-element "
                                     "array), each copying the stack so far")
                          .arg(formatQuantity(p), formatQuantity(n));
        } else if (w.smallPasses > 1) {
            p = w.smallPasses;
            piece = arrayElements > 0 && w.size == SiteWork::Size::Small ? arrayElements : 1;
            premise = QStringLiteral("%1 appends, each copying the stack so far").arg(p);
        } else if (w.stepLoops > 0) {
            return unknown(QStringLiteral("the step count (the stack grows every step)"));
        } else {
            return unknown(QStringLiteral("the number of appends"));
        }
        // Pass k copies the k pieces already stacked: p(p+1)/2 pieces, read and written.
        c.passesPerStep = 1;
        c.tasksPerPass = p;
        c.bytesPerPass = 2 * bytes * piece * p * (p + 1) / 2;
    } else {
        c.kind = QStringLiteral("whole-array");
        if (arrayElements < 0)
            return unknown(QStringLiteral("the array size"));
        if (w.dataLoops > 0) {
            // A slab loop over a data extent: one pass per row of a square array.
            const double rows = std::max(1.0, std::floor(std::sqrt(arrayElements)));
            c.passesPerStep *= rows;
            c.bytesPerPass = 2 * bytes * arrayElements / rows;
            premise = QStringLiteral("one pass per row of a square %1-element array, each "
                                     "reading and writing its row once")
                          .arg(formatQuantity(arrayElements));
        } else {
            c.bytesPerPass = 2 * bytes * arrayElements;
            premise = QStringLiteral("one task reading and writing the %1-element array once "
                                     "per pass")
                          .arg(formatQuantity(arrayElements));
        }
        c.tasksPerPass = 1;
    }
    c.sizeKnown = true;
    const double taskTime = c.tasksPerPass * in.taskSeconds;
    const double memoryTime = c.hostBytesPerStep > 0 ? 0 : c.bytesPerPass / bandwidth;
    const double linkTime = c.hostBytesPerStep > 0 ? c.bytesPerPass / link : 0;
    // Per pass: the tasks' latency and the memory traffic overlap at best (the larger bounds
    // it); a host round trip waits for the drain, then moves its bytes (they add).
    double perPass = std::max(taskTime, memoryTime) + linkTime;
    c.dominant = taskTime >= std::max(memoryTime, linkTime) ? Dominant::Tasks
                 : linkTime > memoryTime                    ? Dominant::HostLink
                                                            : Dominant::Bandwidth;
    c.gpuSeconds = perPass * c.passesPerStep;
    if (c.hostBytesPerStep > 0 && c.dominant == Dominant::HostLink)
        c.gpuSecondsHigh =
            c.passesPerStep * (taskTime + c.bytesPerPass / (kPageablePcieGBps * kGB));
    c.numpySeconds = c.passesPerStep * c.bytesPerPass / host;
    const QString gpu =
        QStringLiteral("%1 (%2)").arg(bandwidthText(in.gpuBandwidthGBps), in.gpuName);
    const QString numpy =
        QStringLiteral("against ≥ %1 in NumPy at %2")
            .arg(formatSeconds(c.numpySeconds), bandwidthText(in.hostBandwidthGBps));
    QString what;
    switch (c.dominant) {
    case Dominant::Tasks:
        what =
            QStringLiteral("≈ %1 task%2 per pass × ≥ 10 µs ≥ %3 per pass")
                .arg(formatQuantity(c.tasksPerPass),
                     c.tasksPerPass == 1 ? QString() : QStringLiteral("s"), formatSeconds(perPass));
        break;
    case Dominant::Bandwidth:
        what = QStringLiteral("≈ %1 per pass at %2%3 ≥ %4 per pass")
                   .arg(formatBytes(c.bytesPerPass), gpu,
                        in.gpus > 1 ? QStringLiteral(" × %1 GPUs").arg(in.gpus) : QString(),
                        formatSeconds(perPass));
        break;
    case Dominant::HostLink:
        what = QStringLiteral("≈ %1 per pass over PCIe %2%3 ≥ %4 per pass")
                   .arg(formatBytes(c.bytesPerPass), bandwidthText(in.pcieGBps),
                        in.gpus > 1 ? QStringLiteral(" × %1 GPUs").arg(in.gpus) : QString(),
                        formatSeconds(perPass));
        break;
    }
    c.assumption = QStringLiteral("%1, %2; assumes %3").arg(what, numpy, premise);
    if (c.passesPerStep > 1)
        c.assumption += QStringLiteral(", %1 passes per step").arg(formatQuantity(c.passesPerStep));
    return c;
}

QList<SiteCost> estimateSites(const QList<Finding>& findings, const Inputs& in,
                              const QSet<QString>& skipPaths) {
    QList<SiteCost> out;
    QHash<SourceRange, qsizetype> bySite;
    for (const Finding& f : findings) {
        if (f.category == Category::Info || !findingOnHotPath(f) ||
            skipPaths.contains(f.range.path))
            continue;
        const SiteCost c = estimate(f, in);
        const auto it = bySite.constFind(c.site);
        if (it == bySite.cend()) {
            bySite.insert(c.site, out.size());
            out << c;
            continue;
        }
        SiteCost& kept = out[*it];
        // The larger lower bound is the site's (two findings of one loop share its work).
        if ((c.sizeKnown && !kept.sizeKnown) ||
            (c.sizeKnown && kept.sizeKnown && c.gpuSeconds > kept.gpuSeconds))
            kept = c;
    }
    std::stable_sort(out.begin(), out.end(), [](const SiteCost& a, const SiteCost& b) {
        if (a.sizeKnown != b.sizeKnown)
            return a.sizeKnown;
        if (a.sizeKnown && a.gpuSeconds != b.gpuSeconds)
            return a.gpuSeconds > b.gpuSeconds;
        if (a.site.path != b.site.path)
            return a.site.path < b.site.path;
        return a.site.line < b.site.line;
    });
    return out;
}

QString formatSeconds(double s) {
    if (s <= 0)
        return QStringLiteral("0 s");
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
    if (c.gpuSecondsHigh)
        return QStringLiteral("%1 – %2").arg(formatSeconds(c.gpuSeconds),
                                             formatSeconds(*c.gpuSecondsHigh));
    return QStringLiteral("≥ %1").arg(formatSeconds(c.gpuSeconds));
}

QString dominantKey(Dominant d) {
    switch (d) {
    case Dominant::Tasks:
        return QStringLiteral("tasks");
    case Dominant::Bandwidth:
        return QStringLiteral("bandwidth");
    case Dominant::HostLink:
        return QStringLiteral("host-link");
    }
    return {};
}

} // namespace cnready::cost
