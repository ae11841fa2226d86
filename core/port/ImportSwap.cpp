// The import swap of a READY module: `import numpy as np` -> `import cupynumeric as np`.
#include "parse/SyntaxTree.h"
#include "port/Rewrites.h"
#include "semantic/SemanticModel.h"

namespace cnready {

QList<Rewrite> importSwapRewrites(const SemanticModel& m) {
    QList<Rewrite> out;
    for (TSNode imp : m.imports()) {
        const bool plain = SyntaxTree::is(imp, "import_statement");
        for (uint32_t i = 0; i < ts_node_named_child_count(imp); ++i) {
            const TSNode c = ts_node_named_child(imp, i);
            const TSNode dotted =
                SyntaxTree::is(c, "aliased_import") ? SyntaxTree::field(c, "name") : c;
            if (!SyntaxTree::is(dotted, "dotted_name"))
                continue;
            const std::string_view name = m.text(dotted);
            const bool numpy = name == "numpy" || name.substr(0, 6) == "numpy.";
            if (!numpy)
                continue;
            // `import numpy as np` at module level only; any other form stays on host NumPy
            // and would mix two array types in one module.
            if (!plain || !SyntaxTree::is(c, "aliased_import") || name != "numpy" ||
                !SyntaxTree::is(m.tree().parent(imp), "module"))
                return {};
            Rewrite r;
            r.startByte = ts_node_start_byte(dotted);
            r.endByte = ts_node_end_byte(dotted);
            r.replacement = "cupynumeric";
            r.line = SyntaxTree::line(dotted);
            r.note = QStringLiteral("%1 -> import cupynumeric as %2")
                         .arg(m.tree().qtext(imp), m.tree().qtext(SyntaxTree::field(c, "alias")));
            out << r;
        }
        // `from numpy import x` / `from numpy.linalg import norm`: the module_name field.
        if (!plain) {
            const TSNode mod = SyntaxTree::field(imp, "module_name");
            const std::string_view name = m.text(mod);
            if (name == "numpy" || name.substr(0, 6) == "numpy.")
                return {};
        }
    }
    return out;
}

} // namespace cnready
