#include "assess/Assessment.h"

#include "assess/AssessInternals.h"
#include "assess/GpuCatalog.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace cnready::assessment {

// PRODUCT.md, Gate 1: a known Volta+ GPU passes, with CUDA and the OS stated as assumed when
// they are not given (the seed applies stated defaults rather than blocking on questions); a
// value known to be wrong fails; no GPU or compute capability at all is uncertain.
Gate hardwareGate(const Context& c) {
    Gate g{1, QStringLiteral("Hardware"), GateStatus::Uncertain, {}, {}};
    QStringList fails, unknown, ok;
    const bool knownGpu = c.computeCapability >= 7.0;
    if (c.computeCapability > 0) {
        const QString what =
            c.gpuModel.isEmpty()
                ? QStringLiteral("compute capability %1").arg(c.computeCapability, 0, 'f', 1)
                : QStringLiteral("%1 (compute capability %2)")
                      .arg(c.gpuModel)
                      .arg(c.computeCapability, 0, 'f', 1);
        if (c.computeCapability < 7.0)
            fails << QStringLiteral("%1 is below 7.0; cuPyNumeric needs Volta or newer").arg(what);
        else
            ok << QStringLiteral("%1 >= 7.0").arg(what);
    } else {
        unknown << (c.gpuModel.isEmpty()
                        ? QStringLiteral("GPU not given (needs compute capability >= 7.0)")
                        : QStringLiteral("GPU '%1' not in the catalog (needs compute "
                                         "capability >= 7.0)")
                              .arg(c.gpuModel));
    }
    if (!c.cuda.isEmpty()) {
        const int major = c.cuda.section(QLatin1Char('.'), 0, 0).toInt();
        if (major == 12 || major == 13)
            ok << QStringLiteral("CUDA %1").arg(c.cuda);
        else
            fails << QStringLiteral("CUDA %1 is not 12.x or 13.x; fix the toolchain first")
                         .arg(c.cuda);
    } else if (knownGpu) {
        ok << QStringLiteral("CUDA %1 assumed (not given)").arg(QLatin1String(kAssumedCuda));
    } else {
        unknown << QStringLiteral("CUDA not given (needs 12.x or 13.x)");
    }
    if (!c.os.isEmpty()) {
        if (c.os == QLatin1String("linux") || c.os == QLatin1String("wsl2") ||
            c.os == QLatin1String("wsl"))
            ok << (c.os == QLatin1String("linux") ? QStringLiteral("Linux")
                                                  : QStringLiteral("WSL2"));
        else if (c.os == QLatin1String("macos") || c.os == QLatin1String("darwin"))
            fails << QStringLiteral("macOS is not supported (Linux or WSL2 needed)");
        else if (c.os == QLatin1String("windows"))
            fails << QStringLiteral("native Windows is not supported (use WSL2)");
        else
            unknown << QStringLiteral("OS '%1' unknown (Linux or WSL2 needed)").arg(c.os);
    } else if (knownGpu) {
        ok << QStringLiteral("%1 assumed (not given)").arg(QLatin1String(kAssumedOs));
    } else {
        unknown << QStringLiteral("OS not given (needs Linux or WSL2)");
    }
    if (!fails.isEmpty()) {
        g.status = GateStatus::Fail;
        g.reason = fails.join(QStringLiteral("; "));
    } else if (unknown.isEmpty()) {
        // A supported GPU is known, and the toolchain and the OS are confirmed or assumed
        // (stated as such in the reason and the context table).
        g.status = GateStatus::Pass;
        g.reason = (ok + unknown).join(QStringLiteral("; "));
    } else {
        g.status = GateStatus::Uncertain;
        g.reason = (ok + unknown).join(QStringLiteral("; "));
    }
    return g;
}

} // namespace cnready::assessment
