#include "cli/Cli.h"

#include "analysis/ProjectAnalyzer.h"
#include "assess/Assessment.h"
#include "assess/GpuCatalog.h"
#include "assess/VerdictList.h"
#include "cli/ManifestCommand.h"
#include "report/Report.h"
#include "rules/Recipes.h"
#include "rules/RuleRegistry.h"

#include <QCommandLineParser>

#include <QDate>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>
#include <algorithm>
#include <cmath>

namespace cnready {

namespace {

const char* kUsage = "Usage: cnready <command> [options]\n"
                     "\n"
                     "Commands:\n"
                     "  assess PATH...        assess a NumPy project and print the report\n"
                     "  rules                 list the rule catalogue, one line per code\n"
                     "  explain CODE...       what rules find, why it matters and how to fix it\n"
                     "  explain verdict       the ordered verdict list (rules 1 to 9)\n"
                     "  manifest show|check|import|refresh|reset\n"
                     "                        the cuPyNumeric API-support manifest in use\n"
                     "\n"
                     "Run 'cnready <command> --help' for the options of a command.\n";

int usageError(QTextStream& err, const QString& msg) {
    err << "cnready: " << msg << "\n";
    err.flush();
    return ExitUsage;
}

// QCommandLineParser names the executable path ("build/app/cnready"); the first help line
// should name the command the user typed.
QString helpWithUsage(const QCommandLineParser& p, const QString& command) {
    QString text = p.helpText();
    const qsizetype eol = text.indexOf(QLatin1Char('\n'));
    const QString first = text.left(eol);
    const qsizetype opts = first.indexOf(QStringLiteral(" [options]"));
    if (first.startsWith(QStringLiteral("Usage: ")) && opts > 0)
        text.replace(0, opts, QStringLiteral("Usage: ") + command);
    return text;
}

int runAssess(const QStringList& args, QTextStream& out, QTextStream& err) {
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Assess NumPy code for a cuPyNumeric migration."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("PATH"), QStringLiteral("Project folders or files."),
                            QStringLiteral("PATH..."));
    const QCommandLineOption elements(QStringLiteral("elements"),
                                      QStringLiteral("Hot-path array size, total elements."),
                                      QStringLiteral("N"));
    const QCommandLineOption perGpu(QStringLiteral("elements-per-gpu"),
                                    QStringLiteral("Hot-path array size per GPU."),
                                    QStringLiteral("N"));
    const QCommandLineOption gpus(QStringLiteral("gpus"), QStringLiteral("Number of GPUs."),
                                  QStringLiteral("N"));
    const QCommandLineOption nodes(QStringLiteral("nodes"), QStringLiteral("Number of nodes."),
                                   QStringLiteral("N"));
    const QCommandLineOption gpu(QStringLiteral("gpu"),
                                 QStringLiteral("GPU model (A100, H100, ...)."),
                                 QStringLiteral("MODEL"));
    const QCommandLineOption cc(
        QStringLiteral("compute-capability"),
        QStringLiteral("GPU compute capability, e.g. 8.0; must agree with --gpu."),
        QStringLiteral("X.Y"));
    const QCommandLineOption cuda(QStringLiteral("cuda"),
                                  QStringLiteral("CUDA version, e.g. 12.4."),
                                  QStringLiteral("VERSION"));
    const QCommandLineOption os(QStringLiteral("os"),
                                QStringLiteral("Target OS: linux, wsl2, macos, windows."),
                                QStringLiteral("OS"));
    const QCommandLineOption pattern(
        QStringLiteral("pattern"),
        QStringLiteral("Dominant compute pattern: stencil, gemm, reduction, elementwise, "
                       "monte-carlo, fft, sparse, graph, ml, string, sequential, scipy-mixed."),
        QStringLiteral("PATTERN"));
    const QCommandLineOption format(QStringLiteral("format"),
                                    QStringLiteral("Output format: md (default), json, sarif."),
                                    QStringLiteral("FORMAT"), QStringLiteral("md"));
    const QCommandLineOption output(QStringList{QStringLiteral("o"), QStringLiteral("output")},
                                    QStringLiteral("Write the report to FILE (atomically)."),
                                    QStringLiteral("FILE"));
    const QCommandLineOption manifest(QStringLiteral("manifest"),
                                      QStringLiteral("Use this API-support manifest (Markdown)."),
                                      QStringLiteral("FILE"));
    const QCommandLineOption failOn(
        QStringLiteral("fail-on"),
        QStringLiteral("Exit 1 when the verdict is this or worse: ready, light, significant, "
                       "not-recommended."),
        QStringLiteral("VERDICT"));
    const QCommandLineOption today(
        QStringLiteral("today"),
        QStringLiteral("Date used for the manifest-age check (YYYY-MM-DD; default: the current "
                       "date). Makes reports reproducible byte for byte."),
        QStringLiteral("DATE"));
    const QCommandLineOption summary(
        QStringLiteral("summary"),
        QStringLiteral("Print a short Markdown summary (verdict, gates, top sites per code, "
                       "counts; under 80 lines) instead of the full report."));
    p.addOptions({elements, perGpu, gpus, nodes, gpu, cc, cuda, os, pattern, format, output,
                  manifest, failOn, today, summary});
    if (!p.parse(args))
        return usageError(err, p.errorText());
    if (p.isSet(QStringLiteral("help"))) {
        out << helpWithUsage(p, QStringLiteral("cnready assess"));
        return ExitOk;
    }
    const QStringList paths = p.positionalArguments();
    if (paths.isEmpty())
        return usageError(err, QStringLiteral("assess needs at least one PATH"));
    if (p.isSet(output) && p.value(output).isEmpty())
        return usageError(err, QStringLiteral("-o/--output needs a file name"));

