#pragma once
// The project's own settings: `[tool.cnready]` in pyproject.toml, or a cnready.toml.

#include "config/PathGlob.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace cnready {

/// One setting as the file wrote it, with the line it is on.
struct ConfigValue {
    QString text; ///< the value as the CLI would take it ("4", "A100", "16000000", "8.0")
    int line = 0; ///< 1-based line of the key in the file
};

/// A `per-file-ignores` entry: the codes left out in the files a glob matches.
struct PerFileIgnore {
    PathGlob glob;
    QStringList codes; ///< codes or code prefixes ("R1")
};

/// What a configuration file says. Globs are relative to the file's folder (`dir`).
struct ProjectConfig {
    QString path;            ///< absolute path of the file; "" when no file was found
    QString dir;             ///< absolute folder of the file
    QString fileName;        ///< "pyproject.toml" or "cnready.toml", for the report
    QList<PathGlob> exclude; ///< `exclude` and `extend-exclude` together
    QStringList select;      ///< codes or prefixes kept; empty keeps every code
    QStringList ignore;      ///< codes or prefixes left out (wins over `select`)
    QList<PerFileIgnore> perFileIgnores;
    std::optional<bool> respectGitignore; ///< `respect-gitignore`
    /// Context and run settings by CLI option name ("gpus", "elements-per-gpu", "gpu",
    /// "compute-capability", "cuda", "os", "pattern", "nodes", "elements", "entry", "fail-on").
    QHash<QString, ConfigValue> options;
    QStringList warnings; ///< "FILE:LINE: unknown key 'foo' in [tool.cnready]; ignored"

    bool isEmpty() const { return path.isEmpty(); }
};

/// Takes the folder the assessment starts from; returns the configuration file that applies:
/// in that folder or the nearest folder above it, a `cnready.toml` (always), else a
/// `pyproject.toml` that has a `[tool.cnready]` table. The search stops after a folder holding
/// `.git` (the repository's top). Returns "" when there is none.
QString findProjectConfig(const QString& startFolder);

/// Takes the path of a pyproject.toml or cnready.toml; returns its settings (in a cnready.toml
/// the keys sit at the top level or under `[tool.cnready]`). Errors: a file that cannot be read,
/// is not TOML, or whose known keys have the wrong type or an unusable value (bad glob, a code
/// that is no rule prefix) sets `*error` to one line "FILE:LINE: what is wrong" and returns an
/// empty config. Unknown keys are warnings (ProjectConfig::warnings), not errors.
ProjectConfig loadProjectConfig(const QString& path, QString* error);

/// Takes a finding code and selectors (codes or prefixes such as "R1"); returns whether one of
/// them selects the code ("ALL" selects every code).
bool codeSelected(const QString& code, const QStringList& selectors);

} // namespace cnready
