#include "rules/BlocksSupport.h"

#include "parse/SyntaxTree.h"
#include "semantic/SemanticModel.h"
#include "semantic/Walk.h"

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

bool readsDeviceValue(const SemanticModel& model, TSNode expr, TSNode* what) {
    bool found = false;
    int budget = 2000;
    walkSubtree(expr, [&](TSNode n) {
        if (found || --budget < 0)
            return false;
        const std::string_view t = SyntaxTree::type(n);
        if (t == "lambda" || t == "list_comprehension" || t == "generator_expression" ||
            t == "set_comprehension" || t == "dictionary_comprehension")
            return false;
        if (t == "call") {
            // Host-side metadata of an array: no device read.
            const TSNode fn = SyntaxTree::field(n, "function");
            const std::string_view ft = model.text(fn);
            if (SyntaxTree::is(fn, "identifier") &&
                (ft == "len" || ft == "isinstance" || ft == "hasattr" || ft == "getattr" ||
                 ft == "type" || ft == "callable" || ft == "id"))
                return false;
            if (model.isArrayReduction(n)) {
                found = true;
            } else {
                const QString cn = model.callName(n);
                if ((cn == QLatin1String("numpy.allclose") ||
                     cn == QLatin1String("numpy.array_equal") ||
                     cn == QLatin1String("numpy.array_equiv")) &&
                    (model.isArray(SemanticModel::argument(n, 0)) ||
                     model.isArray(SemanticModel::argument(n, 1))))
                    found = true;
            }
            if (found) {
                if (what)
                    *what = n;
                return false;
            }
            return true;
        }
        if (t == "subscript") {
            if (model.isScalarElementRead(n)) {
                found = true;
                if (what)
                    *what = n;
                return false;
            }
            return true;
        }
        if (t == "attribute") {
            const std::string_view a = model.text(SyntaxTree::field(n, "attribute"));
            if (a == "shape" || a == "size" || a == "ndim" || a == "dtype" || a == "nbytes")
                return false;
            return true;
        }
        if (t == "identifier") {
            const TSNode p = ts_node_parent(n);
            if (SyntaxTree::is(p, "attribute") && ts_node_eq(SyntaxTree::field(p, "attribute"), n))
                return false;
            if (SyntaxTree::is(p, "keyword_argument"))
                return false;
            if (model.valueKind(n) == ValueKind::DeviceScalar) {
                found = true;
                if (what)
                    *what = n;
            }
            return false;
        }
        return true;
    });
    return found;
}

} // namespace cnready::blocks
