#include "manifest/Manifest.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QStandardPaths>

#include <algorithm>

namespace cnready {

QString supportGlyph(Support s) {
    switch (s) {
    case Support::Multi:
        return QStringLiteral("✓✓");
    case Support::Single:
        return QStringLiteral("✓");
    case Support::Partial:
        return QStringLiteral("🟡");
    case Support::Missing:
        return QStringLiteral("✗");
    case Support::Absent:
        break;
    }
    return {};
}

QString supportName(Support s) {
    switch (s) {
    case Support::Multi:
        return QStringLiteral("multi-gpu");
    case Support::Single:
        return QStringLiteral("single-gpu");
    case Support::Partial:
        return QStringLiteral("partial");
    case Support::Missing:
        return QStringLiteral("not-implemented");
    case Support::Absent:
        break;
    }
    return QStringLiteral("absent");
}

QString manifestOriginLabel(ManifestOrigin o) {
    switch (o) {
    case ManifestOrigin::Bundled:
        return QStringLiteral("bundled");
    case ManifestOrigin::UserImported:
        return QStringLiteral("user-imported");
    case ManifestOrigin::CommandLine:
        break;
    }
    return QStringLiteral("--manifest");
}

void ManifestCounts::add(Support s) {
    switch (s) {
    case Support::Multi:
        ++multi;
        break;
    case Support::Single:
        ++single;
        break;
    case Support::Partial:
        ++partial;
        break;
    case Support::Missing:
        ++missing;
        break;
    case Support::Absent:
        return;
    }
    ++total;
}

namespace {

// The four glyphs, longest first so "✓✓" wins over "✓".
struct GlyphDef {
    const char16_t* text;
    Support support;
};
constexpr GlyphDef kGlyphs[] = {{u"✓✓", Support::Multi},
                                {u"✓", Support::Single},
                                {u"🟡", Support::Partial},
                                {u"✗", Support::Missing}};

// "numpy" followed by one or more ".identifier" parts.
bool isNumpyName(const QString& name) {
    const QStringList parts = name.split(QLatin1Char('.'));
    if (parts.size() < 2 || parts.first() != QLatin1String("numpy"))
        return false;
    for (const QString& p : parts) {
        if (p.isEmpty() || p.front().isDigit())
            return false;
        for (QChar c : p)
            if (!(c.isLetterOrNumber() && c.unicode() < 128) && c != QLatin1Char('_'))
                return false;
    }
    return true;
}

// Markdown escapes ("numpy.ix\_") removed; a call suffix ("numpy.ndarray.all()") dropped.
QString canonicalEntryName(QString name) {
    QString out;
    out.reserve(name.size());
    for (qsizetype i = 0; i < name.size(); ++i) {
        if (name[i] == QLatin1Char('\\') && i + 1 < name.size())
            ++i;
        out.append(name[i]);
    }
    if (out.endsWith(QLatin1String("()")))
        out.chop(2);
    return out;
}

QString shorten(const QString& s) {
    return s.size() > 40 ? s.left(37) + QStringLiteral("...") : s;
}

// "616 total · 412 implemented · 363 multi-GPU · ..." into its figures.
void parseCountsHeader(const QString& text, int lineNo, ManifestHeaderCounts& h,
                       QList<ManifestIssue>& issues) {
    static const QRegularExpression item(QStringLiteral("^(\\d+)\\s+(.+)$"));
    h.line = lineNo;
    for (const QString& rawPart : text.split(QChar(0x00B7))) {
        const QString part = rawPart.trimmed();
        const QRegularExpressionMatch m = item.match(part);
        if (!m.hasMatch()) {
            issues.append(
                {lineNo,
                 QStringLiteral("Counts: item '%1' is not 'NUMBER label'").arg(shorten(part))});
            continue;
        }
        const int n = m.captured(1).toInt();
        const QString label = m.captured(2).trimmed().toLower();
        std::optional<int>* dst = nullptr;
        if (label == QLatin1String("total"))
            dst = &h.total;
        else if (label == QLatin1String("implemented"))
            dst = &h.implemented;
        else if (label == QLatin1String("multi-gpu"))
            dst = &h.multi;
        else if (label == QLatin1String("single-gpu only"))
            dst = &h.single;
        else if (label == QLatin1String("partial"))
            dst = &h.partial;
        else if (label == QLatin1String("not implemented"))
            dst = &h.missing;
        if (!dst) {
            issues.append(
                {lineNo,
                 QStringLiteral("Counts: has an unknown figure '%1'").arg(shorten(m.captured(2)))});
            continue;
        }
        if (dst->has_value())
            issues.append({lineNo, QStringLiteral("Counts: gives '%1' twice").arg(label)});
        *dst = n;
    }
}

} // namespace

Manifest Manifest::parse(const QByteArray& markdown, const QString& origin) {
    Manifest m;
    m.m_origin = origin;
    QList<ManifestIssue>& issues = m.m_issues;
    static const QRegularExpression sectionCount(
        QStringLiteral("^(.*?)\\s*\\((\\d+) of (\\d+) implemented\\)$"));

    QByteArray text = markdown;
    if (text.startsWith("\xEF\xBB\xBF"))
        text.remove(0, 3);
    const QList<QByteArray> lines = text.split('\n');
    int sourceLine = 0, fetchedLine = 0;
    QHash<QString, int> firstLineOf;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const int lineNo = int(i) + 1;
        const QString line = QString::fromUtf8(lines[i]).trimmed();
        if (line.startsWith(QLatin1String("## "))) {
            ManifestSection s;
            s.line = lineNo;
            const QString heading = line.mid(3).trimmed();
            const QRegularExpressionMatch cm = sectionCount.match(heading);
            if (cm.hasMatch()) {
                s.title = cm.captured(1).trimmed();
                s.claimedImplemented = cm.captured(2).toInt();
                s.claimedTotal = cm.captured(3).toInt();
            } else {
                s.title = heading;
                issues.append({lineNo, QStringLiteral("section heading has no "
                                                      "'(N of M implemented)' count")});
            }
            if (s.title.isEmpty())
                issues.append({lineNo, QStringLiteral("section heading has no title")});
            for (const ManifestSection& other : std::as_const(m.m_sections))
                if (other.title == s.title)
                    issues.append({lineNo, QStringLiteral("section '%1' appears twice (first on "
                                                          "line %2)")
                                               .arg(s.title)
                                               .arg(other.line)});
            m.m_sections.append(s);
            continue;
        }
        const bool isHeaderKey = line.startsWith(QLatin1String("Source:")) ||
                                 line.startsWith(QLatin1String("Fetched:")) ||
                                 line.startsWith(QLatin1String("Counts:"));
        if (m.m_sections.isEmpty()) {
            // The header: Source/Fetched/Counts; everything else (title, legend, comments) is
            // prose.
            if (!isHeaderKey)
                continue;
            auto once = [&](int& seen, const char* key) {
                if (seen)
                    issues.append({lineNo, QStringLiteral("second %1 line (first on line %2)")
                                               .arg(QLatin1String(key))
                                               .arg(seen)});
                seen = lineNo;
            };
            if (line.startsWith(QLatin1String("Source:"))) {
                once(sourceLine, "Source:");
                m.m_source = line.mid(7).trimmed();
                if (m.m_source.isEmpty())
                    issues.append({lineNo, QStringLiteral("Source: is empty")});
            } else if (line.startsWith(QLatin1String("Fetched:"))) {
                once(fetchedLine, "Fetched:");
                const QString value = line.mid(8).trimmed();
                m.m_fetched = QDateTime::fromString(value, Qt::ISODate);
                if (m.m_fetched.isValid())
                    m.m_fetched = m.m_fetched.toUTC();
                else
                    issues.append({lineNo, QStringLiteral("cannot read the Fetched: date '%1' "
                                                          "(expected ISO 8601)")
                                               .arg(shorten(value))});
            } else {
                if (m.m_headerCounts.line)
                    issues.append({lineNo, QStringLiteral("second Counts: line (first on line %1)")
                                               .arg(m.m_headerCounts.line)});
                m.m_countsLine = line.mid(7).trimmed();
                parseCountsHeader(m.m_countsLine, lineNo, m.m_headerCounts, issues);
            }
            continue;
        }
        if (line.isEmpty() ||
            (line.startsWith(QLatin1String("<!--")) && line.endsWith(QLatin1String("-->"))))
            continue;
        if (isHeaderKey) {
            issues.append({lineNo, QStringLiteral("header line '%1' inside a section (the header "
                                                  "must come before the first '## ')")
                                       .arg(shorten(line))});
            continue;
        }

        // A glyph line: GLYPH SPACE name, name, ... [ — note]
        const qsizetype space = line.indexOf(QLatin1Char(' '));
        const QString token = space < 0 ? line : line.left(space);
        Support support = Support::Absent;
        for (const GlyphDef& g : kGlyphs)
            if (token == QString::fromUtf16(g.text))
                support = g.support;
        if (support == Support::Absent) {
            if (token.startsWith(QLatin1String("numpy.")))
                issues.append(
                    {lineNo, QStringLiteral("line has no glyph (expected ✓✓, ✓, 🟡 or "
                                            "✗ before the names)")});
            else if (space < 0 &&
                     std::any_of(std::begin(kGlyphs), std::end(kGlyphs), [&](const GlyphDef& g) {
                         return token.startsWith(QString::fromUtf16(g.text));
                     }))
                issues.append(
                    {lineNo, QStringLiteral("glyph and names must be separated by a space")});
            else
                issues.append(
                    {lineNo, QStringLiteral("unknown glyph '%1' (expected ✓✓, ✓, 🟡 "
                                            "or ✗)")
                                 .arg(shorten(token))});
            continue;
        }
        QString rest = space < 0 ? QString() : line.mid(space + 1);
        QString note;
        const qsizetype dash = rest.indexOf(QStringLiteral(" — "));
        if (dash >= 0) {
            note = rest.mid(dash + 3).trimmed();
            rest = rest.left(dash);
            if (note.isEmpty())
                issues.append({lineNo, QStringLiteral("empty note after the dash")});
        }
        if (rest.trimmed().isEmpty()) {
            issues.append({lineNo, QStringLiteral("glyph line lists no names")});
            continue;
        }
        if (support == Support::Partial && note.isEmpty())
            issues.append({lineNo, QStringLiteral("partial (🟡) line has no note saying what "
                                                  "works ('— ...')")});
        for (const QString& piece : rest.split(QLatin1Char(','))) {
            const QString raw = piece.trimmed();
            if (raw.isEmpty()) {
                issues.append({lineNo, QStringLiteral("empty name between commas")});
                continue;
            }
            const QString name = canonicalEntryName(raw);
            if (!isNumpyName(name)) {
                issues.append(
                    {lineNo,
                     QStringLiteral("'%1' is not a NumPy name (numpy.…)").arg(shorten(raw))});
                continue;
            }
            if (const auto seen = firstLineOf.constFind(name); seen != firstLineOf.cend()) {
                issues.append(
                    {lineNo,
                     QStringLiteral("%1 is listed twice (first on line %2)").arg(name).arg(*seen)});
                continue;
            }
            firstLineOf.insert(name, lineNo);
            ManifestSection& section = m.m_sections.last();
            section.counts.add(support);
            m.m_index.insert(name, m.m_entries.size());
            m.m_entries.append({name, support, note, section.title, lineNo});
        }
    }

