#include "cli/ContextOptions.h"

#include "assess/GpuCatalog.h"

#include <QRegularExpression>
#include <QStringList>

#include <cmath>

namespace cnready {

void OptionValues::set(const QString& name, const QString& value, const QString& file, int line) {
    m_values.insert(name, {value, file, line});
}

QString OptionValues::where(const QString& name) const {
    const Entry e = m_values.value(name);
    if (e.file.isEmpty())
        return QStringLiteral("--") + name;
    return QStringLiteral("%1:%2: %3").arg(e.file).arg(e.line).arg(name);
}

std::optional<ContextInput> contextFromOptions(const OptionValues& v, QString* error) {
    ContextInput in;
    const auto fail = [&](const QString& msg) -> std::optional<ContextInput> {
        *error = msg;
        return std::nullopt;
    };
    const auto count = [&](const QString& name, std::optional<qint64>& dst) -> QString {
        if (!v.has(name))
            return {};
        bool big = false;
        dst = parseElementCount(v.value(name), &big);
        if (big)
            return QStringLiteral("%1 %2 is too large: at most %3 elements (9e18)")
                .arg(v.where(name), v.value(name), formatCount(kMaxElementCount));
        if (!dst)
            return QStringLiteral("%1 takes a whole number of elements >= 1 such as 16000000, "
                                  "16_000_000 or 16M (got '%2')")
                .arg(v.where(name), v.value(name));
        return {};
    };
    for (const auto& [name, dst] :
         {std::pair{QStringLiteral("elements"), &in.elements},
          std::pair{QStringLiteral("elements-per-gpu"), &in.elementsPerGpu}})
        if (const QString msg = count(name, *dst); !msg.isEmpty())
            return fail(msg);
    if (in.elements && in.elementsPerGpu)
        return fail(QStringLiteral("give one of --elements or --elements-per-gpu") +
                    (v.origin(QStringLiteral("elements")).isEmpty() &&
                             v.origin(QStringLiteral("elements-per-gpu")).isEmpty()
                         ? QString()
                         : QStringLiteral(" (%1; %2)")
                               .arg(v.where(QStringLiteral("elements")),
                                    v.where(QStringLiteral("elements-per-gpu")))));
    for (const auto& [name, dst] : {std::pair{QStringLiteral("gpus"), &in.gpus},
                                    std::pair{QStringLiteral("nodes"), &in.nodes}}) {
        if (!v.has(name))
            continue;
        bool ok = false;
        const int n = v.value(name).toInt(&ok);
        if (!ok || n < 1)
            return fail(QStringLiteral("%1 takes a whole number >= 1 (got '%2')")
                            .arg(v.where(name), v.value(name)));
        *dst = n;
    }
    if (in.gpus && in.nodes && *in.gpus < *in.nodes)
        return fail(QStringLiteral("gpus is the total GPU count over all nodes and cannot be "
                                   "smaller than nodes (%1 < %2; %3, %4)")
                        .arg(*in.gpus)
                        .arg(*in.nodes)
                        .arg(v.where(QStringLiteral("gpus")), v.where(QStringLiteral("nodes"))));
    const QString gpu = QStringLiteral("gpu");
    const QString cc = QStringLiteral("compute-capability");
    if (v.has(gpu))
        in.gpuModel = v.value(gpu);
    if (v.has(cc)) {
        static const QRegularExpression form(QStringLiteral("^([0-9]{1,2})\\.([0-9])$"));
        const QRegularExpressionMatch m = form.match(v.value(cc).trimmed());
        const int major = m.hasMatch() ? m.captured(1).toInt() : 0;
        if (major < 1 || major > 12)
            return fail(QStringLiteral("%1 takes X.Y with a major version from 1 to 12, e.g. "
                                       "8.0 (got '%2')")
                            .arg(v.where(cc), v.value(cc)));
        in.computeCapability = m.captured(1).toDouble() + m.captured(2).toDouble() / 10;
        if (in.gpuModel) {
            if (const GpuModel* g = findGpu(*in.gpuModel);
                g && std::abs(g->computeCapability - *in.computeCapability) > 0.01)
                return fail(QStringLiteral("%2 %1 has compute capability %3, not %4 (%5); "
                                           "drop the compute capability or correct it")
                                .arg(g->name, v.where(gpu),
                                     QString::number(g->computeCapability, 'f', 1),
                                     v.value(cc).trimmed(), v.where(cc)));
        }
    }
    const QString cuda = QStringLiteral("cuda");
    if (v.has(cuda)) {
        static const QRegularExpression version(
            QStringLiteral("^[1-9][0-9]?(\\.[0-9]{1,2}){0,2}$"));
        const QString s = v.value(cuda).trimmed();
        if (!version.match(s).hasMatch())
            return fail(QStringLiteral("%1 takes a version like 12.4, not '%2'")
                            .arg(v.where(cuda), v.value(cuda)));
        in.cuda = s;
    }
    const QString os = QStringLiteral("os");
    if (v.has(os)) {
        // wsl and darwin are aliases the assessment understands.
        static const QStringList known = {QStringLiteral("linux"),  QStringLiteral("wsl2"),
                                          QStringLiteral("wsl"),    QStringLiteral("macos"),
                                          QStringLiteral("darwin"), QStringLiteral("windows")};
        const QString s = v.value(os).trimmed().toLower();
        if (!known.contains(s))
            return fail(QStringLiteral("unknown os '%1' (%2; linux, wsl2, macos, windows)")
                            .arg(v.value(os), v.where(os)));
        in.os = s;
    }
    const QString pattern = QStringLiteral("pattern");
    if (v.has(pattern)) {
        static const QStringList known = {
            QStringLiteral("stencil"),     QStringLiteral("gemm"),
            QStringLiteral("reduction"),   QStringLiteral("elementwise"),
            QStringLiteral("monte-carlo"), QStringLiteral("fft"),
            QStringLiteral("sparse"),      QStringLiteral("graph"),
            QStringLiteral("ml"),          QStringLiteral("string"),
            QStringLiteral("sequential"),  QStringLiteral("scipy-mixed")};
        if (!known.contains(v.value(pattern)))
            return fail(
                QStringLiteral("unknown pattern '%1' (%2; %3)")
                    .arg(v.value(pattern), v.where(pattern), known.join(QStringLiteral(", "))));
        in.pattern = v.value(pattern);
    }
    const QString entry = QStringLiteral("entry");
    if (v.has(entry)) {
        QString s = v.value(entry).trimmed();
        if (s.startsWith(QLatin1String("./")))
            s = s.mid(2);
        if (s.isEmpty() || s.startsWith(QLatin1Char('/')) || s.contains(QLatin1String("..")))
            return fail(QStringLiteral("%1 takes a script path relative to the project root such "
                                       "as \"run.py\" (got '%2')")
                            .arg(v.where(entry), v.value(entry)));
        in.entry = s;
    }
    const QString host = QStringLiteral("host-bandwidth");
    if (v.has(host)) {
        bool ok = false;
        const double gbps = v.value(host).trimmed().toDouble(&ok);
        if (!ok || !(gbps > 0) || gbps > 1e6)
            return fail(QStringLiteral("%1 takes a bandwidth in GB/s above 0 and at most "
                                       "1000000, e.g. 20 (got '%2')")
                            .arg(v.where(host), v.value(host)));
        in.hostBandwidthGBps = gbps;
    }
    for (const QString& name :
         {QStringLiteral("elements"), QStringLiteral("elements-per-gpu"), QStringLiteral("gpus"),
          QStringLiteral("nodes"), gpu, cc, cuda, os, pattern, entry, host})
        if (v.has(name) && !v.origin(name).isEmpty())
            in.origins.insert(name, v.origin(name));
    return in;
}

std::optional<Verdict> failOnFromOptions(const OptionValues& v, QString* error) {
    const QString name = QStringLiteral("fail-on");
    if (!v.has(name))
        return std::nullopt;
    const QString s = v.value(name).toLower();
    for (Verdict cand : {Verdict::Ready, Verdict::LightRefactor, Verdict::SignificantRefactor,
                         Verdict::NotRecommended})
        if (verdictKey(cand) == s)
            return cand;
    *error = QStringLiteral("unknown fail-on '%1' (%2; ready, light, significant, "
                            "not-recommended)")
                 .arg(v.value(name), v.where(name));
    return std::nullopt;
}

} // namespace cnready
