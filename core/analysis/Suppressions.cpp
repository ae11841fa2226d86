#include "analysis/Suppressions.h"

#include "parse/SyntaxTree.h"
#include "rules/RuleRegistry.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cstring>
#include <vector>

namespace cnready {

namespace {

struct Comment {
    int line = 0;
    bool ownLine = false; ///< nothing but whitespace before it on its line
    QString text;
};

// A statement's lines for suppression purposes.
struct Statement {
    int start = 0;     ///< first line (of its decorators, for a decorated definition)
    int own = 0;       ///< first line of the statement itself
    int headerEnd = 0; ///< last line a trailing comment may sit on: the header of a compound
    int end = 0;       ///< last line of the whole statement (body included)
};

bool isSimpleStatement(std::string_view t) {
    static const QSet<QByteArray> kinds = {
        "expression_statement", "return_statement",      "delete_statement",
        "raise_statement",      "pass_statement",        "break_statement",
        "continue_statement",   "global_statement",      "nonlocal_statement",
        "import_statement",     "import_from_statement", "future_import_statement",
        "assert_statement",     "print_statement",       "exec_statement",
        "type_alias_statement"};
    return kinds.contains(QByteArray(t.data(), qsizetype(t.size())));
}

bool isCompoundStatement(std::string_view t) {
    static const QSet<QByteArray> kinds = {
        "if_statement",   "for_statement",      "while_statement",     "try_statement",
        "with_statement", "match_statement",    "function_definition", "class_definition",
        "elif_clause",    "else_clause",        "except_clause",       "finally_clause",
        "case_clause",    "except_group_clause"};
    return kinds.contains(QByteArray(t.data(), qsizetype(t.size())));
}

// The last line of a compound statement's header: the ':' before its first block.
int headerEndLine(TSNode n) {
    int end = SyntaxTree::line(n);
    const uint32_t count = ts_node_child_count(n);
    for (uint32_t i = 0; i < count; ++i) {
        const TSNode c = ts_node_child(n, i);
        if (SyntaxTree::is(c, "block"))
            break;
        if (SyntaxTree::is(c, ":"))
            end = SyntaxTree::endLine(c);
    }
    return end;
}

bool onlySpaceBefore(const QByteArray& src, TSNode n) {
    qsizetype i = qsizetype(ts_node_start_byte(n));
    while (i > 0 && (src[i - 1] == ' ' || src[i - 1] == '\t'))
        --i;
    return i == 0 || src[i - 1] == '\n' || src[i - 1] == '\r';
}

// Comments and statements in one iterative walk.
void collect(const SyntaxTree& tree, std::vector<Comment>& comments,
             std::vector<Statement>& statements) {
    const QByteArray& src = tree.source();
    TSTreeCursor cur = ts_tree_cursor_new(tree.root());
    std::vector<int> decorated; // start lines of the decorated definitions we are inside
    std::vector<int> decoratedDepth;
    int depth = 0;
    for (;;) {
        const TSNode n = ts_tree_cursor_current_node(&cur);
        const std::string_view t = SyntaxTree::type(n);
        if (t == "comment") {
            comments.push_back({SyntaxTree::line(n), onlySpaceBefore(src, n), tree.qtext(n)});
        } else if (t == "decorated_definition") {
            decorated.push_back(SyntaxTree::line(n));
            decoratedDepth.push_back(depth);
        } else if (isSimpleStatement(t) || isCompoundStatement(t)) {
            Statement s;
            s.own = SyntaxTree::line(n);
            s.start = s.own;
            if (!decoratedDepth.empty() && decoratedDepth.back() == depth - 1 &&
                (t == "function_definition" || t == "class_definition"))
                s.start = decorated.back();
            s.end = SyntaxTree::endLine(n);
            s.headerEnd = isCompoundStatement(t) ? headerEndLine(n) : s.end;
            statements.push_back(s);
        }
        if (ts_tree_cursor_goto_first_child(&cur)) {
            ++depth;
            continue;
        }
        bool done = false;
        while (!ts_tree_cursor_goto_next_sibling(&cur)) {
            if (!ts_tree_cursor_goto_parent(&cur)) {
                done = true;
                break;
            }
            --depth;
            while (!decoratedDepth.empty() && decoratedDepth.back() >= depth) {
                decoratedDepth.pop_back();
                decorated.pop_back();
            }
        }
        if (done)
            break;
        while (!decoratedDepth.empty() && decoratedDepth.back() >= depth) {
            decoratedDepth.pop_back();
            decorated.pop_back();
        }
    }
    ts_tree_cursor_delete(&cur);
}

struct Parsed {
    QStringList lineCodes; ///< codes that apply to the comment's statement
    QStringList fileCodes; ///< codes for the whole file
    QStringList problems;  ///< one sentence each
};

QStringList splitCodes(const QString& list) {
    static const QRegularExpression sep(QStringLiteral("[,\\s]+"));
    return list.split(sep, Qt::SkipEmptyParts);
}

bool knownCode(const QString& code) {
    return RuleRegistry::instance().find(code) != nullptr;
}

QString unknownCodeProblem(const QString& code) {
    return QStringLiteral("suppression names %1, which is not a cnready rule (see `cnready "
                          "rules`); it silences nothing")
        .arg(code);
}

Parsed parseComment(const QString& text) {
    Parsed p;
    static const QRegularExpression cnready(
        QStringLiteral("cnready\\s*:\\s*([A-Za-z-]*)\\s*(\\[([^\\]]*)\\])?"),
        QRegularExpression::CaseInsensitiveOption);
    for (auto it = cnready.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const QString verb = m.captured(1).toLower();
        const bool file = verb == QLatin1String("ignore-file");
        if (!file && verb != QLatin1String("ignore")) {
            p.problems << QStringLiteral("`cnready: %1` is not a suppression cnready knows "
                                         "(write `# cnready: ignore[R101]` or "
                                         "`# cnready: ignore-file[R101]`); ignored")
                              .arg(m.captured(1));
            continue;
        }
        const QStringList codes = splitCodes(m.captured(3));
        if (codes.isEmpty()) {
            p.problems << QStringLiteral("`cnready: %1` names no rule code (write `%1[R101]`); "
                                         "it silences nothing")
                              .arg(verb);
            continue;
        }
        for (const QString& c : codes) {
            if (!knownCode(c))
                p.problems << unknownCodeProblem(c);
            else
                (file ? p.fileCodes : p.lineCodes) << c.toUpper();
        }
    }
    // Ruff's form: `# noqa: A1, B2`. Only R-numbers of three digits are ours (pylint's are
    // four: R0913); a bare `# noqa` silences the other linters, not cnready.
    static const QRegularExpression noqa(
        QStringLiteral("#\\s*noqa\\s*:\\s*([A-Za-z]+[0-9]+(?:[\\s,]+[A-Za-z]+[0-9]+)*)"),
        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression ours(QStringLiteral("^[Rr][0-9]{3}$"));
    for (auto it = noqa.globalMatch(text); it.hasNext();) {
        for (const QString& c : splitCodes(it.next().captured(1))) {
            if (!ours.match(c).hasMatch())
                continue;
            if (!knownCode(c))
                p.problems << unknownCodeProblem(c);
            else
                p.lineCodes << c.toUpper();
        }
    }
    return p;
}

// Whether some comment may name a code or a problem: a comment runs from a '#' to the end of
// its line, so parseComment() of every such line tail that mentions "cnready" or "noqa" (any
// case) finds at least what it finds in the comments. Most files have none, and then neither
// the five whole-source searches nor the tree walk below are needed.
bool mayHoldSuppression(const QByteArray& src) {
    const char* p = src.constData();
    const char* const end = p + src.size();
    while ((p = static_cast<const char*>(std::memchr(p, '#', size_t(end - p))))) {
        const char* eol = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p)));
        if (!eol)
            eol = end;
        const QLatin1String tail(p, eol - p); // bytes; the markers are ASCII
        if (tail.contains(QLatin1String("cnready"), Qt::CaseInsensitive) ||
            tail.contains(QLatin1String("noqa"), Qt::CaseInsensitive)) {
            const Parsed parsed = parseComment(QString::fromUtf8(p, eol - p));
            if (!parsed.lineCodes.isEmpty() || !parsed.fileCodes.isEmpty() ||
                !parsed.problems.isEmpty())
                return true;
        }
        p = eol;
    }
    return false;
}

} // namespace

