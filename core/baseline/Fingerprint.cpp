#include "baseline/Fingerprint.h"

#include <QCryptographicHash>
#include <QRegularExpression>

#include <algorithm>

namespace cnready {

namespace {

QString findingKey(const Finding& f) {
    return QStringLiteral("%1\n%2:%3-%4:%5\n%6")
        .arg(f.range.path)
        .arg(f.range.line)
        .arg(f.range.column)
        .arg(f.range.endLine)
        .arg(f.range.endColumn)
        .arg(f.code);
}

} // namespace

QString normalizedSourceLine(const QString& line) {
    return line.simplified();
}

FingerprintIndex::FingerprintIndex(const ProjectResult& project) {
    QList<const Finding*> all;
    for (const QList<Finding>* list : {&project.findings, &project.offComputePath,
                                       &project.suppressed, &project.leftOutByConfig})
        for (const Finding& f : *list)
            all.append(&f);
    std::stable_sort(all.begin(), all.end(),
                     [](const Finding* a, const Finding* b) { return findingLess(*a, *b); });
    QHash<QString, int> seen; // path, code and line → occurrences so far
    for (const Finding* f : all) {
        const QString content =
            f->range.path + QChar(0) + f->code + QChar(0) + normalizedSourceLine(f->snippet);
        const int occurrence = seen[content]++;
        const QByteArray digest =
            QCryptographicHash::hash((content + QChar(0) + QString::number(occurrence)).toUtf8(),
                                     QCryptographicHash::Sha256);
        m_byFinding.insert(findingKey(*f), QString::fromLatin1(digest.toHex().left(32)));
    }
}

QString FingerprintIndex::of(const Finding& f) const {
    return m_byFinding.value(findingKey(f));
}

} // namespace cnready