    // Whole-file checks, reported at the line where the missing or disagreeing text belongs.
    const int headerEnd = m.m_sections.isEmpty() ? int(lines.size()) : m.m_sections.first().line;
    if (!sourceLine)
        issues.append({headerEnd, QStringLiteral("no Source: line before the first section")});
    if (!fetchedLine)
        issues.append({headerEnd, QStringLiteral("no Fetched: line before the first section; "
                                                 "the manifest's age is unknown")});
    const ManifestCounts actual = m.counts();
    const ManifestHeaderCounts& h = m.m_headerCounts;
    if (!h.line) {
        issues.append({headerEnd, QStringLiteral("no Counts: line before the first section")});
    } else {
        const struct {
            const std::optional<int>& claimed;
            int actual;
            const char* label;
        } figures[] = {{h.total, actual.total, "total"},
                       {h.implemented, actual.implemented(), "implemented"},
                       {h.multi, actual.multi, "multi-GPU"},
                       {h.single, actual.single, "single-GPU only"},
                       {h.partial, actual.partial, "partial"},
                       {h.missing, actual.missing, "not implemented"}};
        for (const auto& f : figures) {
            if (!f.claimed)
                issues.append(
                    {h.line,
                     QStringLiteral("Counts: has no '%1' figure").arg(QLatin1String(f.label))});
            else if (*f.claimed != f.actual)
                issues.append({h.line,
                               QStringLiteral("Counts: says %1 %2, the entries give %3")
                                   .arg(*f.claimed)
                                   .arg(QLatin1String(f.label))
                                   .arg(f.actual),
                               true});
        }
    }
    for (const ManifestSection& s : std::as_const(m.m_sections)) {
        if (!s.claimedTotal)
            continue;
        if (*s.claimedImplemented != s.counts.implemented() || *s.claimedTotal != s.counts.total)
            issues.append({s.line,
                           QStringLiteral("section '%1' says %2 of %3 implemented, its "
                                          "lines give %4 of %5")
                               .arg(s.title)
                               .arg(*s.claimedImplemented)
                               .arg(*s.claimedTotal)
                               .arg(s.counts.implemented())
                               .arg(s.counts.total),
                           true});
        if (s.counts.total == 0)
            issues.append({s.line, QStringLiteral("section '%1' lists no entries").arg(s.title)});
    }
    if (m.m_sections.isEmpty())
        issues.append({headerEnd, QStringLiteral("no '## ' sections, so no entries")});
    std::stable_sort(
        issues.begin(), issues.end(),
        [](const ManifestIssue& a, const ManifestIssue& b) { return a.line < b.line; });
    return m;
}

