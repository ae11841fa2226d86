#include "doctor/DoctorReport.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace cnready {

namespace {

// `File "/abs/mod.py", line 12, in step` (leading spaces allowed, `, in F` optional).
void appendFrames(const QString& text, QList<DoctorFrame>& frames) {
    static const QRegularExpression frame(
        QString::fromLatin1(R"re(^\s*File "([^"]*)", line (\d+)(?:, in (\S.*?))?\s*$)re"));
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        const QRegularExpressionMatch m = frame.match(line);
        if (m.hasMatch())
            frames << DoctorFrame{m.captured(1), m.captured(2).toInt(), m.captured(3)};
    }
}

QString entryError(qsizetype i, const QString& what) {
    return QStringLiteral("entry %1 %2").arg(i).arg(what);
}

} // namespace

std::optional<QList<DoctorEntry>> parseDoctorJson(const QByteArray& json, QString* error) {
    auto fail = [&](const QString& why) -> std::optional<QList<DoctorEntry>> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (pe.error != QJsonParseError::NoError)
        return fail(
            QStringLiteral("not valid JSON (%1 at byte %2)").arg(pe.errorString()).arg(pe.offset));
    if (!doc.isArray())
        return fail(QStringLiteral("not a Doctor report: expected a JSON array of entries, found "
                                   "an object"));
    const QJsonArray arr = doc.array();
    QList<DoctorEntry> entries;
    entries.reserve(arr.size());
    for (qsizetype i = 0; i < arr.size(); ++i) {
        if (!arr[i].isObject())
            return fail(entryError(i, QStringLiteral("is not an object")));
        const QJsonObject o = arr[i].toObject();
        DoctorEntry e;
        const QJsonValue file = o.value(QLatin1String("filename"));
        const QJsonValue line = o.value(QLatin1String("lineno"));
        const QJsonValue desc = o.value(QLatin1String("description"));
        if (!file.isString() || file.toString().isEmpty())
            return fail(entryError(i, QStringLiteral("has no \"filename\" string")));
        // JSON numbers are doubles: 12.5 or 0 is not a line.
        if (!line.isDouble() || line.toDouble() < 1 || line.toDouble() != double(line.toInt()))
            return fail(entryError(i, QStringLiteral("has no positive integer \"lineno\"")));
        if (!desc.isString())
            return fail(entryError(i, QStringLiteral("has no \"description\" string")));
        e.filename = file.toString();
        e.lineno = line.toInt();
        e.description = desc.toString().trimmed();
        const QJsonValue src = o.value(QLatin1String("source"));
        if (!src.isString() && !src.isNull() && !src.isUndefined())
            return fail(entryError(i, QStringLiteral("has a \"source\" that is not a string")));
        e.source = src.toString().trimmed();
        const QJsonValue ref = o.value(QLatin1String("reference"));
        e.reference = ref.isString() ? ref.toString() : QString();
        const QJsonValue tb = o.value(QLatin1String("traceback"));
        if (tb.isString()) {
            appendFrames(tb.toString(), e.frames);
        } else if (tb.isArray()) {
            for (const QJsonValue& v : tb.toArray())
                appendFrames(v.toString(), e.frames);
        } else if (!tb.isNull() && !tb.isUndefined()) {
            return fail(entryError(i, QStringLiteral("has a \"traceback\" that is neither text "
                                                     "nor a list of frames")));
        }
        entries << std::move(e);
    }
    return entries;
}

std::optional<DoctorReport> readDoctorReport(const QString& path, QString* error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error =
                QStringLiteral("cannot read Doctor report %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    QString why;
    std::optional<QList<DoctorEntry>> entries = parseDoctorJson(file.readAll(), &why);
    if (!entries) {
        if (error)
            *error = QStringLiteral("Doctor report %1: %2").arg(path, why);
        return std::nullopt;
    }
    return DoctorReport{path, QFileInfo(file).lastModified(), std::move(*entries)};
}

} // namespace cnready
