#include "rules/BlocksSupport.h"

#include "parse/SyntaxTree.h"
#include "semantic/SemanticModel.h"
#include "semantic/Walk.h"

#include <vector>

namespace cnready::blocks {

QString quoted(const SemanticModel& model, TSNode n, int max) {
    const std::string_view t = model.text(n);
    QString s = QString::fromUtf8(t.data(), qsizetype(std::min<size_t>(t.size(), 400)));
    s = s.simplified();
    if (s.size() > max)
        s = s.left(max - 1) + QChar(0x2026);
    return QLatin1Char('`') + s + QLatin1Char('`');
}

bool isBuiltin(const SemanticModel& model, TSNode callee, std::string_view name) {
    if (!SyntaxTree::is(callee, "identifier") || model.text(callee) != name)
        return false;
    // Imported or rebound names are not the builtin.
    return model.canonicalName(callee).isEmpty() &&
           !model.isNameBound(QString::fromUtf8(name.data(), qsizetype(name.size())), callee);
}

bool readsDeviceValue(const SemanticModel& model, TSNode expr, TSNode* what,
                      bool unknownReductions) {
    // Explicit stack: some children are skipped (arguments of unknown calls, `is` tests).
    std::vector<TSNode> stack{expr};
    int budget = 2000;
    auto hit = [&](TSNode n) {
        if (what)
            *what = n;
        return true;
    };
    while (!stack.empty() && --budget > 0) {
        const TSNode n = stack.back();
        stack.pop_back();
        if (ts_node_is_null(n))
            continue;
        const std::string_view t = SyntaxTree::type(n);
        if (t == "lambda" || t == "list_comprehension" || t == "generator_expression" ||
            t == "set_comprehension" || t == "dictionary_comprehension")
            continue;
        if (t == "comparison_operator") {
            // `x is None` / `x is not None` compare identities on the host.
            bool identity = false;
            const uint32_t k = ts_node_child_count(n);
            for (uint32_t i = 0; i < k && !identity; ++i) {
                const auto op = SyntaxTree::type(ts_node_child(n, i));
                identity = op == "is" || op == "is not";
            }
            if (identity)
                continue;
        }
        if (t == "call") {
            if (model.isArrayReduction(n))
                return hit(n);
            const QString cn = model.callName(n);
            if (unknownReductions && model.isNumpyFullReduction(n) &&
                model.valueKind(SemanticModel::argument(n, 0)) == ValueKind::Unknown)
                return hit(n);
            if ((cn == QLatin1String("numpy.allclose") ||
                 cn == QLatin1String("numpy.array_equal") ||
                 cn == QLatin1String("numpy.array_equiv")) &&
                (model.isDeviceValue(SemanticModel::argument(n, 0)) ||
                 model.isDeviceValue(SemanticModel::argument(n, 1))))
                return hit(n);
            const TSNode fn = SyntaxTree::field(n, "function");
            const std::string_view ft = model.text(fn);
            const bool bare = SyntaxTree::is(fn, "identifier");
            // Host-side metadata of an array: no device read.
            if (bare && (ft == "len" || ft == "isinstance" || ft == "hasattr" || ft == "getattr" ||
                         ft == "type" || ft == "callable" || ft == "id"))
                continue;
            // The callee itself (`x.item()`, `mask.any()`) is read.
            stack.push_back(fn);
            // Arguments are read by conversions, numeric builtins and NumPy; what an unknown
            // function does with them is not known here.
            const bool reads =
                cn.startsWith(QLatin1String("numpy.")) ||
                (bare && (ft == "float" || ft == "int" || ft == "bool" || ft == "complex" ||
                          ft == "abs" || ft == "round" || ft == "min" || ft == "max" ||
                          ft == "sum" || ft == "any" || ft == "all")) ||
                cn.startsWith(QLatin1String("math."));
            if (reads)
                stack.push_back(SyntaxTree::field(n, "arguments"));
            continue;
        }
        if (t == "subscript") {
            if (model.isScalarElementRead(n))
                return hit(n);
        } else if (t == "attribute") {
            const std::string_view a = model.text(SyntaxTree::field(n, "attribute"));
            if (a == "shape" || a == "size" || a == "ndim" || a == "dtype" || a == "nbytes")
                continue;
            if (model.valueKind(n) == ValueKind::DeviceScalar)
                return hit(n);
            stack.push_back(SyntaxTree::field(n, "object"));
            continue;
        } else if (t == "identifier") {
            if (model.valueKind(n) == ValueKind::DeviceScalar)
                return hit(n);
            continue;
        } else if (t == "keyword_argument") {
            stack.push_back(SyntaxTree::field(n, "value"));
            continue;
        }
        const uint32_t k = ts_node_named_child_count(n);
        for (uint32_t i = k; i > 0; --i)
            stack.push_back(ts_node_named_child(n, i - 1));
    }
    return false;
}

} // namespace cnready::blocks
