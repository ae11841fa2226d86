#include "config/ApplyConfig.h"

#include "config/Gitignore.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace cnready {

namespace {

// The path of `absolute` relative to `dir`, or "" when it is not below it.
QString below(const QString& dir, const QString& absolute) {
    if (dir.isEmpty() || !absolute.startsWith(dir + QLatin1Char('/')))
        return {};
    return absolute.mid(dir.size() + 1);
}

} // namespace

int filterScan(ScanResult& scan, const FileFilter& filter) {
    const QString root = QDir::cleanPath(scan.root);
    const QString configDir = QDir::cleanPath(filter.configDir);
    std::optional<GitignoreRules> git;
    if (filter.respectGitignore)
        git.emplace(root, scan.files);
    const qsizetype before = scan.files.size();
    const auto leftOut = [&](const QString& rel) {
        const QString abs = root + QLatin1Char('/') + rel;
        if (filter.explicitFiles.contains(abs))
            return false;
        const QString fromConfig = below(configDir, abs);
        return pathOrParentMatches(fromConfig.isEmpty() ? rel : fromConfig, filter.configExclude) ||
               pathOrParentMatches(rel, filter.cliExclude) || (git && git->ignored(rel));
    };
    scan.files.erase(std::remove_if(scan.files.begin(), scan.files.end(), leftOut),
                     scan.files.end());
    // Python-like files the project leaves out are not worth a mention either.
    scan.notRead.erase(std::remove_if(scan.notRead.begin(), scan.notRead.end(), leftOut),
                       scan.notRead.end());
    return int(before - scan.files.size());
}

int applyRuleSelection(ProjectResult& project, const ProjectConfig& config) {
    project.configFile = config.fileName;
    if (config.select.isEmpty() && config.ignore.isEmpty() && config.perFileIgnores.isEmpty())
        return 0;
    const QString root = QDir::cleanPath(project.root);
    const QString dir = QDir::cleanPath(config.dir);
    const auto leftOut = [&](const Finding& f) {
        if (!config.select.isEmpty() && !codeSelected(f.code, config.select))
            return true;
        if (codeSelected(f.code, config.ignore))
            return true;
        if (config.perFileIgnores.isEmpty())
            return false;
        const QString abs = root + QLatin1Char('/') + f.range.path;
        const QString rel = below(dir, abs).isEmpty() ? f.range.path : below(dir, abs);
        for (const PerFileIgnore& p : config.perFileIgnores)
            if (pathOrParentMatches(rel, {p.glob}) && codeSelected(f.code, p.codes))
                return true;
        return false;
    };
    int moved = 0;
    for (QList<Finding>* list : {&project.findings, &project.offComputePath}) {
        const auto split = std::stable_partition(list->begin(), list->end(),
                                                 [&](const Finding& f) { return !leftOut(f); });
        for (auto it = split; it != list->end(); ++it)
            project.leftOutByConfig.append(*it);
        moved += int(list->end() - split);
        list->erase(split, list->end());
    }
    std::stable_sort(project.leftOutByConfig.begin(), project.leftOutByConfig.end(), findingLess);
    return moved;
}

} // namespace cnready
