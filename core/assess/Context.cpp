#include "assess/Assessment.h"

#include "assess/AssessInternals.h"
#include "assess/GpuCatalog.h"
#include "cost/CostModel.h"

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

namespace cnready {

using namespace assessment;

QString givenEvidence(const ContextInput& given, const QString& option, const QString& value) {
    const QString file = given.origins.value(option);
    if (file.isEmpty())
        return value.isEmpty() ? QStringLiteral("--") + option
                               : QStringLiteral("--%1 %2").arg(option, value);
    return value.isEmpty() ? QStringLiteral("%1 (from %2)").arg(option, file)
                           : QStringLiteral("%1 = %2 (from %3)").arg(option, value, file);
}

Context resolveContext(const ProjectResult& project, const ContextInput& given) {
    Context c;
    c.gpusGiven = given.gpus.has_value();
    c.gpus = std::max(1, given.gpus.value_or(1));
    c.nodes = std::max(1, given.nodes.value_or(1));

    // Size.
    ContextValue sizeRow{QStringLiteral("elements"),
                         QStringLiteral("Hot-path array size (total)"),
                         {},
                         Provenance::Default,
                         {}};
    if (given.elementsPerGpu) {
        c.perGpuElements = *given.elementsPerGpu;
        c.totalElements = c.perGpuElements * c.gpus;
        c.sizeProvenance = Provenance::Given;
        sizeRow.evidence = QStringLiteral("%1 × %2 GPU%3")
                               .arg(givenEvidence(given, QStringLiteral("elements-per-gpu"),
                                                  formatCount(c.perGpuElements)))
                               .arg(c.gpus)
                               .arg(c.gpus == 1 ? QString() : QStringLiteral("s"));
    } else if (given.elements) {
        c.totalElements = *given.elements;
        c.sizeProvenance = Provenance::Given;
        sizeRow.evidence =
            givenEvidence(given, QStringLiteral("elements"), formatCount(c.totalElements));
    }
    // A size the script's entry code states counts only from a script: a file outside any
    // package (no `__init__.py` beside it), handing the array to a function of the project.
    // In a package module the `__main__` block is a self-test or a demo (pymatgen's
    // core/units.py, spectral's algorithms/perceptron.py), not the workload.
    QSet<QString> packageDirs, modules;
    for (const FileResult& f : project.files) {
        if (f.path.section(QLatin1Char('/'), -1) == QLatin1String("__init__.py"))
            packageDirs.insert(f.path.section(QLatin1Char('/'), 0, -2));
        modules.insert(f.moduleName);
    }
    const auto projectCallee = [&](const QString& canonical) {
        if (canonical.isEmpty())
            return true;
        // "pkg.sim.smooth" is a function of module "pkg.sim" (or of "sim" under a src/ root).
        const QString module = canonical.section(QLatin1Char('.'), 0, -2);
        for (const QString& m : modules)
            if (m == module || m.endsWith(QLatin1Char('.') + module) ||
                module.endsWith(QLatin1Char('.') + m))
                return true;
        return false;
    };
    const auto counts = [&](const FileResult& f, const SizeHint& h) {
        if (h.entryStated)
            return !packageDirs.contains(f.path.section(QLatin1Char('/'), 0, -2)) &&
                   projectCallee(h.handedTo);
        return !(h.literal && h.elements < kSizeFloor); // np.zeros(3): scratch, not the hot path
    };
    // Each file's own size evidence, chosen as below for the project (cost/CostModel.h).
    for (const FileResult& f : project.files) {
        if (f.isTest)
            continue;
        const SizeHint* best = nullptr;
        const SizeHint* bestConst = nullptr;
        for (const SizeHint& h : f.sizeHints) {
            if (!counts(f, h))
                continue;
            const SizeHint*& slot = h.feedsArray ? best : bestConst;
            if (!slot || h.elements > slot->elements)
                slot = &h;
        }
        if (const SizeHint* pick = best ? best : bestConst)
            c.fileSizes.insert(pick->range.path, *pick);
    }
    if (!given.elementsPerGpu && !given.elements) {
        // The largest array the (non-test) code builds from a constant size; failing that, the
        // largest size-named module constant. Literal-only sizes below the floor are ignored.
        const SizeHint* best = nullptr;
        const SizeHint* bestConst = nullptr;
        for (const FileResult& f : project.files) {
            if (f.isTest)
                continue;
            for (const SizeHint& h : f.sizeHints) {
                if (!counts(f, h))
                    continue;
                const SizeHint*& slot = h.feedsArray ? best : bestConst;
                if (!slot || h.elements > slot->elements)
                    slot = &h;
            }
        }
        const SizeHint* pick = best ? best : bestConst;
        if (pick) {
            c.totalElements = pick->elements;
            c.sizeNamed = pick->sizeNamed || pick->entryStated;
            c.sizeFeedsArray = pick->feedsArray;
            c.sizeProvenance = Provenance::Inferred;
            c.sizeEvidence = QStringLiteral("`%1:%2` %3")
                                 .arg(pick->range.path)
                                 .arg(pick->range.line)
                                 .arg(pick->expression);
            sizeRow.evidence =
                pick->entryStated
                    ? QStringLiteral("largest array built from a constant size, here by the "
                                     "script's entry code, which hands it to the computation: %1")
                          .arg(c.sizeEvidence)
                : pick->feedsArray
                    ? QStringLiteral("largest compute-path array built from a constant size: %1")
                          .arg(c.sizeEvidence)
                    : QStringLiteral("size-named constant (not seen feeding an "
                                     "array in its file): %1")
                          .arg(c.sizeEvidence);
        } else {
            c.totalElements = kDefaultElements;
            c.sizeProvenance = Provenance::Default;
            sizeRow.evidence = QStringLiteral("assumed: no size given, and no data array on "
                                              "the compute path is sized in the code; the "
                                              "assessor's default range, worked with as 40 M");
        }
    }
    if (!given.elementsPerGpu)
        c.perGpuElements = c.totalElements / c.gpus;
    sizeRow.provenance = c.sizeProvenance;
    sizeRow.value = c.sizeProvenance == Provenance::Default
                        ? QStringLiteral("30–50 M (default)")
                        : QStringLiteral("%1 elements").arg(formatCount(c.totalElements));

    ContextValue gpusRow{QStringLiteral("gpus"),
                         QStringLiteral("GPUs"),
                         QString::number(c.gpus),
                         c.gpusGiven ? Provenance::Given : Provenance::Default,
                         {}};
    gpusRow.evidence = c.gpusGiven
                           ? givenEvidence(given, QStringLiteral("gpus"), QString::number(c.gpus))
                           : QStringLiteral("1–4 GPUs on one node assumed; the per-GPU "
                                            "floor is checked for 1 GPU");
    if (!c.gpusGiven)
        gpusRow.value = QStringLiteral("1–4 on one node (default)");

    ContextValue perRow{QStringLiteral("perGpu"),
                        QStringLiteral("Array size per GPU"),
                        c.sizeProvenance == Provenance::Default && c.gpus == 1
                            ? QStringLiteral("40 M (default, 1 GPU)")
                            : QStringLiteral("%1 elements").arg(formatCount(c.perGpuElements)),
                        c.sizeProvenance,
                        {}};
    perRow.evidence = given.elementsPerGpu
                          ? givenEvidence(given, QStringLiteral("elements-per-gpu"), {})
                          : QStringLiteral("total / %1 GPU%2")
                                .arg(c.gpus)
                                .arg(c.gpus == 1 ? QString() : QStringLiteral("s"));

    ContextValue nodesRow{
        QStringLiteral("nodes"), QStringLiteral("Nodes"), QString::number(c.nodes),
        given.nodes ? Provenance::Given : Provenance::Default,
        given.nodes ? givenEvidence(given, QStringLiteral("nodes"), QString::number(c.nodes))
                    : QStringLiteral("one node; multi-node is never assumed")};

    // Hardware.
    ContextValue gpuRow{QStringLiteral("gpu"), QStringLiteral("GPU model"),
                        QStringLiteral("not given"), Provenance::Default,
                        QStringLiteral("compute capability unknown")};
    ContextValue ccRow{QStringLiteral("cc"), QStringLiteral("Compute capability"),
                       QStringLiteral("unknown"), Provenance::Default,
                       QStringLiteral("7.0 or newer (Volta+) needed")};
    if (given.gpuModel && !given.gpuModel->trimmed().isEmpty()) {
        gpuRow.provenance = Provenance::Given;
        if (const GpuModel* g = findGpu(*given.gpuModel)) {
            c.gpuModel = g->name;
            c.computeCapability = g->computeCapability;
            c.gpuMemoryGiB = g->memoryGiB;
            gpuRow.value =
                QStringLiteral("%1 (%2, %3 GiB)").arg(g->name, g->architecture).arg(g->memoryGiB);
            gpuRow.evidence = givenEvidence(given, QStringLiteral("gpu"), *given.gpuModel);
            ccRow.value = QString::number(g->computeCapability, 'f', 1);
            ccRow.provenance = Provenance::Inferred;
            ccRow.evidence = QStringLiteral("from the GPU catalog entry for %1").arg(g->name);
        } else {
            c.gpuModel = given.gpuModel->trimmed();
            gpuRow.value = c.gpuModel;
            gpuRow.evidence = givenEvidence(given, QStringLiteral("gpu"), c.gpuModel) +
                              QStringLiteral(" (not in the catalog)");
        }
    }
    if (given.computeCapability) {
        c.computeCapability = *given.computeCapability;
        ccRow.value = QString::number(c.computeCapability, 'f', 1);
        ccRow.provenance = Provenance::Given;
        ccRow.evidence = givenEvidence(given, QStringLiteral("compute-capability"), ccRow.value);
    }
    ContextValue cudaRow{QStringLiteral("cuda"), QStringLiteral("CUDA"), QStringLiteral("unknown"),
                         Provenance::Default, QStringLiteral("12.x or 13.x needed")};
    if (given.cuda && !given.cuda->isEmpty()) {
        c.cuda = *given.cuda;
        cudaRow = {cudaRow.key, cudaRow.label, c.cuda, Provenance::Given,
                   givenEvidence(given, QStringLiteral("cuda"), c.cuda)};
    }
    ContextValue osRow{QStringLiteral("os"), QStringLiteral("Operating system"),
                       QStringLiteral("unknown"), Provenance::Default,
                       QStringLiteral("Linux or WSL2 needed")};
    if (given.os && !given.os->isEmpty()) {
        c.os = given.os->toLower();
        osRow = {osRow.key, osRow.label, c.os, Provenance::Given,
                 givenEvidence(given, QStringLiteral("os"), c.os)};
    }
    // Beside a known Volta+ GPU, Gate 1 assumes the platform cuPyNumeric is built for; the
    // table says so (the values stay unset in the context: nothing was given).
    if (c.computeCapability >= 7.0) {
        if (c.cuda.isEmpty()) {
            cudaRow.value = QStringLiteral("%1 (assumed)").arg(QLatin1String(kAssumedCuda));
            cudaRow.evidence = QStringLiteral("assumed with a known Volta+ GPU; give --cuda to "
                                              "check it");
        }
        if (c.os.isEmpty()) {
            osRow.value = QStringLiteral("%1 (assumed)").arg(QLatin1String(kAssumedOs));
            osRow.evidence = QStringLiteral("assumed with a known Volta+ GPU; give --os to "
                                            "check it");
        }
    }

    // Pattern.
    ContextValue patRow{QStringLiteral("pattern"), QStringLiteral("Dominant compute pattern"),
                        QStringLiteral("unknown"), Provenance::Default,
                        QStringLiteral("no pattern evidence in the code")};
    const QString inferred = inferPattern(project, &c.patternScores, &c.patternSetAside);
    if (given.pattern && !given.pattern->isEmpty()) {
        c.pattern = *given.pattern;
        c.patternProvenance = Provenance::Given;
        patRow = {patRow.key, patRow.label, patternLabel(c.pattern), Provenance::Given,
                  givenEvidence(given, QStringLiteral("pattern"), c.pattern)};
    } else if (!inferred.isEmpty()) {
        c.pattern = inferred;
        c.patternProvenance = Provenance::Inferred;
        // Evidence: the dominant pattern's strongest lines; for "mixed", the best lines of the
        // non-passing patterns.
        for (const PatternScore& s : c.patternScores) {
            const bool relevant =
                s.pattern == inferred || (inferred == QLatin1String("scipy-mixed") &&
                                          !passingPatterns().contains(s.pattern));
            if (relevant)
                c.patternEvidence += s.top;
        }
        while (c.patternEvidence.size() > 3)
            c.patternEvidence.removeLast();
        QStringList ev;
        for (const PatternEvidence& e : c.patternEvidence)
            ev << QStringLiteral("%1 %2").arg(loc(e.range), e.note);
        patRow = {patRow.key, patRow.label, patternLabel(c.pattern), Provenance::Inferred,
                  ev.join(QStringLiteral("; "))};
    }

    // Cost model inputs (cost/CostModel.h): the figures the "Where the time would go" table
    // rests on.
    if (given.hostBandwidthGBps && *given.hostBandwidthGBps > 0)
        c.hostBandwidthGBps = *given.hostBandwidthGBps;
    const cost::Inputs ci = cost::inputsFor(c);
    const bool hostGiven = given.hostBandwidthGBps && *given.hostBandwidthGBps > 0;
    ContextValue costRow{
        QStringLiteral("cost"), QStringLiteral("Cost model inputs"),
        QStringLiteral("GPU memory ~%1 GB/s (%2), PCIe ~%3 GB/s, ≥ 10 µs per task, host "
                       "NumPy ~%4 GB/s")
            .arg(QString::number(ci.gpuBandwidthGBps, 'g', 4), ci.gpuName,
                 QString::number(ci.pcieGBps, 'g', 3),
                 QString::number(ci.hostBandwidthGBps, 'g', 4)),
        hostGiven || !ci.gpuAssumed ? Provenance::Given : Provenance::Default,
        QStringLiteral("%1; task floor from CUDA launch 5–10 µs plus Legate scheduling; %2")
            .arg(
                ci.gpuAssumed
                    ? QStringLiteral("no catalogued GPU given: H100 SXM's datasheet "
                                     "figures stand in")
                    : QStringLiteral("%1 datasheet figures from the GPU catalogue").arg(ci.gpuName),
                hostGiven ? givenEvidence(given, QStringLiteral("host-bandwidth"),
                                          QString::number(c.hostBandwidthGBps, 'g', 4))
                          : QStringLiteral("single-threaded memory-bound NumPy assumed "
                                           "(--host-bandwidth changes it)"))};
    c.rows = {sizeRow, gpusRow, perRow, nodesRow, gpuRow, ccRow, cudaRow, osRow, patRow, costRow};
    return c;
}

} // namespace cnready