    ContextInput in;
    QString tooLarge; // the option and value of a count above the limit
    auto count = [&](const QCommandLineOption& o, std::optional<qint64>& dst) -> bool {
        if (!p.isSet(o))
            return true;
        bool big = false;
        dst = parseElementCount(p.value(o), &big);
        if (big && tooLarge.isEmpty())
            tooLarge = QStringLiteral("--%1 %2").arg(o.names().first(), p.value(o));
        return dst.has_value();
    };
    const bool counted = count(elements, in.elements) && count(perGpu, in.elementsPerGpu);
    if (!counted && !tooLarge.isEmpty())
        return usageError(err, QStringLiteral("%1 is too large: at most %2 elements (9e18)")
                                   .arg(tooLarge, formatCount(kMaxElementCount)));
    if (!counted)
        return usageError(err, QStringLiteral("--elements / --elements-per-gpu take a whole "
                                              "number of elements >= 1 such as 16000000, "
                                              "16_000_000 or 16M"));
    if (in.elements && in.elementsPerGpu)
        return usageError(err, QStringLiteral("give one of --elements or --elements-per-gpu"));
    auto positive = [&](const QCommandLineOption& o, std::optional<int>& dst) -> bool {
        if (!p.isSet(o))
            return true;
        bool ok = false;
        const int v = p.value(o).toInt(&ok);
        if (!ok || v < 1)
            return false;
        dst = v;
        return true;
    };
    if (!positive(gpus, in.gpus) || !positive(nodes, in.nodes))
        return usageError(err, QStringLiteral("--gpus and --nodes take a whole number >= 1"));
    if (in.gpus && in.nodes && *in.gpus < *in.nodes)
        return usageError(err, QStringLiteral("--gpus is the total GPU count over all nodes and "
                                              "cannot be smaller than --nodes (%1 < %2)")
                                   .arg(*in.gpus)
                                   .arg(*in.nodes));
    if (p.isSet(gpu))
        in.gpuModel = p.value(gpu);
    if (p.isSet(cc)) {
        static const QRegularExpression form(QStringLiteral("^([0-9]{1,2})\\.([0-9])$"));
        const QRegularExpressionMatch m = form.match(p.value(cc).trimmed());
        const int major = m.hasMatch() ? m.captured(1).toInt() : 0;
        if (major < 1 || major > 12)
            return usageError(err, QStringLiteral("--compute-capability takes X.Y with a major "
                                                  "version from 1 to 12, e.g. 8.0 (got '%1')")
                                       .arg(p.value(cc)));
        in.computeCapability = m.captured(1).toDouble() + m.captured(2).toDouble() / 10;
        if (in.gpuModel) {
            if (const GpuModel* g = findGpu(*in.gpuModel);
                g && std::abs(g->computeCapability - *in.computeCapability) > 0.01)
                return usageError(err,
                                  QStringLiteral("--gpu %1 has compute capability %2, not %3; drop "
                                                 "--compute-capability or correct it")
                                      .arg(g->name, QString::number(g->computeCapability, 'f', 1),
                                           p.value(cc).trimmed()));
        }
    }
    if (p.isSet(cuda)) {
        static const QRegularExpression version(
            QStringLiteral("^[1-9][0-9]?(\\.[0-9]{1,2}){0,2}$"));
        const QString v = p.value(cuda).trimmed();
        if (!version.match(v).hasMatch())
            return usageError(
                err,
                QStringLiteral("--cuda takes a version like 12.4, not '%1'").arg(p.value(cuda)));
        in.cuda = v;
    }
    if (p.isSet(os)) {
        // wsl and darwin are aliases the assessment understands.
        static const QStringList known = {QStringLiteral("linux"),  QStringLiteral("wsl2"),
                                          QStringLiteral("wsl"),    QStringLiteral("macos"),
                                          QStringLiteral("darwin"), QStringLiteral("windows")};
        const QString v = p.value(os).trimmed().toLower();
        if (!known.contains(v))
            return usageError(
                err,
                QStringLiteral("unknown --os '%1' (linux, wsl2, macos, windows)").arg(p.value(os)));
        in.os = v;
    }
    if (p.isSet(pattern)) {
        static const QStringList known = {
            QStringLiteral("stencil"),     QStringLiteral("gemm"),
            QStringLiteral("reduction"),   QStringLiteral("elementwise"),
            QStringLiteral("monte-carlo"), QStringLiteral("fft"),
            QStringLiteral("sparse"),      QStringLiteral("graph"),
            QStringLiteral("ml"),          QStringLiteral("string"),
            QStringLiteral("sequential"),  QStringLiteral("scipy-mixed")};
        if (!known.contains(p.value(pattern)))
            return usageError(err, QStringLiteral("unknown --pattern '%1'").arg(p.value(pattern)));
        in.pattern = p.value(pattern);
    }
    ReportFormat fmt = ReportFormat::Markdown;
    const QString f = p.value(format).toLower();
    if (f == QLatin1String("json"))
        fmt = ReportFormat::Json;
    else if (f == QLatin1String("sarif"))
        fmt = ReportFormat::Sarif;
    else if (f != QLatin1String("md") && f != QLatin1String("markdown"))
        return usageError(err, QStringLiteral("unknown --format '%1' (md, json, sarif)").arg(f));
    if (p.isSet(summary) && fmt != ReportFormat::Markdown)
        return usageError(err,
                          QStringLiteral("--summary is Markdown only (drop --format %1)").arg(f));
    std::optional<Verdict> failVerdict;
    if (p.isSet(failOn)) {
        const QString v = p.value(failOn).toLower();
        for (Verdict cand : {Verdict::Ready, Verdict::LightRefactor, Verdict::SignificantRefactor,
                             Verdict::NotRecommended})
            if (verdictKey(cand) == v)
                failVerdict = cand;
        if (!failVerdict)
            return usageError(err, QStringLiteral("unknown --fail-on '%1' (ready, light, "
                                                  "significant, not-recommended)")
                                       .arg(v));
    }

