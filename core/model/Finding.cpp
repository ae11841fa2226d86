#include "model/Finding.h"
#include "model/FileResult.h"

#include <algorithm>
#include <tuple>

namespace cnready {

QString categoryName(Category c) {
    switch (c) {
    case Category::Scales:
        return QStringLiteral("scales");
    case Category::Blocks:
        return QStringLiteral("blocks");
    case Category::Refactor:
        return QStringLiteral("refactor");
    case Category::Info:
        return QStringLiteral("info");
    }
    return {};
}

QString categoryLabel(Category c) {
    return categoryName(c).toUpper();
}

QString SourceRange::toString() const {
    if (line <= 0)
        return path;
    // Appended piece by piece: the report formats one range per finding (~200k on big trees).
    QString s;
    s.reserve(path.size() + 24);
    s += path;
    s += QLatin1Char(':');
    if (cell > 0) {
        s += QLatin1String("cell ");
        s += QString::number(cell);
        s += QLatin1Char(':');
    }
    s += QString::number(displayLine());
    if (endLine > line) {
        s += QLatin1Char('-');
        s += QString::number(displayEndLine());
    }
    return s;
}

bool findingLess(const Finding& a, const Finding& b) {
    // One file's findings share one path string: skip comparing it character by character
    // (that comparison was most of the per-file sort on big files).
    if (a.range.path.constData() != b.range.path.constData()) {
        if (const int c = QString::compare(a.range.path, b.range.path); c != 0)
            return c < 0;
    }
    return std::tie(a.range.line, a.range.column, a.code, a.range.endLine, a.message) <
           std::tie(b.range.line, b.range.column, b.code, b.range.endLine, b.message);
}

bool wasSkipped(const FileResult& file) {
    return std::any_of(
        file.diagnostics.cbegin(), file.diagnostics.cend(), [](const FileDiagnostic& d) {
            return d.range.line == 0 && (d.kind == FileDiagnostic::Kind::Unreadable ||
                                         d.kind == FileDiagnostic::Kind::Binary ||
                                         d.kind == FileDiagnostic::Kind::TooLarge ||
                                         d.kind == FileDiagnostic::Kind::Skipped);
        });
}

QString diagnosticKindName(FileDiagnostic::Kind k) {
    switch (k) {
    case FileDiagnostic::Kind::Unreadable:
        return QStringLiteral("unreadable");
    case FileDiagnostic::Kind::Binary:
        return QStringLiteral("binary");
    case FileDiagnostic::Kind::Encoding:
        return QStringLiteral("encoding");
    case FileDiagnostic::Kind::Syntax:
        return QStringLiteral("syntax");
    case FileDiagnostic::Kind::TooLarge:
        return QStringLiteral("too-large");
    case FileDiagnostic::Kind::Skipped:
        return QStringLiteral("skipped");
    case FileDiagnostic::Kind::Suppression:
        return QStringLiteral("suppression");
    case FileDiagnostic::Kind::Missing:
        return QStringLiteral("missing");
    }
    return {};
}

} // namespace cnready
