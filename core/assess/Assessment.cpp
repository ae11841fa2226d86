#include "assess/Assessment.h"

#include <QLocale>

namespace cnready {

QString verdictLabel(Verdict v) {
    switch (v) {
    case Verdict::Ready: return QStringLiteral("READY");
    case Verdict::LightRefactor: return QStringLiteral("LIGHT REFACTOR");
    case Verdict::SignificantRefactor: return QStringLiteral("SIGNIFICANT REFACTOR");
    case Verdict::NotRecommended: return QStringLiteral("NOT RECOMMENDED");
    }
    return {};
}

QString verdictKey(Verdict v) {
    switch (v) {
    case Verdict::Ready: return QStringLiteral("ready");
    case Verdict::LightRefactor: return QStringLiteral("light");
    case Verdict::SignificantRefactor: return QStringLiteral("significant");
    case Verdict::NotRecommended: return QStringLiteral("not-recommended");
    }
    return {};
}

QString gateStatusLabel(GateStatus s) {
    switch (s) {
    case GateStatus::Pass: return QStringLiteral("pass");
    case GateStatus::Fail: return QStringLiteral("fail");
    case GateStatus::Uncertain: return QStringLiteral("uncertain");
    case GateStatus::NotApplicable: return QStringLiteral("n/a");
    }
    return {};
}

QString provenanceLabel(Provenance p) {
    switch (p) {
    case Provenance::Given: return QStringLiteral("given");
    case Provenance::Inferred: return QStringLiteral("inferred");
    case Provenance::Default: return QStringLiteral("default");
    }
    return {};
}

Context resolveContext(const ProjectResult& project, const ContextInput& given) {
    Q_UNUSED(project);
    Context c;
    c.gpus = given.gpus.value_or(1);
    c.nodes = given.nodes.value_or(1);
    c.totalElements = given.elements.value_or(40'000'000);
    c.perGpuElements = c.totalElements / qMax(1, c.gpus);
    return c;
}

Assessment assess(const ProjectResult& project, const ContextInput& given,
                  const Manifest& manifest) {
    Q_UNUSED(manifest);
    Assessment a;
    a.context = resolveContext(project, given);
    int blocks = 0, refactor = 0;
    for (const Finding& f : project.findings) {
        blocks += f.category == Category::Blocks;
        refactor += f.category == Category::Refactor;
    }
    if (blocks > 2) {
        a.verdict = Verdict::SignificantRefactor;
        a.decidingRule = 5;
    } else if (blocks > 0) {
        a.verdict = Verdict::LightRefactor;
        a.decidingRule = 6;
    } else if (refactor > 0) {
        a.verdict = Verdict::LightRefactor;
        a.decidingRule = 7;
    }
    a.verdictBeforeDemotion = a.verdict;
    return a;
}

} // namespace cnready