    QDate todayDate = QDate::currentDate();
    if (p.isSet(today)) {
        // Only a plain calendar date: Qt's ISO parser also takes "2026-11-30T00:00", which
        // would silently drop the time the user typed.
        static const QRegularExpression plainDate(QStringLiteral("^[0-9]{4}-[0-9]{2}-[0-9]{2}$"));
        const QString v = p.value(today).trimmed();
        todayDate = plainDate.match(v).hasMatch()
                        ? QDate::fromString(v, QStringLiteral("yyyy-MM-dd"))
                        : QDate();
        if (!todayDate.isValid())
            return usageError(err, QStringLiteral("--today takes a calendar date YYYY-MM-DD "
                                                  "such as 2026-11-30, without a time (got "
                                                  "'%1')")
                                       .arg(p.value(today)));
    }

    // --manifest FILE, else the manifest imported with `cnready manifest import|refresh`, else
    // the bundled snapshot.
    QString manifestNote;
    const Manifest m = Manifest::active(p.value(manifest), &manifestNote);
    if (!manifestNote.isEmpty())
        err << "cnready: warning: " << manifestNote << "\n";
    if (m.isEmpty()) {
        err << "cnready: cannot use manifest " << p.value(manifest) << ": "
            << (m.errors().isEmpty() ? QStringLiteral("no entries") : m.errors().first().message)
            << "\n";
        err.flush();
        return ExitInput;
    }

