#include "manifest/ComparisonPage.h"

#include "manifest/HtmlTokenizer.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QUrl>

#include <algorithm>
#include <map>

namespace cnready {

const QList<ComparisonSectionDef>& comparisonSections() {
    static const QList<ComparisonSectionDef> defs = {
        {"module-level", "Module-Level"},
        {"multi-dimensional-array", "Multi-Dimensional Array"},
        {"linear-algebra", "Linear Algebra"},
        {"discrete-fourier-transform", "Discrete Fourier Transform"},
        {"random-sampling", "Random Sampling"}};
    return defs;
}

QString defaultComparisonUrl() {
    return QStringLiteral("https://docs.nvidia.com/cupynumeric/latest/api/comparison.html");
}

namespace {

enum class Mark { None, Yes, Partial, No, Unknown };

// Cell text: entity-decoded already; whitespace collapsed, invisible characters and Sphinx's
// pilcrow anchors removed.
QString cleanCell(const QString& raw) {
    QString s = raw;
    s.remove(QChar(0x200B)).remove(QChar(0x00AD)).remove(QChar(0xFEFF)).remove(QChar(0x00B6));
    s.replace(QChar(0x00A0), QLatin1Char(' '));
    return s.simplified();
}

Mark readMark(QString token) {
    token.remove(QChar(0xFE0F)); // emoji presentation selector
    token = token.trimmed();
    if (token.isEmpty())
        return Mark::None;
    if (token == QStringLiteral("✓") || token == QStringLiteral("✔") || token == QLatin1String("1"))
        return Mark::Yes;
    if (token == QStringLiteral("🟡") || token == QLatin1String("3"))
        return Mark::Partial;
    if (token == QStringLiteral("❌") || token == QStringLiteral("✗"))
        return Mark::No;
    return Mark::Unknown;
}

bool isNotImplementedMarker(const QString& s) {
    return s.isEmpty() || s == QLatin1String("-") || s == QStringLiteral("—") ||
           s == QStringLiteral("–");
}

QString sectionTitle(const QString& id) {
    for (const ComparisonSectionDef& d : comparisonSections())
        if (id == QLatin1String(d.id))
            return QString::fromLatin1(d.title);
    return {};
}

// Our own wording for the notes the page implies.
QString partialNote(const QString& sectionId, bool multiPartial) {
    if (multiPartial && sectionId == QLatin1String("discrete-fourier-transform"))
        return QStringLiteral("multi-GPU partial: only batches of transforms along an axis are "
                              "spread over GPUs");
    return multiPartial ? QStringLiteral("multi-GPU support is partial")
                        : QStringLiteral("single-GPU support is partial; no multi-GPU support");
}

struct OpenBlock {
    QString tag;
    QString sectionId; ///< set for <section> and <div class="section"> (older Sphinx)
    bool isSection = false;
};

} // namespace

ComparisonPage parseComparisonPage(const QByteArray& html) {
    ComparisonPage page;
    const QString text = QString::fromUtf8(html);
    HtmlTokenizer tokenizer(text);
    HtmlToken t;

    QList<OpenBlock> blocks; // open <section>/<div> elements, innermost last
    // Positions in `blocks` of the open <section> and <div> elements and of the section-like
    // ones, so closing tags and lookups cost O(1) amortised even on pathological nesting.
    QList<qsizetype> openSections, openDivs, sectionLike;
    QString tableSection; // id of the known section owning the table being read
    int tableDepth = 0;   // nesting of <table> (rows are read at depth 1 only)
    bool inHead = false, inRow = false, inCell = false, rowAllHeader = true;
    QStringList cells;
    QString cell;
    QHash<QString, int> bodyRow; // per section
    QHash<QString, qsizetype> seen;

    auto currentSection = [&]() -> QString {
        return sectionLike.isEmpty() ? QString() : blocks[sectionLike.last()].sectionId;
    };
    auto closeCell = [&]() {
        if (inCell)
            cells.append(cleanCell(cell));
        inCell = false;
        cell.clear();
    };
    auto closeRow = [&]() {
        closeCell();
        if (!inRow)
            return;
        inRow = false;
        if (tableSection.isEmpty() || inHead || rowAllHeader || cells.isEmpty()) {
            cells.clear();
            return;
        }
        const int rowNo = ++bodyRow[tableSection];
        const QString where =
            QStringLiteral("section '%1', body row %2").arg(tableSection).arg(rowNo);
        const QStringList c = cells;
        cells.clear();
        ++page.rows;
        if (c.size() != 4) {
            page.errors.append(QStringLiteral("%1: %2 cells, expected 4").arg(where).arg(c.size()));
            return;
        }
        QString name = c[0];
        if (name.endsWith(QLatin1String("()")))
            name.chop(2);
        if (!name.startsWith(QLatin1String("numpy.")) || name.contains(QLatin1Char(' '))) {
            page.errors.append(QStringLiteral("%1: first cell '%2' is not a NumPy name")
                                   .arg(where, c[0].left(40)));
            return;
        }
        const bool implemented = c[1].startsWith(QLatin1String("cupynumeric."));
        if (!implemented && !isNotImplementedMarker(c[1])) {
            page.errors.append(QStringLiteral("%1: second cell '%2' is neither a cuPyNumeric name "
                                              "nor '-'")
                                   .arg(where, c[1].left(40)));
            return;
        }
        const Mark single = readMark(c[2]), multi = readMark(c[3]);
        if (single == Mark::Unknown || multi == Mark::Unknown) {
            page.errors.append(
                QStringLiteral("%1: unknown support marker '%2' (expected ✓, 🟡, "
                               "❌, empty, 1 or 3)")
                    .arg(where, (single == Mark::Unknown ? c[2] : c[3]).left(20)));
            return;
        }
        ManifestEntry e;
        e.name = name;
        e.section = sectionTitle(tableSection);
        e.line = rowNo;
        if (!implemented) {
            e.support = Support::Missing;
        } else {
            ++page.implemented;
            if (multi == Mark::Partial || single == Mark::Partial) {
                e.support = Support::Partial;
                e.note = partialNote(tableSection, multi == Mark::Partial);
            } else if (multi == Mark::Yes) {
                e.support = Support::Multi;
            } else if (single == Mark::Yes) {
                e.support = Support::Single;
            } else {
                e.support = Support::Single;
                e.note = QStringLiteral("implemented, but the page marks no GPU support");
            }
        }
        if (seen.contains(name)) {
            ++page.duplicates;
            return;
        }
        seen.insert(name, page.entries.size());
        page.entries.append(e);
    };

    while (tokenizer.next(t)) {
        switch (t.kind) {
        case HtmlToken::Kind::Text:
            if (inCell && tableDepth == 1)
                cell += t.text;
            break;
        case HtmlToken::Kind::StartTag:
            if (t.name == QLatin1String("link") &&
                t.attr(QStringLiteral("rel"))
                    .split(QLatin1Char(' '))
                    .contains(QLatin1String("canonical")) &&
                page.canonicalUrl.isEmpty()) {
                page.canonicalUrl = t.attr(QStringLiteral("href"));
            } else if ((t.name == QLatin1String("section") || t.name == QLatin1String("div")) &&
                       !t.selfClosing) {
                OpenBlock b{t.name, {}, false};
                if (t.name == QLatin1String("section") || t.attr(QStringLiteral("class"))
                                                              .split(QLatin1Char(' '))
                                                              .contains(QLatin1String("section"))) {
                    b.isSection = true;
                    b.sectionId = t.attr(QStringLiteral("id"));
                }
                (t.name == QLatin1String("section") ? openSections : openDivs)
                    .append(blocks.size());
                if (b.isSection)
                    sectionLike.append(blocks.size());
                blocks.append(b);
            } else if (t.name == QLatin1String("table")) {
                if (++tableDepth == 1) {
                    const QString id = currentSection();
                    tableSection = sectionTitle(id).isEmpty() ? QString() : id;
                    if (!tableSection.isEmpty() && !page.sectionsFound.contains(tableSection))
                        page.sectionsFound.append(tableSection);
                    inHead = false;
                }
            } else if (tableDepth == 1) {
                if (t.name == QLatin1String("thead")) {
                    closeRow();
                    inHead = true;
                } else if (t.name == QLatin1String("tbody") || t.name == QLatin1String("tfoot")) {
                    closeRow();
                    inHead = false;
                } else if (t.name == QLatin1String("tr")) {
                    closeRow();
                    inRow = true;
                    rowAllHeader = true;
                } else if (t.name == QLatin1String("td") || t.name == QLatin1String("th")) {
                    closeCell();
                    if (!inRow) { // a cell without <tr>: tolerate, open a row
                        inRow = true;
                        rowAllHeader = true;
                    }
                    inCell = true;
                    if (t.name == QLatin1String("td"))
                        rowAllHeader = false;
                } else if (t.name == QLatin1String("br") && inCell) {
                    cell += QLatin1Char(' ');
                }
            }
            break;
        case HtmlToken::Kind::EndTag:
            if (t.name == QLatin1String("section") || t.name == QLatin1String("div")) {
                QList<qsizetype>& mine =
                    t.name == QLatin1String("section") ? openSections : openDivs;
                if (!mine.isEmpty()) { // a stray end tag closes nothing
                    const qsizetype at = mine.takeLast();
                    blocks.resize(at); // also closes anything left open inside it
                    for (QList<qsizetype>* l : {&openSections, &openDivs, &sectionLike})
                        while (!l->isEmpty() && l->last() >= at)
                            l->removeLast();
                }
            } else if (t.name == QLatin1String("table")) {
                if (tableDepth == 1) {
                    closeRow();
                    tableSection.clear();
                    inHead = false;
                }
                tableDepth = std::max(0, tableDepth - 1);
            } else if (tableDepth == 1) {
                if (t.name == QLatin1String("thead")) {
                    closeRow();
                    inHead = false;
                } else if (t.name == QLatin1String("tr")) {
                    closeRow();
                } else if (t.name == QLatin1String("td") || t.name == QLatin1String("th")) {
                    closeCell();
                }
            }
            break;
        }
    }
    closeRow();
    return page;
}

namespace {

QString escapedName(const QString& name) {
    // Markdown would read "numpy.ix_," as the start of emphasis: escape a trailing underscore.
    return name.endsWith(QLatin1Char('_')) ? name.left(name.size() - 1) + QStringLiteral("\\_")
                                           : name;
}

int supportOrder(Support s) {
    switch (s) {
    case Support::Multi:
        return 0;
    case Support::Single:
        return 1;
    case Support::Partial:
        return 2;
    case Support::Missing:
        return 3;
    case Support::Absent:
        break;
    }
    return 4;
}

QString countsText(const ManifestCounts& c) {
    return QStringLiteral("%1 total · %2 implemented · %3 multi-GPU · %4 single-GPU only · "
                          "%5 partial · %6 not implemented")
        .arg(c.total)
        .arg(c.implemented())
        .arg(c.multi)
        .arg(c.single)
        .arg(c.partial)
        .arg(c.missing);
}

} // namespace

QByteArray writeManifestMarkdown(const QList<ManifestEntry>& entries, const QString& source,
                                 const QDateTime& fetched) {
    ManifestCounts all;
    for (const ManifestEntry& e : entries)
        all.add(e.support);

    QString out;
    out += QStringLiteral(
        "<!-- Data: the cuPyNumeric API comparison page, (c) NVIDIA CORPORATION & AFFILIATES, "
        "CC-BY-4.0. Converted into this manifest by cnready. -->\n");
    out += QStringLiteral("# cuPyNumeric API support\n\n");
    out += QStringLiteral("Source: %1\n").arg(source);
    out += QStringLiteral("Fetched: %1\n").arg(fetched.toUTC().toString(Qt::ISODate));
    out += QStringLiteral("Counts: %1\n\n").arg(countsText(all));
    out += QStringLiteral(
        "Legend\n\n"
        "- `✓✓` implemented, and distributed over several GPUs (so also fine on one)\n"
        "- `✓` implemented for one GPU or the CPU only; a limit for multi-GPU and multi-node "
        "targets\n"
        "- `🟡` partly supported; the note after the dash says what works\n"
        "- `✗` missing from cuPyNumeric; on a hot path this blocks a port\n\n"
        "Names are NumPy names; the cuPyNumeric one has the same tail under `cupynumeric.` "
        "(`numpy.linalg.norm` is `cupynumeric.linalg.norm`).\n");

    for (const ComparisonSectionDef& def : comparisonSections()) {
        const QString title = QString::fromLatin1(def.title);
        QList<ManifestEntry> mine;
        for (const ManifestEntry& e : entries)
            if (e.section == title)
                mine.append(e);
        if (mine.isEmpty())
            continue;
        ManifestCounts c;
        for (const ManifestEntry& e : mine)
            c.add(e.support);
        out += QStringLiteral("\n## %1 (%2 of %3 implemented)\n\n")
                   .arg(title)
                   .arg(c.implemented())
                   .arg(c.total);
        // Groups by (support, note); plain names are packed into lines of at most ~120
        // characters, entries with a note get a line each.
        std::map<std::pair<int, QString>, QStringList> groups;
        for (const ManifestEntry& e : mine)
            groups[{supportOrder(e.support), e.note}].append(e.name);
        for (auto& [key, names] : groups) {
            std::sort(names.begin(), names.end());
            constexpr Support kByOrder[] = {Support::Multi, Support::Single, Support::Partial,
                                            Support::Missing, Support::Absent};
            const Support s = kByOrder[key.first];
            const QString g = supportGlyph(s);
            if (!key.second.isEmpty()) {
                for (const QString& n : names)
                    out += QStringLiteral("%1 %2 — %3\n").arg(g, escapedName(n), key.second);
                continue;
            }
            QString line;
            for (const QString& n : names) {
                const QString item = escapedName(n);
                if (!line.isEmpty() && line.size() + 2 + item.size() > 120) {
                    out += line + QLatin1Char('\n');
                    line.clear();
                }
                line += line.isEmpty() ? g + QLatin1Char(' ') + item : QStringLiteral(", ") + item;
            }
            if (!line.isEmpty())
                out += line + QLatin1Char('\n');
        }
    }
    return out.toUtf8();
}

ManifestImport manifestFromComparisonPage(const QByteArray& html, const QString& source,
                                          const QDateTime& fetchedUtc, int minImplemented) {
    ManifestImport r;
    const ComparisonPage page = parseComparisonPage(html);
    r.rows = page.rows;
    r.implemented = page.implemented;
    if (!page.errors.isEmpty()) {
        r.error = QStringLiteral("the comparison table has %1 row(s) cnready cannot read (first: "
                                 "%2); the page format has probably changed; nothing written")
                      .arg(page.errors.size())
                      .arg(page.errors.first());
        return r;
    }
    QStringList missing;
    for (const ComparisonSectionDef& d : comparisonSections())
        if (!page.sectionsFound.contains(QLatin1String(d.id)))
            missing.append(QString::fromLatin1(d.id));
    if (!missing.isEmpty()) {
        r.error = QStringLiteral("the page has no table in section(s) %1: the page format has "
                                 "probably changed; nothing written")
                      .arg(missing.join(QStringLiteral(", ")));
        return r;
    }
    if (page.implemented < minImplemented) {
        r.error = QStringLiteral("only %1 implemented rows found (at least %2 expected): the page "
                                 "format has probably changed; nothing written")
                      .arg(page.implemented)
                      .arg(minImplemented);
        return r;
    }
    QString src = source.isEmpty() ? page.canonicalUrl : source;
    if (src.isEmpty())
        src = defaultComparisonUrl();
    r.markdown = writeManifestMarkdown(page.entries, src, fetchedUtc);
    r.manifest = Manifest::parse(r.markdown, src);
    if (!r.manifest.isValid()) {
        const ManifestIssue first = r.manifest.errors().value(0);
        r.error = QStringLiteral("the converted manifest does not validate (line %1: %2); "
                                 "nothing written")
                      .arg(first.line)
                      .arg(first.message);
        r.markdown.clear();
        return r;
    }
    r.ok = true;
    return r;
}

ManifestImport manifestFromFile(const QString& path, const QDateTime& nowUtc) {
    ManifestImport r;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        r.error = QStringLiteral("cannot read %1: %2").arg(path, f.errorString());
        return r;
    }
    constexpr qint64 kMaxFileBytes = 64LL * 1024 * 1024; // the real page is well under 1 MiB
    if (f.size() > kMaxFileBytes) {
        r.error = QStringLiteral("%1 is larger than %2 MiB; that is not a comparison page or a "
                                 "manifest")
                      .arg(path)
                      .arg(kMaxFileBytes / (1024 * 1024));
        return r;
    }
    const QByteArray bytes = f.readAll();
    const QByteArray probe = bytes.left(1 << 20).toLower();
    if (probe.contains("<html") || probe.contains("<body") || probe.contains("<table")) {
        // A saved page: record where it claims to come from (its canonical link), else the file.
        r = manifestFromComparisonPage(bytes, QString(), nowUtc);
        if (r.ok && parseComparisonPage(bytes).canonicalUrl.isEmpty()) {
            const QString src = QUrl::fromLocalFile(QFileInfo(path).absoluteFilePath()).toString();
            r.markdown = writeManifestMarkdown(r.manifest.entries(), src, nowUtc);
            r.manifest = Manifest::parse(r.markdown, src);
        }
        return r;
    }
    r.manifest = Manifest::parse(bytes, path);
    r.rows = int(r.manifest.entries().size());
    r.implemented = r.manifest.counts().implemented();
    if (!r.manifest.isValid()) {
        const ManifestIssue first = r.manifest.errors().value(0);
        r.error = QStringLiteral("%1:%2: %3 (%4 problem(s) in all; see 'cnready manifest check "
                                 "--manifest %1'); nothing written")
                      .arg(path)
                      .arg(first.line)
                      .arg(first.message.isEmpty() ? QStringLiteral("no entries") : first.message)
                      .arg(std::max<qsizetype>(1, r.manifest.errors().size()));
        return r;
    }
    r.markdown = bytes;
    r.ok = true;
    return r;
}

bool writeManifestFile(const QByteArray& bytes, const QString& path, QString* error) {
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath())) {
        if (error)
            *error = QStringLiteral("cannot create folder %1").arg(info.absolutePath());
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace cnready
