#include "cli/ManifestCommand.h"

#include "cli/Cli.h"
#include "cli/ProjectInputs.h"
#include "manifest/ComparisonPage.h"
#include "manifest/Manifest.h"
#include "manifest/ManifestRefresher.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QUrl>

namespace cnready {

namespace {

const char* kManifestUsage =
    "Usage: cnready manifest <show|check|import|refresh|reset> [options]\n"
    "\n"
    "  show [--manifest FILE]     where the manifest in use comes from, its date, age and counts\n"
    "  check [--manifest FILE]    validate it; exit 1 when there are problems\n"
    "  import FILE                install a saved comparison page (.html) or a Markdown manifest\n"
    "                             as your manifest (used by default from then on)\n"
    "  refresh [URL] [--timeout SECONDS]\n"
    "                             download the comparison page (default: the docs.nvidia.com\n"
    "                             page) and install it; the only command that uses the network\n"
    "  reset                      remove your imported manifest; the bundled snapshot is used\n"
    "\n"
    "The manifest in use: --manifest FILE, else your imported manifest, else the bundled one.\n";

int fail(QTextStream& err, int code, const QString& msg) {
    err << "cnready: " << msg << "\n";
    err.flush();
    return code;
}

QString describeOrigin(const Manifest& m) {
    switch (m.originKind()) {
    case ManifestOrigin::Bundled:
        return QStringLiteral("bundled snapshot (compiled into cnready)");
    case ManifestOrigin::UserImported:
        return QStringLiteral("user-imported, %1 (used by default; 'cnready manifest reset' goes "
                              "back to the bundled snapshot)")
            .arg(QDir::toNativeSeparators(m.origin()));
    case ManifestOrigin::CommandLine:
        break;
    }
    return QStringLiteral("--manifest %1").arg(QDir::toNativeSeparators(m.origin()));
}

void printStaleWarning(const Manifest& m, QTextStream& err) {
    const QString w = manifestAgeWarning(m, QDate::currentDate());
    if (!w.isEmpty())
        err << "cnready: warning: " << w << "\n";
}

int show(const Manifest& m, const QString& note, QTextStream& out, QTextStream& err) {
    const QDate today = QDate::currentDate();
    out << "Manifest:  " << describeOrigin(m) << "\n";
    if (!note.isEmpty())
        out << "Note:      " << note << "\n";
    out << "Source:    " << (m.source().isEmpty() ? QStringLiteral("(none)") : m.source()) << "\n";
    if (m.fetched().isValid()) {
        const int age = m.ageInDays(today);
        out << "Fetched:   " << m.fetched().toString(Qt::ISODate) << " (" << formatDayCount(age)
            << " ago"
            << (age > Manifest::kStaleAfterDays
                    ? QStringLiteral(", older than %1")
                          .arg(formatDayCount(Manifest::kStaleAfterDays))
                    : QString())
            << ")\n";
    } else {
        out << "Fetched:   (unknown)\n";
    }
    const ManifestCounts c = m.counts();
    out << "Entries:   " << c.total << " (" << c.implemented() << " implemented)\n";
    out << "By glyph:\n";
    const struct {
        Support s;
        int n;
        const char* label;
    } rows[] = {{Support::Multi, c.multi, "multi-GPU"},
                {Support::Single, c.single, "single-GPU only"},
                {Support::Partial, c.partial, "partial"},
                {Support::Missing, c.missing, "not implemented"}};
    for (const auto& r : rows)
        out << "  " << supportGlyph(r.s).leftJustified(3) << QString::number(r.n).rightJustified(5)
            << "  " << r.label << "\n";
    out << "By section (✓✓ / ✓ / 🟡 / ✗, implemented of total):\n";
    for (const ManifestSection& s : m.sections()) {
        out << "  " << s.title.leftJustified(28)
            << QString::number(s.counts.multi).rightJustified(4) << " /"
            << QString::number(s.counts.single).rightJustified(3) << " /"
            << QString::number(s.counts.partial).rightJustified(3) << " /"
            << QString::number(s.counts.missing).rightJustified(4) << "   "
            << s.counts.implemented() << " of " << s.counts.total << "\n";
    }
    if (!m.countsLine().isEmpty())
        out << "Header:    Counts: " << m.countsLine() << "\n";
    const qsizetype errors = m.errors().size(), warnings = m.issues().size() - errors;
    if (m.issues().isEmpty())
        out << "Validation: ok\n";
    else if (errors == 0)
        out << "Validation: ok, " << warnings
            << " warning(s) about stated counts; 'cnready manifest check' lists them\n";
    else
        out << "Validation: " << errors << " problem(s)"
            << (warnings ? QStringLiteral(", %1 warning(s)").arg(warnings) : QString())
            << "; 'cnready manifest check' lists them\n";
    printStaleWarning(m, err);
    return ExitOk;
}

int check(const Manifest& m, QTextStream& out) {
    const QString where = m.originKind() == ManifestOrigin::Bundled
                              ? QStringLiteral("bundled:api-support.md")
                              : QDir::toNativeSeparators(m.origin());
    for (const ManifestIssue& i : m.issues())
        out << where << ":" << i.line << ": " << (i.warning ? "warning: " : "") << i.message
            << "\n";
    const qsizetype errors = m.errors().size(), warnings = m.issues().size() - errors;
    if (errors > 0) {
        out << where << ": " << errors << " problem(s)"
            << (warnings ? QStringLiteral(", %1 warning(s)").arg(warnings) : QString()) << "\n";
        return ExitFailOn;
    }
    if (warnings > 0) {
        // Lookups use the entries; stated totals that disagree do not make them wrong.
        out << where << ": valid, with " << warnings << " warning(s) (" << m.entries().size()
            << " entries in " << m.sections().size()
            << " sections; lookups use the entries, not the stated counts)\n";
        return ExitOk;
    }
    out << where << ": valid (" << m.entries().size() << " entries in " << m.sections().size()
        << " sections; the Counts: header and section counts agree)\n";
    return ExitOk;
}

int refresh(const QString& urlText, std::chrono::milliseconds timeout, QTextStream& out,
            QTextStream& err) {
    if (!QCoreApplication::instance())
        return fail(err, ExitUsage, QStringLiteral("manifest refresh needs an application object"));
    ManifestRefresher refresher;
    refresher.setTimeout(timeout);
    QEventLoop loop;
    bool ok = false;
    QString message;
    QObject::connect(&refresher, &ManifestRefresher::finished, &loop,
                     [&](bool success, const QString& msg) {
                         ok = success;
                         message = msg;
                         loop.quit();
                     });
    refresher.start(QUrl(urlText));
    loop.exec();
    if (!ok)
        return fail(err, ExitFailOn, message);
    out << message << "\n";
    return ExitOk;
}

} // namespace

int runManifestCommand(const QStringList& args, QTextStream& out, QTextStream& err) {
    QCommandLineParser p;
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("command"),
                            QStringLiteral("show, check, import FILE, refresh [URL], reset"));
    const QCommandLineOption manifestOpt(QStringLiteral("manifest"),
                                         QStringLiteral("Use this manifest (show, check)."),
                                         QStringLiteral("FILE"));
    const QCommandLineOption timeoutOpt(QStringLiteral("timeout"),
                                        QStringLiteral("Refresh deadline in seconds (default 30)."),
                                        QStringLiteral("SECONDS"), QStringLiteral("30"));
    p.addOptions({manifestOpt, timeoutOpt});
    if (!p.parse(QStringList{QStringLiteral("cnready manifest")} + args))
        return fail(err, ExitUsage, parserErrorLine(p, QStringLiteral("cnready manifest")));
    if (p.isSet(QStringLiteral("help"))) {
        out << kManifestUsage;
        return ExitOk;
    }
    const QStringList pos = p.positionalArguments();
    const QString sub = pos.value(0);
    const bool usesManifest = sub == QLatin1String("show") || sub == QLatin1String("check");
    if (p.isSet(manifestOpt) && !usesManifest)
        return fail(err, ExitUsage, QStringLiteral("--manifest goes with 'show' or 'check'"));
    if (p.isSet(timeoutOpt) && sub != QLatin1String("refresh"))
        return fail(err, ExitUsage, QStringLiteral("--timeout goes with 'refresh'"));

