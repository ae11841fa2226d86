#pragma once
// Shared by the GUI stall tests (tst_studio_large, tst_studio_preview): the figures they read
// from Linux to tell the GUI thread's own work from time spent waiting for a CPU, and the
// generated NumPy project they open.

#include "CorpusGenerator.h"

#include <QDir>
#include <QFile>
#include <QString>

#include <optional>

namespace cnready::testing {

// The timing figures are for the optimised programs. An unoptimised or sanitizer build
// (the CI's ASan+UBSan suite runs everything 3-10x slower) still runs the whole scenario and
// checks its results, but only prints the timings.
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__)
inline constexpr bool kTimingsAsserted = true;
#else
inline constexpr bool kTimingsAsserted = false;
#endif

struct SchedSample {
    qint64 runMs = 0;  ///< time on a CPU
    qint64 waitMs = 0; ///< time ready to run but waiting for a CPU
};

// The calling thread's scheduler statistics (Linux), or nothing when unavailable.
inline std::optional<SchedSample> threadSched() {
    QFile f(QStringLiteral("/proc/thread-self/schedstat"));
    if (!f.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QList<QByteArray> parts = f.readAll().simplified().split(' ');
    if (parts.size() < 2)
        return std::nullopt;
    bool ok1 = false, ok2 = false;
    const qint64 run = parts[0].toLongLong(&ok1);
    const qint64 wait = parts[1].toLongLong(&ok2);
    if (!ok1 || !ok2)
        return std::nullopt;
    return SchedSample{run / 1000000, wait / 1000000};
}

// One event-loop slice of the GUI thread: the time between two ticks of a timer on it.
struct Slice {
    qint64 wall = 0; ///< wall-clock length
    qint64 wait = 0; ///< of which the thread waited for a CPU (run queue)
    qint64 busy = 0; ///< of which the thread ran on a CPU
    qint64 own =
        0; ///< wall minus run-queue wait: working or blocked (the raw wall without schedstat)
};

// Cuts the GUI thread's time into slices at each tick (`now`: ms of the test's clock).
class SliceClock {
public:
    Slice next(qint64 now) {
        const SchedSample s = threadSched().value_or(SchedSample{});
        Slice slice;
        slice.wall = now - m_last;
        slice.wait = s.waitMs - m_lastSched.waitMs;
        slice.busy = s.runMs - m_lastSched.runMs;
        slice.own = m_haveSched ? qMax<qint64>(0, slice.wall - slice.wait) : slice.wall;
        m_last = now;
        m_lastSched = s;
        return slice;
    }
    /// Whether the run-queue wait is known (Linux schedstat); without it `own` is the wall.
    bool haveSched() const { return m_haveSched; }

private:
    bool m_haveSched = threadSched().has_value();
    qint64 m_last = 0;
    SchedSample m_lastSched = threadSched().value_or(SchedSample{});
};

// The 1-minute load average, or -1 when unknown.
inline double loadAverage() {
    QFile f(QStringLiteral("/proc/loadavg"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    bool ok = false;
    const double load = f.readAll().split(' ').value(0).toDouble(&ok);
    return ok ? load : -1;
}

// `files` generated modules of `minLines`-`maxLines` lines (imports, stencils, reductions,
// element loops, classes), 100 per package folder, as a research code base is laid out.
inline bool writeProject(const QString& root, int files, quint64 seed, int minLines, int maxLines) {
    bench::Random sizes(seed);
    for (int i = 0; i < files; ++i) {
        const QString dir = root + QStringLiteral("/pkg%1").arg(i / 100, 2, 10, QLatin1Char('0'));
        if (i % 100 == 0 && !QDir().mkpath(dir))
            return false;
        QFile f(dir + QStringLiteral("/mod%1.py").arg(i, 4, 10, QLatin1Char('0')));
        if (!f.open(QIODevice::WriteOnly) ||
            f.write(bench::generateModule(seed, i, sizes.range(minLines, maxLines))) < 0)
            return false;
    }
    return true;
}

} // namespace cnready::testing
