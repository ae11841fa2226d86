// R110: a builtin reduction on an array -> the NumPy function (port/Rewrites.h).
#include "parse/SyntaxTree.h"
#include "port/Rewrites.h"
#include "port/SiteLookup.h"
#include "semantic/SemanticModel.h"

namespace cnready {

QString numpyAlias(const SemanticModel& m) {
    QString alias;
    for (const ImportBinding& b : m.importBindings()) {
        if (b.star || b.canonical != QLatin1String("numpy") ||
            !SyntaxTree::is(b.node, "import_statement") ||
            !SyntaxTree::is(m.tree().parent(b.node), "module"))
            continue;
        // `import numpy as np` / `import cupynumeric as np`: an aliased_import child.
        bool aliased = false;
        for (uint32_t i = 0; i < ts_node_named_child_count(b.node); ++i) {
            const TSNode c = ts_node_named_child(b.node, i);
            if (SyntaxTree::is(c, "aliased_import") &&
                m.tree().qtext(SyntaxTree::field(c, "alias")) == b.local)
                aliased = true;
        }
        if (aliased && alias.isEmpty())
            alias = b.local;
    }
    if (alias.isEmpty())
        return {};
    // Nothing else may bind the name: another import, an assignment, a parameter.
    for (const ImportBinding& b : m.importBindings())
        if (b.local == alias && b.canonical != QLatin1String("numpy"))
            return {};
    const QByteArray name = alias.toUtf8();
    for (TSNode a : m.assignments())
        if (m.text(SyntaxTree::field(a, "left")) == std::string_view(name.constData()))
            return {};
    for (const FunctionRegion& f : m.functions())
        if (f.parameters.contains(alias))
            return {};
    return alias;
}

std::optional<Rewrite> builtinReductionRewrite(const SemanticModel& m, const Finding& f,
                                               const QString& alias) {
    if (f.code != QLatin1String("R110") || alias.isEmpty())
        return std::nullopt;
    const TSNode call = port::nodeOfFinding(m.calls(), f);
    if (ts_node_is_null(call))
        return std::nullopt;
    const TSNode fn = SyntaxTree::field(call, "function");
    const TSNode args = SyntaxTree::field(call, "arguments");
    if (!SyntaxTree::is(fn, "identifier") || !SyntaxTree::is(args, "argument_list") ||
        ts_node_named_child_count(args) != 1)
        return std::nullopt;
    const TSNode arg = ts_node_named_child(args, 0);
    // One plain positional argument: no `start`, `key=`, `default=`, `*xs`, generator.
    if (SyntaxTree::is(arg, "keyword_argument") || SyntaxTree::is(arg, "list_splat") ||
        SyntaxTree::is(arg, "dictionary_splat") || SyntaxTree::is(arg, "generator_expression") ||
        !m.isArray(arg))
        return std::nullopt;
    const QString name = m.tree().qtext(fn);
    static const QStringList reductions = {QStringLiteral("sum"), QStringLiteral("max"),
                                           QStringLiteral("min"), QStringLiteral("any"),
                                           QStringLiteral("all")};
    if (!reductions.contains(name))
        return std::nullopt;
    const Shape shape = m.shapeOf(arg);
    QString axis;
    if (shape.rank != 1) {
        if (name != QLatin1String("sum"))
            return std::nullopt; // the builtin compares rows; no full reduction means that
        axis = QStringLiteral(", axis=0");
    }
    const QString argText = m.tree().qtext(arg);
    const QString replacement = QStringLiteral("%1.%2(%3%4)").arg(alias, name, argText, axis);
    Rewrite r;
    r.code = f.code;
    r.startByte = ts_node_start_byte(call);
    r.endByte = ts_node_end_byte(call);
    r.replacement = replacement.toUtf8();
    r.line = SyntaxTree::line(call);
    r.note = QStringLiteral("%1 -> %2").arg(m.tree().qtext(call), replacement);
    return r;
}

} // namespace cnready
