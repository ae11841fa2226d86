#include "doctor/DoctorChecks.h"

#include <QHash>
#include <QRegularExpression>

namespace cnready {

namespace {

// Compiled once per pattern and thread: a report of 20,000 entries classifies each of them.
bool has(const QString& text, const char* pattern) {
    thread_local QHash<const char*, QRegularExpression> compiled;
    auto it = compiled.find(pattern);
    if (it == compiled.end())
        it =
            compiled.insert(pattern, QRegularExpression(QLatin1String(pattern),
                                                        QRegularExpression::CaseInsensitiveOption));
    return it->match(text).hasMatch();
}

DoctorCheck check(const char* key, const char* label, QStringList confirms,
                  bool fileLevel = false) {
    const QString code = confirms.isEmpty() ? QString() : confirms.first();
    return DoctorCheck{QLatin1String(key), QLatin1String(label), code, std::move(confirms),
                       fileLevel};
}

} // namespace

DoctorCheck classifyDoctorCheck(const QString& d, const QString& source) {
    if (has(d, "mpi4py"))
        return check("mpi4py", "mpi4py imported", {QStringLiteral("R108")}, true);
    if (has(d, R"(nonzero|argwhere)"))
        return check("nonzero", "nonzero-style call", {QStringLiteral("R204")});
    if (has(d, R"(\b(h|v|d|column_)?stack\b|hstack|vstack|concatenate)"))
        return check("stacking", "repeated stacking", {QStringLiteral("R203")});
    if (has(d, R"(__iter__|iterat)"))
        return check("array-iteration", "iteration over an array",
                     {QStringLiteral("R103"), QStringLiteral("R110")});
    if (has(d, R"(built-?in)"))
        return check("builtin-reduction", "builtin reduction on an array",
                     {QStringLiteral("R110")});
    if (has(d, R"(advanced index|fancy index|advanced-index)"))
        return check("advanced-indexing", "unoptimised advanced indexing",
                     {QStringLiteral("R204")});
    if (has(d, R"(slic)")) {
        const bool strided = source.contains(QLatin1String("::"));
        return check("repeated-slice", "repeated slice access",
                     strided ? QStringList{QStringLiteral("R106"), QStringLiteral("R101")}
                             : QStringList{QStringLiteral("R101"), QStringLiteral("R106")});
    }
    if (has(d, R"(\bitem\b|\.item\(|scalar)"))
        return check("scalar-access", "repeated scalar access",
                     {QStringLiteral("R104"), QStringLiteral("R101"), QStringLiteral("R105")});
    if (has(d, R"(gather|host|transfer|to numpy)"))
        return check("host-gather", "whole-array gather to the host",
                     {QStringLiteral("R104"), QStringLiteral("R110"), QStringLiteral("R103")});
    return check("unknown", "unrecognised check", {});
}

} // namespace cnready
