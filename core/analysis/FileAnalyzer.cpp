#include "analysis/FileAnalyzer.h"

#include "analysis/MemoryBudget.h"
#include "analysis/ProjectScanner.h"
#include "analysis/SiteFolding.h"
#include "analysis/Suppressions.h"
#include "assess/Evidence.h"
#include "model/FreedMemory.h"
#include "parse/Notebook.h"
#include "parse/SyntaxTree.h"
#include "rules/RuleRegistry.h"
#include "semantic/ComputePath.h"
#include "semantic/SemanticModel.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QLocale>
#include <QStringDecoder>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <vector>

namespace cnready {

namespace {

// A file whose expected peak is this large purges its freed pages when done (a purge costs
// about a millisecond; a 1 MB module's analysis about a second).
constexpr qint64 kPurgeAfterBytes = qint64(64) << 20;

FileDiagnostic wholeFile(FileDiagnostic::Kind kind, const QString& path, const QString& msg) {
    return FileDiagnostic{kind, SourceRange{path, 0, 1, 0, 1}, msg};
}

FileDiagnostic atLine(FileDiagnostic::Kind kind, const QString& path, int line,
                      const QString& msg) {
    return FileDiagnostic{kind, SourceRange{path, line, 1, line, 1}, msg};
}

FileResult emptyResult(const QString& relativePath) {
    FileResult r;
    r.path = relativePath;
    r.moduleName = moduleNameForPath(relativePath);
    return r;
}

QString megabytes(qint64 bytes) {
    return QString::number(double(bytes) / (1024.0 * 1024.0), 'f', 1);
}

FileDiagnostic tooLarge(const QString& path, qint64 size, qint64 limit) {
    // One decimal hides small overshoots ("20.0 MiB, above the 20.0 MiB limit"): then bytes.
    const bool sameRounded = megabytes(size) == megabytes(limit);
    QLocale c = QLocale::c();
    c.setNumberOptions(QLocale::DefaultNumberOptions); // with thousands separators
    return wholeFile(FileDiagnostic::Kind::TooLarge, path,
                     sameRounded ? QStringLiteral("file is %1 bytes, above the %2-byte limit; "
                                                  "skipped")
                                       .arg(c.toString(size), c.toString(limit))
                                 : QStringLiteral("file is %1 MiB, above the %2 MiB limit; skipped")
                                       .arg(megabytes(size), megabytes(limit)));
}

bool isTestPath(const QString& path) {
    const QString name = path.section(QLatin1Char('/'), -1);
    return name.startsWith(QLatin1String("test_")) || name.endsWith(QLatin1String("_test.py")) ||
           name == QLatin1String("conftest.py") || path.startsWith(QLatin1String("tests/")) ||
           path.startsWith(QLatin1String("test/")) || path.contains(QLatin1String("/tests/")) ||
           path.contains(QLatin1String("/test/"));
}

int lineOfOffset(const QByteArray& bytes, qsizetype offset) {
    return int(std::count(bytes.constBegin(), bytes.constBegin() + offset, '\n')) + 1;
}

// PEP 263: a coding declaration in a comment on line 1 or 2. Returns the lower-case name.
QByteArray codingDeclaration(const QByteArray& bytes) {
    qsizetype start = 0;
    for (int lineNo = 0; lineNo < 2 && start < bytes.size(); ++lineNo) {
        qsizetype end = bytes.indexOf('\n', start);
        if (end < 0)
            end = bytes.size();
        const QByteArray line = bytes.mid(start, end - start).trimmed();
        if (line.startsWith('#')) {
            const qsizetype at = line.indexOf("coding");
            if (at >= 0 && at + 6 < line.size() && (line[at + 6] == ':' || line[at + 6] == '=')) {
                qsizetype i = at + 7;
                while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
                    ++i;
                qsizetype j = i;
                while (j < line.size() && (std::isalnum(uchar(line[j])) || line[j] == '-' ||
                                           line[j] == '_' || line[j] == '.'))
                    ++j;
                return line.mid(i, j - i).toLower().replace('_', '-');
            }
        }
        start = end + 1;
    }
    return {};
}

// Decodes `bytes` with the codec a PEP 263 declaration names (cp1252, big5, shift-jis, ...:
// Qt's decoders cover the common ones). Returns false, leaving `bytes` alone, when the name is
// unknown or the bytes are not valid in that encoding.
bool decodeDeclared(const QByteArray& declared, QByteArray& bytes) {
    QStringDecoder dec(declared.constData());
    if (!dec.isValid())
        return false;
    const QString text = dec.decode(bytes);
    if (dec.hasError())
        return false;
    bytes = text.toUtf8();
    return true;
}

bool isLatin1Name(const QByteArray& enc) {
    return enc == "latin-1" || enc == "iso-8859-1" || enc == "iso8859-1" || enc == "latin1" ||
           enc == "l1" || enc == "iso-latin-1" || enc == "cp819";
}

// Turns raw bytes into UTF-8 the parser can read. Returns false when the file is not text.
bool decodeToUtf8(const QString& path, QByteArray& bytes, QList<FileDiagnostic>& diags) {
    auto recode = [&](QStringConverter::Encoding enc, int bomBytes, const char* name) {
        QStringDecoder dec(enc);
        const QString text = dec.decode(QByteArrayView(bytes).sliced(bomBytes));
        bytes = text.toUtf8();
        diags.append(wholeFile(FileDiagnostic::Kind::Encoding, path,
                               QStringLiteral("file is %1; it was decoded and assessed, but "
                                              "Python expects UTF-8 source")
                                   .arg(QLatin1String(name))));
    };
    // Byte-order marks. UTF-32 first: its little-endian mark begins like UTF-16's.
    if (bytes.startsWith(QByteArrayView("\xFF\xFE\x00\x00", 4))) {
        recode(QStringConverter::Utf32LE, 4, "UTF-32");
    } else if (bytes.startsWith(QByteArrayView("\x00\x00\xFE\xFF", 4))) {
        recode(QStringConverter::Utf32BE, 4, "UTF-32");
    } else if (bytes.startsWith("\xFF\xFE") || bytes.startsWith("\xFE\xFF")) {
        recode(bytes.startsWith("\xFF\xFE") ? QStringConverter::Utf16LE : QStringConverter::Utf16BE,
               2, "UTF-16");
    } else if (bytes.startsWith("\xEF\xBB\xBF")) {
        bytes.remove(0, 3); // UTF-8 signature: valid Python, nothing to report
    }
    if (std::memchr(bytes.constData(), 0, size_t(bytes.size())) != nullptr) {
        diags.append(wholeFile(FileDiagnostic::Kind::Binary, path,
                               QStringLiteral("file contains NUL bytes (binary data?); skipped")));
        return false;
    }
    const qsizetype bad = firstInvalidUtf8(bytes);
    if (bad >= 0) {
        const QByteArray declared = codingDeclaration(bytes);
        if (isLatin1Name(declared)) {
            // Declared Latin-1 (PEP 263): every byte is a character; Python reads it fine.
            bytes = QString::fromLatin1(bytes).toUtf8();
        } else if (!declared.isEmpty() && declared != "utf-8" && declared != "utf8" &&
                   decodeDeclared(declared, bytes)) {
            // Another declared encoding that decodes cleanly: as valid for Python as UTF-8.
        } else {
            const int line = lineOfOffset(bytes, bad);
            QStringDecoder utf8(QStringConverter::Utf8);
            bytes = QString(utf8.decode(bytes)).toUtf8(); // invalid sequences become U+FFFD
            diags.append(atLine(
                FileDiagnostic::Kind::Encoding, path, line,
                declared.isEmpty() || declared == "utf-8" || declared == "utf8"
                    ? QStringLiteral("file is not valid UTF-8 (first bad byte on line %1); "
                                     "undecodable bytes were replaced and the rest assessed")
                          .arg(line)
                : QStringDecoder(declared.constData()).isValid()
                    ? QStringLiteral("file declares the encoding '%1' but is not valid in it; "
                                     "non-UTF-8 bytes (first on line %2) were replaced and the "
                                     "rest assessed")
                          .arg(QString::fromLatin1(declared))
                          .arg(line)
                    : QStringLiteral("file declares the encoding '%1', which cnready does not "
                                     "decode; non-UTF-8 bytes (first on line %2) were replaced "
                                     "and the rest assessed")
                          .arg(QString::fromLatin1(declared))
                          .arg(line)));
        }
    }
    // A lone CR ends a line for Python (old Mac files, mixed endings) but not for tree-sitter's
    // line counter: make it LF. Same length, so byte offsets stay valid; CRLF is left alone.
    if (bytes.contains('\r')) {
        char* d = bytes.data();
        const qsizetype n = bytes.size();
        for (qsizetype i = 0; i < n; ++i)
            if (d[i] == '\r' && (i + 1 == n || d[i + 1] != '\n'))
                d[i] = '\n';
    }
    return true;
}

// Python's TabError rule (CPython's tokenizer): at the start of every logical line outside
// brackets, the indentation is measured twice, with tabs advancing to the next multiple of 8
// and with tabs counting as one column; each comparison with the enclosing indentation levels
// (equal, deeper, or back to an outer level) must give the same answer under both measures.
// Blank and comment-only lines, continuation lines (inside brackets, after a backslash, inside
// a triple-quoted string) are not indentation. Returns the first line that breaks the rule, or
// 0. The string scan is a lexer sketch, not a parser: it only has to find where logical lines
// begin, and a file it misreads gets at worst the wrong line for a real TabError.
int tabErrorLine(const QByteArray& bytes) {
    if (!bytes.contains('\t'))
        return 0;
    struct Level {
        int col;    // tabs to multiples of 8
        int altcol; // tabs count as 1
    };
    std::vector<Level> levels{{0, 0}};
    const char* p = bytes.constData();
    const char* const end = p + bytes.size();
    int line = 1;
    int brackets = 0;
    char quote = 0;         // the open string's quote character, 0 outside strings
    bool triple = false;    // the open string is triple-quoted
    bool continued = false; // the previous line ended with a backslash outside strings
    while (p < end) {
        if (quote == 0 && brackets == 0 && !continued) {
            int col = 0, altcol = 0;
            for (; p < end; ++p) {
                if (*p == ' ') {
                    ++col;
                    ++altcol;
                } else if (*p == '\t') {
                    col = (col / 8 + 1) * 8;
                    ++altcol;
                } else if (*p == '\f') {
                    col = altcol = 0;
                } else {
                    break;
                }
            }
            const bool blank = p == end || *p == '\n' || *p == '\r' || *p == '#';
            if (!blank) {
                if (col > levels.back().col) {
                    if (altcol <= levels.back().altcol)
                        return line;
                    levels.push_back({col, altcol});
                } else {
                    while (levels.size() > 1 && col < levels.back().col)
                        levels.pop_back();
                    if (col != levels.back().col)
                        return 0; // IndentationError, reported by the syntax survey
                    if (altcol != levels.back().altcol)
                        return line;
                }
            }
        }
        continued = false;
        bool stringGoesOn = false; // a backslash ends the line inside a single-quoted string
        // The rest of the physical line: strings, comments and brackets.
        while (p < end && *p != '\n') {
            const char c = *p;
            const bool lineEnds =
                p + 1 == end || p[1] == '\n' || (p[1] == '\r' && (p + 2 == end || p[2] == '\n'));
            if (quote != 0) {
                if (c == '\\') {
                    if (lineEnds)
                        stringGoesOn = true;
                    p += lineEnds ? 1 : 2; // the escaped character cannot close the string
                    continue;
                }
                if (c == quote && !triple) {
                    quote = 0;
                } else if (c == quote && end - p >= 3 && p[1] == quote && p[2] == quote) {
                    quote = 0;
                    p += 2;
                }
                ++p;
                continue;
            }
            if (c == '#') {
                const void* nl = std::memchr(p, '\n', size_t(end - p));
                p = nl ? static_cast<const char*>(nl) : end;
                break;
            }
            if (c == '"' || c == '\'') {
                quote = c;
                triple = end - p >= 3 && p[1] == c && p[2] == c;
                p += triple ? 3 : 1;
                continue;
            }
            if (c == '(' || c == '[' || c == '{')
                ++brackets;
            else if ((c == ')' || c == ']' || c == '}') && brackets > 0)
                --brackets;
            else if (c == '\\' && lineEnds)
                continued = true;
            ++p;
        }
        if (quote != 0 && !triple && !stringGoesOn)
            quote = 0; // an unterminated single-quoted string ends with its line
        if (p < end)
            ++p; // the newline
        ++line;
    }
    return 0;
}

// The first bracket that Python's tokenizer would refuse: an opening one never closed, a
// closing one with no opener, or a closing one of the wrong kind. Strings (any prefix, single
// or triple quoted) and comments are skipped; f-strings count as strings, so brackets inside
// their replacement fields are not checked. Positions are 1-based, columns in bytes.
struct BracketProblem {
    int line = 0; ///< 0: the brackets balance
    int column = 0;
    char bracket = 0;
    char opener = 0; ///< for a closing bracket of the wrong kind: the opener it meets
    bool unclosed = false;
};

BracketProblem firstBracketProblem(const QByteArray& bytes) {
    struct Open {
        char c;
        int line, column;
    };
    constexpr size_t kMaxTrackedDepth = 4096;
    std::vector<Open> open;
    qint64 untracked = 0;
    const char* const begin = bytes.constData();
    const char* const end = begin + bytes.size();
    const char* lineStart = begin;
    int line = 1;
    char quote = 0;
    bool triple = false;
    for (const char* p = begin; p < end; ++p) {
        const char c = *p;
        if (c == '\n') {
            ++line;
            lineStart = p + 1;
            if (quote != 0 && !triple)
                quote = 0; // an unterminated one-line string ends with its line
            continue;
        }
        if (quote != 0) {
            if (c == '\\' && p + 1 < end && p[1] != '\n')
                ++p; // the escaped character cannot close the string
            else if (c == quote && !triple)
                quote = 0;
            else if (c == quote && end - p >= 3 && p[1] == quote && p[2] == quote) {
                quote = 0;
                p += 2;
            }
            continue;
        }
        if (c == '#') {
            while (p + 1 < end && p[1] != '\n')
                ++p;
            continue;
        }
        if (c == '\'' || c == '"') {
            quote = c;
            triple = end - p >= 3 && p[1] == c && p[2] == c;
            if (triple)
                p += 2;
            continue;
        }
        const int column = int(p - lineStart) + 1;
        if (c == '(' || c == '[' || c == '{') {
            // Past a depth no real code reaches, only count (a generated file of 10 MB of
            // '(' must not cost a stack entry per byte); kinds are not checked there.
            if (open.size() < kMaxTrackedDepth)
                open.push_back({c, line, column});
            else
                ++untracked;
        } else if (c == ')' || c == ']' || c == '}') {
            const char want = c == ')' ? '(' : c == ']' ? '[' : '{';
            if (untracked > 0) {
                --untracked;
                continue;
            }
            if (open.empty())
                return {line, column, c, 0, false};
            if (open.back().c != want)
                return {line, column, c, open.back().c, false};
            open.pop_back();
        }
    }
    if (!open.empty())
        return {open.front().line, open.front().column, open.front().c, 0, true};
    return {};
}

QString syntaxMessage(const SyntaxTree::Survey& s, const BracketProblem& b) {
    QString where = QStringLiteral("line %1, column %2").arg(s.errorLine).arg(s.errorColumn);
    QString what = s.errorIsMissing ? QStringLiteral("syntax error at %1: missing '%2'")
                                          .arg(where, QString::fromUtf8(s.missingToken))
                                    : QStringLiteral("syntax error at %1").arg(where);
    if (b.line > 0) {
        where = QStringLiteral("line %1, column %2").arg(b.line).arg(b.column);
        if (b.unclosed)
            what = QStringLiteral("syntax error at %1: '%2' is never closed")
                       .arg(where, QChar::fromLatin1(b.bracket));
        else if (b.opener != 0)
            what = QStringLiteral("syntax error at %1: '%2' does not close '%3'")
                       .arg(where, QChar::fromLatin1(b.bracket), QChar::fromLatin1(b.opener));
        else
            what = QStringLiteral("syntax error at %1: '%2' closes nothing")
                       .arg(where, QChar::fromLatin1(b.bracket));
    }
    if (s.errorCount > 1)
        what += QStringLiteral(" (%1 error regions in the file)").arg(s.errorCount);
    // A region of a few lines is a bad statement; a longer one swallowed code around it, whose
    // findings are then missing, and the reader must know that the file's silence means little.
    if (s.errorLines > 3)
        return what + QStringLiteral("; %1 lines around it could not be read as code and were "
                                     "not assessed: fix the error before trusting this file's "
                                     "findings")
                          .arg(s.errorLines);
    return what + QStringLiteral("; the parser recovered and the rest of the file was assessed");
}

} // namespace

qsizetype firstInvalidUtf8(const QByteArray& bytes) {
    const auto* s = reinterpret_cast<const unsigned char*>(bytes.constData());
    const qsizetype n = bytes.size();
    qsizetype i = 0;
    while (i < n) {
        // ASCII fast path, eight bytes at a time.
        if (i + 8 <= n) {
            quint64 chunk;
            std::memcpy(&chunk, s + i, 8);
            if ((chunk & 0x8080808080808080ULL) == 0) {
                i += 8;
                continue;
            }
        }
        const unsigned char c = s[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        int len = 0;
        unsigned char lo = 0x80, hi = 0xBF; // allowed range of the second byte
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            if (c == 0xE0)
                lo = 0xA0; // no overlong forms
            else if (c == 0xED)
                hi = 0x9F; // no UTF-16 surrogates
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            if (c == 0xF0)
                lo = 0x90;
            else if (c == 0xF4)
                hi = 0x8F; // nothing above U+10FFFF
        } else {
            return i;
        }
        if (i + len > n || s[i + 1] < lo || s[i + 1] > hi)
            return i;
        for (int k = 2; k < len; ++k)
            if ((s[i + k] & 0xC0) != 0x80)
                return i;
        i += len;
    }
    return -1;
}

// Whether the file's array work is all demo or test data being made (RULES.md, the workload
// model item 5): its SCALES findings all sit in functions whose role is Demo or Test
// (`make_synthetic_field`, `fake_series`, a test helper), or its dotted name makes it a
// benchmark driver. Such a file is neither the pilot module nor the script Doctor runs.
bool makesDemoData(const SemanticModel& model, const FileResult& r) {
    if (ComputePathEngine::moduleRoleOfName(r.moduleName) == PathRole::Demo)
        return true;
    QHash<QString, PathRole> roles;
    for (const FunctionRegion& fn : model.functions())
        roles.insert(fn.name, model.pathRole(fn.body));
    bool any = false;
    for (const Finding& f : r.findings) {
        if (f.category != Category::Scales)
            continue;
        const PathRole role = roles.value(f.function, PathRole::Compute);
        if (f.function.isEmpty() || (role != PathRole::Demo && role != PathRole::Test))
            return false;
        any = true;
    }
    return any;
}

bool hasMainGuard(const QByteArray& src) {
    qsizetype at = 0;
    while ((at = src.indexOf("__name__", at)) >= 0) {
        const qsizetype lineStart = src.lastIndexOf('\n', at) + 1; // 0 when not found
        qsizetype lineEnd = src.indexOf('\n', at);
        if (lineEnd < 0)
            lineEnd = src.size();
        at += 8;
        QByteArray line = src.mid(lineStart, lineEnd - lineStart);
        if (!line.startsWith("if") || line.size() < 3 ||
            !(line[2] == ' ' || line[2] == '\t' || line[2] == '('))
            continue;
        QByteArray compact;
        compact.reserve(line.size());
        for (char ch : line.mid(2))
            if (ch != ' ' && ch != '\t' && ch != '(' && ch != ')' && ch != '\r')
                compact += ch == '\'' ? '"' : ch;
        if (compact.startsWith("__name__==\"__main__\":") ||
            compact.startsWith("\"__main__\"==__name__:"))
            return true;
    }
    return false;
}

FileResult analyzeSource(const QString& relativePath, const QByteArray& input,
                         const AnalyzerLimits& limits, const FileFacts* facts) {
    FileResult r = emptyResult(relativePath);
    r.bytes = input.size();
    r.isTest = isTestPath(relativePath);
    if (input.size() > limits.maxFileBytes) {
        r.diagnostics.append(tooLarge(relativePath, input.size(), limits.maxFileBytes));
        return r;
    }
    QByteArray bytes = input;
    NotebookMap notebook;
    if (isNotebookPath(relativePath)) {
        // The code cells as one module; every location is mapped back to its cell at the end.
        Notebook nb = readNotebook(input);
        if (!nb.error.isEmpty()) {
            r.diagnostics.append(
                wholeFile(FileDiagnostic::Kind::Unreadable, relativePath, nb.error));
            return r;
        }
        bytes = std::move(nb.code);
        notebook = std::move(nb.map);
    } else if (!decodeToUtf8(relativePath, bytes, r.diagnostics)) {
        return r;
    }
    // Locations in a notebook name the cell; SourceRange::toString() prints them that way.
    auto mapToCells = [&notebook](FileResult& res) {
        if (notebook.isEmpty())
            return;
        for (FileDiagnostic& d : res.diagnostics)
            notebook.annotate(d.range);
        for (Finding& f : res.findings)
            notebook.annotate(f.range);
        for (Finding& f : res.suppressed)
            notebook.annotate(f.range);
        for (Finding& f : res.offComputePath)
            notebook.annotate(f.range);
        for (ApiUse& u : res.apiUses)
            notebook.annotate(u.range);
        for (SizeHint& h : res.sizeHints)
            notebook.annotate(h.range);
        for (PatternEvidence& e : res.patternEvidence)
            notebook.annotate(e.range);
        for (HostTouchpoint& t : res.touchpoints)
            notebook.annotate(t.range);
        for (ReadinessHint& h : res.readiness)
            notebook.annotate(h.range);
        for (FunctionInfo& fn : res.functions)
            notebook.annotate(fn.range);
        res.notebook = notebook;
    };
    r.lines = int(bytes.count('\n')) + ((bytes.isEmpty() || bytes.endsWith('\n')) ? 0 : 1);
    if (bytes.trimmed().isEmpty()) {
        // An empty package marker is normal; any other empty module is worth a note.
        if (!relativePath.endsWith(QLatin1String("__init__.py")) &&
            relativePath != QLatin1String("__init__.py"))
            r.diagnostics.append(wholeFile(
                FileDiagnostic::Kind::Skipped, relativePath,
                notebook.isEmpty() && isNotebookPath(relativePath)
                    ? QStringLiteral("notebook has no code cells; nothing to assess")
                    : QStringLiteral("file is empty (valid Python, nothing in it to assess)")));
        mapToCells(r);
        return r;
    }
    const int mixed = tabErrorLine(bytes);
    if (mixed > 0)
        r.diagnostics.append(atLine(
            FileDiagnostic::Kind::Syntax, relativePath, mixed,
            QStringLiteral("indentation mixes tabs and spaces inconsistently (line %1): its "
                           "meaning depends on the tab width, so Python 3 rejects it with TabError")
                .arg(mixed)));

    const quint64 budget =
        limits.parseMicrosBase +
        quint64(double(limits.parseMicrosPerMiB) * double(bytes.size()) / (1024.0 * 1024.0));
    const SyntaxTree tree(bytes, budget);
    if (!tree.isValid()) {
        r.diagnostics.append(wholeFile(FileDiagnostic::Kind::Skipped, relativePath,
                                       QStringLiteral("parsing took longer than %1 s; skipped")
                                           .arg(double(budget) / 1e6, 0, 'f', 1)));
        mapToCells(r);
        return r;
    }
    if (tree.isCorrupt()) {
        r.diagnostics.append(wholeFile(
            FileDiagnostic::Kind::Skipped, relativePath,
            QStringLiteral("more than 65,535 unparsable tokens in one place (beyond what the "
                           "parser can represent); skipped")));
        mapToCells(r);
        return r;
    }
    const SyntaxTree::Survey survey = tree.survey();
    if (survey.errorCount > 0) {
        // tree-sitter's error region often starts at the statement before an unbalanced
        // bracket (`def f(a:` on its own line): the bracket is where the reader must look.
        const BracketProblem bracket = firstBracketProblem(bytes);
        SourceRange at{relativePath, survey.errorLine, survey.errorColumn, survey.errorEndLine,
                       survey.errorEndColumn};
        if (bracket.line > 0)
            at = SourceRange{relativePath, bracket.line, bracket.column, bracket.line,
                             bracket.column + 1};
        r.diagnostics.append(
            FileDiagnostic{FileDiagnostic::Kind::Syntax, at, syntaxMessage(survey, bracket)});
    }
    // The survey compares byte columns, i.e. tabs counted as one column: without a TabError
    // that gives the same answers as Python; after one it would only repeat the warning above.
    if (survey.indentLine > 0 && mixed == 0)
        r.diagnostics.append(atLine(FileDiagnostic::Kind::Syntax, relativePath, survey.indentLine,
                                    QStringLiteral("indentation error at line %1: %2")
                                        .arg(survey.indentLine)
                                        .arg(QString::fromUtf8(survey.indentProblem))));
    if (survey.keywordLine > 0)
        r.diagnostics.append(
            atLine(FileDiagnostic::Kind::Syntax, relativePath, survey.keywordLine,
                   QStringLiteral("syntax error at line %1: the keyword '%2' stands where a "
                                  "name or statement is expected")
                       .arg(survey.keywordLine)
                       .arg(QString::fromUtf8(survey.keyword))));
    if (survey.python2Line > 0)
        r.diagnostics.append(atLine(FileDiagnostic::Kind::Syntax, relativePath, survey.python2Line,
                                    QStringLiteral("Python 2 code (%1 on line %2); cuPyNumeric "
                                                   "needs Python 3, port it first")
                                        .arg(QString::fromUtf8(survey.python2What))
                                        .arg(survey.python2Line)));
    if (survey.maxDepth > limits.maxSyntaxDepth) {
        r.diagnostics.append(wholeFile(
            FileDiagnostic::Kind::Skipped, relativePath,
            QStringLiteral("syntax tree nests %1 levels deep (limit %2: brackets, calls, blocks, "
                           "attributes or subscripts nested that deep); rules skipped for "
                           "this file")
                .arg(survey.maxDepth)
                .arg(limits.maxSyntaxDepth)));
        mapToCells(r);
        return r;
    }

    // A large file's steps free big buffers (the walk's grown lists, the model's per-pass
    // copies, the findings' slack) that the allocator keeps resident for a while: purged after
    // each step, they do not add to the next step's peak (a 100,000-line module: ~6 MiB).
    const bool purgeSteps = MemoryBudget::estimateForSource(bytes.size()) >= kPurgeAfterBytes;
    if (purgeSteps)
        releaseFreedMemory();
    const SemanticModel model(tree, r.moduleName,
                              relativePath.endsWith(QLatin1String("__init__.py")), facts);
    if (purgeSteps)
        releaseFreedMemory();
    const RuleContext ctx{tree, model, relativePath, r.moduleName};
    for (const auto& rule : RuleRegistry::instance().rules()) {
        FindingSink sink(rule->info(), ctx, r.findings, &r.offComputePath);
        rule->check(ctx, sink);
    }
    foldIntoElementLoops(model, r.findings);
    foldSameStatement(r.findings);
    foldSyncIntoBranch(model, r.findings);
    // The lists grew by doubling and the folds removed entries: give the slack back before
    // the export and the evidence allocate theirs (a 100k-line module: ~8 MB of findings).
    r.findings.squeeze();
    r.offComputePath.squeeze();
    if (purgeSteps)
        releaseFreedMemory();
    model.exportTo(r);
    r.isEntryScript = hasMainGuard(bytes);
    collectEvidence(tree, model, r);
    r.isDemoData = makesDemoData(model, r);
    applySuppressions(tree, relativePath, r.findings, r.suppressed, r.diagnostics);
    std::sort(r.findings.begin(), r.findings.end(), findingLess);
    std::sort(r.offComputePath.begin(), r.offComputePath.end(), findingLess);
    std::sort(r.suppressed.begin(), r.suppressed.end(), findingLess);
    std::stable_sort(r.diagnostics.begin(), r.diagnostics.end(),
                     [](const FileDiagnostic& a, const FileDiagnostic& b) {
                         return a.range.line < b.range.line;
                     });
    mapToCells(r);
    return r;
}

FileResult analyzeFile(const QString& root, const QString& relativePath,
                       const AnalyzerLimits& limits, MemoryBudget* budget, const FileFacts* facts) {
    const QString absolute = root + QLatin1Char('/') + relativePath;
    const QFileInfo info(absolute); // follows symbolic links
    if (!info.exists()) {
        FileResult r = emptyResult(relativePath);
        r.diagnostics.append(wholeFile(
            FileDiagnostic::Kind::Unreadable, relativePath,
            info.isSymLink() ? QStringLiteral("symbolic link is broken or loops; skipped")
            : relativePath.contains(QChar::ReplacementCharacter)
                ? QStringLiteral("file name is not valid UTF-8, so it cannot be opened; skipped")
                : QStringLiteral("file disappeared before it could be read; skipped")));
        return r;
    }
    if (!info.isFile()) {
        // Opening a FIFO would block until a writer appears; devices may never end.
        FileResult r = emptyResult(relativePath);
        r.diagnostics.append(
            wholeFile(FileDiagnostic::Kind::Skipped, relativePath,
                      QStringLiteral("not a regular file (FIFO, socket or device); skipped")));
        return r;
    }
    if (info.size() > limits.maxFileBytes) {
        FileResult r = emptyResult(relativePath);
        r.bytes = info.size();
        r.diagnostics.append(tooLarge(relativePath, info.size(), limits.maxFileBytes));
        return r;
    }
    const MemoryBudget::Ticket ticket =
        budget ? budget->reserve(MemoryBudget::estimateForSource(info.size()))
               : MemoryBudget::Ticket();
    QFile f(absolute);
    if (!f.open(QIODevice::ReadOnly)) {
        FileResult r = emptyResult(relativePath);
        r.diagnostics.append(wholeFile(FileDiagnostic::Kind::Unreadable, relativePath,
                                       QStringLiteral("cannot be read: %1").arg(f.errorString())));
        return r;
    }
    // Read the size stat() gave plus one byte; a file that grew meanwhile is read on in
    // chunks, never past one byte over the limit, so a growing file stays bounded.
    QByteArray bytes = f.read(qMin(info.size(), limits.maxFileBytes) + 1);
    while (bytes.size() <= limits.maxFileBytes && !f.atEnd() && f.error() == QFileDevice::NoError) {
        const QByteArray more =
            f.read(qMin<qint64>(1 << 20, limits.maxFileBytes + 1 - bytes.size()));
        if (more.isEmpty())
            break;
        bytes += more;
    }
    if (f.error() != QFileDevice::NoError) {
        FileResult r = emptyResult(relativePath);
        r.diagnostics.append(wholeFile(FileDiagnostic::Kind::Unreadable, relativePath,
                                       QStringLiteral("cannot be read: %1").arg(f.errorString())));
        return r;
    }
    // The read reserved more than the file (5 MiB for a 3.6 MB module): keep the exact bytes,
    // which the tree holds for the whole analysis.
    bytes.squeeze();
    FileResult r = analyzeSource(relativePath, bytes, limits, facts);
    // A large file's tree and model were freed in this thread's heap arena, where they stay
    // resident until purged: another worker's next large file (let in when the ticket goes)
    // would add its peak to them (two 3.5 MB modules: 405 MiB instead of ~300).
    if (ticket.bytes() >= kPurgeAfterBytes) {
        bytes = QByteArray();
        releaseFreedMemory();
    }
    return r;
}

} // namespace cnready
