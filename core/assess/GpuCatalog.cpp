#include "assess/GpuCatalog.h"

#include <QRegularExpression>

#include <algorithm>

namespace cnready {

const QList<GpuModel>& gpuCatalog() {
    static const QList<GpuModel> models = {
        // Too old for cuPyNumeric; listed so that Gate 1 can say so instead of "unknown".
        {QStringLiteral("K40"), 3.5, 12, QStringLiteral("Kepler"), 0, 16},
        {QStringLiteral("K80"), 3.7, 12, QStringLiteral("Kepler"), 0, 16}, // per GPU; two per board
        {QStringLiteral("M40"), 5.2, 24, QStringLiteral("Maxwell"), 0, 16},
        {QStringLiteral("P100"), 6.0, 16, QStringLiteral("Pascal"), 732, 16},
        {QStringLiteral("P40"), 6.1, 24, QStringLiteral("Pascal"), 0, 16},
        {QStringLiteral("P4"), 6.1, 8, QStringLiteral("Pascal"), 0, 16},
        {QStringLiteral("GTX 1080"), 6.1, 8, QStringLiteral("Pascal"), 0, 16},
        {QStringLiteral("GTX 1080 Ti"), 6.1, 11, QStringLiteral("Pascal"), 0, 16},
        {QStringLiteral("V100"), 7.0, 32, QStringLiteral("Volta"), 900, 16},
        {QStringLiteral("TITAN V"), 7.0, 12, QStringLiteral("Volta"), 0, 16},
        {QStringLiteral("T4"), 7.5, 16, QStringLiteral("Turing"), 320, 16},
        {QStringLiteral("GTX 1650"), 7.5, 4, QStringLiteral("Turing"), 0, 16},
        {QStringLiteral("GTX 1660"), 7.5, 6, QStringLiteral("Turing"), 0, 16},
        {QStringLiteral("RTX 2080"), 7.5, 8, QStringLiteral("Turing"), 0, 16},
        {QStringLiteral("RTX 2080 Ti"), 7.5, 11, QStringLiteral("Turing"), 0, 16},
        {QStringLiteral("RTX 6000"), 7.5, 24, QStringLiteral("Turing"), 0, 16}, // Quadro RTX 6000
        {QStringLiteral("RTX 8000"), 7.5, 48, QStringLiteral("Turing"), 0, 16}, // Quadro RTX 8000
        {QStringLiteral("A100"), 8.0, 80, QStringLiteral("Ampere"), 2039, 32},
        {QStringLiteral("A30"), 8.0, 24, QStringLiteral("Ampere"), 933, 32},
        {QStringLiteral("A10"), 8.6, 24, QStringLiteral("Ampere"), 600, 32},
        {QStringLiteral("A40"), 8.6, 48, QStringLiteral("Ampere"), 696, 32},
        {QStringLiteral("RTX 3060"), 8.6, 12, QStringLiteral("Ampere"), 0, 32},
        {QStringLiteral("RTX 3070"), 8.6, 8, QStringLiteral("Ampere"), 0, 32},
        {QStringLiteral("RTX 3080"), 8.6, 12, QStringLiteral("Ampere"), 0, 32},
        {QStringLiteral("RTX 3090"), 8.6, 24, QStringLiteral("Ampere"), 936, 32},
        {QStringLiteral("RTX A4000"), 8.6, 16, QStringLiteral("Ampere"), 0, 32},
        {QStringLiteral("RTX A5000"), 8.6, 24, QStringLiteral("Ampere"), 0, 32},
        {QStringLiteral("RTX A6000"), 8.6, 48, QStringLiteral("Ampere"), 768, 32},
        {QStringLiteral("L4"), 8.9, 24, QStringLiteral("Ada Lovelace"), 300, 32},
        {QStringLiteral("L40"), 8.9, 48, QStringLiteral("Ada Lovelace"), 864, 32},
        {QStringLiteral("L40S"), 8.9, 48, QStringLiteral("Ada Lovelace"), 864, 32},
        {QStringLiteral("RTX 4060"), 8.9, 8, QStringLiteral("Ada Lovelace"), 0, 32},
        {QStringLiteral("RTX 4070"), 8.9, 12, QStringLiteral("Ada Lovelace"), 0, 32},
        {QStringLiteral("RTX 4080"), 8.9, 16, QStringLiteral("Ada Lovelace"), 0, 32},
        {QStringLiteral("RTX 4090"), 8.9, 24, QStringLiteral("Ada Lovelace"), 1008, 32},
        {QStringLiteral("RTX 6000 Ada"), 8.9, 48, QStringLiteral("Ada Lovelace"), 960, 32},
        {QStringLiteral("H100"), 9.0, 80, QStringLiteral("Hopper"), 3350, 64},
        {QStringLiteral("H200"), 9.0, 141, QStringLiteral("Hopper"), 4800, 64},
        {QStringLiteral("GH200"), 9.0, 96, QStringLiteral("Hopper"), 4000, 64},
        {QStringLiteral("B200"), 10.0, 180, QStringLiteral("Blackwell"), 8000, 64},
        {QStringLiteral("GB200"), 10.0, 186, QStringLiteral("Blackwell"), 8000, 64},
        {QStringLiteral("RTX 5090"), 12.0, 32, QStringLiteral("Blackwell"), 1792, 64},
    };
    return models;
}

const GpuModel* findGpu(const QString& name) {
    // Normalize: upper case, drop vendor/brand words, then read the model token.
    QString s = name.trimmed().toUpper();
    static const QRegularExpression brand(QStringLiteral("^(NVIDIA|TESLA|QUADRO|GEFORCE)[\\s_-]+"));
    for (int guard = 0; guard < 4; ++guard) {
        const QString before = s;
        s.remove(brand);
        if (s == before)
            break;
    }
    // Words that may follow a model name without changing the card: variant and form-factor
    // suffixes, memory sizes, marketing words. Anything else ("GTX 1080 Tiger") is a different
    // or mistyped name and must not resolve to the model it starts with.
    static const QRegularExpression memory(QStringLiteral("([0-9])\\s+(GB|GIB|G)\\b"));
    static const QRegularExpression separators(QStringLiteral("[\\s_\\-/(),]+"));
    static const QRegularExpression variantWord(QStringLiteral(
        "^(TI|SUPER|ADA|GENERATION|LAPTOP|MOBILE|NOTEBOOK|GPU|MAX|Q|MAXQ|FE|FOUNDERS|EDITION|"
        "OEM|LHR|TENSOR|CORE|PCIE[0-9]*|SXM[0-9]*|NVL[0-9]*|NVLINK|HBM[0-9]*E?|"
        "[0-9]+(\\.[0-9]+)?(GB|GIB|G))$"));
    auto onlyVariantWords = [&](QString rest) {
        rest.replace(memory, QStringLiteral("\\1\\2"));
        const QStringList words = rest.split(separators, Qt::SkipEmptyParts);
        return std::all_of(words.cbegin(), words.cend(),
                           [](const QString& w) { return variantWord.match(w).hasMatch(); });
    };
    const QList<GpuModel>& all = gpuCatalog();
    auto byName = [&all](const QString& upper) -> const GpuModel* {
        for (const GpuModel& g : all)
            if (g.name.toUpper() == upper)
                return &g;
        return nullptr;
    };
    // Desktop and workstation cards are a family word plus a number, written with or without
    // a space ("RTX 4090", "rtx4090", "GTX 1080 Ti", "RTX A6000", "RTX 6000 Ada Generation",
    // "TITAN V"). A trailing SUPER / Ti that the catalogue does not list falls back to the
    // base card: the compute capability is the same within one number.
    static const QRegularExpression family(QStringLiteral(
        "^(RTX|GTX|TITAN)[\\s_-]*(A?[0-9]{3,4}|V)(?![0-9A-Z])(?:[\\s_-]*(TI|SUPER|ADA)\\b)?"));
    if (const QRegularExpressionMatch f = family.match(s); f.hasMatch()) {
        if (!onlyVariantWords(s.mid(f.capturedEnd(0))))
            return nullptr;
        const QString base = f.captured(1) + QLatin1Char(' ') + f.captured(2);
        if (!f.captured(3).isEmpty())
            if (const GpuModel* g = byName(base + QLatin1Char(' ') + f.captured(3)))
                return g;
        return byName(base);
    }
    // Data-centre models: the leading run of letters+digits; what follows ("-80GB", " SXM",
    // "PCIE") is a variant suffix.
    static const QRegularExpression head(QStringLiteral("^([A-Z]+[0-9]+[A-Z]?)"));
    const QRegularExpressionMatch m = head.match(s);
    if (!m.hasMatch())
        return nullptr;
    const QString token = m.captured(1);
    if (!onlyVariantWords(s.mid(m.capturedEnd(1))))
        return nullptr;
    if (const GpuModel* g = byName(token))
        return g;
    // "L40S" matched exactly above; a trailing letter that is not a model ("A100X") falls back
    // to the model without it.
    if (token.back().isLetter())
        return byName(token.chopped(1));
    return nullptr;
}

} // namespace cnready
