#include "assess/Assessment.h"

#include "assess/AssessInternals.h"
#include "assess/GpuCatalog.h"
#include "assess/VerdictList.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace cnready {

std::optional<qint64> parseElementCount(const QString& text, bool* tooLarge) {
    if (tooLarge)
        *tooLarge = false;
    QString s = text.trimmed().remove(QLatin1Char('_')).remove(QLatin1Char(','));
    s.remove(QLatin1Char(' '));
    double mult = 1;
    if (s.endsWith(QLatin1Char('K'), Qt::CaseInsensitive))
        mult = 1e3;
    else if (s.endsWith(QLatin1Char('M'), Qt::CaseInsensitive))
        mult = 1e6;
    else if (s.endsWith(QLatin1Char('G'), Qt::CaseInsensitive) ||
             s.endsWith(QLatin1Char('B'), Qt::CaseInsensitive))
        mult = 1e9;
    if (mult != 1)
        s.chop(1);
    bool ok = false;
    const double v = s.toDouble(&ok) * mult;
    if (ok && v > double(kMaxElementCount)) {
        if (tooLarge)
            *tooLarge = true;
        return std::nullopt;
    }
    if (!ok || !(v >= 1))    // also NaN
        return std::nullopt; // an array of zero elements is not a workload
    if (std::abs(v - std::round(v)) > 1e-9 * v)
        return std::nullopt; // "1.5" or "1.0005K": not a whole number of elements
    return qint64(std::llround(v));
}

QString verdictLabel(Verdict v) {
    switch (v) {
    case Verdict::Ready:
        return QStringLiteral("READY");
    case Verdict::LightRefactor:
        return QStringLiteral("LIGHT REFACTOR");
    case Verdict::SignificantRefactor:
        return QStringLiteral("SIGNIFICANT REFACTOR");
    case Verdict::NotRecommended:
        return QStringLiteral("NOT RECOMMENDED");
    }
    return {};
}

QString verdictKey(Verdict v) {
    switch (v) {
    case Verdict::Ready:
        return QStringLiteral("ready");
    case Verdict::LightRefactor:
        return QStringLiteral("light");
    case Verdict::SignificantRefactor:
        return QStringLiteral("significant");
    case Verdict::NotRecommended:
        return QStringLiteral("not-recommended");
    }
    return {};
}

QString gateStatusLabel(GateStatus s) {
    switch (s) {
    case GateStatus::Pass:
        return QStringLiteral("pass");
    case GateStatus::Fail:
        return QStringLiteral("fail");
    case GateStatus::Uncertain:
        return QStringLiteral("uncertain");
    case GateStatus::NotApplicable:
        return QStringLiteral("n/a");
    }
    return {};
}

QString provenanceLabel(Provenance p) {
    switch (p) {
    case Provenance::Given:
        return QStringLiteral("given");
    case Provenance::Inferred:
        return QStringLiteral("inferred");
    case Provenance::Default:
        return QStringLiteral("default");
    }
    return {};
}

QString formatCount(qint64 n) {
    QString digits = QString::number(n < 0 ? -n : n);
    for (qsizetype i = digits.size() - 3; i > 0; i -= 3)
        digits.insert(i, QLatin1Char(','));
    return n < 0 ? QLatin1Char('-') + digits : digits;
}

