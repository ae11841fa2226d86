#include "analysis/FileAnalyzer.h"

#include "analysis/ProjectScanner.h"
#include "assess/Evidence.h"
#include "parse/SyntaxTree.h"
#include "rules/RuleRegistry.h"
#include "semantic/SemanticModel.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStringDecoder>

#include <algorithm>

namespace cnready {

namespace {

FileDiagnostic wholeFile(FileDiagnostic::Kind kind, const QString& path, const QString& msg) {
    return FileDiagnostic{kind, SourceRange{path, 0, 1, 0, 1}, msg};
}

bool isTestPath(const QString& path) {
    const QString name = path.section(QLatin1Char('/'), -1);
    return name.startsWith(QLatin1String("test_")) || name.endsWith(QLatin1String("_test.py")) ||
           name == QLatin1String("conftest.py") || path.startsWith(QLatin1String("tests/")) ||
           path.startsWith(QLatin1String("test/")) || path.contains(QLatin1String("/tests/")) ||
           path.contains(QLatin1String("/test/"));
}

// Turns raw bytes into UTF-8 the parser can read. Returns false when the file is not text.
bool decodeToUtf8(const QString& path, QByteArray& bytes, QList<FileDiagnostic>& diags) {
    if (bytes.startsWith("\xEF\xBB\xBF")) {
        bytes.remove(0, 3);
    } else if (bytes.startsWith("\xFF\xFE") || bytes.startsWith("\xFE\xFF")) {
        const auto enc = bytes.startsWith("\xFF\xFE") ? QStringConverter::Utf16LE
                                                       : QStringConverter::Utf16BE;
        QStringDecoder dec(enc);
        const QString text = dec.decode(bytes.mid(2));
        bytes = text.toUtf8();
        diags.append(wholeFile(FileDiagnostic::Kind::Encoding, path,
                               QStringLiteral("file is UTF-16; it was decoded and assessed, but "
                                              "Python expects UTF-8 source")));
        return true;
    }
    if (bytes.contains('\0')) {
        diags.append(wholeFile(FileDiagnostic::Kind::Binary, path,
                               QStringLiteral("file contains NUL bytes (binary data?); skipped")));
        return false;
    }
    QStringDecoder utf8(QStringConverter::Utf8);
    const QString text = utf8.decode(bytes);
    if (utf8.hasError()) {
        bytes = text.toUtf8(); // invalid sequences become U+FFFD
        diags.append(wholeFile(FileDiagnostic::Kind::Encoding, path,
                               QStringLiteral("file is not valid UTF-8; undecodable bytes were "
                                              "replaced and the rest assessed")));
    }
    return true;
}

} // namespace

FileResult analyzeSource(const QString& relativePath, const QByteArray& input,
                         const AnalyzerLimits& limits) {
    FileResult r;
    r.path = relativePath;
    r.moduleName = moduleNameForPath(relativePath);
    r.bytes = input.size();
    r.isTest = isTestPath(relativePath);
    if (input.size() > limits.maxFileBytes) {
        r.diagnostics.append(wholeFile(
            FileDiagnostic::Kind::TooLarge, relativePath,
            QStringLiteral("file is %1 MB, above the %2 MB limit; skipped")
                .arg(input.size() / (1024 * 1024))
                .arg(limits.maxFileBytes / (1024 * 1024))));
        return r;
    }
    QByteArray bytes = input;
    if (!decodeToUtf8(relativePath, bytes, r.diagnostics))
        return r;
    r.lines = int(bytes.count('\n')) + ((bytes.isEmpty() || bytes.endsWith('\n')) ? 0 : 1);

    const SyntaxTree tree(bytes);
    if (tree.hasErrors()) {
        const int line = tree.firstErrorLine();
        r.diagnostics.append(FileDiagnostic{
            FileDiagnostic::Kind::Syntax, SourceRange{relativePath, line, 1, line, 1},
            QStringLiteral("syntax error near line %1; the parser recovered and the rest of the "
                           "file was assessed")
                .arg(line)});
    }
    const SemanticModel model(tree, r.moduleName,
                              relativePath.endsWith(QLatin1String("__init__.py")));
    const RuleContext ctx{tree, model, relativePath, r.moduleName};
    for (const auto& rule : RuleRegistry::instance().rules()) {
        FindingSink sink(rule->info(), ctx, r.findings);
        rule->check(ctx, sink);
    }
    model.exportTo(r);
    collectEvidence(tree, model, r);
    r.isEntryScript = bytes.contains("__name__") &&
                      QRegularExpression(QStringLiteral(R"(^if\s+__name__\s*==\s*['"]__main__['"])"),
                                         QRegularExpression::MultilineOption)
                          .match(QString::fromUtf8(bytes))
                          .hasMatch();
    std::sort(r.findings.begin(), r.findings.end(), findingLess);
    return r;
}

FileResult analyzeFile(const QString& root, const QString& relativePath,
                       const AnalyzerLimits& limits) {
    QFile f(root + QLatin1Char('/') + relativePath);
    const qint64 size = QFileInfo(f).size();
    if (size > limits.maxFileBytes) {
        FileResult r;
        r.path = relativePath;
        r.moduleName = moduleNameForPath(relativePath);
        r.bytes = size;
        r.diagnostics.append(wholeFile(FileDiagnostic::Kind::TooLarge, relativePath,
                                       QStringLiteral("file is %1 MB, above the %2 MB limit; skipped")
                                           .arg(size / (1024 * 1024))
                                           .arg(limits.maxFileBytes / (1024 * 1024))));
        return r;
    }
    if (!f.open(QIODevice::ReadOnly)) {
        FileResult r;
        r.path = relativePath;
        r.moduleName = moduleNameForPath(relativePath);
        r.diagnostics.append(wholeFile(FileDiagnostic::Kind::Unreadable, relativePath,
                                       QStringLiteral("cannot be read: %1").arg(f.errorString())));
        return r;
    }
    return analyzeSource(relativePath, f.readAll(), limits);
}

} // namespace cnready
