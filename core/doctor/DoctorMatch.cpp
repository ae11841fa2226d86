#include "doctor/DoctorMatch.h"

#include "parse/Notebook.h"
#include "parse/SyntaxTree.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>

#include <algorithm>
#include <memory>

namespace cnready {

namespace {

// The project's Python files, longest path first, for suffix matching.
class PathIndex {
public:
    explicit PathIndex(const ProjectResult& p) {
        for (const FileResult& f : p.files)
            if (!isNotebookPath(f.path))
                paths << f.path;
        std::sort(paths.begin(), paths.end(), [](const QString& a, const QString& b) {
            return a.size() != b.size() ? a.size() > b.size() : a < b;
        });
    }
    /// The project file `filename` (absolute, as Doctor printed it) ends with, or "".
    QString map(QString filename) const {
        filename.replace(QLatin1Char('\\'), QLatin1Char('/'));
        filename = QDir::cleanPath(filename);
        for (const QString& p : paths)
            if (filename == p || filename.endsWith(QLatin1Char('/') + p))
                return p;
        return {};
    }
    bool contains(const QString& path) const { return paths.contains(path); }

private:
    QStringList paths;
};

// One project file, read once: its lines and its statements.
struct SourceFile {
    QStringList lines;
    std::unique_ptr<SyntaxTree> tree;

    QString line(int n) const { return n >= 1 && n <= lines.size() ? lines[n - 1] : QString(); }

    bool isStatement(std::string_view t) const {
        return t.ends_with("_statement") || t == "function_definition" || t == "class_definition" ||
               t.ends_with("_clause") || t == "decorated_definition";
    }

    // The lines of the statement that holds line `n` (its header when compound).
    std::pair<int, int> statement(int n) const {
        if (!tree || !tree->isValid() || tree->isCorrupt() || n < 1 || n > lines.size())
            return {n, n};
        const QString text = line(n);
        qsizetype col = 0;
        while (col < text.size() && text[col].isSpace())
            ++col;
        // Bytes, not characters, for tree-sitter: the indentation is ASCII.
        const TSPoint at{uint32_t(n - 1), uint32_t(col)};
        TSNode node = ts_node_descendant_for_point_range(tree->root(), at, at);
        while (!ts_node_is_null(node) && !isStatement(SyntaxTree::type(node)))
            node = tree->parent(node);
        if (ts_node_is_null(node))
            return {n, n};
        const int start = SyntaxTree::line(node);
        int end = SyntaxTree::endLine(node);
        for (const char* field : {"body", "consequence"}) {
            const TSNode body = SyntaxTree::field(node, field);
            if (!ts_node_is_null(body)) {
                end = std::max(start, SyntaxTree::line(body) - 1);
                break;
            }
        }
        // A clause without a body field (else:, finally:) or a decorated definition: its
        // first line is its header.
        if (end > start && (SyntaxTree::type(node).ends_with("_clause") ||
                            SyntaxTree::type(node) == "decorated_definition"))
            for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i) {
                const TSNode child = ts_node_named_child(node, i);
                if (SyntaxTree::is(child, "block")) {
                    end = std::max(start, SyntaxTree::line(child) - 1);
                    break;
                }
            }
        // A line inside a compound statement's body that is no statement of its own (a
        // comment): the line alone.
        if (n > end)
            return {n, n};
        return {start, end};
    }
};

QString siteKey(const DoctorSite& s) {
    return QStringLiteral("%1\x1f%2\x1f%3\x1f%4")
        .arg(s.path)
        .arg(s.statementLine)
        .arg(s.check.key, s.description);
}

bool overlaps(int a0, int a1, int b0, int b1) {
    return a0 <= b1 && b0 <= a1;
}

} // namespace

QString DoctorSite::location() const {
    return statementEndLine > statementLine
               ? QStringLiteral("%1:%2-%3").arg(path).arg(statementLine).arg(statementEndLine)
               : QStringLiteral("%1:%2").arg(path).arg(line);
}

bool DoctorResult::stale() const {
    return !newerSources.isEmpty() || staleTextCount() > 0;
}

int DoctorResult::staleTextCount() const {
    return int(std::count_if(sites.cbegin(), sites.cend(),
                             [](const DoctorSite& s) { return s.staleText; }));
}

QList<DoctorSite> DoctorResult::runtimeOnly() const {
    QList<DoctorSite> out;
    for (const DoctorSite& s : sites)
        if (!s.confirms && !s.staleText)
            out << s;
    return out;
}

bool DoctorResult::isConfirmed(const Finding& f) const {
    return confirmed.contains(doctorFindingKey(f));
}