void applySuppressions(const SyntaxTree& tree, const QString& path, QList<Finding>& findings,
                       QList<Finding>& suppressed, QList<FileDiagnostic>& diagnostics) {
    const QByteArray& src = tree.source();
    if (!mayHoldSuppression(src))
        return;
    if (!src.contains("cnready") && !src.contains("CNREADY") && !src.contains("noqa") &&
        !src.contains("NOQA") && !src.contains("NoQA"))
        return;
    std::vector<Comment> comments;
    std::vector<Statement> statements;
    collect(tree, comments, statements);

    QSet<QString> fileCodes;
    QHash<int, QSet<QString>> lineCodes; // comment line -> codes
    QSet<int> ownLineComments;
    for (const Comment& c : comments) {
        if (c.ownLine)
            ownLineComments.insert(c.line);
        const Parsed p = parseComment(c.text);
        for (const QString& code : p.fileCodes)
            fileCodes.insert(code);
        for (const QString& code : p.lineCodes)
            lineCodes[c.line].insert(code);
        for (const QString& why : p.problems)
            diagnostics.append(FileDiagnostic{FileDiagnostic::Kind::Suppression,
                                              SourceRange{path, c.line, 1, c.line, 1}, why});
    }
    if (fileCodes.isEmpty() && lineCodes.isEmpty())
        return;

    auto codesAt = [&](int line, const QString& code) {
        const auto it = lineCodes.constFind(line);
        return it != lineCodes.cend() && it->contains(code);
    };
    auto lineSuppresses = [&](const Finding& f) {
        const int at = f.range.line;
        // Any line the finding spans: the body line a loop finding points at is where a user
        // puts the comment.
        for (int l = at; l <= std::min(f.range.endLine, at + 200); ++l)
            if (codesAt(l, f.code))
                return true;
        // The innermost statement holding the finding's first line: the latest start wins
        // (pre-order walk: an inner statement comes after the one around it).
        const Statement* s = nullptr;
        for (const Statement& st : statements)
            if (st.own <= at && at <= st.end && (!s || st.own >= s->own))
                s = &st;
        if (!s)
            return false;
        for (int l = s->own; l <= s->headerEnd; ++l)
            if (codesAt(l, f.code))
                return true;
        for (int l = s->start - 1; l > 0 && ownLineComments.contains(l); --l)
            if (codesAt(l, f.code))
                return true;
        return false;
    };
    qsizetype kept = 0;
    for (qsizetype i = 0; i < findings.size(); ++i) {
        Finding& f = findings[i];
        if (fileCodes.contains(f.code) || (!lineCodes.isEmpty() && lineSuppresses(f))) {
            suppressed.append(std::move(f));
            continue;
        }
        if (kept != i)
            findings[kept] = std::move(f);
        ++kept;
    }
    findings.resize(kept);
}

} // namespace cnready
