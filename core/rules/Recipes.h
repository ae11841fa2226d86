#pragma once
// The refactor recipes (RR-* anchors) in our own words, with their priority order.
// A recipe is a mechanical rewrite that removes one or more BLOCKS/REFACTOR findings without
// changing what the program computes. The report and `cnready explain` link rules to recipes
// through RuleInfo::recipe.

#include <QList>
#include <QString>
#include <QStringList>

namespace cnready {

struct Recipe {
    QString anchor;  ///< "RR-sync"
    QString title;   ///< "Keep scalars on the device"
    QString summary; ///< two or three sentences: what to change
    QString before;  ///< short Python example
    QString after;
    /// Lower runs first. Follows RULES.md: R108 → R101/R103/R110 → R102 → R104/R105 → R203 →
    /// R201/R202 → R204 → R206 → R106 → R107; recipes for INFO notes come last.
    int priority = 0;
    QStringList addresses; ///< rule codes this recipe removes, e.g. {"R104", "R105"}
    QString why;           ///< one or two sentences: why the rewrite helps on cuPyNumeric
};

/// All recipes, sorted by priority: the thirteen upstream anchors plus our own RR-write-through
/// (R205), RR-dtype (R107), RR-layout (R109), RR-flip (R106 on reversals), RR-branch (R105
/// on branches that are not convergence tests) and RR-tolist (R101/R103/R110 sites that only
/// convert an array to Python values) (ties by anchor).
/// Built once; thread-safe to read.
const QList<Recipe>& allRecipes();
/// The recipe anchor for a finding of `code` whose Finding::recipeVariant is `variant`:
/// the alternative advice a rule gives for some sites (R106, variant 1: "RR-flip" for a
/// reversal; R105, variant 1: "RR-branch" for a data-dependent branch that is not a
/// convergence test; R101, R103 and R110, variant 1: "RR-tolist" for a comprehension or a
/// `list()`/`tuple()` that only turns array elements into Python values). "" when the code has no
/// such alternative (then the rule's own recipe applies).
QString siteRecipe(const QString& code, int variant);
/// Every alternative recipe anchor a finding of `code` may carry (siteRecipe() over its
/// variants), in variant order; empty for most codes. For `cnready explain`.
QStringList siteRecipes(const QString& code);
/// The recipe with this anchor ("RR-sync", case-sensitive), or nullptr.
const Recipe* findRecipe(const QString& anchor);
/// The order in which findings of `code` should be fixed when several apply to one hot path:
/// 1 for R108, 2 for R101/R103/R110, 3 for R102, 4 for R104/R105, 5 for R203, 6 for R201/R202,
/// 7 for R204, 8 for R206, 9 for R106, 10 for R107 (RULES.md). Every other code gets 0
/// ("no fixing order").
int fixOrder(const QString& code);

} // namespace cnready
