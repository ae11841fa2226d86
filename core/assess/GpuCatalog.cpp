#include "assess/GpuCatalog.h"

#include <QRegularExpression>

namespace cnready {

const QList<GpuModel>& gpuCatalog() {
    static const QList<GpuModel> models = {
        {QStringLiteral("P100"), 6.0, 16, QStringLiteral("Pascal")},
        {QStringLiteral("P40"), 6.1, 24, QStringLiteral("Pascal")},
        {QStringLiteral("P4"), 6.1, 8, QStringLiteral("Pascal")},
        {QStringLiteral("V100"), 7.0, 32, QStringLiteral("Volta")},
        {QStringLiteral("T4"), 7.5, 16, QStringLiteral("Turing")},
        {QStringLiteral("A100"), 8.0, 80, QStringLiteral("Ampere")},
        {QStringLiteral("A30"), 8.0, 24, QStringLiteral("Ampere")},
        {QStringLiteral("A10"), 8.6, 24, QStringLiteral("Ampere")},
        {QStringLiteral("A40"), 8.6, 48, QStringLiteral("Ampere")},
        {QStringLiteral("L4"), 8.9, 24, QStringLiteral("Ada Lovelace")},
        {QStringLiteral("L40"), 8.9, 48, QStringLiteral("Ada Lovelace")},
        {QStringLiteral("L40S"), 8.9, 48, QStringLiteral("Ada Lovelace")},
        {QStringLiteral("H100"), 9.0, 80, QStringLiteral("Hopper")},
        {QStringLiteral("H200"), 9.0, 141, QStringLiteral("Hopper")},
        {QStringLiteral("GH200"), 9.0, 96, QStringLiteral("Hopper")},
        {QStringLiteral("B200"), 10.0, 180, QStringLiteral("Blackwell")},
        {QStringLiteral("GB200"), 10.0, 186, QStringLiteral("Blackwell")},
    };
    return models;
}

const GpuModel* findGpu(const QString& name) {
    // Normalize: upper case, drop vendor/brand words, then take the first token.
    QString s = name.trimmed().toUpper();
    static const QRegularExpression brand(QStringLiteral("^(NVIDIA|TESLA|QUADRO)[\\s_-]+"));
    for (int guard = 0; guard < 3; ++guard) {
        const QString before = s;
        s.remove(brand);
        if (s == before)
            break;
    }
    // The model is the leading run of letters+digits; what follows ("-80GB", " SXM", "PCIE")
    // is a variant suffix.
    static const QRegularExpression head(QStringLiteral("^([A-Z]+[0-9]+[A-Z]?)"));
    const QRegularExpressionMatch m = head.match(s);
    if (!m.hasMatch())
        return nullptr;
    const QString token = m.captured(1);
    const QList<GpuModel>& all = gpuCatalog();
    for (const GpuModel& g : all)
        if (g.name == token)
            return &g;
    // "L40S" matched exactly above; a trailing letter that is not a model ("A100X") falls back
    // to the model without it.
    const QString withoutLetter = token.back().isLetter() ? token.chopped(1) : QString();
    for (const GpuModel& g : all)
        if (!withoutLetter.isEmpty() && g.name == withoutLetter)
            return &g;
    return nullptr;
}

} // namespace cnready
