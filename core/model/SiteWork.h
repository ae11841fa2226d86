#pragma once
// What the workload model (semantic/Shapes.h, semantic/LoopWork.h) knew about one finding's
// site when the rule reported it: the loops around it and the size of the arrays it touches.
// The cost model (cost/CostModel.h) turns these classes into figures once the context gives
// the hot-path size. A plain value kept on the Finding, so it outlives the syntax tree.

#include "model/CompactString.h"

#include <QString>
#include <QtGlobal>

#include <memory>

namespace cnready {

/// The texts of one finding's site as written, for the cost model's assumptions; all empty at
/// most sites, and one or two set at the others: CompactStrings (56 bytes for the seven, not
/// 168 as QStrings), and their text shared between findings (StringPool).
struct SiteTexts {
    /// With SiteWork::untilConverged: the converging loop's header (`while True`).
    CompactString converge;
    CompactString piece; ///< the appended value of a growing stack (`block`), for "size unknown"
    /// The trip of the innermost loop of unknown trip count (`len(signal) - 1`, `n_windows`,
    /// `while err > tol`), for the cost model's assumption; empty when none.
    CompactString trip;
    CompactString rowWalk; ///< the first element-walking builtin call on a row (`max(row)`)
    CompactString every;   ///< with SiteWork::everyKth: the guard (`if (step + 1) % k == 0:`)
    /// With two or more loops of unknown trip count around the site: the header of the innermost
    /// (`for j in range(i, n)`, the loop a per-pass bound is of) and of the outermost (`for i in
    /// range(n)`, the loop whose passes multiply it) as written; empty otherwise.
    CompactString innerLoop;
    CompactString outerLoop;
    /// Calls `f` with each text (for code that treats them alike: StringPool).
    template <typename F> void forEach(F&& f) {
        for (CompactString* t :
             {&converge, &piece, &trip, &rowWalk, &every, &innerLoop, &outerLoop})
            f(*t);
    }
    friend bool operator==(const SiteTexts&, const SiteTexts&) = default;
};

/// A SiteTexts behind one pointer (null while every text is empty), copied by value: a large
/// project holds ~240k findings, most without any site text.
class SiteTextsPtr {
public:
    SiteTextsPtr() = default;
    SiteTextsPtr(const SiteTextsPtr& o)
        : m_p(o.m_p ? std::make_unique<SiteTexts>(*o.m_p) : nullptr) {}
    SiteTextsPtr(SiteTextsPtr&&) noexcept = default;
    SiteTextsPtr& operator=(const SiteTextsPtr& o) {
        if (this != &o)
            m_p = o.m_p ? std::make_unique<SiteTexts>(*o.m_p) : nullptr;
        return *this;
    }
    SiteTextsPtr& operator=(SiteTextsPtr&&) noexcept = default;
    /// The texts (all empty when none was set).
    const SiteTexts& get() const {
        static const SiteTexts none;
        return m_p ? *m_p : none;
    }
    const SiteTexts* operator->() const { return &get(); }
    /// The texts to change in place, or null while all are empty.
    SiteTexts* edit() { return m_p.get(); }
    /// Sets one text (`&SiteTexts::trip`); an empty text allocates nothing.
    void set(CompactString SiteTexts::*text, const QString& value) {
        if (m_p)
            (*m_p).*text = value;
        else if (!value.isEmpty()) {
            m_p = std::make_unique<SiteTexts>();
            (*m_p).*text = value;
        }
    }
    friend bool operator==(const SiteTextsPtr& a, const SiteTextsPtr& b) {
        return a.get() == b.get();
    }

private:
    std::unique_ptr<SiteTexts> m_p;
};

/// The workload facts of one finding's site (its texts, mostly empty, behind one pointer). Filled
/// by the rules' FindingSink (semantic/SiteWorkProbe.h); all zero (known == false) for findings
/// built elsewhere.
struct SiteWork {
    /// How big the largest array the site's expression touches is.
    enum class Size : quint8 {
        Unknown, ///< no shape the model can read: the cost model says "size unknown"
        Small,   ///< bookkeeping-sized (see `smallElements`)
        Data,    ///< data-sized: the context's hot-path array size stands for it
    };
    // The members go by size (8-byte numbers, texts, 4-, 2- and 1-byte numbers, then the
    // flags as bits): a large project holds ~240k findings, each with one SiteWork.

