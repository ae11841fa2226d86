#pragma once
// The semantic model of one Python file that every rule stands on: imports and aliases,
// canonical call names, array provenance, loops and hot paths, enclosing functions.
// Built once per file on the worker thread; read-only afterwards.

#include "model/FileResult.h"

#include <QHash>
#include <QString>
#include <tree_sitter/api.h>

namespace cnready {

class SyntaxTree;

class SemanticModel {
public:
    /// Reads the whole file. `moduleName` is the dotted module name ("pkg.sub.mod").
    SemanticModel(const SyntaxTree& tree, QString moduleName);

    const SyntaxTree& tree() const { return m_tree; }
    const QString& moduleName() const { return m_module; }

    /// Canonical dotted name of an expression naming an imported object, e.g. `la.norm` with
    /// `import numpy.linalg as la` → "numpy.linalg.norm"; `cupynumeric` is canonicalised to
    /// "numpy". Empty when the expression does not resolve through an import.
    QString canonicalName(TSNode expr) const;

    /// Whether the statement/expression runs inside a loop of this file (for / while /
    /// comprehension) — the local part of "hot".
    bool inLoop(TSNode n) const;
    /// Enclosing function as "func" or "Class.method"; "" at module level.
    QString enclosingFunction(TSNode n) const;

    /// Copies functions, call sites and imports into the file result.
    void exportTo(FileResult& out) const;

private:
    const SyntaxTree& m_tree;
    QString m_module;
    QHash<QString, QString> m_aliases; ///< local name → canonical dotted name
};

} // namespace cnready