QList<ManifestIssue> Manifest::errors() const {
    QList<ManifestIssue> out;
    for (const ManifestIssue& i : m_issues)
        if (!i.warning)
            out << i;
    return out;
}

ManifestCounts Manifest::counts() const {
    ManifestCounts c;
    for (const ManifestEntry& e : m_entries)
        c.add(e.support);
    return c;
}

Manifest Manifest::load(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        Manifest m;
        m.m_origin = path;
        m.m_issues.append({0, QStringLiteral("cannot read %1: %2").arg(path, f.errorString())});
        return m;
    }
    return parse(f.readAll(), path);
}

Manifest Manifest::bundled() {
    // Parsed once per process (thread-safe static); copies share the data.
    static const Manifest snapshot = [] {
        Manifest m = load(QStringLiteral(":/cnready/api-support.md"));
        m.m_origin = QStringLiteral("bundled");
        m.m_originKind = ManifestOrigin::Bundled;
        return m;
    }();
    return snapshot;
}

QString Manifest::userManifestPath() {
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
           QStringLiteral("/cnready/api-support.md");
}

Manifest Manifest::active(const QString& overridePath, QString* note) {
    if (!overridePath.isEmpty())
        return load(overridePath);
    const QString user = userManifestPath();
    if (QFile::exists(user)) {
        Manifest m = load(user);
        if (!m.isEmpty()) {
            m.m_originKind = ManifestOrigin::UserImported;
            return m;
        }
        if (note)
            *note = QStringLiteral("the imported manifest %1 is unusable (%2); using the bundled "
                                   "snapshot")
                        .arg(QDir::toNativeSeparators(user), m.issues().isEmpty()
                                                                 ? QStringLiteral("no entries")
                                                                 : m.issues().first().message);
    }
    return bundled();
}

