#pragma once
// The rule interface: one small class per code, clang-tidy style. A rule knows nothing about
// other rules; it reads the shared semantic model and turns matches into findings.

#include "model/Finding.h"

#include <QList>
#include <QSet>
#include <QString>
#include <tree_sitter/api.h>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace cnready {

class SyntaxTree;
class SemanticModel;

/// Metadata of one rule: the single source for `cnready rules`, `cnready explain`, SARIF rule
/// help, the report and the GUI's rule browser. All prose is the project's own.
struct RuleInfo {
    QString code; ///< "R104"
    Category category = Category::Info;
    QString name;             ///< kebab-case short name, e.g. "host-sync-in-hot-path"
    QString title;            ///< one line, e.g. "Host materialization in a hot path"
    QString recipe;           ///< recipe anchor ("RR-sync"), empty for SCALES
    QString whatItDoes;       ///< what the rule detects
    QString why;              ///< why it matters on cuPyNumeric / Legate
    QString example;          ///< Python that triggers the rule
    QString useInstead;       ///< Python that does not
    bool hotPathOnly = false; ///< fires only in hot paths (loops, functions called from loops)
    /// The construct outlives the line that builds it: an object array made while loading, or a
    /// function vectorized during set-up, costs wherever the result is used later. Such findings
    /// stay on the compute path when their site is set-up or I/O.
    bool outlivesItsSite = false;
};

/// What a rule sees of one file.
struct RuleContext {
    const SyntaxTree& tree;
    const SemanticModel& model;
    QString path;       ///< relative to the project root
    QString moduleName; ///< dotted module name
};

/// Collects the findings of one rule over one file, filling the common fields.
class FindingSink {
public:
    /// `offPath` receives the BLOCKS / REFACTOR findings at sites off the compute path
    /// (SemanticModel::pathRole): notes that do not count (FileResult::offComputePath). When it
    /// is null they are dropped.
    FindingSink(const RuleInfo& info, const RuleContext& ctx, QList<Finding>& out,
                QList<Finding>* offPath = nullptr)
        : m_info(info), m_ctx(ctx), m_out(out), m_offPath(offPath) {}
    /// Reports `node` (its full span) with a site-specific message. `hot` and the enclosing
    /// function come from the semantic model; hot-path-only rules in functions that are not
    /// locally hot are emitted as conditional on that function being hot project-wide.
    /// A BLOCKS / REFACTOR finding off the compute path goes to the off-path list with its
    /// role (Finding::pathRole); in `__init__` it waits on the project-wide hotness of that
    /// function (Finding::promoteIfHot).
    void report(TSNode node, const QString& message);
    /// Same, for a site whose fix is the rule's alternative recipe (Finding::recipeVariant).
    void report(TSNode node, const QString& message, quint8 recipeVariant);
    /// Same with an explicit span (e.g. a whole function body for a grouped SCALES region).
    void reportSpan(TSNode first, TSNode last, const QString& message);
    /// report() for a finding about the array expression `subject` (the array, or an
    /// expression that reads it: `a[i]`, `np.max(r)`, `float(x)`): a scaling rule (R101-R107,
    /// R110, R201-R206) reports nothing when the subject is no data array, i.e. a bookkeeping
    /// array or (except for R107) an array of strings or objects (rules::notDataArray).
    /// Other rules report as report() does.
    void reportAbout(TSNode subject, TSNode node, const QString& message);
    /// Same, with the rule's alternative recipe (Finding::recipeVariant).
    void reportAbout(TSNode subject, TSNode node, const QString& message, quint8 recipeVariant);
    /// report() for a site that needs no engineer (an `order=` keyword equal to NumPy's
    /// default): kept off the compute path as a PathRole::NoOp note, which the port still
    /// rewrites and the verdict does not count.
    void reportNoOp(TSNode node, const QString& message);
    /// reportAbout() for a construct that, this time, does not outlive its site although the
    /// rule's usually do (RuleInfo::outlivesItsSite): an object array of a file's text fields
    /// built by a reader stays a reader's note.
    void reportAboutAtSite(TSNode subject, TSNode node, const QString& message);
    /// Whether this sink's rule is one of the scaling rules reportAbout() filters.
    bool isScalingRule() const;
    /// Whether reportAbout() drops a finding about `subject` (see there).
    bool aboutNoDataArray(TSNode subject) const;

private:
    const RuleInfo& m_info;
    const RuleContext& m_ctx;
    QList<Finding>& m_out;
    QList<Finding>* m_offPath = nullptr;
    bool m_noOp = false;   ///< reportNoOp() is reporting: the finding's role is PathRole::NoOp
    bool m_atSite = false; ///< reportAboutAtSite() is reporting: outlivesItsSite does not apply
    /// Start positions (line << 32 | column) this sink has reported: one finding per code and
    /// place, in O(1) per report (a scan over earlier findings was quadratic in big files).
    QSet<quint64> m_reported;
    /// Numba-compiled functions of the file (byte ranges), computed on the first report.
    std::optional<std::vector<std::pair<uint32_t, uint32_t>>> m_kernels;
};

class Rule {
public:
    virtual ~Rule() = default;
    virtual const RuleInfo& info() const = 0;
    /// Appends this rule's findings for one file to `out`. Must not throw; must not recurse
    /// without bound on deeply nested input (use the model's iterative walks).
    virtual void check(const RuleContext& ctx, FindingSink& out) const = 0;
};

} // namespace cnready
