#include "port/ModuleVerdict.h"

#include <algorithm>

namespace cnready {

Verdict moduleVerdict(const ProjectResult& project, const QString& path,
                      const FindingSelection& findings, const Manifest& manifest) {
    ProjectResult one; // no root: assess() reads no launch script
    for (const FileResult& f : project.files)
        if (f.path == path)
            one.files << f;
    for (const Finding& f : findings)
        if (f.range.path == path)
            one.findings << f;
    std::sort(one.findings.begin(), one.findings.end(), findingLess);
    for (const ApiUse& u : project.apiUses)
        if (u.range.path == path)
            one.apiUses << u;
    one.hotFunctions = project.hotFunctions;
    return assess(one, ContextInput{}, manifest, {}).codeVerdict;
}

} // namespace cnready
