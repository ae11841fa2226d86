#pragma once
// Symbolic shapes and size classes of array values (RULES.md, the workload model items 2-3).
//
// An array value may carry a Shape: its rank (or "unknown rank") and, per axis, an Extent
// that is a literal, a symbol (a parameter, a module constant, `len(x)`, `x.shape[k]`), a
// product of those, or unknown. Every extent has a SizeClass: Small (bookkeeping sizes: a
// literal up to kSmallLiteral, `ndim`, the length of a literal tuple, a count of levels or
// parameters), Data (a size-named constant, a runtime value) or Unknown. An array whose
// extents are all Small is a bookkeeping array (`np.array([0, 1, 0, -1])`, `np.eye(3)`);
// one with at least one Data extent is a data array. Only data arrays are what the scaling
// rules are about.
//
// The SemanticModel answers shapeOf() / extentClass() / arraySizeClass() by calling into the
// ShapeEngine below, which computes shapes lazily, per node, with a cache owned by the model.
//
// Summaries (cross-module returns, branch `facts`): a Shape is serialised by toSummary() as
// the rank plus, per axis, its SizeClass and either its literal value or a reference to a
// parameter of the function the shape belongs to (Extent::parameter, Extent::parameterAxis:
// "the extent of axis k of parameter p", or "the value of integer parameter p"). Symbol text
// is not kept (it means nothing in another file); fromSummary() reads it back. A caller that
// reads a summary replaces each parameter reference by the extent (class) of the argument it
// passes at the call site.

#include <QString>
#include <QStringView>
#include <QtGlobal>
#include <tree_sitter/api.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string_view>

namespace cnready {

class SemanticModel;

/// How big an extent (or an array) is for the scaling rules.
enum class SizeClass : quint8 {
    Unknown, ///< cannot tell (an unknown call's result, a name nothing binds)
    Small,   ///< bookkeeping-sized: a literal up to kSmallLiteral, ndim, a literal tuple's length
    Data,    ///< data-sized: a size-named constant, a parameter, len()/shape of a data array
};

/// The largest literal extent that is Small, and the largest literal trip count of a loop
/// that runs a handful of passes (LoopWork's TripClass::Small): one figure for both. It comes
/// from Gate 2's per-GPU floor (65,536 elements, cuPyNumeric's smallest useful chunk; see
/// assess/Assessment.h): even a square array of two Small extents (256 x 256 = 65,536) stays
/// at that floor, so an array built only from Small extents, or a loop of at most this many
/// passes, can never be big enough for a GPU to matter. Typical bookkeeping sizes (3
/// components, 6 flags, 27 neighbours, a few hundred taps or histogram bins) are all below it.
inline constexpr qint64 kSmallLiteral = 256;

/// The SizeClass of a literal extent value (negative values count as unknown).
SizeClass literalClass(qint64 value);
/// Data if either is Data, Small if both are Small, Unknown otherwise: the class of a product,
/// sum or broadcast of two extents.
SizeClass joinClass(SizeClass a, SizeClass b);

/// For a random draw named `leaf` (a NumPy random function or Generator/RandomState method:
/// "normal", "rand", "choice"): the positional argument that carries the size when there is no
/// `size=` keyword (0, 1 or 2), or -1 when the name is not a draw with a size argument.
int randomDrawSizePosition(const QString& leaf);

/// What the elements of an array are, as far as the model can tell.
enum class ElementKind : quint8 {
    Unknown, ///< numbers as far as anyone knows (the default)
    Numeric, ///< built from numbers
    Bool,    ///< a flag array (`dtype=bool`, a comparison)
    String,  ///< built from strings or compared with string literals: not numeric data
    Object,  ///< `dtype=object`
};

/// One axis of a Shape.
struct Extent {
    enum class Kind : quint8 {
        Unknown, ///< nothing known (size may still be known: see `size`)
        Literal, ///< `value`
        Symbol,  ///< one symbolic quantity, written `symbol`
        Product, ///< a product (or sum) of several; `value` is the literal factor (1 if none)
    };
    Kind kind = Kind::Unknown;
    SizeClass size = SizeClass::Unknown;
    qint8 parameter = -1;     ///< positional parameter index this extent comes from, or -1
    qint8 parameterAxis = -1; ///< with `parameter`: the axis of that parameter (-1: its value)
    qint64 value = 0;         ///< Literal: the value; Product: the literal factor
    std::string_view symbol;  ///< Symbol/Product: source text (`n`, `len(x)`); view of the file