QString formatShortCount(qint64 n) {
    auto fmt = [](double v, const char* unit) {
        QString s = QString::number(v, 'f', v < 10 ? 1 : 0);
        if (s.endsWith(QLatin1String(".0")))
            s.chop(2);
        return s + QLatin1Char(' ') + QLatin1String(unit);
    };
    if (n >= 1'000'000'000)
        return fmt(double(n) / 1e9, "B");
    if (n >= 1'000'000)
        return fmt(double(n) / 1e6, "M");
    return formatCount(n);
}

namespace assessment {

bool isHotFunction(const ProjectResult& project, const QString& module, const QString& function) {
    if (function.isEmpty())
        return false;
    return project.hotFunctions.contains(module + QLatin1Char('.') + function);
}

QString loc(const SourceRange& r) {
    return QStringLiteral("`%1`").arg(r.toString());
}

} // namespace assessment

using namespace assessment;

bool findingOnHotPath(const Finding& f) {
    return f.hot || f.code == QLatin1String("R101") || f.code == QLatin1String("R102") ||
           f.code == QLatin1String("R103");
}

SourceRange findingSite(const Finding& f) {
    // A notebook's site names the finding's cell (parse/Notebook.h).
    if (f.siteLine <= 0)
        return SourceRange{f.range.path, f.range.line,          1, f.range.line, 1,
                           f.range.cell, f.range.cellLineOffset};
    return SourceRange{
        f.range.path,          f.siteLine, 1, std::max(f.siteLine, f.siteEndLine), 1, f.range.cell,
        f.range.cellLineOffset};
}

QString hotPathLabel(const Finding& f) {
    if (f.hot)
        return QStringLiteral("yes");
    return findingOnHotPath(f) ? QStringLiteral("yes (per element)") : QStringLiteral("no");
}

namespace {

QStringList distinctCodes(const QList<const Finding*>& fs) {
    QStringList codes;
    for (const Finding* f : fs)
        codes << f->code;
    codes.removeDuplicates();
    codes.sort();
    return codes;
}

Verdict demote(Verdict v) {
    switch (v) {
    case Verdict::Ready:
        return Verdict::LightRefactor;
    case Verdict::LightRefactor:
        return Verdict::SignificantRefactor;
    default:
        return v; // never to NOT RECOMMENDED
    }
}

struct CodeVerdict {
    Verdict base = Verdict::Ready;
    Verdict final = Verdict::Ready;
    int rule = 8;
    QString reason;
    QStringList demotions;
    int blockerSites = 0, hotBlockerSites = 0, refactorSites = 0;
    QStringList blockerKinds;
};

QString sitesText(const QList<const Finding*>& fs, int max = 3) {
    QStringList parts;
    for (qsizetype i = 0; i < fs.size() && i < max; ++i)
        parts << loc(fs[i]->range);
    if (fs.size() > max)
        parts << QStringLiteral("and %1 more").arg(fs.size() - max);
    return parts.join(QStringLiteral(", "));
}

// Blocker sites and kinds (RULES.md, the workload model item 7: per site, not per call).
struct BlockerTally {
    int sites = 0;        ///< distinct sites (a loop nest or a statement)
    int hotSites = 0;     ///< of which on hot paths
    int findings = 0;     ///< BLOCKS findings behind them
    int hotFindings = 0;  ///< of which on hot paths
    QStringList kinds;    ///< distinct codes, sorted
    QStringList hotKinds; ///< distinct codes on hot paths, sorted
    /// The kinds that weigh for rule 5: those on hot paths, and R107 wherever it sits (an
    /// object array shapes the data structure itself, even when it is allocated once). A
    /// strided slice or an `order=` keyword at the boundary is a one-line edit, not a kind of
    /// work. Sorted.
    QStringList weighedKinds;
    /// "; 5 findings" when the sites hold more findings than there are sites, else "".
    QString findingsNote() const {
        return findings > sites ? QStringLiteral("; %1 findings").arg(findings) : QString();
    }
    /// The same for the sites on hot paths.
    QString hotFindingsNote() const {
        return hotFindings > hotSites ? QStringLiteral("; %1 findings").arg(hotFindings)
                                      : QString();
    }
};

BlockerTally tally(const QList<const Finding*>& blocks) {
    BlockerTally t;
    QSet<SourceRange> sites, hot;
    QList<const Finding*> hotOnes, weighed;
    for (const Finding* f : blocks) {
        const SourceRange s = findingSite(*f);
        sites.insert(s);
        const bool onHot = findingOnHotPath(*f);
        if (onHot) {
            hot.insert(s);
            hotOnes << f;
        }
        if (onHot || f->code == QLatin1String("R107"))
            weighed << f;
    }
    t.sites = int(sites.size());
    t.hotSites = int(hot.size());
    t.findings = int(blocks.size());
    t.hotFindings = int(hotOnes.size());
    t.kinds = distinctCodes(blocks);
    t.hotKinds = distinctCodes(hotOnes);
    t.weighedKinds = distinctCodes(weighed);
    return t;
}

// Findings in test modules are listed but do not decide the verdict: tests keep host NumPy as
// their golden reference and are not the workload being ported.
CodeVerdict codeVerdict(const FindingSelection& findings, const QList<ApiGap>& gaps,
                        const QSet<QString>& testPaths) {
    CodeVerdict v;
    // Pointers into `findings`, not copies: a large project has ~100k BLOCKS findings.
    QList<const Finding*> mpi, blocks, refactor;
    for (const Finding& f : findings) {
        if (testPaths.contains(f.range.path))
            continue;
        if (f.code == QLatin1String("R108"))
            mpi << &f;
        if (f.category == Category::Blocks)
            blocks << &f;
        if (f.category == Category::Refactor)
            refactor << &f;
    }
    const BlockerTally t = tally(blocks);
    v.blockerSites = t.sites;
    v.hotBlockerSites = t.hotSites;
    v.blockerKinds = t.weighedKinds;
    v.refactorSites = tally(refactor).sites;
    if (!mpi.isEmpty()) {
        v.base = Verdict::SignificantRefactor;
        v.rule = 4;
        v.reason = QStringLiteral("mpi4py moves or reduces array data (R108 at %1): the "
                                  "parallel layer must be rewritten for Legate")
                       .arg(sitesText(mpi));
    } else if (t.hotSites >= 3 || (t.hotSites >= 1 && t.weighedKinds.size() >= 3)) {
        // Several sites, or several kinds around one data structure even when one of them
        // is a one-time statement (RULES.md, the workload model item 7; PRODUCT.md rule 5).
        v.base = Verdict::SignificantRefactor;
        v.rule = 5;
        v.reason = t.hotSites >= 3
                       ? QStringLiteral("%1 BLOCKS sites on hot paths (%2%3) need real "
                                        "vectorization work")
                             .arg(t.hotSites)
                             .arg(t.hotKinds.join(QStringLiteral(", ")), t.hotFindingsNote())
                       : QStringLiteral("%1 kinds of BLOCKS (%2) at %3 site%4, %5 on hot paths, "
                                        "need real vectorization work")
                             .arg(t.weighedKinds.size())
                             .arg(t.weighedKinds.join(QStringLiteral(", ")))
                             .arg(t.sites)
                             .arg(t.sites == 1 ? QString() : QStringLiteral("s"))
                             .arg(t.hotSites);
    } else if (!blocks.isEmpty()) {
        v.base = Verdict::LightRefactor;
        v.rule = 6;
        const int atBoundary = t.sites - t.hotSites;
        v.reason =
            QStringLiteral("%1 BLOCKS site%2 on hot paths%3 (%4%5), each removed by a recipe")
                .arg(t.hotSites)
                .arg(t.hotSites == 1 ? QString() : QStringLiteral("s"))
                .arg(atBoundary > 0 ? QStringLiteral(" and %1 at the boundary").arg(atBoundary)
                                    : QString())
                .arg(t.kinds.join(QStringLiteral(", ")), t.findingsNote());
    } else if (!refactor.isEmpty()) {
        v.base = Verdict::LightRefactor;
        v.rule = 7;
        v.reason = QStringLiteral("only REFACTOR findings (%1: %2), all mechanical recipes")
                       .arg(refactor.size())
                       .arg(distinctCodes(refactor).join(QStringLiteral(", ")));
    } else {
        v.base = Verdict::Ready;
        v.rule = 8;
        v.reason = QStringLiteral("no BLOCKS or REFACTOR findings");
    }
    v.final = v.base;
    const QString rule9 = ruleNineDemotion(v.base, gaps);
    if (!rule9.isEmpty()) {
        v.demotions << rule9;
        v.final = demote(v.base);
    }
    return v;
}

} // namespace

QString ruleNineDemotion(Verdict base, const QList<ApiGap>& gaps, int maxNames) {
    QStringList material;
    int count = 0;
    for (const ApiGap& g : gaps) {
        if (!g.material)
            continue;
        if (maxNames < 0 || count < maxNames)
            material << QStringLiteral("%1 (%2) at %3")
                            .arg(g.name, supportGlyph(g.support), loc(g.locations.value(0)));
        ++count;
    }
    if (count == 0)
        return QString();
    // Whole entries only: a name cut in the middle reads as another API.
    if (count > material.size())
        material << QStringLiteral("and %1 more").arg(count - material.size());
    const QString plural = count == 1 ? QString() : QStringLiteral("s");
    const QString list = material.join(QStringLiteral("; "));
    const Verdict demoted = demote(base);
    if (demoted != base)
        return QStringLiteral("Rule 9: demoted one tier, %1 → %2, for API%3 on the compute path "
                              "without multi-GPU support: %4")
            .arg(verdictLabel(base), verdictLabel(demoted), plural, list);
    return QStringLiteral("Rule 9: API%1 on the compute path without multi-GPU support (%2); the "
                          "verdict is already %3 and is never demoted further")
        .arg(plural, list, verdictLabel(base));
}

// ---- the assessment ------------------------------------------------------------------------

Assessment assess(const ProjectResult& project, const ContextInput& given,
                  const Manifest& manifest) {
    return assess(project, given, manifest, scanLaunchScripts(project.root));
}

Assessment assess(const ProjectResult& project, const ContextInput& given, const Manifest& manifest,
                  const QList<ReadinessHint>& launchScripts) {
    Assessment a;
    a.context = resolveContext(project, given);
    const Context& c = a.context;

    // Findings that count: R304 only for a multi-GPU or multi-node target.
    // They share the project's list: the positions of the kept ones when some are left out
    // (4 bytes each), nothing when all count, instead of a copy of ~240k findings.
    const bool multi = c.gpus >= 2 || c.nodes >= 2;
    const QList<Finding>& all = project.findings;
    if (!multi)
        a.droppedRngFindings = int(std::count_if(all.cbegin(), all.cend(), [](const Finding& f) {
            return f.code == QLatin1String("R304");
        }));
    if (a.droppedRngFindings > 0) {
        QList<qint32> kept;
        kept.reserve(all.size() - a.droppedRngFindings);
        for (qsizetype i = 0; i < all.size(); ++i)
            if (all[i].code != QLatin1String("R304"))
                kept.append(qint32(i));
        a.findings = FindingSelection(all, std::move(kept));
    } else {
        a.findings = FindingSelection(all);
    }
    // The merged list is usually in order already (files by path, each file's findings
    // sorted): checking costs one comparison per finding, sorting ~20. Out of order, the
    // assessment sorts a list of its own.
    if (!std::is_sorted(a.findings.begin(), a.findings.end(), findingLess)) {
        QList<Finding> own = a.findings.toList();
        std::sort(own.begin(), own.end(), findingLess);
        a.findings = FindingSelection(std::move(own));
    }

    a.apiGaps = apiGaps(project, manifest, c.nodes);

    // Gate 5 / 6 inventories.
    for (const FileResult& f : project.files) {
        for (const HostTouchpoint& t : f.touchpoints)
            a.touchpoints << ResolvedTouchpoint{
                t, t.hot || isHotFunction(project, f.moduleName, t.function)};
        a.readiness << f.readiness;
    }
    a.readiness << launchScripts;
    std::stable_sort(a.touchpoints.begin(), a.touchpoints.end(),
                     [](const ResolvedTouchpoint& x, const ResolvedTouchpoint& y) {
                         return std::tie(x.touchpoint.kind, x.touchpoint.range.path,
                                         x.touchpoint.range.line, x.touchpoint.range.column) <
                                std::tie(y.touchpoint.kind, y.touchpoint.range.path,
                                         y.touchpoint.range.line, y.touchpoint.range.column);
                     });
    std::stable_sort(a.readiness.begin(), a.readiness.end(),
                     [](const ReadinessHint& x, const ReadinessHint& y) {
                         return std::tie(x.kind, x.range.path, x.range.line) <
                                std::tie(y.kind, y.range.path, y.range.line);
                     });
    a.entryScript = given.entry ? *given.entry : chooseEntryScript(project);
    choosePilot(project, a.findings, a);

    // Gates.
    const Gate g1 = hardwareGate(c);
    const Gate g2 = sizeGate(c);
    const Gate g4 = patternGate(c);
    QSet<QString> testPaths;
    for (const FileResult& f : project.files)
        if (f.isTest)
            testPaths.insert(f.path);
    const CodeVerdict cv = codeVerdict(a.findings, a.apiGaps, testPaths);
    a.codeVerdict = cv.final;
    Gate g3{3,
            QStringLiteral("Workload shape"),
            cv.final == Verdict::SignificantRefactor ? GateStatus::Uncertain : GateStatus::Pass,
            QStringLiteral("code-level verdict %1: %2").arg(verdictLabel(cv.final), cv.reason),
            {}};
    const Gate g5 = boundaryGate(a.touchpoints);
    const Gate g6 = readinessGate(a.readiness, c, a.entryScript);
    a.gates = {g1, g2, g3, g4, g5, g6};

    // The ordered verdict list: first match wins.
    auto afterHardware = [&]() -> Verdict {
        if (g4.status == GateStatus::Fail || g2.status == GateStatus::Fail)
            return Verdict::NotRecommended;
        return cv.final;
    };
    if (g1.status == GateStatus::Fail) {
        a.verdict = a.verdictBeforeDemotion = Verdict::NotRecommended;
        a.decidingRule = 1;
        a.decidingReason = QStringLiteral("Gate 1 (hardware) fails: %1").arg(g1.reason);
        a.verdictOnVolta = afterHardware();
        a.rationale = QStringLiteral("The target hardware cannot run cuPyNumeric (%1); on a "
                                     "supported GPU (Volta or newer, CUDA 12.x/13.x, Linux or "
                                     "WSL2) this code would get %2.")
                          .arg(g1.reason, verdictLabel(*a.verdictOnVolta));
    } else if (g4.status == GateStatus::Fail) {
        a.verdict = a.verdictBeforeDemotion = Verdict::NotRecommended;
        a.decidingRule = 2;
        a.decidingReason = QStringLiteral("Gate 4 (compute pattern) fails: %1").arg(g4.reason);
        a.rationale = QStringLiteral("The dominant compute pattern is %1, which cuPyNumeric does "
                                     "not accelerate; porting would not pay off.")
                          .arg(patternLabel(c.pattern));
    } else if (g2.status == GateStatus::Fail) {
        a.verdict = a.verdictBeforeDemotion = Verdict::NotRecommended;
        a.decidingRule = 3;
        a.decidingReason = QStringLiteral("Gate 2 (problem size) fails: %1").arg(g2.reason);
        const qint64 per = std::max<qint64>(1, c.perGpuElements);
        const qint64 batch = (1'048'576 + per - 1) / per;
        a.rationale =
            QStringLiteral("Hot arrays hold about %1 elements per GPU, below cuPyNumeric's "
                           "65,536-element floor; batch them first, e.g. %2 arrays of %1 "
                           "stacked into one (%2, %4) buffer of about %3 elements.")
                .arg(formatCount(per))
                .arg(batch)
                .arg(formatCount(batch * per))
                .arg(per);
    } else {
        a.verdict = cv.final;
        a.verdictBeforeDemotion = cv.base;
        a.decidingRule = cv.rule;
        a.decidingReason = cv.reason;
        a.demotions = cv.demotions;
        QString sentence;
        switch (cv.rule) {
        case 4:
            sentence = QStringLiteral("the code hands array data to mpi4py, so its parallel "
                                      "layer needs a rewrite around one global cuPyNumeric "
                                      "array");
            break;
        case 5:
            sentence = QStringLiteral("BLOCKS at several sites or of several kinds sit on hot "
                                      "paths and need real vectorization work before the port");
            break;
        case 6:
            sentence = QStringLiteral("the BLOCKS sites are few and each has a mechanical "
                                      "recipe");
            break;
        case 7:
            sentence = QStringLiteral("only mechanical REFACTOR recipes stand between this code "
                                      "and a clean port");
            break;
        default:
            sentence = QStringLiteral("nothing blocks the port: swap the import and benchmark");
            break;
        }
        if (cv.final != cv.base)
            sentence += QStringLiteral(", and an API without multi-GPU support on a hot path "
                                       "costs one tier");
        a.rationale = sentence.left(1).toUpper() + sentence.mid(1) + QLatin1Char('.');
    }
    a.blockerSites = cv.blockerSites;
    a.hotBlockerSites = cv.hotBlockerSites;
    a.blockerKinds = cv.blockerKinds;
    a.refactorSites = cv.refactorSites;
    stateBasis(project, testPaths, a);
    a.wouldChange = whatWouldChange(a);
    return a;
}

} // namespace cnready
