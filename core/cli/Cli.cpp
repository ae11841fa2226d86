#include "cli/Cli.h"

#include "analysis/ProjectAnalyzer.h"
#include "assess/Assessment.h"
#include "assess/VerdictList.h"
#include "baseline/Baseline.h"
#include "cli/ContextOptions.h"
#include "cli/ManifestCommand.h"
#include "cli/PortCommand.h"
#include "cli/ProjectInputs.h"
#include "config/ApplyConfig.h"
#include "doctor/DoctorMatch.h"
#include "report/Report.h"
#include "rules/Recipes.h"
#include "rules/RuleRegistry.h"

#include <QCommandLineParser>

#include <QDate>
#include <QDir>
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
                     "  port PATH [--diff]    preview the mechanical port (rewrites safe by\n"
                     "                        construction), as a list or a unified diff\n"
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

// One stderr line with the counts against a baseline, then up to ten stale entries.
void reportBaseline(QTextStream& err, const QString& file, const BaselineComparison& c) {
    err << "cnready: baseline " << file << ": " << c.added << " new finding(s), " << c.unchanged
        << " unchanged, " << c.stale.size() << " stale entr" << (c.stale.size() == 1 ? "y" : "ies")
        << (c.stale.isEmpty() ? "" : " (no longer found; refresh with --write-baseline)") << "\n";
    for (qsizetype i = 0; i < c.stale.size() && i < 10; ++i)
        err << "cnready:   stale: " << c.stale[i].path << " " << c.stale[i].code << " "
            << c.stale[i].snippet << "\n";
    if (c.stale.size() > 10)
        err << "cnready:   and " << c.stale.size() - 10 << " more stale entries\n";
}

