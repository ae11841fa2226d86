#pragma once
// Findings: what a rule reports at one place in the analyzed code.

#include "model/CompactString.h"
#include "model/PathRole.h"
#include "model/SiteWork.h"

#include <QHashFunctions>
#include <QList>
#include <QString>

namespace cnready {

/// The four classes of the assessor's catalogue. The order is the report order.
enum class Category {
    Scales,   ///< R001–R007: keep as is, scales on cuPyNumeric
    Blocks,   ///< R101–R111: remove before migrating
    Refactor, ///< R201–R206: mechanical recipe
    Info,     ///< R301–R305: cost note, not a blocker
};

/// Lower-case stable name ("scales", "blocks", "refactor", "info") for JSON/SARIF/CLI.
QString categoryName(Category c);
/// Upper-case display name ("SCALES", "BLOCKS", ...).
QString categoryLabel(Category c);

/// One source span, 1-based lines and columns, end inclusive. Paths are relative to the
/// project root with '/' separators.
struct SourceRange {
    QString path;
    int line = 0;
    int column = 1;
    int endLine = 0;
    int endColumn = 1;
    /// In a notebook (parse/Notebook.h): the 1-based cell the range starts in, else 0. `line`
    /// and `endLine` stay lines of the joined module; line - cellLineOffset is the line within
    /// the cell.
    int cell = 0;
    int cellLineOffset = 0;

    /// "path:line" or "path:line-endLine" as the report prints it; in a notebook
    /// "path:cell N:line" or "path:cell N:line-endLine" with lines counted within the cell.
    QString toString() const;
    /// The start and end lines as a reader of the file sees them: within the cell in a
    /// notebook, else `line` and `endLine`.
    int displayLine() const { return line - cellLineOffset; }
    int displayEndLine() const { return endLine - cellLineOffset; }
    friend bool operator==(const SourceRange&, const SourceRange&) = default;
    /// Hash over every field (the same ones operator== compares), for QSet/QHash keys.
    friend size_t qHash(const SourceRange& r, size_t seed = 0) {
        return qHashMulti(seed, r.path, r.line, r.column, r.endLine, r.endColumn, r.cell,
                          r.cellLineOffset);
    }
};

/// One finding of one rule. Value type: safe to copy between threads. The strings come first
/// and the small fields together (no padding between them): a large project holds ~240k.
struct Finding {
    QString code; ///< rule code, e.g. "R104"
    SourceRange range;
    QString function; ///< enclosing function, "Class.method", or "" at module level
    QString message;  ///< one sentence specific to this site, in our own words
    QString snippet;  ///< the first source line of the range, trimmed (for tables and tooltips)
    /// When non-empty: the finding is kept only if this project function (qualified name
    /// "module.func" / "module.Class.method") turns out to be hot after the whole project is
    /// read. Used for hot-path-only rules in functions that are not in a loop locally. Empty in
    /// most findings: one pointer while empty.
    CompactString requiresHotFunction;
    Category category = Category::Info;
    bool hot = false; ///< inside a loop, or inside a function called from a loop
    /// Which recipe fixes this site: 0 for the rule's own (RuleInfo::recipe), 1 for the
    /// rule's alternative where the site needs other advice (R106 on a reversal `a[::-1]`:
    /// RR-flip; R105 on a branch that is not a convergence test: RR-branch). See siteRecipe()
    /// in rules/Recipes.h. Fits in the padding after `hot`.
    quint8 recipeVariant = 0;
    /// Where the site stands (RULES.md, the workload model item 5). Compute for every finding
    /// that counts; a BLOCKS / REFACTOR finding off the compute path is kept apart
    /// (FileResult::offComputePath) with its role here.
    PathRole pathRole = PathRole::Compute;
    /// For an off-path finding in `__init__` (set-up unless called per step): when the
    /// function named by requiresHotFunction turns out hot project-wide, the finding moves
    /// back onto the compute path; when it does not, it stays an off-path note (not dropped).
    bool promoteIfHot = false;
    /// The blocker site this finding belongs to (RULES.md, the workload model item 7: per site,
    /// not per call): the first and last line of the outermost loop of the same function around
    /// it (a loop nest is one site), else of its own line. 0 when unknown (a finding built
    /// outside the rules): the finding's own line is its site.
    int siteLine = 0;
    int siteEndLine = 0;
    /// What the workload model knew about the site when the rule reported it (loops around it,
    /// the size of its arrays): the cost model's input (cost/CostModel.h).
    SiteWork work;

    friend bool operator==(const Finding&, const Finding&) = default;
};

/// Stable order for reports: path, line, column, code.
bool findingLess(const Finding& a, const Finding& b);

} // namespace cnready