    static Extent unknown(SizeClass c = SizeClass::Unknown) {
        Extent e;
        e.size = c;
        return e;
    }
    /// A literal extent; its class follows literalClass().
    static Extent literal(qint64 v);
    /// A symbolic extent of class `c` written `text`.
    static Extent symbolic(std::string_view text, SizeClass c);
    /// The product of two extents (literals multiply out; classes join).
    static Extent product(const Extent& a, const Extent& b);
    /// The sum of two extents (concatenation along an axis).
    static Extent sum(const Extent& a, const Extent& b);
    bool isLiteral() const { return kind == Kind::Literal; }
    bool isLiteral(qint64 v) const { return kind == Kind::Literal && value == v; }
    /// Same quantity (literal value, or the same symbol text and class).
    bool sameAs(const Extent& o) const;
    /// "3", "n", "len(x)·3", "?" (for messages and tests).
    QString toString() const;
};

/// The shape of an array value: a rank (or unknown) and up to kMaxAxes tracked extents (axes
/// beyond read as unknown extents). Rank 0 is a 0-d array or a scalar.
struct Shape {
    static constexpr int kMaxAxes = 4;
    qint8 rank = -1; ///< -1: unknown rank
    ElementKind element = ElementKind::Unknown;
    /// When the rank is unknown: the class of the array's size as a whole, if known (e.g. an
    /// array built from a data parameter of unknown rank is still a data array).
    SizeClass unknownRankClass = SizeClass::Unknown;
    std::array<Extent, kMaxAxes> axes{};

    static Shape unknown(SizeClass whole = SizeClass::Unknown) {
        Shape s;
        s.unknownRankClass = whole;
        return s;
    }
    static Shape scalar() {
        Shape s;
        s.rank = 0;
        return s;
    }
    /// A 1-D shape of extent `e`.
    static Shape vector(const Extent& e);
    bool known() const { return rank >= 0; }
    /// Extent of axis `k` (negative counts from the end); unknown when out of range or untracked.
    Extent axis(int k) const;
    /// Sets axis `k` (ignored beyond kMaxAxes).
    void setAxis(int k, const Extent& e);
    /// The product of all extents (Literal 1 for rank 0).
    Extent size() const;
    /// Small when the rank is known and every extent is Small (rank 0 included), Data when
    /// some extent (or the unknown-rank size) is Data, Unknown otherwise.
    SizeClass sizeClass() const;
    /// Drops axis `k` (indexing with an integer, a reduction along it).
    Shape dropAxis(int k) const;
    /// Reversed axes (`.T`).
    Shape transposed() const;
    /// "(n, 3)", "(?)", "<unknown>"; element kind appended for string/object arrays.
    QString toString() const;
    /// Compact text for a per-function summary: "U" for an unknown rank with its class
    /// ("U:D"), else "<rank>" then per axis ":<S|D|U>[=value|@p[.axis]]", e.g. "2:D@0.0:S=3".
    QString toSummary() const;
    /// Reads toSummary() back (unknown shape on malformed input). Symbols read back as
    /// unknown text; parameter references are kept.
    static Shape fromSummary(QStringView text);
    /// Broadcast of two shapes (NumPy rules, right-aligned; a literal 1 stretches).
    static Shape broadcast(const Shape& a, const Shape& b);
    /// Both ways possible (flow-insensitive merge of two bindings): per axis the same extent
    /// or an unknown of the joined class; unknown rank when the ranks differ.
    static Shape merge(const Shape& a, const Shape& b);
};

/// Lazily computed shapes and extent classes of one file's expressions (owned by the
/// SemanticModel; answers its shapeOf()/extentClass()/arraySizeClass()). Not thread-safe for
/// concurrent queries on one model (the model is used from one worker thread at a time).
class ShapeEngine {
public:
    explicit ShapeEngine(const SemanticModel& model);
    ~ShapeEngine();
    ShapeEngine(const ShapeEngine&) = delete;
    ShapeEngine& operator=(const ShapeEngine&) = delete;
    /// See SemanticModel::shapeOf().
    Shape shapeOf(TSNode expr);
    /// See SemanticModel::extentOf().
    Extent extentOf(TSNode intExpr);
    /// See SemanticModel::elementKind().
    ElementKind elementKind(TSNode expr);

private:
    struct Impl;
    std::unique_ptr<Impl> p;
};

} // namespace cnready
