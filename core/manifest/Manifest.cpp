#include "manifest/Manifest.h"

#include <QFile>
#include <QRegularExpression>

namespace cnready {

QString supportGlyph(Support s) {
    switch (s) {
    case Support::Multi: return QStringLiteral("✓✓");
    case Support::Single: return QStringLiteral("✓");
    case Support::Partial: return QStringLiteral("🟡");
    case Support::Missing: return QStringLiteral("✗");
    case Support::Absent: break;
    }
    return {};
}

QString supportName(Support s) {
    switch (s) {
    case Support::Multi: return QStringLiteral("multi-gpu");
    case Support::Single: return QStringLiteral("single-gpu");
    case Support::Partial: return QStringLiteral("partial");
    case Support::Missing: return QStringLiteral("not-implemented");
    case Support::Absent: break;
    }
    return QStringLiteral("absent");
}

Manifest Manifest::parse(const QByteArray& markdown, const QString& origin) {
    Manifest m;
    m.m_origin = origin;
    const QList<QByteArray> lines = markdown.split('\n');
    QString section;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const int lineNo = int(i) + 1;
        const QString line = QString::fromUtf8(lines[i]).trimmed();
        if (line.startsWith(QLatin1String("Source:"))) {
            m.m_source = line.mid(7).trimmed();
        } else if (line.startsWith(QLatin1String("Fetched:"))) {
            m.m_fetched = QDateTime::fromString(line.mid(8).trimmed(), Qt::ISODate);
            if (!m.m_fetched.isValid())
                m.m_issues.append({lineNo, QStringLiteral("cannot read the Fetched: date")});
        } else if (line.startsWith(QLatin1String("Counts:"))) {
            m.m_countsLine = line.mid(7).trimmed();
        } else if (line.startsWith(QLatin1String("## "))) {
            section = line.mid(3).section(QLatin1String(" ("), 0, 0).trimmed();
        } else if (!section.isEmpty() && !line.isEmpty()) {
            Support s = Support::Absent;
            QString rest;
            if (line.startsWith(QStringLiteral("✓✓"))) {
                s = Support::Multi;
                rest = line.mid(2);
            } else if (line.startsWith(QStringLiteral("✓"))) {
                s = Support::Single;
                rest = line.mid(1);
            } else if (line.startsWith(QStringLiteral("🟡"))) {
                s = Support::Partial;
                rest = line.mid(QStringLiteral("🟡").size());
            } else if (line.startsWith(QStringLiteral("✗"))) {
                s = Support::Missing;
                rest = line.mid(1);
            } else {
                m.m_issues.append({lineNo, QStringLiteral("line does not start with a known glyph")});
                continue;
            }
            QString note;
            const qsizetype dash = rest.indexOf(QStringLiteral(" — "));
            if (dash >= 0) {
                note = rest.mid(dash + 3).trimmed();
                rest = rest.left(dash);
            }
            for (QString name : rest.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                name = name.trimmed().remove(QLatin1Char('\\'));
                if (name.endsWith(QLatin1String("()")))
                    name.chop(2);
                if (!name.startsWith(QLatin1String("numpy."))) {
                    m.m_issues.append({lineNo, QStringLiteral("'%1' is not a numpy name").arg(name)});
                    continue;
                }
                m.m_index.insert(name, m.m_entries.size());
                m.m_entries.append({name, s, note, section, lineNo});
            }
        }
    }
    return m;
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
    Manifest m = load(QStringLiteral(":/cnready/api-support.md"));
    m.m_origin = QStringLiteral("bundled");
    return m;
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

} // namespace cnready
