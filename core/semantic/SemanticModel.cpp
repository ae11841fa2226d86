#include "semantic/SemanticModel.h"

#include "parse/SyntaxTree.h"

namespace cnready {

namespace {
QString canonicalModule(QString name) {
    if (name == QLatin1String("cupynumeric") || name.startsWith(QLatin1String("cupynumeric.")))
        name.replace(0, int(qstrlen("cupynumeric")), QStringLiteral("numpy"));
    return name;
}
} // namespace

SemanticModel::SemanticModel(const SyntaxTree& tree, QString moduleName)
    : m_tree(tree), m_module(std::move(moduleName)) {
    const TSNode root = tree.root();
    const uint32_t n = ts_node_named_child_count(root);
    for (uint32_t i = 0; i < n; ++i) {
        TSNode stmt = ts_node_named_child(root, i);
        if (SyntaxTree::is(stmt, "import_statement")) {
            const uint32_t k = ts_node_named_child_count(stmt);
            for (uint32_t j = 0; j < k; ++j) {
                TSNode c = ts_node_named_child(stmt, j);
                if (SyntaxTree::is(c, "aliased_import")) {
                    m_aliases.insert(tree.qtext(SyntaxTree::field(c, "alias")),
                                     canonicalModule(tree.qtext(SyntaxTree::field(c, "name"))));
                } else if (SyntaxTree::is(c, "dotted_name")) {
                    const QString full = tree.qtext(c);
                    const QString head = full.section(QLatin1Char('.'), 0, 0);
                    m_aliases.insert(head, canonicalModule(head));
                }
            }
        } else if (SyntaxTree::is(stmt, "import_from_statement")) {
            const QString module =
                canonicalModule(tree.qtext(SyntaxTree::field(stmt, "module_name")));
            const uint32_t k = ts_node_named_child_count(stmt);
            for (uint32_t j = 1; j < k; ++j) {
                TSNode c = ts_node_named_child(stmt, j);
                if (SyntaxTree::is(c, "aliased_import"))
                    m_aliases.insert(tree.qtext(SyntaxTree::field(c, "alias")),
                                     module + QLatin1Char('.') +
                                         tree.qtext(SyntaxTree::field(c, "name")));
                else if (SyntaxTree::is(c, "dotted_name"))
                    m_aliases.insert(tree.qtext(c), module + QLatin1Char('.') + tree.qtext(c));
            }
        }
    }
}

QString SemanticModel::canonicalName(TSNode expr) const {
    if (SyntaxTree::is(expr, "identifier"))
        return m_aliases.value(m_tree.qtext(expr));
    if (SyntaxTree::is(expr, "attribute")) {
        const QString base = canonicalName(SyntaxTree::field(expr, "object"));
        if (base.isEmpty())
            return {};
        return base + QLatin1Char('.') + m_tree.qtext(SyntaxTree::field(expr, "attribute"));
    }
    return {};
}

bool SemanticModel::inLoop(TSNode n) const {
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
        const auto t = SyntaxTree::type(p);
        if (t == "for_statement" || t == "while_statement" || t == "list_comprehension" ||
            t == "set_comprehension" || t == "dictionary_comprehension" ||
            t == "generator_expression")
            return true;
        if (t == "function_definition" || t == "class_definition")
            return false;
    }
    return false;
}

QString SemanticModel::enclosingFunction(TSNode n) const {
    QStringList parts;
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
        const auto t = SyntaxTree::type(p);
        if (t == "function_definition" || t == "class_definition")
            parts.prepend(m_tree.qtext(SyntaxTree::field(p, "name")));
    }
    return parts.join(QLatin1Char('.'));
}

void SemanticModel::exportTo(FileResult& out) const {
    QStringList mods;
    for (const QString& v : m_aliases)
        mods << v.section(QLatin1Char('.'), 0, 0);
    mods.removeDuplicates();
    mods.sort();
    out.imports = mods;
}

} // namespace cnready
