#pragma once
// Reading cuPyNumeric Doctor's JSON output (cuPyNumeric >= 25.07, CUPYNUMERIC_DOCTOR_FORMAT=json):
// one array of objects, one per run-time observation.

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>

#include <optional>

namespace cnready {

/// One frame of a Doctor traceback (`File "/abs/mod.py", line 12, in step`).
struct DoctorFrame {
    QString filename; ///< as printed; may be "<string>" under lgpatch
    int line = 0;     ///< 1-based
    QString function; ///< "" when the frame line names none
    friend bool operator==(const DoctorFrame&, const DoctorFrame&) = default;
};

/// One entry of a Doctor report, as Doctor wrote it.
struct DoctorEntry {
    QString filename;          ///< absolute path of the file; "<string>" under lgpatch
    int lineno = 0;            ///< 1-based; may be a continuation line of a statement
    QList<DoctorFrame> frames; ///< outermost first; empty unless CUPYNUMERIC_DOCTOR_TRACEBACK=1
    QString source;            ///< the line's text, stripped, as Doctor read it at exit
    QString description;       ///< names the check (Doctor has no id field)
    QString reference;         ///< documentation URL, "" when null
    friend bool operator==(const DoctorEntry&, const DoctorEntry&) = default;
};

/// A whole report file.
struct DoctorReport {
    QString path;               ///< the file read ("" when parsed from bytes)
    QDateTime modified;         ///< its modification time (invalid when parsed from bytes)
    QList<DoctorEntry> entries; ///< in file order
};

/// Parses Doctor's JSON. `traceback` may be a string (frames on lines, as Python's
/// traceback module prints them) or an array of such strings; frame lines that are not
/// `File "…", line N[, in F]` (the code lines under them) are skipped. Returns nothing and a
/// one-sentence reason in `*error` when the bytes are not JSON, not an array of objects, or
/// an entry lacks `filename` (string), `lineno` (positive integer) or `description` (string);
/// the reason names the entry's index. `source` and `reference` may be absent or null.
std::optional<QList<DoctorEntry>> parseDoctorJson(const QByteArray& json, QString* error);

/// Reads and parses the file `path` (see parseDoctorJson()); `modified` is the file's mtime.
/// Returns nothing with a reason naming the file when it cannot be read or parsed.
std::optional<DoctorReport> readDoctorReport(const QString& path, QString* error);

} // namespace cnready
