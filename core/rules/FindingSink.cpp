#include "parse/SyntaxTree.h"
#include "rules/BlocksSupport.h"
#include "rules/Rule.h"
#include "semantic/SemanticModel.h"

namespace cnready {

void FindingSink::report(TSNode node, const QString& message) {
    reportSpan(node, node, message);
}

void FindingSink::report(TSNode node, const QString& message, quint8 recipeVariant) {
    const qsizetype before = m_out.size();
    reportSpan(node, node, message);
    if (m_out.size() > before)
        m_out.last().recipeVariant = recipeVariant;
}

void FindingSink::reportSpan(TSNode first, TSNode last, const QString& message) {
    // Inside a Numba-compiled function the code is machine code over host NumPy arrays:
    // element loops and scalar reads are what Numba is for, and cuPyNumeric never runs them,
    // so BLOCKS and REFACTOR advice about the interpreter or the device does not apply.
    if (m_info.category == Category::Blocks || m_info.category == Category::Refactor) {
        if (!m_kernels)
            m_kernels = blocks::compiledKernelSpans(m_ctx.model);
        if (blocks::insideAny(*m_kernels, first))
            return;
    }
    Finding f;
    f.code = m_info.code;
    f.category = m_info.category;
    f.range = SourceRange{m_ctx.path, SyntaxTree::line(first), SyntaxTree::column(first),
                          SyntaxTree::endLine(last), SyntaxTree::endColumn(last)};
    f.function = m_ctx.model.enclosingFunction(first);
    f.message = message;
    f.snippet = m_ctx.tree.firstLine(first);
    // Locally hot: in a loop, or in a function called from a loop of this file.
    f.hot = m_ctx.model.isHot(first);
    if (!f.hot) {
        const QString cond = m_ctx.model.hotCondition(first);
        if (m_info.hotPathOnly) {
            if (cond.isEmpty())
                return; // module level / __main__ block: the boundary
            f.requiresHotFunction = cond;
        }
    }
    // One finding per code and place: rules that reach a site twice report it once.
    const quint64 place = quint64(quint32(f.range.line)) << 32 | quint32(f.range.column);
    if (m_reported.contains(place))
        return;
    m_reported.insert(place);
    m_out.append(f);
}

} // namespace cnready