    const ScanResult scan = scanProject(paths);
    if (!scan.missing.isEmpty()) {
        err << "cnready: no such file or folder: " << scan.missing.first() << "\n";
        err.flush();
        return ExitInput;
    }
    if (p.isSet(output)) {
        // The report must not replace a file it is about (`-o src/model.py` is a slip of the
        // keyboard; the analysed tree is never written to).
        const QString target = QFileInfo(p.value(output)).canonicalFilePath();
        const QString root = QFileInfo(scan.root).canonicalFilePath();
        if (!target.isEmpty() && !root.isEmpty() && target.startsWith(root + QLatin1Char('/')) &&
            std::binary_search(scan.files.cbegin(), scan.files.cend(), target.mid(root.size() + 1)))
            return usageError(err, QStringLiteral("-o %1 is one of the Python files being "
                                                  "assessed; write the report elsewhere")
                                       .arg(p.value(output)));
    }
    const ProjectResult project = analyzeProject(scan);
    // A verdict needs code: an empty folder, or one whose files were all skipped (binary,
    // unreadable, over the size limit), is an input error, not a clean READY.
    bool usesNumpy = false;
    for (const FileResult& f : project.files)
        usesNumpy = usesNumpy || f.imports.contains(QStringLiteral("numpy"));
    if (assessedFileCount(project) == 0) {
        // Every file's reason, up to three (they often differ: binary, unreadable, too deep).
        QStringList reasons;
        for (const FileDiagnostic& d : project.diagnostics) {
            if (reasons.size() == 3) {
                reasons << QStringLiteral("%1 more").arg(project.diagnostics.size() - 3);
                break;
            }
            reasons << d.range.path + QStringLiteral(": ") + d.message;
        }
        err << "cnready: nothing to assess: "
            << (scan.files.isEmpty()
                    ? QStringLiteral("no Python files or notebooks under %1")
                          .arg(paths.join(QLatin1Char(' ')))
                    : QStringLiteral("none of the %1 Python file(s) could be read (%2)")
                          .arg(scan.files.size())
                          .arg(reasons.join(QStringLiteral("; "))))
            << "\n";
        err.flush();
        return ExitInput;
    }
    if (!usesNumpy)
        err << "cnready: note: no file imports numpy or cupynumeric; there is nothing to port, "
               "so the verdict says little\n";
    const Assessment a = assess(project, in, m);
    if (const QString stale = manifestAgeWarning(m, todayDate); !stale.isEmpty())
        err << "cnready: warning: " << stale << "\n";
    // One file given: the report is about that file, not the folder it happens to sit in.
    const QString name = paths.size() == 1 && QFileInfo(paths.first()).isFile()
                             ? QFileInfo(paths.first()).fileName()
                             : QString();
    const ReportInput report{project, a, m, todayDate, name};
    if (p.isSet(summary)) {
        const QByteArray bytes = renderSummary(report);
        if (p.isSet(output)) {
            QSaveFile file(p.value(output));
            if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() ||
                !file.commit()) {
                err << "cnready: cannot write " << p.value(output) << ": " << file.errorString()
                    << "\n";
                err.flush();
                return ExitInput;
            }
        } else {
            out << QString::fromUtf8(bytes);
        }
    } else if (p.isSet(output)) {
        // Streamed into the file: a big tree's Markdown report is tens of MB.
        QString why;
        if (!saveReport(report, fmt, p.value(output), &why)) {
            err << "cnready: cannot write " << p.value(output) << ": " << why << "\n";
            err.flush();
            return ExitInput;
        }
    } else {
        out << QString::fromUtf8(renderReport(report, fmt));
    }
    out.flush();
    err.flush();
    // A full disk or a closed pipe behind standard output must not pass as success.
    if (out.status() != QTextStream::Ok) {
        err << "cnready: cannot write the report to standard output\n";
        err.flush();
        return ExitInput;
    }
    // A provisional verdict fails any --fail-on, as a linter fails on a file it cannot parse.
    if (failVerdict && (int(a.verdict) >= int(*failVerdict) || a.provisional())) {
        if (a.provisional() && int(a.verdict) < int(*failVerdict))
            err << "cnready: the verdict is provisional (" << a.unreadCode.size()
                << " problem(s) reading the code, listed under \"Files not fully read\"); "
                   "--fail-on fails until every file can be assessed\n";
        err.flush();
        return ExitFailOn;
    }
    return ExitOk;
}

