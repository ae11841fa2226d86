#include "rules/Recipes.h"

namespace cnready {

const QList<Recipe>& allRecipes() {
    static const QList<Recipe> recipes = {
        {QStringLiteral("RR-loop"),
         QStringLiteral("Replace the element loop by whole-array operations"),
         QStringLiteral("Express the loop body on whole arrays or slices so that one operation "
                        "covers every element."),
         QString(), QString(), 20},
    };
    return recipes;
}

const Recipe* findRecipe(const QString& anchor) {
    for (const Recipe& r : allRecipes())
        if (r.anchor == anchor)
            return &r;
    return nullptr;
}

} // namespace cnready
