#include "parse/SyntaxTree.h"
#include "rules/BlocksSupport.h"
#include "rules/Rule.h"
#include "rules/RuleSupport.h"
#include "semantic/SemanticModel.h"
#include "semantic/SiteWorkProbe.h"

#include <algorithm>

namespace cnready {

namespace {
// The first words of the one finding a Numba kernel gets (R101 or R103).
const QLatin1String kNumbaKernel("Numba kernel");

// A file's findings grow by half of the list at a time, not by doubling (QList's own
// policy): the rules' peak holds the list's unused capacity, up to half of it with
// doubling (a 100,000-line module: a 16.8 MB list for ~40,000 findings).
void appendGrowing(QList<Finding>& list, const Finding& f) {
    if (list.size() == list.capacity())
        list.reserve(list.size() + list.size() / 2 + 16);
    list.append(f);
}
} // namespace

void FindingSink::report(TSNode node, const QString& message) {
    reportSpan(node, node, message);
}

void FindingSink::report(TSNode node, const QString& message, quint8 recipeVariant) {
    const qsizetype before = m_out.size();
    reportSpan(node, node, message);
    if (m_out.size() > before)
        m_out.last().recipeVariant = recipeVariant;
}

void FindingSink::reportNoOp(TSNode node, const QString& message) {
    m_noOp = true;
    reportSpan(node, node, message);
    m_noOp = false;
}

void FindingSink::reportAboutAtSite(TSNode subject, TSNode node, const QString& message) {
    m_atSite = true;
    reportAbout(subject, node, message);
    m_atSite = false;
}

bool FindingSink::isScalingRule() const {
    // RULES.md, the workload model item 3: R101-R106, R110 and R201-R206 are about data
    // arrays; R107's object array of three settings is bookkeeping too.
    const QString& c = m_info.code;
    if (c.size() != 4 || c[0] != QLatin1Char('R'))
        return false;
    const int n = c.mid(1).toInt();
    return (n >= 101 && n <= 107) || n == 110 || (n >= 201 && n <= 206);
}

bool FindingSink::aboutNoDataArray(TSNode subject) const {
    if (!isScalingRule())
        return false;
    // R107 is about the object dtype itself: only its size can excuse it. The host-sync
    // rules judge a 0-d value by the array it was read or reduced from.
    const QString& c = m_info.code;
    return rules::notDataArray(m_ctx.model, subject, c != QLatin1String("R107"),
                               c == QLatin1String("R104") || c == QLatin1String("R105"));
}

void FindingSink::reportAbout(TSNode subject, TSNode node, const QString& message) {
    if (!aboutNoDataArray(subject))
        report(node, message);
}

void FindingSink::reportAbout(TSNode subject, TSNode node, const QString& message,
                              quint8 recipeVariant) {
    if (!aboutNoDataArray(subject))
        report(node, message, recipeVariant);
}

void FindingSink::reportSpan(TSNode first, TSNode last, const QString& message) {
    // Inside a Numba-compiled function the code is machine code over host NumPy arrays:
    // cuPyNumeric never runs its lines, so no finding about them (SCALES included) applies,
    // with one exception. The kernel itself is a port blocker when it walks the elements of
    // a data array: nopython code takes host NumPy buffers only, so a distributed array must
    // be pulled back to the host for every call, or the kernel rewritten as whole-array
    // operations. That is reported once per kernel, on its first element loop (R101) or walk
    // over an array (R103).
    QString kernelMessage;
    if (!m_kernels)
        m_kernels = blocks::compiledKernelSpans(m_ctx.model);
    if (blocks::insideAny(*m_kernels, first)) {
        if (m_info.code != QLatin1String("R101") && m_info.code != QLatin1String("R103"))
            return;
        // A kernel is a function: one finding per function, whichever of R101 (it runs
        // first) and R103 gets there first, wherever the sink filed it.
        const QString fn = m_ctx.model.enclosingFunction(first);
        const auto kernelSite = [&fn](const Finding& earlier) {
            return earlier.function == fn && earlier.message.startsWith(kNumbaKernel);
        };
        if (std::any_of(m_out.cbegin(), m_out.cend(), kernelSite) ||
            (m_offPath && std::any_of(m_offPath->cbegin(), m_offPath->cend(), kernelSite)))
            return;
        kernelMessage =
            QString(kNumbaKernel) + QStringLiteral(": %1; compiled code takes host NumPy "
                                                   "buffers only, so every call copies a "
                                                   "distributed array to the host and back")
                                        .arg(message);
    }
    Finding f;
    f.code = m_info.code;
    f.category = m_info.category;
    f.range = SourceRange{m_ctx.path, SyntaxTree::line(first), SyntaxTree::column(first),
                          SyntaxTree::endLine(last), SyntaxTree::endColumn(last)};
    f.function = m_ctx.model.enclosingFunction(first);
    f.message = kernelMessage.isEmpty() ? message : kernelMessage;
    f.snippet = m_ctx.tree.firstLine(first);
    // Locally hot: in a loop, or in a function called from a loop of this file.
    f.hot = m_ctx.model.isHot(first);
    // Off the compute path (RULES.md, the workload model item 5) a BLOCKS / REFACTOR finding
    // is a note that does not count: I/O, plotting, error paths, set-up, tests, demo data.
    if (m_info.category == Category::Blocks || m_info.category == Category::Refactor) {
        f.pathRole = m_ctx.model.pathRole(first);
        // What such a site builds is used later, on the data: its cost is not the site's.
        if (m_info.outlivesItsSite && !m_atSite &&
            (f.pathRole == PathRole::Setup || f.pathRole == PathRole::InputOutput))
            f.pathRole = PathRole::Compute;
        if (m_noOp && f.pathRole == PathRole::Compute)
            f.pathRole = PathRole::NoOp;
    }
    if (!f.hot) {
        const QString cond = m_ctx.model.hotCondition(first);
        const FunctionRegion* fn = f.pathRole == PathRole::Setup && !cond.isEmpty()
                                       ? m_ctx.model.enclosingFunctionRegion(first)
                                       : nullptr;
        if (fn && m_ctx.model.setupUnlessHot(*fn) &&
            m_ctx.model.statementRole(first) == PathRole::Compute) {
            // `__init__` and the helpers only it calls are set-up unless they run once per
            // pass: a loop elsewhere in the project that builds the object decides
            // (ProjectResult's merge). A statement of its own that is off the path (a
            // validation test, an error path) stays off.
            f.requiresHotFunction = cond;
            f.promoteIfHot = !m_info.hotPathOnly;
            if (m_info.hotPathOnly)
                f.pathRole = PathRole::Compute; // kept only if hot, and then it is compute
        } else if (m_info.hotPathOnly) {
            if (cond.isEmpty())
                return; // module level / __main__ block: the boundary
            f.requiresHotFunction = cond;
        }
    }
    // Its site: the outermost loop of this function around it (the loop itself for a finding
    // on a loop), else its own line.
    const LoopInfo* loop = m_ctx.model.loopOf(first);
    if (!loop)
        loop = m_ctx.model.enclosingLoop(first);
    while (loop && loop->parent >= 0)
        loop = &m_ctx.model.loops()[size_t(loop->parent)];
    f.siteLine = loop ? SyntaxTree::line(loop->node) : f.range.line;
    f.siteEndLine = loop ? SyntaxTree::endLine(loop->node) : f.range.line;
    // One finding per code and line: rules that reach a site twice report it once, and one
    // statement is one site (RULES.md, the workload model item 7): `max(p) + min(p)` is one
    // R110, not two.
    const quint64 place = quint64(quint32(f.range.line));
    if (m_reported.contains(place))
        return;
    m_reported.insert(place);
    // What the cost model reads (cost/CostModel.h): BLOCKS and REFACTOR findings, and SCALES
    // findings that may be hot (a stencil in a step loop). INFO notes and SCALES findings that
    // run once are never costed, and probing each of them (R001 reports thousands per
    // project) was a fifth of the analysis.
    // A SciPy call (R301, INFO) on a hot path is a host round trip the model costs too.
    const bool mayBeHot = f.hot || !f.requiresHotFunction.isEmpty() || f.promoteIfHot;
    const bool costed = m_info.category == Category::Blocks ||
                        m_info.category == Category::Refactor ||
                        (m_info.category == Category::Scales && mayBeHot) ||
                        (m_info.code == QLatin1String("R301") && mayBeHot);
    if (costed)
        f.work = probeSiteWork(m_ctx.model, first);
    // A test module's findings stay in the list: the assessment already keeps whole test
    // modules apart (listed under their own heading, never counted); the role marks them.
    if (f.pathRole != PathRole::Compute &&
        !(f.pathRole == PathRole::Test && m_ctx.model.isTestModule())) {
        if (m_offPath)
            appendGrowing(*m_offPath, f);
        return;
    }
    appendGrowing(m_out, f);
}

} // namespace cnready