const char* kRulesHelp = "Usage: cnready rules [--format text|json]\n\n"
                         "Lists the rule catalogue, one line per code (text), or as a JSON "
                         "object\nwith one entry per rule (json).\n";

int runRules(const QStringList& rest, QTextStream& out, QTextStream& err) {
    // Options by hand: `rules` has one; anything else is an error, not silently ignored.
    QString format = QStringLiteral("text");
    for (qsizetype i = 0; i < rest.size(); ++i) {
        const QString& a = rest[i];
        if (a == QLatin1String("--format") || a == QLatin1String("-f")) {
            if (i + 1 >= rest.size())
                return usageError(err, QStringLiteral("--format needs a value: text or json"));
            format = rest[++i];
        } else if (a.startsWith(QLatin1String("--format="))) {
            format = a.mid(9);
        } else {
            return usageError(err, QStringLiteral("rules takes only --format text|json (got "
                                                  "'%1')")
                                       .arg(a));
        }
    }
    format = format.toLower();
    if (format == QLatin1String("json")) {
        QJsonArray rules;
        for (const auto& r : RuleRegistry::instance().rules()) {
            const RuleInfo& i = r->info();
            rules.append(QJsonObject{{QStringLiteral("code"), i.code},
                                     {QStringLiteral("name"), i.name},
                                     {QStringLiteral("category"), categoryLabel(i.category)},
                                     {QStringLiteral("title"), i.title},
                                     {QStringLiteral("recipe"), i.recipe},
                                     {QStringLiteral("hotPathOnly"), i.hotPathOnly}});
        }
        const QJsonObject doc{{QStringLiteral("schema"), QStringLiteral("cnready-rules")},
                              {QStringLiteral("schemaVersion"), 1},
                              {QStringLiteral("rules"), rules}};
        out << QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Indented));
        return ExitOk;
    }
    if (format != QLatin1String("text"))
        return usageError(err,
                          QStringLiteral("unknown rules --format '%1' (text, json)").arg(format));
    for (const auto& r : RuleRegistry::instance().rules()) {
        const RuleInfo& i = r->info();
        out << i.code << "  " << categoryLabel(i.category).leftJustified(8) << "  " << i.title;
        if (!i.recipe.isEmpty())
            out << "  [" << i.recipe << "]";
        out << "\n";
    }
    return ExitOk;
}

