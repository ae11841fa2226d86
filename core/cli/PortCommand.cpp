#include "cli/PortCommand.h"

#include "analysis/ProjectAnalyzer.h"
#include "cli/Cli.h"
#include "cli/ProjectInputs.h"
#include "config/ApplyConfig.h"
#include "config/ProjectConfig.h"
#include "port/PortPlan.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>

namespace cnready {

namespace {

int fail(QTextStream& err, int code, const QString& msg) {
    err << "cnready: " << msg << "\n";
    err.flush();
    return code;
}

} // namespace

int runPortCommand(const QStringList& args, QTextStream& out, QTextStream& err) {
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Preview the mechanical part of the port: the rewrites that are safe by construction.\n"
        "\n"
        "  import numpy as np -> import cupynumeric as np   in modules whose own verdict,\n"
        "                                                    once the fixes below are made,\n"
        "                                                    is READY\n"
        "  sum(a), max(a), ... on arrays -> np.sum(a), ...   (R110)\n"
        "  order= keywords equal to NumPy's default removed  (R109)\n"
        "  x = x + y -> x += y (also -, *, /) where no caller or other name holds x (R202)\n"
        "\n"
        "Nothing is written: with --diff the output is a unified diff with paths relative\n"
        "to the project root; apply it there with `git apply`. Notebooks are not rewritten.\n"
        "The project's cnready.toml / [tool.cnready] settings are read as by `assess`."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("PATH"), QStringLiteral("The project folder."));
    const QCommandLineOption diff(QStringLiteral("diff"),
                                  QStringLiteral("Print a unified diff instead of a list."));
    const QCommandLineOption only(
        QStringLiteral("only"),
        QStringLiteral("Limit the preview to FILE (relative to the project root)."),
        QStringLiteral("FILE"));
    const QCommandLineOption manifest(QStringLiteral("manifest"),
                                      QStringLiteral("Use this API-support manifest (Markdown)."),
                                      QStringLiteral("FILE"));
    const QCommandLineOption configFile(QStringLiteral("config"),
                                        QStringLiteral("Read settings from FILE."),
                                        QStringLiteral("FILE"));
    const QCommandLineOption noConfig(QStringLiteral("no-config"),
                                      QStringLiteral("Read no configuration file."));
    const QCommandLineOption exclude(
        QStringLiteral("exclude"),
        QStringLiteral("Leave out files and folders matching GLOB (repeatable)."),
        QStringLiteral("GLOB"));
    const QCommandLineOption noGitignore(QStringLiteral("no-respect-gitignore"),
                                         QStringLiteral("Include files that .gitignore lists."));
    p.addOptions({diff, only, manifest, configFile, noConfig, exclude, noGitignore});
    if (!p.parse(args))
        return fail(err, ExitUsage, parserErrorLine(p, QStringLiteral("cnready port")));
    if (p.isSet(QStringLiteral("help"))) {
        QString text = p.helpText();
        const qsizetype opts = text.indexOf(QStringLiteral(" [options]"));
        if (text.startsWith(QStringLiteral("Usage: ")) && opts > 0)
            text.replace(0, opts, QStringLiteral("Usage: cnready port"));
        out << text;
        return ExitOk;
    }
    const QStringList paths = p.positionalArguments();
    if (paths.size() != 1)
        return fail(err, ExitUsage, QStringLiteral("port needs one PATH (the project folder)"));
    const QFileInfo given(paths.first());
    if (!given.exists())
        return fail(err, ExitInput,
                    QStringLiteral("no such file or folder: %1").arg(paths.first()));

    ProjectConfig config;
    if (QString why; const int rc = readProjectInputsConfig(paths.first(), p.value(configFile),
                                                            p.isSet(noConfig), config, &why))
        return fail(err, rc, why);
    for (const QString& w : config.warnings)
        err << "cnready: warning: " << w << "\n";
    QString manifestNote;
    const Manifest m = Manifest::active(p.value(manifest), &manifestNote);
    if (!manifestNote.isEmpty())
        err << "cnready: warning: " << manifestNote << "\n";
    if (m.isEmpty())
        return fail(err, ExitInput,
                    QStringLiteral("cannot use manifest %1: %2")
                        .arg(p.value(manifest), m.errors().isEmpty() ? QStringLiteral("no entries")
                                                                     : m.errors().first().message));

    ScanResult scan = scanProject(paths);
    FileFilter filter;
    if (QString why;
        !buildFileFilter(config, p.values(exclude), p.isSet(noGitignore), paths, filter, &why))
        return fail(err, ExitUsage, why);
    filterScan(scan, filter);
    QString onlyPath = p.value(only);
    if (!onlyPath.isEmpty()) {
        onlyPath = QDir::cleanPath(QDir::fromNativeSeparators(onlyPath));
        // An absolute path inside the project names the same file as its relative path.
        if (QDir::isAbsolutePath(onlyPath)) {
            const QString rel = QDir(scan.root).relativeFilePath(onlyPath);
            if (!rel.startsWith(QLatin1String("..")))
                onlyPath = rel;
        }
        if (!scan.files.contains(onlyPath))
            return fail(err, ExitUsage,
                        QStringLiteral("--only %1: not a Python file or notebook of %2")
                            .arg(p.value(only), QDir::toNativeSeparators(scan.root)));
    }
    ProjectResult project = analyzeProject(scan);
    applyRuleSelection(project, config);
    if (assessedFileCount(project) == 0)
        return fail(err, ExitInput,
                    QStringLiteral("nothing to assess: no readable Python files under %1")
                        .arg(paths.first()));

    const PortPlan plan = planPort(project, m, onlyPath);
    out << QString::fromUtf8(p.isSet(diff) ? renderPortDiff(plan) : renderPortList(plan));
    out.flush();
    if (out.status() != QTextStream::Ok)
        return fail(err, ExitInput, QStringLiteral("cannot write to standard output"));
    int files = 0, rewrites = 0;
    for (const FilePort& f : plan.files)
        if (f.skipped.isEmpty() && !f.rewrites.isEmpty()) {
            ++files;
            rewrites += int(f.rewrites.size());
        }
    // With nothing to rewrite there is nothing to apply: no `git apply` hint then.
    err << "cnready: " << rewrites << " rewrite(s) in " << files << " file(s)"
        << (p.isSet(diff) && rewrites > 0 ? "; apply with `git apply` from "
                                          : "; nothing written to ")
        << QDir::toNativeSeparators(scan.root) << "\n";
    err.flush();
    return ExitOk;
}

} // namespace cnready
