#pragma once
// The port preview: which mechanical rewrites each file of an analysed project gets, and the
// unified diff `cnready port PATH --diff` prints and the studio's Port Preview shows. Reads
// the project's files; never writes anything.

#include "assess/Assessment.h"
#include "manifest/Manifest.h"
#include "model/ProjectResult.h"
#include "port/Rewrite.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace cnready {

/// The port preview of one file.
struct FilePort {
    QString path;               ///< relative to the project root, '/' separators
    QStringList codes;          ///< distinct rule codes the rewrites fix, sorted
    bool importSwapped = false; ///< `import numpy as np` becomes `import cupynumeric as np`
    /// The module's own verdict once the rewrites that fix findings are applied
    /// (port/ModuleVerdict.h); the import swap needs READY.
    Verdict verdictAfter = Verdict::Ready;
    /// Why a module that imports NumPy keeps `import numpy` ("module verdict SIGNIFICANT
    /// REFACTOR after these fixes, the swap needs READY", "calls numpy.x, not implemented in
    /// cuPyNumeric", "no array work on the compute path"); "" when swapped or not a candidate.
    QString importKept;
    QList<Rewrite> rewrites; ///< in source order
    QByteArray diff;         ///< unifiedDiff() of the rewrites; empty when skipped
    /// Why a file with candidate sites is not rewritten (a notebook, a file that was not read
    /// cleanly, changed on disk since the analysis); "" otherwise.
    QString skipped;
};

/// The preview of a project: the files that get rewrites, are skipped with a reason, or keep
/// their NumPy import with a reason (FilePort::importKept), in path order. Other files are
/// not listed.
struct PortPlan {
    QList<FilePort> files;
};

/// Plans the port of `project` (an analysis result; its root must still hold the files).
/// Each file is read again and parsed, and the findings of the analysis at their sites
/// (R109, R110, R202, counted or off the compute path; suppressed and configured-out ones
/// are left alone) are turned into the rewrites of port/Rewrites.h. The import swap comes last:
/// only for modules that are not test modules, whose own verdict with the fixed findings
/// removed is READY, and that call no API the manifest marks not implemented (✗), wherever
/// the call sits (cuPyNumeric raises AttributeError for it). `onlyPath` (relative) limits the
/// plan to one file. Notebooks are skipped with a reason; so are files with a syntax or
/// encoding problem, or whose bytes no longer parse the way the analysis saw them.
PortPlan planPort(const ProjectResult& project, const Manifest& manifest,
                  const QString& onlyPath = {});

/// The text `cnready port --diff` prints: per file, one line naming what the diff fixes
/// (`# cnready port: pkg/mod.py fixes R109, R110; import numpy -> cupynumeric (READY)`),
/// then its diff; a skipped file gets one `# cnready port: … skipped: reason` line, a module
/// that keeps its import one `# cnready port: … keeps import numpy: reason` line. Lines
/// outside hunks begin with '#', which `git apply` passes over. Empty when nothing changes.
QByteArray renderPortDiff(const PortPlan& plan);

/// The list form (`cnready port PATH` without --diff): one line per rewrite,
/// `path:line CODE note`, the skipped files, and `path: keeps import numpy: reason`.
QByteArray renderPortList(const PortPlan& plan);

} // namespace cnready
