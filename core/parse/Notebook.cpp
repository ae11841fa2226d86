#include "parse/Notebook.h"

#include "model/Finding.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <vector>

namespace cnready {

namespace {

// The line of the notebook text where each cell's source strings begin: per cell (all cells,
// in order), one entry per string of its "source" array (one for a single-string source).
// Qt's JSON reader keeps no positions, so this light scanner walks the same bytes again. It
// runs only on text QJsonDocument accepted, and every loop advances or stops at the end, so a
// surprise in the bytes costs at worst missing entries (the caller then falls back to 0).
class SourceLineScanner {
public:
    explicit SourceLineScanner(const QByteArray& json)
        : m_p(json.constData()), m_end(json.constData() + json.size()) {}

    std::vector<std::vector<int>> scan() {
        std::vector<std::vector<int>> cells;
        ws();
        if (peek() != '{')
            return cells;
        ++m_p;
        while (m_p < m_end) {
            ws();
            const char c = peek();
            if (c == '}' || c == 0)
                break;
            if (c == ',') {
                ++m_p;
                continue;
            }
            if (c != '"')
                return cells; // not a key: stop rather than guess
            const QByteArray key = str();
            colon();
            if (key == "cells" && peek() == '[')
                scanCells(cells);
            else
                skip();
        }
        return cells;
    }

private:
    char peek() const { return m_p < m_end ? *m_p : 0; }

    void ws() {
        while (m_p < m_end && (*m_p == ' ' || *m_p == '\t' || *m_p == '\n' || *m_p == '\r')) {
            if (*m_p == '\n')
                ++m_line;
            ++m_p;
        }
    }

    void colon() {
        ws();
        if (peek() == ':')
            ++m_p;
        ws();
    }

    // At a '"': the raw bytes up to the closing quote (escapes left as written).
    QByteArray str() {
        ++m_p;
        const char* start = m_p;
        while (m_p < m_end && *m_p != '"') {
            if (*m_p == '\\' && m_p + 1 < m_end)
                ++m_p;
            ++m_p;
        }
        QByteArray s(start, m_p - start);
        if (m_p < m_end)
            ++m_p;
        return s;
    }

    // Any value, iteratively (no recursion whatever the nesting).
    void skip() {
        ws();
        const char c = peek();
        if (c == '"') {
            str();
            return;
        }
        if (c == '{' || c == '[') {
            int depth = 0;
            do {
                if (*m_p == '"') {
                    str();
                    continue;
                }
                if (*m_p == '{' || *m_p == '[')
                    ++depth;
                else if (*m_p == '}' || *m_p == ']')
                    --depth;
                else if (*m_p == '\n')
                    ++m_line;
                ++m_p;
            } while (m_p < m_end && depth > 0);
            return;
        }
        while (m_p < m_end && *m_p != ',' && *m_p != '}' && *m_p != ']' && *m_p != ' ' &&
               *m_p != '\n' && *m_p != '\r' && *m_p != '\t')
            ++m_p;
    }

    void scanCells(std::vector<std::vector<int>>& cells) {
        ++m_p; // '['
        while (m_p < m_end) {
            ws();
            const char c = peek();
            if (c == ']') {
                ++m_p;
                return;
            }
            if (c == ',') {
                ++m_p;
                continue;
            }
            if (c != '{') {
                cells.emplace_back();
                skip();
                continue;
            }
            ++m_p;
            cells.emplace_back();
            while (m_p < m_end) {
                ws();
                const char k = peek();
                if (k == '}') {
                    ++m_p;
                    break;
                }
                if (k == ',') {
                    ++m_p;
                    continue;
                }
                if (k != '"')
                    return;
                const QByteArray key = str();
                colon();
                if (key != "source") {
                    skip();
                } else if (peek() == '"') {
                    cells.back().push_back(m_line);
                    str();
                } else if (peek() == '[') {
                    ++m_p;
                    while (m_p < m_end) {
                        ws();
                        const char e = peek();
                        if (e == ']') {
                            ++m_p;
                            break;
                        }
                        if (e == ',') {
                            ++m_p;
                        } else if (e == '"') {
                            cells.back().push_back(m_line);
                            str();
                        } else {
                            skip();
                        }
                    }
                } else {
                    skip();
                }
            }
        }
    }

