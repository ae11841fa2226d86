#include "baseline/Baseline.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <algorithm>
#include <tuple>

namespace cnready {

namespace {

const QString kSchema = QStringLiteral("cnready-baseline");

} // namespace

QSet<QString> Baseline::fingerprints() const {
    QSet<QString> out;
    for (const BaselineEntry& e : entries)
        out.insert(e.fingerprint);
    return out;
}

Baseline baselineOf(const ProjectResult& project, const FingerprintIndex& index) {
    Baseline b;
    for (const QList<Finding>* list : {&project.findings, &project.offComputePath})
        for (const Finding& f : *list)
            b.entries.append({index.of(f), f.range.path, f.code, normalizedSourceLine(f.snippet)});
    std::sort(b.entries.begin(), b.entries.end(),
              [](const BaselineEntry& x, const BaselineEntry& y) {
                  return std::tie(x.path, x.code, x.fingerprint) <
                         std::tie(y.path, y.code, y.fingerprint);
              });
    return b;
}

bool writeBaseline(const Baseline& baseline, const QString& path, QString* error) {
    QJsonArray findings;
    for (const BaselineEntry& e : baseline.entries)
        findings.append(QJsonObject{{QStringLiteral("fingerprint"), e.fingerprint},
                                    {QStringLiteral("path"), e.path},
                                    {QStringLiteral("code"), e.code},
                                    {QStringLiteral("snippet"), e.snippet}});
    const QJsonObject doc{{QStringLiteral("schema"), kSchema},
                          {QStringLiteral("schemaVersion"), 1},
                          {QStringLiteral("findings"), findings}};
    const QByteArray bytes = QJsonDocument(doc).toJson(QJsonDocument::Indented);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        *error = file.errorString();
        return false;
    }
    return true;
}

Baseline readBaseline(const QString& path, QString* error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read baseline %1: %2").arg(path, file.errorString());
        return {};
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &pe);
    if (pe.error != QJsonParseError::NoError) {
        *error = QStringLiteral("baseline %1 is not JSON (%2 at byte %3)")
                     .arg(path, pe.errorString())
                     .arg(pe.offset);
        return {};
    }
    const QJsonObject root = doc.object();
    if (root.value(QStringLiteral("schema")).toString() != kSchema ||
        root.value(QStringLiteral("schemaVersion")).toInt() != 1) {
        *error = QStringLiteral("%1 is not a cnready baseline (schema \"%2\", version 1); "
                                "write one with --write-baseline")
                     .arg(path, kSchema);
        return {};
    }
    Baseline b;
    for (const QJsonValue& v : root.value(QStringLiteral("findings")).toArray()) {
        const QJsonObject o = v.toObject();
        const QString fp = o.value(QStringLiteral("fingerprint")).toString();
        if (fp.isEmpty()) {
            *error = QStringLiteral("baseline %1: an entry has no fingerprint").arg(path);
            return {};
        }
        b.entries.append({fp, o.value(QStringLiteral("path")).toString(),
                          o.value(QStringLiteral("code")).toString(),
                          o.value(QStringLiteral("snippet")).toString()});
    }
    return b;
}

BaselineComparison compareWithBaseline(const Baseline& accepted, const Baseline& current) {
    BaselineComparison c;
    c.known = accepted.fingerprints();
    const QSet<QString> now = current.fingerprints();
    for (const BaselineEntry& e : current.entries)
        ++(c.known.contains(e.fingerprint) ? c.unchanged : c.added);
    for (const BaselineEntry& e : accepted.entries)
        if (!now.contains(e.fingerprint))
            c.stale.append(e);
    return c;
}

ProjectResult withoutBaselined(const ProjectResult& project, const FingerprintIndex& index,
                               const QSet<QString>& accepted) {
    ProjectResult p = project;
    for (QList<Finding>* list : {&p.findings, &p.offComputePath})
        list->erase(
            std::remove_if(list->begin(), list->end(),
                           [&](const Finding& f) { return accepted.contains(index.of(f)); }),
            list->end());
    return p;
}

} // namespace cnready
