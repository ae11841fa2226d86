#pragma once
// What the studio remembers per project folder and across sessions (QSettings): each
// project's context values and the folder its report was last exported to, and the recent
// folders.

#include "assess/Assessment.h"

#include <QString>
#include <QStringList>

namespace cnready::ui::settings {

/// How many recent folders are kept.
inline constexpr int kMaxRecent = 8;

/// The settings group of one project folder: "projects/" and its path hashed (a path is no
/// valid key).
QString projectGroup(const QString& path);
/// The context values saved for the project at `path`; unset fields where none was saved or a
/// saved one cannot be read.
ContextInput loadContext(const QString& path);
/// Replaces the saved context values of the project at `path` with the set fields of `in`.
void saveContext(const QString& path, const ContextInput& in);
/// The folder the report of `projectPath` was last exported to, or "".
QString exportDir(const QString& projectPath);
void setExportDir(const QString& projectPath, const QString& dir);
/// The recent folders, most recent first.
QStringList recentProjects();
/// Moves `path` to the front of the recent folders (at most kMaxRecent kept).
void addRecent(const QString& path);
void clearRecent();

} // namespace cnready::ui::settings