    const char* m_p;
    const char* m_end;
    int m_line = 1;
};

// Where a physical line of Python stands: inside brackets, a string or a continuation.
struct LineState {
    int brackets = 0;
    QChar quote; ///< the open string's quote, null outside strings
    bool triple = false;
    bool continued = false; ///< the line ended with a backslash outside strings
    bool startsStatement() const { return brackets == 0 && quote.isNull() && !continued; }
};

// Advances `s` over one physical line (a lexer sketch: strings, comments, brackets).
void scanLine(QStringView line, LineState& s) {
    s.continued = false;
    const qsizetype n = line.size();
    for (qsizetype i = 0; i < n; ++i) {
        const QChar c = line[i];
        if (!s.quote.isNull()) {
            if (c == QLatin1Char('\\')) {
                if (i + 1 == n && !s.triple)
                    return; // a backslash carries a one-line string to the next line
                ++i;
                continue;
            }
            if (c == s.quote && !s.triple) {
                s.quote = QChar();
            } else if (c == s.quote && i + 2 < n && line[i + 1] == c && line[i + 2] == c) {
                s.quote = QChar();
                i += 2;
            }
            continue;
        }
        if (c == QLatin1Char('#'))
            break;
        if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
            s.quote = c;
            s.triple = i + 2 < n && line[i + 1] == c && line[i + 2] == c;
            if (s.triple)
                i += 2;
            continue;
        }
        if (c == QLatin1Char('(') || c == QLatin1Char('[') || c == QLatin1Char('{'))
            ++s.brackets;
        else if ((c == QLatin1Char(')') || c == QLatin1Char(']') || c == QLatin1Char('}')) &&
                 s.brackets > 0)
            --s.brackets;
        else if (c == QLatin1Char('\\') && i + 1 == n)
            s.continued = true;
    }
    if (!s.quote.isNull() && !s.triple)
        s.quote = QChar(); // an unterminated one-line string ends with its line
}

// A line IPython rewrites before Python sees it (called for lines that start a statement).
bool isIPythonLine(QStringView trimmed) {
    if (trimmed.isEmpty())
        return false;
    const QChar first = trimmed.front();
    if (first == QLatin1Char('%') || first == QLatin1Char('!') || first == QLatin1Char('?'))
        return true;
    if (trimmed.back() == QLatin1Char('?') && !trimmed.contains(QLatin1Char('#')))
        return true; // help: `np.zeros?`, `obj.method??`
    // `files = !ls`, `t = %timeit -o f()`
    static const QRegularExpression assignFromMagic(
        QStringLiteral("^[A-Za-z_][A-Za-z0-9_.]*\\s*=\\s*[%!]"));
    return assignFromMagic.match(trimmed.toString()).hasMatch();
}

// The replacement for a line that is not Python: nothing, or `pass` at its indentation so
// that a block holding only magics stays a block.
QString blankedLine(QStringView line) {
    qsizetype indent = 0;
    while (indent < line.size() &&
           (line[indent] == QLatin1Char(' ') || line[indent] == QLatin1Char('\t')))
        ++indent;
    if (indent == 0)
        return {};
    return line.left(indent).toString() + QStringLiteral("pass");
}

// Cell magics whose body IPython runs as Python.
bool cellMagicRunsPython(QStringView name) {
    static const QSet<QString> python = {
        QStringLiteral("time"), QStringLiteral("timeit"), QStringLiteral("capture"),
        QStringLiteral("prun"), QStringLiteral("memit"),  QStringLiteral("debug"),
        QStringLiteral("px"),
    };
    return python.contains(name.toString());
}

// Blanks, in place, the lines of one code cell that are not Python.
void blankMagics(QStringList& lines) {
    qsizetype first = 0;
    while (first < lines.size() && lines[first].trimmed().isEmpty())
        ++first;
    if (first < lines.size() && lines[first].trimmed().startsWith(QLatin1String("%%"))) {
        const QString head = lines[first].trimmed().mid(2);
        const QString name = head.section(QLatin1Char(' '), 0, 0);
        if (!cellMagicRunsPython(name)) {
            for (QString& l : lines)
                l.clear();
            return;
        }
        lines[first].clear();
    }
    LineState state;
    for (QString& l : lines) {
        if (state.startsStatement()) {
            const QStringView trimmed = QStringView(l).trimmed();
            if (isIPythonLine(trimmed)) {
                l = blankedLine(l);
                continue;
            }
        }
        scanLine(l, state);
    }
}

QString kernelLanguage(const QJsonObject& metadata) {
    const QString spec = metadata.value(QLatin1String("kernelspec"))
                             .toObject()
                             .value(QLatin1String("language"))
                             .toString();
    if (!spec.isEmpty())
        return spec;
    return metadata.value(QLatin1String("language_info"))
        .toObject()
        .value(QLatin1String("name"))
        .toString();
}

int lineOfOffset(const QByteArray& bytes, qsizetype offset) {
    offset = std::clamp<qsizetype>(offset, 0, bytes.size());
    return int(std::count(bytes.constBegin(), bytes.constBegin() + offset, '\n')) + 1;
}

} // namespace