    /// With Size::Small: the array's literal element count, 0 when not all extents are
    /// literals.
    qint64 smallElements = 0;
    /// With Size::Data: the array's own element count when every extent is a literal or a
    /// module constant bound to one (`np.zeros((N_SENSORS, TRACE_LEN))`), 0 when some extent
    /// is symbolic (a parameter, `len(x)` of an unsized array). The cost model sizes the site
    /// by this before any project-wide size.
    qint64 dataElements = 0;
    /// Loops around the site without a literal count whose trip count the shapes still give
    /// (`range(len(x))` of an `x` of literal extents, `range(N)` of a constant, `for row in
    /// grid` of a literal-shaped grid), multiplied (capped at 2^62); 1 when none.
    qint64 shapeTrips = 1;
    /// The product of the caps of the loops that end by `break` (see `breaks`): 1 when none,
    /// 0 when some capped loop has no literal or shape count.
    qint64 breakCap = 1;
    /// The `untilConverged` loop's literal or shape count (a cap), 0 when none.
    qint64 convergeCap = 0;
    qint64 pieceElements = 0; ///< with `pieceKnown`: what one pass of a growing stack appends
    /// Elements per row when every extent but the first of the iterated array is a literal
    /// (1 for a 1-D array), 0 when not known (see `rowLoop`).
    qint64 rowElements = 0;
    qint64 everyK = 0; ///< with `everyKth`: k, 0 when not known

    /// The site's texts (see SiteTexts): one pointer, null while all are empty.
    SiteTextsPtr texts;

    /// Product of the literal trip counts of the loops around the site (`range(10_000)`,
    /// `range(3)`, the items of a literal tuple or list `("u", "v")`; 1 when none), capped at
    /// 2^31 - 1: the passes they add, whatever their class.
    qint32 smallPasses = 1;

    quint16 elementAccesses = 0; ///< element reads / writes one pass of the innermost loop makes
    /// With `rowLoop`: builtin calls that walk the row element by element (`max(row)`,
    /// `sum(row)`, `sorted(row)`: one element access per element of the row, R110's pattern) ...
    quint16 rowWalks = 0;
    /// ... and whole-row operations (`row.max()`, `np.sum(row)`, `row * 2`): one task each.
    quint16 rowOps = 0;
    // The five counts below saturate at 65535 (SiteWorkProbe). One statement's counts stop at
    // the probe's 4,096 visited nodes, so a byte would not always hold them (a long generated
    // expression); a pass's add up over its body's statements.

    /// The site's statement without fusion (SiteWorkProbe's countArrayOps): its operators on
    /// arrays, one runtime task each, and the arrays they read and write, each of them a pass
    /// over an array (the operands' and the temporaries'); 0 when none is known to be an array.
    quint16 statementOps = 0;
    quint16 statementPasses = 0;
    /// The array operations one pass of the innermost loop around the site runs whatever the
    /// branches (its body outside `if`s and nested loops, a `while` condition): at least one
    /// task each, whatever their size.
    quint16 passOps = 0;
    /// The subscripts of one pass (nested loops included, the outermost of a chain) indexed by the
    /// loops' variables that take a row or slab rather than one number (`fxy[i][j]` of a 3-D
    /// `fxy`, `p[i]` of a 2-D `p`: the subscript's shape has rank >= 1): a loop whose pass picks
    /// rows is a row loop, one task per row operation, not one per element.
    quint16 rowPicks = 0;
    /// Calls of one pass (nested loops included) that hand an item the loops' variables pick to
    /// other code, not a builtin, NumPy or math (`mlab.csd(ts[j], ts[i], ...)`, a project
    /// function, LoopWork::elementCalls): at least one task each, whatever the callee does (its
    /// own array operations are not counted). With them, or with `rowPicks`, the loop is a row
    /// loop for the cost model.
    quint16 passCalls = 0;