const ManifestEntry* Manifest::entry(const QString& canonicalName) const {
    QString name = canonicalName;
    if (name.startsWith(QLatin1String("cupynumeric.")))
        name = QStringLiteral("numpy.") + name.mid(12);
    const auto it = m_index.constFind(name);
    return it == m_index.cend() ? nullptr : &m_entries[*it];
}

Support Manifest::lookup(const QString& canonicalName) const {
    const ManifestEntry* e = entry(canonicalName);
    return e ? e->support : Support::Absent;
}

int Manifest::ageInDays(const QDate& today) const {
    if (!m_fetched.isValid())
        return -1;
    return int(m_fetched.date().daysTo(today));
}

QString manifestDescription(const Manifest& m) {
    QString which;
    switch (m.originKind()) {
    case ManifestOrigin::Bundled:
        which = QStringLiteral("bundled snapshot");
        break;
    case ManifestOrigin::UserImported:
        which = QStringLiteral("user-imported (%1)").arg(QDir::toNativeSeparators(m.origin()));
        break;
    case ManifestOrigin::CommandLine:
        which = QStringLiteral("--manifest %1").arg(QDir::toNativeSeparators(m.origin()));
        break;
    }
    return m.fetched().isValid() ? QStringLiteral("%1, fetched %2")
                                       .arg(which, m.fetched().date().toString(Qt::ISODate))
                                 : which + QStringLiteral(", fetched date unknown");
}