NotebookLine NotebookMap::at(int line) const {
    if (line < 1 || line > lines.size())
        return {};
    return lines[line - 1];
}

void NotebookMap::annotate(SourceRange& range) const {
    if (range.line <= 0 || lines.isEmpty())
        return;
    const NotebookLine l = at(std::min<int>(range.line, int(lines.size())));
    range.cell = l.cell;
    range.cellLineOffset = range.line - l.cellLine;
}

bool isNotebookPath(const QString& path) {
    return path.endsWith(QLatin1String(".ipynb"), Qt::CaseInsensitive);
}

Notebook readNotebook(const QByteArray& json) {
    Notebook nb;
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &err);
    if (err.error != QJsonParseError::NoError) {
        nb.error = QStringLiteral("notebook is not valid JSON (%1 at line %2); skipped")
                       .arg(err.errorString())
                       .arg(lineOfOffset(json, err.offset));
        return nb;
    }
    if (!doc.isObject()) {
        nb.error = QStringLiteral("file is JSON but not a notebook (no top-level object); "
                                  "skipped");
        return nb;
    }
    const QJsonObject top = doc.object();
    const int format = top.value(QLatin1String("nbformat")).toInt(0);
    if (format < 4 || !top.value(QLatin1String("cells")).isArray()) {
        nb.error = format > 0 && format < 4
                       ? QStringLiteral("notebook is nbformat %1; cnready reads nbformat 4: save "
                                        "it again in a current Jupyter (or `jupyter nbconvert "
                                        "--to notebook`) to convert it; skipped")
                             .arg(format)
                       : QStringLiteral("file is not an nbformat 4 notebook (no 'nbformat' "
                                        "of 4 and 'cells' list); skipped");
        return nb;
    }
    const QString language = kernelLanguage(top.value(QLatin1String("metadata")).toObject());
    if (!language.isEmpty() &&
        language.compare(QLatin1String("python"), Qt::CaseInsensitive) != 0) {
        nb.error = QStringLiteral("notebook runs a %1 kernel, not Python; skipped").arg(language);
        return nb;
    }

    const QJsonArray cells = top.value(QLatin1String("cells")).toArray();
    const std::vector<std::vector<int>> jsonLines = SourceLineScanner(json).scan();
    nb.cells = int(cells.size());
    QString code;
    for (qsizetype k = 0; k < cells.size(); ++k) {
        const QJsonObject cell = cells[k].toObject();
        if (cell.value(QLatin1String("cell_type")).toString() != QLatin1String("code"))
            continue;
        ++nb.codeCells;
        // The source: a list of strings (each usually one line with its newline) or one string.
        QList<std::pair<QString, int>> pieces;
        const std::vector<int>* where =
            size_t(k) < jsonLines.size() ? &jsonLines[size_t(k)] : nullptr;
        const QJsonValue source = cell.value(QLatin1String("source"));
        if (source.isArray()) {
            const QJsonArray parts = source.toArray();
            for (qsizetype i = 0; i < parts.size(); ++i)
                pieces.append({parts[i].toString(), where && where->size() == size_t(parts.size())
                                                        ? (*where)[size_t(i)]
                                                        : 0});
        } else {
            pieces.append({source.toString(), where && where->size() == 1 ? where->front() : 0});
        }
        QStringList lines;
        QList<int> lineJson;
        QString current;
        int currentJson = -1;
        for (const auto& [text, jsonLine] : pieces) {
            qsizetype pos = 0;
            for (;;) {
                const qsizetype nl = text.indexOf(QLatin1Char('\n'), pos);
                if (currentJson < 0)
                    currentJson = jsonLine;
                current += QStringView(text).mid(pos, nl < 0 ? -1 : nl - pos);
                if (nl < 0)
                    break;
                if (current.endsWith(QLatin1Char('\r')))
                    current.chop(1);
                lines.append(current);
                lineJson.append(currentJson);
                current.clear();
                currentJson = -1;
                pos = nl + 1;
            }
            if (current.isEmpty())
                currentJson = -1; // the piece ended with its newline: the next one starts a line
        }
        if (!current.isEmpty()) {
            lines.append(current);
            lineJson.append(currentJson);
        }
        blankMagics(lines);
        for (qsizetype i = 0; i < lines.size(); ++i) {
            code += lines[i];
            code += QLatin1Char('\n');
            nb.map.lines.append(NotebookLine{int(k) + 1, int(i) + 1, lineJson[i]});
        }
    }
    nb.code = code.toUtf8();
    return nb;
}

} // namespace cnready