int runAssess(const QStringList& args, QTextStream& out, QTextStream& err) {
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Assess NumPy code for a cuPyNumeric migration.\n"
        "\n"
        "Settings are read from the nearest cnready.toml, or pyproject.toml with a\n"
        "[tool.cnready] table, in the project folder or above it (up to the folder holding\n"
        ".git); command-line flags win. Keys: exclude, extend-exclude (globs), select,\n"
        "ignore (codes or prefixes such as R1), per-file-ignores (table: glob = [codes]),\n"
        "respect-gitignore, entry, fail-on, and the context: elements, elements-per-gpu,\n"
        "gpus, nodes, gpu, compute-capability, cuda, os, pattern. A file that is not valid\n"
        "TOML, or a value of the wrong type, stops the run (exit 2) naming FILE:LINE; an\n"
        "unknown key is a warning. .gitignore files are respected.\n"
        "\n"
        "Baselines: --write-baseline FILE records the findings; --baseline FILE then lets\n"
        "--fail-on judge only the findings not in it (fingerprints: path, code and the\n"
        "whitespace-normalised source line, no line numbers).\n"
        "\n"
        "Exit codes: 0 the report was written (and the verdict is better than --fail-on);\n"
        "1 the verdict is at or past --fail-on, or provisional while --fail-on is given;\n"
        "2 usage error: a bad flag or value, or a configuration file that is not valid;\n"
        "3 input error: no PATH exists, nothing in them can be read, or a file named by\n"
        "--config, --manifest, --baseline or --doctor-report is missing or unusable. A\n"
        "missing PATH beside others that exist is no input error: the report names it\n"
        "under \"Files not fully read\" and the verdict is provisional."));
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
    const QCommandLineOption hostBandwidth(
        QStringLiteral("host-bandwidth"),
        QStringLiteral("Host NumPy memory bandwidth for the cost estimate, GB/s (default 20, "
                       "single-threaded; above 0, at most 1000000)."),
        QStringLiteral("GBPS"));
    const QCommandLineOption format(
        QStringLiteral("format"),
        QStringLiteral("Output format: md (default), json, sarif, github (workflow "
                       "annotations, one line per BLOCKS finding)."),
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
    const QCommandLineOption entry(
        QStringLiteral("entry"),
        QStringLiteral("The project's entry script for the Doctor hand-off (relative path)."),
        QStringLiteral("SCRIPT"));
    const QCommandLineOption configFile(
        QStringLiteral("config"),
        QStringLiteral("Read settings from FILE instead of the nearest cnready.toml or "
                       "pyproject.toml with [tool.cnready]."),
        QStringLiteral("FILE"));
    const QCommandLineOption noConfig(QStringLiteral("no-config"),
                                      QStringLiteral("Read no configuration file."));
    const QCommandLineOption exclude(
        QStringLiteral("exclude"),
        QStringLiteral("Leave out files and folders matching GLOB (relative to the project "
                       "root; repeatable), besides the configuration's exclude."),
        QStringLiteral("GLOB"));
    const QCommandLineOption noGitignore(QStringLiteral("no-respect-gitignore"),
                                         QStringLiteral("Assess files that .gitignore lists."));
    const QCommandLineOption baseline(
        QStringLiteral("baseline"),
        QStringLiteral("Compare with the findings accepted in FILE: only new ones count for "
                       "--fail-on; stale entries are listed."),
        QStringLiteral("FILE"));
    const QCommandLineOption writeBaselineOpt(
        QStringLiteral("write-baseline"),
        QStringLiteral("Write this run's findings to FILE as the accepted baseline (the run "
                       "then exits 0 whatever --fail-on says)."),
        QStringLiteral("FILE"));
    const QCommandLineOption doctorReport(
        QStringLiteral("doctor-report"),
        QStringLiteral("Read cuPyNumeric Doctor's JSON report FILE and mark each finding "
                       "confirmed at run time or static only; list what only the run saw."),
        QStringLiteral("FILE"));
    p.addOptions({elements,     perGpu,
                  gpus,         nodes,
                  gpu,          cc,
                  cuda,         os,
                  pattern,      format,
                  output,       manifest,
                  failOn,       today,
                  summary,      entry,
                  configFile,   noConfig,
                  exclude,      noGitignore,
                  baseline,     writeBaselineOpt,
                  doctorReport, hostBandwidth});
    if (!p.parse(args))
        return usageError(err, parserErrorLine(p, QStringLiteral("cnready assess")));
    if (p.isSet(QStringLiteral("help"))) {
        out << helpWithUsage(p, QStringLiteral("cnready assess"));
        return ExitOk;
    }
    const QStringList paths = p.positionalArguments();
    if (paths.isEmpty())
        return usageError(err, QStringLiteral("assess needs at least one PATH"));
    if (p.isSet(output) && p.value(output).isEmpty())
        return usageError(err, QStringLiteral("-o/--output needs a file name"));

    // The project's configuration first, then the command line over it. It is looked up from
    // the first PATH that exists (a missing one is reported below, the others assessed).
    QString firstPath = paths.first();
    for (const QString& path : paths)
        if (QFileInfo::exists(path)) {
            firstPath = path;
            break;
        }
    ProjectConfig config;
    if (QString why; const int rc = readProjectInputsConfig(firstPath, p.value(configFile),
                                                            p.isSet(noConfig), config, &why)) {
        err << "cnready: " << why << "\n";
        err.flush();
        return rc;
    }
    for (const QString& w : config.warnings)
        err << "cnready: warning: " << w << "\n";
    OptionValues values;
    for (auto it = config.options.cbegin(); it != config.options.cend(); ++it)
        values.set(it.key(), it.value().text, config.fileName, it.value().line);
    for (const QCommandLineOption* o : {&elements, &perGpu, &gpus, &nodes, &gpu, &cc, &cuda, &os,
                                        &pattern, &entry, &failOn, &hostBandwidth})
        if (p.isSet(*o))
            values.set(o->names().first(), p.value(*o));
    QString contextError;
    const std::optional<ContextInput> context = contextFromOptions(values, &contextError);
    if (!context)
        return usageError(err, contextError);
    const ContextInput& in = *context;
    ReportFormat fmt = ReportFormat::Markdown;
    const QString f = p.value(format).toLower();
    const bool github = f == QLatin1String("github");
    if (f == QLatin1String("json"))
        fmt = ReportFormat::Json;
    else if (f == QLatin1String("sarif"))
        fmt = ReportFormat::Sarif;
    else if (github)
        fmt = ReportFormat::Json; // not used: the annotations have their own writer
    else if (f != QLatin1String("md") && f != QLatin1String("markdown"))
        return usageError(err,
                          QStringLiteral("unknown --format '%1' (md, json, sarif, github)").arg(f));
    if (p.isSet(summary) && (fmt != ReportFormat::Markdown || github))
        return usageError(err,
                          QStringLiteral("--summary is Markdown only (drop --format %1)").arg(f));
    const std::optional<Verdict> failVerdict = failOnFromOptions(values, &contextError);
    if (!contextError.isEmpty())
        return usageError(err, contextError);

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

    std::optional<Baseline> accepted;
    if (p.isSet(baseline)) {
        QString why;
        accepted = readBaseline(p.value(baseline), &why);
        if (!why.isEmpty()) {
            err << "cnready: " << why << "\n";
            err.flush();
            return ExitInput;
        }
    }
    // Read before the analysis: a malformed report stops the run at once (exit 3).
    std::optional<DoctorReport> doctorInput;
    if (p.isSet(doctorReport)) {
        QString why;
        doctorInput = readDoctorReport(p.value(doctorReport), &why);
        if (!doctorInput) {
            err << "cnready: " << why << "\n";
            err.flush();
            return ExitInput;
        }
    }
    ScanResult scan = scanProject(paths);
    // Nothing given exists: nothing to assess. One missing among several: the others are
    // assessed, and the report names it and calls the verdict provisional (PRODUCT.md, bad
    // input: the rest of the project is still assessed).
    if (scan.missing.size() == paths.size()) {
        err << "cnready: no such file or folder: " << scan.missing.first() << "\n";
        err.flush();
        return ExitInput;
    }
    for (const QString& missing : scan.missing)
        err << "cnready: warning: no such file or folder: " << missing
            << "; the other paths are assessed and the verdict is provisional\n";
    FileFilter filter;
    if (QString why;
        !buildFileFilter(config, p.values(exclude), p.isSet(noGitignore), paths, filter, &why))
        return usageError(err, why);
    filterScan(scan, filter);
    // A mistyped entry script would silently send the Doctor hand-off to a file that is not
    // there: say so, as for any other value of the wrong kind.
    if (context->entry &&
        !std::binary_search(scan.files.cbegin(), scan.files.cend(), *context->entry))
        return usageError(err, QStringLiteral("--entry %1: not a Python file of %2 (give the "
                                              "script's path relative to the project root)")
                                   .arg(*context->entry, QDir::toNativeSeparators(scan.root)));
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
    ProjectResult project = analyzeProject(scan);
    applyRuleSelection(project, config);
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
    // Against a baseline: the accepted findings stay in the report (SARIF marks them
    // "unchanged"), and --fail-on judges the verdict of the new ones alone.
    // Built only for a baseline: every finding's fingerprint (~80 MiB for 230k findings).
    std::optional<FingerprintIndex> fingerprints;
    if (accepted || p.isSet(writeBaselineOpt))
        fingerprints.emplace(project);
    std::optional<BaselineComparison> compared;
    if (accepted)
        compared = compareWithBaseline(*accepted, baselineOf(project, *fingerprints));
    if (compared)
        reportBaseline(err, p.value(baseline), *compared);
    if (p.isSet(writeBaselineOpt)) {
        QString why;
        const Baseline written = baselineOf(project, *fingerprints);
        if (!writeBaseline(written, p.value(writeBaselineOpt), &why)) {
            err << "cnready: cannot write " << p.value(writeBaselineOpt) << ": " << why << "\n";
            err.flush();
            return ExitInput;
        }
        err << "cnready: wrote baseline " << p.value(writeBaselineOpt) << " ("
            << written.entries.size() << " finding(s))\n";
    }
    std::optional<DoctorResult> doctor;
    if (doctorInput) {
        doctor = matchDoctorReport(*doctorInput, project, a.findings, a.entryScript);
        if (doctor->stale())
            err << "cnready: warning: Doctor report " << doctor->reportPath
                << " is stale (the code changed after the run); its sites are marked\n";
    }
    const ReportInput report{project,
                             a,
                             m,
                             todayDate,
                             name,
                             compared ? &compared->known : nullptr,
                             doctor ? &*doctor : nullptr};
    if (p.isSet(summary) || github) {
        const QByteArray bytes = github ? renderGithubAnnotations(report) : renderSummary(report);
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
    } else if (QIODevice* device = out.device()) {
        // Streamed into standard output too: the whole report as bytes, then as a QString,
        // then re-encoded by the stream held ~210 MiB for a 1M-line tree's 38 MB Markdown.
        out.flush();
        if (!writeReport(report, fmt, *device)) {
            err << "cnready: cannot write the report to standard output\n";
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
    // With a baseline the verdict judged is that of the new findings alone.
    const Verdict judged =
        compared && failVerdict
            ? assess(withoutBaselined(project, *fingerprints, compared->known), in, m).verdict
            : a.verdict;
    // Writing a baseline records the findings as accepted: that CI step succeeds whatever the
    // verdict (a later run with --baseline judges only what is new).
    if (failVerdict && !p.isSet(writeBaselineOpt) &&
        (int(judged) >= int(*failVerdict) || a.provisional())) {
        if (compared && int(judged) >= int(*failVerdict))
            err << "cnready: the new findings alone give " << verdictLabel(judged)
                << ", at or past --fail-on " << verdictKey(*failVerdict) << "\n";
        if (a.provisional() && int(judged) < int(*failVerdict))
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
            // The same recipes the reports name: the rule's own, and the alternatives some of
            // its sites carry (Finding::recipeVariant).
            rules.append(QJsonObject{
                {QStringLiteral("code"), i.code},
                {QStringLiteral("name"), i.name},
                {QStringLiteral("category"), categoryLabel(i.category)},
                {QStringLiteral("title"), i.title},
                {QStringLiteral("recipe"), recipeForCode(i.code)},
                {QStringLiteral("siteRecipes"), QJsonArray::fromStringList(siteRecipes(i.code))},
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
        const QString own = recipeForCode(i.code);
        const QStringList alternatives = siteRecipes(i.code);
        if (!own.isEmpty())
            out << "  [" << own
                << (alternatives.isEmpty() ? QString()
                                           : QStringLiteral("; some sites: ") +
                                                 alternatives.join(QStringLiteral(", ")))
                << "]";
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
        if (const Recipe* r = findRecipe(recipeForCode(i.code)))
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
    } else if (cmd == QLatin1String("port")) {
        rc = runPortCommand(QStringList{args.value(0)} + rest, out, err);
    } else {
        rc = usageError(err, QStringLiteral("unknown command '%1' (assess, rules, explain, "
                                            "manifest, port; see --help)")
                                 .arg(cmd));
    }
    out.flush();
    err.flush();
    return rc;
}

} // namespace cnready