QString formatDayCount(qint64 days) {
    QString digits = QString::number(days < 0 ? -days : days);
    for (qsizetype i = digits.size() - 3; i > 0; i -= 3)
        digits.insert(i, QLatin1Char(','));
    if (days < 0)
        digits.prepend(QLatin1Char('-'));
    return digits + (days == 1 || days == -1 ? QStringLiteral(" day") : QStringLiteral(" days"));
}

QString manifestAgeWarning(const Manifest& m, const QDate& today) {
    const QString which = m.originKind() == ManifestOrigin::Bundled
                              ? QStringLiteral("bundled")
                              : QDir::toNativeSeparators(m.origin());
    const QString howTo = QStringLiteral("refresh it with 'cnready manifest refresh' or import a "
                                         "saved comparison page with 'cnready manifest import "
                                         "PAGE.html'");
    if (!m.fetched().isValid())
        return QStringLiteral("the API-support manifest (%1) has no Fetched: date, so its age is "
                              "unknown; %2")
            .arg(which, howTo);
    const int age = m.ageInDays(today);
    // A fetch date after "today" means a wrong clock or a mistyped --today: the age check
    // cannot be trusted either way. One day of slack for time zones.
    if (age < -1)
        return QStringLiteral("the API-support manifest (%1) is dated %2, %3 after the date "
                              "used as today (%4); check the system clock or --today")
            .arg(which, m.fetched().date().toString(Qt::ISODate))
            .arg(formatDayCount(-qint64(age)))
            .arg(today.toString(Qt::ISODate));
    if (age <= Manifest::kStaleAfterDays)
        return {};
    return QStringLiteral("the API-support manifest (%1) was fetched %2, %3 ago (more than "
                          "%4); %5")
        .arg(which, m.fetched().date().toString(Qt::ISODate))
        .arg(formatDayCount(age))
        .arg(Manifest::kStaleAfterDays)
        .arg(howTo);
}

} // namespace cnready
