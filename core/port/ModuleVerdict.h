#pragma once
// A module's own verdict, for the port preview's import swap.

#include "assess/Assessment.h"
#include "manifest/Manifest.h"
#include "model/ProjectResult.h"

#include <QList>
#include <QString>

namespace cnready {

/// The verdict of the module `path` on its own: the existing assessment (assess()) run over a
/// project made of that one file, with `findings` as its findings and the project's API uses
/// in that file, read as the code-level verdict (Assessment::codeVerdict: rules 4 to 9 of the
/// verdict list). Hardware, problem size and compute pattern are facts about the whole
/// program and the machine, not about one module, so gates 1, 2 and 4 do not enter it; API
/// gaps of the file do (rule 9). The context is the default one (one GPU, one node).
/// Deterministic; reads no file.
Verdict moduleVerdict(const ProjectResult& project, const QString& path,
                      const FindingSelection& findings, const Manifest& manifest);

} // namespace cnready