int runExplain(const QStringList& rest, QTextStream& out, QTextStream& err) {
    if (rest.isEmpty())
        return usageError(err, QStringLiteral("explain needs a rule code, e.g. R104, or "
                                              "'verdict'"));
    // `explain verdict`: the ordered verdict list the report's "Decided by rule N" refers to.
    if (rest.size() == 1 &&
        rest.first().compare(QLatin1String("verdict"), Qt::CaseInsensitive) == 0) {
        out << verdictListText();
        return ExitOk;
    }
    // Every code is checked before anything is printed: a typo gives a usage error, not half
    // an answer.
    QList<const Rule*> rules;
    for (const QString& code : rest) {
        if (code.startsWith(QLatin1Char('-')))
            return usageError(err, QStringLiteral("explain takes rule codes only (got the option "
                                                  "'%1')")
                                       .arg(code));
        const Rule* rule = RuleRegistry::instance().find(code);
        if (!rule)
            return usageError(
                err, QStringLiteral("unknown rule code '%1' (see 'cnready rules')").arg(code));
        rules << rule;
    }
    auto indent = [](const QString& code) {
        QString s = code;
        return QStringLiteral("    ") + s.replace(QLatin1Char('\n'), QStringLiteral("\n    "));
    };
    for (qsizetype k = 0; k < rules.size(); ++k) {
        const RuleInfo& i = rules[k]->info();
        if (k > 0)
            out << "\n";
        out << i.code << " " << i.name << " (" << categoryLabel(i.category) << ")\n"
            << i.title << "\n\n";
        out << "What it does\n  " << i.whatItDoes << "\n\n";
        out << "Why it matters\n  " << i.why << "\n\n";
        out << "Example\n" << indent(i.example) << "\n\n";
        out << "Use instead\n" << indent(i.useInstead) << "\n";
        if (const Recipe* r = findRecipe(i.recipe))
            out << "\nRecipe " << r->anchor << ": " << r->title << "\n  " << r->summary << "\n";
        // Sites that need other advice carry their own recipe (R105 on a data-dependent
        // choice, R106 on a reversal); the report names it per finding.
        for (const QString& alt : siteRecipes(i.code))
            if (const Recipe* r = findRecipe(alt))
                out << "\nFor some sites, recipe " << r->anchor << ": " << r->title << "\n  "
                    << r->summary << "\n";
    }
    return ExitOk;
}

} // namespace

int runCli(const QStringList& args, QTextStream& out, QTextStream& err) {
    const QString cmd = args.value(1);
    const QStringList rest = args.mid(2);
    int rc = ExitUsage;
    if (cmd.isEmpty() || cmd == QLatin1String("--help") || cmd == QLatin1String("-h") ||
        cmd == QLatin1String("help")) {
        out << kUsage;
        rc = cmd.isEmpty() ? ExitUsage : ExitOk;
    } else if (cmd == QLatin1String("--version") || cmd == QLatin1String("-v")) {
        out << "cnready " << CNREADY_VERSION << "\n";
        rc = ExitOk;
    } else if (cmd == QLatin1String("assess")) {
        rc = runAssess(QStringList{args.value(0)} + rest, out, err);
    } else if ((cmd == QLatin1String("rules") || cmd == QLatin1String("explain")) &&
               (rest.contains(QLatin1String("--help")) || rest.contains(QLatin1String("-h")))) {
        out << (cmd == QLatin1String("rules")
                    ? kRulesHelp
                    : "Usage: cnready explain CODE...\n       cnready explain verdict\n\n"
                      "What each rule CODE (e.g. R104 R105) finds, why it matters and how to "
                      "fix it;\n'verdict' prints the ordered verdict list (rules 1 to 9).\n");
        rc = ExitOk;
    } else if (cmd == QLatin1String("rules")) {
        rc = runRules(rest, out, err);
    } else if (cmd == QLatin1String("explain")) {
        rc = runExplain(rest, out, err);
    } else if (cmd == QLatin1String("manifest")) {
        rc = runManifestCommand(rest, out, err);
    } else {
        rc = usageError(err, QStringLiteral("unknown command '%1' (assess, rules, explain, "
                                            "manifest; see --help)")
                                 .arg(cmd));
    }
    out.flush();
    err.flush();
    return rc;
}

} // namespace cnready
