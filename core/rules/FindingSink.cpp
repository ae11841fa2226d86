#include "parse/SyntaxTree.h"
#include "rules/Rule.h"
#include "semantic/SemanticModel.h"

namespace cnready {

void FindingSink::report(TSNode node, const QString& message) { reportSpan(node, node, message); }

void FindingSink::reportSpan(TSNode first, TSNode last, const QString& message) {
    Finding f;
    f.code = m_info.code;
    f.category = m_info.category;
    f.range = SourceRange{m_ctx.path, SyntaxTree::line(first), SyntaxTree::column(first),
                          SyntaxTree::endLine(last), SyntaxTree::endColumn(last)};
    f.function = m_ctx.model.enclosingFunction(first);
    f.message = message;
    f.snippet = m_ctx.tree.firstLine(first);
    f.hot = m_ctx.model.inLoop(first);
    if (m_info.hotPathOnly && !f.hot) {
        if (f.function.isEmpty())
            return; // module level is the boundary
        f.requiresHotFunction = m_ctx.moduleName + QLatin1Char('.') + f.function;
    }
    m_out.append(f);
}

} // namespace cnready
