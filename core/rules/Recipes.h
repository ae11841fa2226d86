#pragma once
// The refactor recipes (RR-* anchors) in our own words, with their priority order.

#include <QList>
#include <QString>

namespace cnready {

struct Recipe {
    QString anchor;  ///< "RR-sync"
    QString title;   ///< "Keep scalars on the device"
    QString summary; ///< two or three sentences: what to change
    QString before;  ///< short Python example
    QString after;
    int priority = 0; ///< lower runs first (RULES.md: R108 → R101/R103/R110 → R102 → ...)
};

/// All recipes, sorted by priority.
const QList<Recipe>& allRecipes();
/// The recipe with this anchor, or nullptr.
const Recipe* findRecipe(const QString& anchor);

} // namespace cnready