    if (usesManifest) {
        if (pos.size() > 1)
            return fail(err, ExitUsage,
                        QStringLiteral("'manifest %1' takes no argument (use "
                                       "--manifest FILE)")
                            .arg(sub));
        QString note;
        const Manifest m = Manifest::active(p.value(manifestOpt), &note);
        if (m.originKind() == ManifestOrigin::CommandLine && !QFile::exists(p.value(manifestOpt)))
            return fail(err, ExitInput,
                        QStringLiteral("no such manifest file: %1").arg(p.value(manifestOpt)));
        if (!note.isEmpty())
            err << "cnready: warning: " << note << "\n";
        return sub == QLatin1String("show") ? show(m, note, out, err) : check(m, out);
    }
    if (sub == QLatin1String("import")) {
        if (pos.size() != 2)
            return fail(err, ExitUsage,
                        QStringLiteral("manifest import takes one FILE (a saved "
                                       "comparison page .html or a manifest .md)"));
        const QString file = pos.at(1);
        if (!QFile::exists(file))
            return fail(err, ExitInput, QStringLiteral("no such file: %1").arg(file));
        const ManifestImport r = manifestFromFile(file, QDateTime::currentDateTimeUtc());
        if (!r.ok)
            return fail(err, ExitFailOn, r.error);
        const QString dest = Manifest::userManifestPath();
        QString error;
        if (!writeManifestFile(r.markdown, dest, &error))
            return fail(err, ExitFailOn, error);
        const ManifestCounts c = r.manifest.counts();
        out << "imported " << file << ": " << c.total << " APIs, " << c.implemented()
            << " implemented; written to " << QDir::toNativeSeparators(dest)
            << " and used from now on ('cnready manifest reset' undoes this)\n";
        if (const qsizetype w = r.manifest.issues().size(); w > 0)
            err << "cnready: warning: " << w
                << " stated count(s) in it disagree with its entries; 'cnready manifest check' "
                   "lists them\n";
        return ExitOk;
    }
    if (sub == QLatin1String("refresh")) {
        if (pos.size() > 2)
            return fail(err, ExitUsage, QStringLiteral("manifest refresh takes at most one URL"));
        bool ok = false;
        const double seconds = p.value(timeoutOpt).toDouble(&ok);
        if (!ok || seconds <= 0 || seconds > 3600)
            return fail(err, ExitUsage,
                        QStringLiteral("--timeout takes seconds between 0 and 3600"));
        const QString url = pos.size() == 2 ? pos.at(1) : defaultComparisonUrl();
        const QString scheme = QUrl(url).scheme().toLower();
        if (scheme != QLatin1String("https") && scheme != QLatin1String("http"))
            return fail(err, ExitUsage,
                        QStringLiteral("manifest refresh takes an http:// or https:// URL, not "
                                       "'%1'")
                            .arg(url));
        return refresh(url, std::chrono::milliseconds(qint64(seconds * 1000)), out, err);
    }
    if (sub == QLatin1String("reset")) {
        const QString path = Manifest::userManifestPath();
        if (!QFile::exists(path)) {
            out << "no imported manifest; the bundled snapshot is in use\n";
            return ExitOk;
        }
        if (!QFile::remove(path))
            return fail(err, ExitFailOn, QStringLiteral("cannot remove %1").arg(path));
        out << "removed " << QDir::toNativeSeparators(path)
            << "; the bundled snapshot is in use again\n";
        return ExitOk;
    }
    if (sub.isEmpty())
        return fail(err, ExitUsage,
                    QStringLiteral("manifest needs a command: show, check, import "
                                   "FILE, refresh [URL], reset (see --help)"));
    return fail(err, ExitUsage,
                QStringLiteral("unknown manifest command '%1' (show, check, import, refresh, "
                               "reset)")
                    .arg(sub));
}

} // namespace cnready
