#pragma once
// The assessment's context and run settings, from the command line or a configuration file,
// checked the same way wherever they come from.

#include "assess/Assessment.h"

#include <QHash>
#include <QString>

#include <optional>

namespace cnready {

/// Settings by CLI option name ("gpus", "elements-per-gpu", "fail-on", ...), each with where it
/// came from. A value set later replaces an earlier one (the CLI is set after the file).
class OptionValues {
public:
    /// Takes the option name, its value, the file it came from ("" for the command line) and
    /// the file's line.
    void set(const QString& name, const QString& value, const QString& file = {}, int line = 0);
    bool has(const QString& name) const { return m_values.contains(name); }
    QString value(const QString& name) const { return m_values.value(name).value; }
    /// "" for the command line, else the file name ("pyproject.toml").
    QString origin(const QString& name) const { return m_values.value(name).file; }
    /// How an error message names the setting: "--gpus" or "pyproject.toml:7: gpus".
    QString where(const QString& name) const;

private:
    struct Entry {
        QString value;
        QString file;
        int line = 0;
    };
    QHash<QString, Entry> m_values;
};

/// Takes the settings; returns the ContextInput they describe, with
/// ContextInput::origins naming the file of each value that came from one. Errors (a value the
/// option does not take, --elements with --elements-per-gpu, fewer GPUs than nodes, a compute
/// capability that contradicts the GPU model) set `*error` to one line naming the setting's
/// source and return nullopt.
std::optional<ContextInput> contextFromOptions(const OptionValues& values, QString* error);

/// Takes the settings; returns the `fail-on` verdict, nullopt when not set. An unknown value
/// sets `*error` (and returns nullopt).
std::optional<Verdict> failOnFromOptions(const OptionValues& values, QString* error);

} // namespace cnready