QString doctorFindingKey(const Finding& f) {
    return QStringLiteral("%1:%2:%3:%4:%5:%6")
        .arg(f.range.path)
        .arg(f.range.line)
        .arg(f.range.column)
        .arg(f.range.endLine)
        .arg(f.range.endColumn)
        .arg(f.code);
}

DoctorResult matchDoctorReport(const DoctorReport& report, const ProjectResult& project,
                               const FindingSelection& findings, const QString& entryScript) {
    DoctorResult r;
    r.reportPath = report.path;
    r.entries = int(report.entries.size());
    const PathIndex index(project);
    QHash<QString, std::shared_ptr<SourceFile>> files;
    auto source = [&](const QString& path) -> const SourceFile& {
        std::shared_ptr<SourceFile>& f = files[path];
        if (!f) {
            f = std::make_shared<SourceFile>();
            QFile file(QDir(project.root).filePath(path));
            if (file.open(QIODevice::ReadOnly)) {
                const QByteArray bytes = file.readAll();
                f->lines = QString::fromUtf8(bytes).split(QLatin1Char('\n'));
                for (QString& l : f->lines)
                    if (l.endsWith(QLatin1Char('\r')))
                        l.chop(1);
                f->tree = std::make_unique<SyntaxTree>(bytes, 2'000'000);
            }
        }
        return *f;
    };

    QHash<QString, qsizetype> seen;
    for (const DoctorEntry& e : report.entries) {
        QString path;
        int line = e.lineno;
        bool ownLine = true; // the entry's own file and line (its `source` can be compared)
        if (e.filename.startsWith(QLatin1Char('<'))) {
            for (auto it = e.frames.crbegin(); it != e.frames.crend() && path.isEmpty(); ++it)
                if (!it->filename.startsWith(QLatin1Char('<'))) {
                    path = index.map(it->filename);
                    line = it->line;
                    ownLine = false;
                }
            if (path.isEmpty() && index.contains(entryScript)) {
                path = entryScript;
                line = e.lineno;
                ownLine = true;
            }
        } else {
            path = index.map(e.filename);
        }
        if (path.isEmpty()) {
            ++r.outsideProject;
            continue;
        }
        const SourceFile& file = source(path);
        DoctorSite s;
        s.path = path;
        s.line = line;
        s.check = classifyDoctorCheck(e.description, e.source);
        s.description = e.description;
        s.reference = e.reference;
        s.source = e.source;
        if (s.check.fileLevel) {
            s.statementLine = s.statementEndLine = line;
        } else {
            std::tie(s.statementLine, s.statementEndLine) = file.statement(line);
        }
        const QString now = file.line(line).trimmed();
        if (ownLine && !e.source.isEmpty() && !s.check.fileLevel && now != e.source) {
            s.staleText = true;
            s.currentText = now;
        }
        // A line the file does not have (the file shrank since the run, or the report is
        // for other code) matches nothing, whatever its `source` says.
        if (!s.check.fileLevel && (line < 1 || line > file.lines.size())) {
            s.staleText = true;
            s.currentText.clear();
        }
        const QString key = siteKey(s);
        if (const auto it = seen.constFind(key); it != seen.cend()) {
            DoctorSite& first = r.sites[*it];
            ++first.occurrences;
            first.line = std::min(first.line, s.line);
            first.staleText = first.staleText && s.staleText;
            continue;
        }
        seen.insert(key, r.sites.size());
        r.sites << std::move(s);
    }
    std::sort(r.sites.begin(), r.sites.end(), [](const DoctorSite& a, const DoctorSite& b) {
        return std::tie(a.path, a.statementLine, a.check.key, a.description) <
               std::tie(b.path, b.statementLine, b.check.key, b.description);
    });

    // Files changed after the run: the report describes older code.
    if (report.modified.isValid()) {
        QSet<QString> paths;
        for (const DoctorSite& s : std::as_const(r.sites))
            paths.insert(s.path);
        for (const QString& p : paths) {
            const QFileInfo info(QDir(project.root).filePath(p));
            if (info.exists() && info.lastModified() > report.modified)
                r.newerSources << p;
        }
        r.newerSources.sort();
    }

    for (const Finding& f : findings) {
        for (DoctorSite& s : r.sites) {
            if (s.staleText || s.path != f.range.path || !s.check.confirms.contains(f.code))
                continue;
            const int endLine = std::max(f.range.line, f.range.endLine);
            if (s.check.fileLevel ||
                overlaps(s.statementLine, s.statementEndLine, f.range.line, endLine)) {
                s.confirms = true;
                r.confirmed.insert(doctorFindingKey(f));
            }
        }
    }
    return r;
}

} // namespace cnready