    /// Loops around the site (same function) without a literal trip count, by trip class:
    quint8 dataLoops = 0;  ///< running over a data extent
    quint8 stepLoops = 0;  ///< counting steps / epochs / iterations
    quint8 otherLoops = 0; ///< small or unknown trip count
    /// Loops around the site (not step loops, not short ones) whose trip count is not known
    /// from shapes, and how many of them run over a data extent (`range(len(signal))`): the
    /// cost model states its bound per pass of the innermost such loop, unless a size linked
    /// to the site's data (the given size, its file's size evidence) stands for the extent.
    quint8 unknownTrips = 0;
    quint8 unknownDataTrips = 0;
    quint8 bytesPerElement = 8; ///< 8 (float64, NumPy's default) unless the elements are flags
    Size size = Size::Unknown;

    bool known : 1 = false; ///< the workload model was asked (false: nothing else is set)
    /// The innermost loop around the site runs over a data extent without a literal count.
    bool innermostData : 1 = false;
    bool innermostSlab : 1 = false; ///< one pass of the innermost loop does slab (whole-array) work
    /// The innermost loop around the site (or the loop the finding is on) has a small trip
    /// class (LoopWork's TripClass::Small: a literal range, a literal tuple or list, the axes
    /// of an array): its iterations are a handful, not one per datum.
    bool innermostSmall : 1 = false;
    bool scalarValue : 1 = false; ///< the site's own value is not known to be an array (one number)
    /// The site converts a whole array into Python objects on the host (`a.tolist()`,
    /// `list(a)`, `tuple(a)`): every element crosses the host link and becomes an object.
    bool wholeToHost : 1 = false;
    /// The innermost loop around the site ends by `break` (a convergence loop): its count
    /// (`range(10_000)`) is a cap, not the number of passes, and is left out of
    /// `smallPasses`; `breakCap` holds the product of such caps.
    bool breaks : 1 = false;
    /// The outermost step loop around the site whose count is not known (`while True`,
    /// `while i < max_iter`, `for it in range(max_iter)`) or the outermost convergence loop
    /// (`breaks`) ends by `break` and no other step loop of the function is around it: the
    /// loop runs until it converges, one pass being one step, and the number of steps is not
    /// known. `texts->converge` is its header as written (`while True`); with `breaks` the cap
    /// (`breakCap`) bounds the steps.
    bool untilConverged : 1 = false;
    /// A growing stack (`acc = np.vstack([acc, piece])`): with `pieceKnown`, what one pass
    /// appends, in elements (`pieceElements`: 1 for one element `x[i]` or a number, 512 x 64
    /// for a block of literal shape); without, the appended value's size is not known from
    /// its shape.
    bool pieceKnown : 1 = false;
    /// The site's statement only rebinds names (`a, b = b, a`, the buffer swap R006 reports):
    /// no element moves and no task runs, so the cost model gives it no row.
    bool rebinding : 1 = false;
    /// The finding is on a loop over the rows of an array (`for row in grid`,
    /// `enumerate(grid)`, R103): one pass takes one row (an element of a 1-D array), not one
    /// element of the whole; `rowWalks`, `rowOps` and `rowElements` say what one pass does
    /// with the row.
    bool rowLoop : 1 = false;
    /// The site runs only on every k-th pass of the loop around it, or of the loop around every
    /// call of its function in this file (`if (step + 1) % check_every == 0:`): `everyKth`,
    /// with k in `everyK` (0 when k is not known from a literal, a constant or a parameter's
    /// literal default) and the guard as written in `texts->every`.
    bool everyKth : 1 = false;
    /// No step loop of the site's function is around it, but a call of its function in this
    /// file is inside a step loop (`diffuse(current, following)` in `for step in range(steps)`):
    /// each run of the site is one step's.
    bool calledInStep : 1 = false;

    friend bool operator==(const SiteWork&, const SiteWork&) = default;
};

} // namespace cnready
