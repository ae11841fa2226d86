#pragma once
// The semantic model of one Python file that every rule stands on: indexed node lists (built
// in one iterative walk), imports and aliases, canonical call names, array provenance, loops,
// loop invariance, hot paths and regions (functions / classes).
// Built once per file on the worker thread; read-only (and thread-compatible) afterwards.
//
// Rules must not walk the whole tree themselves: they iterate the indexed lists below (all in
// document order, i.e. sorted by start byte) and use within() to restrict them to a span.

#include "model/FileResult.h"
#include "semantic/Loops.h"
#include "semantic/Shapes.h"

#include <QHash>
#include <QSet>
#include <QString>
#include <tree_sitter/api.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace cnready {

class SyntaxTree;
struct LoopWork;               // semantic/LoopWork.h
enum class TripClass : quint8; // semantic/LoopWork.h
class LoopWorkEngine;          // semantic/LoopWork.h
class ComputePathEngine;       // semantic/ComputePath.h

/// What kind of value an expression evaluates to, as far as the model can tell (provenance).
enum class ValueKind {
    Unknown,      ///< cannot tell (unannotated parameter, unknown call, ...)
    Array,        ///< an ndarray (NumPy / cuPyNumeric), possibly 0-d from an axis-less view
    DeviceScalar, ///< a scalar that still lives with the array runtime: a full reduction of an
                  ///< array (`np.max(a)`, `a.sum()`) or an element read (`a[i]`, `a[i, j]`)
    HostScalar,   ///< a Python number/bool: literals, `len(a)`, `a.shape[0]`, `a.size`,
                  ///< `float(...)`, `.item()`, loop counters over range()
    String,       ///< str / bytes / f-string
    Sequence,     ///< list / tuple / dict / set (literals, comprehensions, `.tolist()`, `a.shape`)
    Object,       ///< some other known object: see typeName() (e.g. "numpy.random.Generator")
    None,         ///< the literal None
};

/// A function or method defined in the file (a region).
struct FunctionRegion {
    int index = -1;
    TSNode node{};          ///< function_definition
    TSNode body{};          ///< its block
    QString name;           ///< "func", "Class.method", "outer.inner" (relative to the module)
    QString qualifiedName;  ///< "module.Class.method" (FunctionInfo::qualifiedName)
    QString className;      ///< enclosing class name for methods, "" otherwise
    QStringList parameters; ///< parameter names in order (including self)
    int parent = -1;        ///< enclosing function index, -1 if defined at module/class level
    uint32_t startByte = 0, endByte = 0;
    bool returnsArray = false; ///< some `return` returns an Array-kind expression
    bool locallyHot = false;   ///< called from a loop of this file, or from a locally hot
                               ///< function of this file (transitively)
};

/// A class defined in the file (a region).
struct ClassRegion {
    TSNode node{};
    QString name; ///< "Class" or "Outer.Inner"
    uint32_t startByte = 0, endByte = 0;
};

/// One import binding: the local name and what it stands for.
struct ImportBinding {
    QString local;     ///< name bound in the module ("np", "la", "zeros", "*")
    QString canonical; ///< canonical dotted target ("numpy", "numpy.linalg", "numpy.zeros");
                       ///< cupynumeric → numpy; relative imports resolved against the module
    TSNode node{};     ///< the import statement
    bool star = false; ///< `from M import *` (local is "*", canonical is M)
};

class SemanticModel {
public:
    /// Reads the whole file in one iterative walk plus a few passes over the indexed lists.
    /// `moduleName` is the dotted module name ("pkg.sub.mod"); `isPackageInit` tells whether the
    /// file is a package's `__init__.py` (for resolving relative imports). Never throws;
    /// syntax errors only leave ERROR nodes that are skipped.
    /// `facts` (optional, must outlive the model): what the project's summaries tell this file
    /// (ProjectFacts.h): parameters every call passes an ndarray or the array module for, as
    /// "qualifiedName(param" keys (see arrayParameterKey()), and project functions it calls
    /// that return arrays. A listed parameter that the file leaves unknown and that nothing
    /// in it contradicts takes that kind; a listed call returns an Array.
    SemanticModel(const SyntaxTree& tree, QString moduleName, bool isPackageInit = false,
                  const FileFacts* facts = nullptr);
    /// The key of parameter `parameter` of function `qualifiedName` in the set above.
    static QString arrayParameterKey(const QString& qualifiedName, const QString& parameter) {
        return qualifiedName + QLatin1Char('(') + parameter;
    }
    ~SemanticModel();
    SemanticModel(const SemanticModel&) = delete;
    SemanticModel& operator=(const SemanticModel&) = delete;

    const SyntaxTree& tree() const { return m_tree; }
    const QString& moduleName() const { return m_module; }
    /// Source text of a node (a view valid while the tree lives).
    std::string_view text(TSNode n) const;

    // ---- Indexed node lists (document order) -------------------------------------------
    const std::vector<TSNode>& calls() const { return m_calls; }           ///< `call`
    const std::vector<TSNode>& subscripts() const { return m_subscripts; } ///< `subscript`
    const std::vector<TSNode>& attributes() const { return m_attributes; } ///< `attribute`
    /// `assignment` and `augmented_assignment` (incl. annotated assignments).
    const std::vector<TSNode>& assignments() const { return m_assignments; }
    const std::vector<TSNode>& augmentedAssignments() const { return m_augmented; }
    /// list/set/dict comprehensions and generator expressions (also in loops()).
    const std::vector<TSNode>& comprehensions() const { return m_comprehensions; }
    const std::vector<TSNode>& forStatements() const { return m_fors; }
    const std::vector<TSNode>& whiles() const { return m_whiles; }
    /// `if_statement` and `elif_clause` nodes (both have a `condition` field).
    const std::vector<TSNode>& ifs() const { return m_ifs; }
    const std::vector<TSNode>& asserts() const { return m_asserts; }
    const std::vector<TSNode>& ternaries() const { return m_ternaries; } ///< conditional_expression
    const std::vector<TSNode>& functionDefs() const { return m_functionDefs; }
    const std::vector<TSNode>& classDefs() const { return m_classDefs; }
    const std::vector<TSNode>& imports() const { return m_importNodes; } ///< import / from-import
    const std::vector<TSNode>& decorators() const { return m_decorators; }
    const std::vector<TSNode>& binaryOperators() const { return m_binaryOps; }
    const std::vector<TSNode>& comparisons() const {
        return m_comparisons;
    } ///< comparison_operator
    const std::vector<TSNode>& keywordArguments() const { return m_keywords; }
    const std::vector<TSNode>& slices() const { return m_slices; } ///< `slice`
    const std::vector<TSNode>& interpolations() const {
        return m_interpolations;
    } ///< f-string `{…}`
    const std::vector<TSNode>& returns() const { return m_returns; }
    const std::vector<TSNode>& lambdas() const { return m_lambdas; }

    /// The sub-range of a document-ordered list whose nodes start inside `container`
    /// (binary search; includes `container` itself if it is in the list).
    static std::span<const TSNode> within(const std::vector<TSNode>& list, TSNode container);
    /// Same for a byte range [start, end).
    static std::span<const TSNode> within(const std::vector<TSNode>& list, uint32_t start,
                                          uint32_t end);

    // ---- Imports and names ---------------------------------------------------------------
    const std::vector<ImportBinding>& importBindings() const { return m_importBindings; }
    /// Whether the file imports `module` or a submodule of it ("mpi4py", "scipy",
    /// "scipy.sparse"); canonical names, so "numpy" is true for `import cupynumeric as np`.
    bool importsModule(const QString& module) const;
    /// Whether the file imports numpy or cupynumeric in any form.
    bool importsNumpy() const { return importsModule(QStringLiteral("numpy")); }
    /// Canonical dotted name of an expression naming an imported object, e.g. `la.norm` with
    /// `import numpy.linalg as la` → "numpy.linalg.norm"; `cupynumeric` → "numpy"; a bare
    /// `zeros` after `from numpy import *` → "numpy.zeros"; a name bound at module level to an
    /// imported attribute (`comm = MPI.COMM_WORLD`) → "mpi4py.MPI.COMM_WORLD". Empty when the
    /// expression does not resolve through an import (or the name is shadowed locally).
    QString canonicalName(TSNode expr) const;
    /// Canonical callee of a `call` node: canonicalName(function) for module functions;
    /// "numpy.ndarray.<m>" for a method called on an Array-kind receiver (`a.sum()`);
    /// "<typeName>.<m>" for a method on a known object (`rng.normal()` with
    /// `rng = np.random.default_rng()` → "numpy.random.Generator.normal"). Empty otherwise.
    QString callName(TSNode call) const;
    /// The last component of the callee as written (`np.linalg.norm` → "norm", `f` → "f",
    /// `a.sum` → "sum"); empty for calls of non-name expressions.
    QString calleeLeaf(TSNode call) const;
    /// Positional (non-keyword) argument `i` of a call, or a null node.
    static TSNode argument(TSNode call, int i);
    /// The value of keyword argument `name` of a call, or a null node.
    TSNode keywordArgument(TSNode call, std::string_view name) const;
    /// Number of positional arguments of a call.
    static int positionalCount(TSNode call);

    // ---- Provenance ----------------------------------------------------------------------
    /// Kind of value of an expression in its scope (flow-insensitive per scope: a name is an
    /// Array when some binding in its scope makes it one and none binds it to a string/list).
    ValueKind valueKind(TSNode expr) const;
    /// For ValueKind::Object (and Array: "numpy.ndarray"): the canonical type name.
    QString typeName(TSNode expr) const;
    /// valueKind(expr) == Array.
    bool isArray(TSNode expr) const;
    /// Array or DeviceScalar: the value lives with the array runtime and reading it on the
    /// host forces a synchronisation.
    bool isDeviceValue(TSNode expr) const;
    /// A full reduction of an array to a scalar: `np.max(a)`, `np.linalg.norm(r)`, `a.sum()`,
    /// `np.any(m)` (no `axis=`; with an axis the result is an Array).
    bool isArrayReduction(TSNode expr) const;
    /// A NumPy module reduction called without an axis (`np.max(x)`, `np.linalg.norm(r)`,
    /// `np.allclose(a, b)`), whatever the kind of its argument: with the array runtime
    /// imported as `np`, its result is a device scalar even for an argument of unknown kind.
    bool isNumpyFullReduction(TSNode expr) const;
    /// An element read `a[i]` / `a[i, j]` of an Array with scalar (non-slice, non-array) indices.
    bool isScalarElementRead(TSNode expr) const;
    /// Whether a bare name is bound (assignment, parameter, import, def, loop target, ...) in the
    /// scope chain seen from `at`; false for builtins nobody rebinds.
    bool isNameBound(const QString& name, TSNode at) const;
    /// Kind of a bare name as seen from position `at` (its scope chain).
    ValueKind nameKind(const QString& name, TSNode at) const;

    // ---- Shapes and size classes (semantic/Shapes.h; computed lazily, cached per node) -----
    /// The symbolic shape of an array expression (rank and per-axis extents, see Shape):
    /// constructors, broadcasting, reductions, indexing and slicing, reshape, `.T`, `@`,
    /// stack/concatenate, meshgrid, names bound in the same function, parameters through the
    /// arguments this file passes, returns of this file's functions. Literal lists and tuples
    /// have a 1-D shape too (their length). Shape::unknown() when nothing can be told; never
    /// throws. Not for concurrent use from two threads on one model.
    Shape shapeOf(TSNode expr) const;
    /// The extent an integer expression stands for when it sizes an axis or bounds a range():
    /// `3` (Literal), `n` (Symbol, class from its binding or parameter), `len(x)` and
    /// `x.shape[0]` (the axis of x), `x.ndim` (Small), `len((a, b, c))` (Literal 3),
    /// `self.ncoords()` when that method returns a literal, arithmetic of those.
    Extent extentOf(TSNode intExpr) const;
    /// extentOf(intExpr).size: Small for bookkeeping sizes, Data for runtime/data sizes,
    /// Unknown otherwise (RULES.md, the workload model item 3).
    SizeClass extentClass(TSNode intExpr) const;
    /// shapeOf(expr).sizeClass(): Small for a bookkeeping array (every extent Small, 0-d
    /// included), Data when at least one extent is data-sized, Unknown otherwise.
    SizeClass arraySizeClass(TSNode expr) const;
    /// arraySizeClass(expr) == Small: the scaling rules give it no BLOCKS/REFACTOR finding.
    bool isBookkeepingArray(TSNode expr) const;
    /// What the elements of an array expression are: String for an array built from strings,
    /// with a string dtype, or whose name is compared with string literals in its function;
    /// Object for `dtype=object`; Unknown (numbers as far as anyone knows) otherwise.
    ElementKind elementKind(TSNode expr) const;
    /// elementKind(expr) is String or Object: the array holds no numeric data.
    bool holdsNonNumeric(TSNode expr) const;
    /// Whether a name reads like an array of text: paths, names, labels, keys, types, symbols,
    /// identifiers (`atomnames`, `chainids`, `col_labels`), not a count of them (`n_names`).
    /// elementKind() gives a parameter so named the kind String.
    static bool isTextArrayName(std::string_view name);

    // ---- Loops ---------------------------------------------------------------------------
    const std::vector<LoopInfo>& loops() const { return m_loops; }
    /// The innermost loop of the same function whose per-iteration part contains `n`
    /// (a nested `def` is a boundary); nullptr if none.
    const LoopInfo* enclosingLoop(TSNode n) const;
    /// The LoopInfo of a for/while/comprehension node, or nullptr.
    const LoopInfo* loopOf(TSNode loopNode) const;
    /// Whether `n` runs once per iteration of a loop of this file (enclosingLoop != nullptr).
    bool inLoop(TSNode n) const;
    /// Number of loops of the same function around `n` (0 when not in a loop).
    int loopDepth(TSNode n) const;
    /// Whether `expr` reads none of the loop's variables and none of the names (re)bound
    /// inside the loop (identifiers only; attribute bases count by their root name).
    bool isLoopInvariant(TSNode expr, const LoopInfo& loop) const;
    /// Whether `name` is (re)bound anywhere inside the loop (assignment targets, augmented
    /// assignments, nested loop variables, walrus, with-as) or is one of its `variables`.
    bool boundInLoop(const LoopInfo& loop, std::string_view name) const;
    /// Whether `expr` mentions one of the loop's header variables (directly, or through a
    /// name assigned in the loop from an expression that does, e.g. `k = i + 1`).
    bool usesLoopVariable(TSNode expr, const LoopInfo& loop) const;
    /// How many times `loop` runs and how much work one pass does (include semantic/LoopWork.h).
    /// Computed on first use for the whole file and cached; the reference stays valid while
    /// the model lives.
    const LoopWork& loopWork(const LoopInfo& loop) const;
    /// loopWork(loop).trip without deciding pass work (cheaper; the same answer).
    TripClass tripClass(const LoopInfo& loop) const;
    /// Whether `n` runs once per pass of a loop of this file that runs more than a handful of
    /// times: some loop around it has a trip class other than Small. A call in
    /// `for k in range(3)` or `for name in ("a", "b")` makes its callee no hot path
    /// (RULES.md, the workload model item 4); the same loop inside a data loop does.
    bool inManyPassLoop(TSNode n) const;
    /// Whether `loop` runs a handful of passes: a literal range of at most kFewPassLiteral, or
    /// a Small trip class that no larger literal count decides (the axes of an array, a
    /// literal tuple, a few lags or bands, the items of a bookkeeping array).
    bool fewPasses(const LoopInfo& loop) const;
    /// Whether `loop` walks a collection nothing sizes that holds configured items rather than
    /// data or steps: the calibration standards of `for thru in thrus`, the labels of
    /// `for e in exclude`, the recordings of `for s in signals` handed whole to an FFT. True when
    /// the iterable is a name (or the first name of a `zip`/`enumerate`/`.items()`) whose trip
    /// class is Unknown, the name does not say data items or steps (points, rows, times,
    /// batches, ...; see HotPaths.cpp) and no subscript of the pass indexes with the loop's
    /// variable. Such a loop runs a handful of passes (RULES.md, the workload model items 4-5:
    /// hot code runs once per pass of a loop over steps or data).
    bool overConfiguredItems(const LoopInfo& loop) const;
    /// The largest literal loop count that is a handful of passes (SmallLiteralRange's bound).
    static constexpr int kFewPassLiteral = 8;
    /// Whether `subscript` reads or writes one array element with the variable of the index
    /// loop `loop` (`a[i]`, `out[i, j]`, `m[ijk]` of an `np.ndindex` loop): every index
    /// component is a scalar and one is a Python integer computed from the loop variable.
    bool isElementAccess(TSNode subscript, const LoopInfo& loop) const;

    // ---- Hot paths and regions -----------------------------------------------------------
    /// Locally hot: in a loop that runs more than a handful of passes (inManyPassLoop), or in
    /// a function called from such a loop of this file (or from a locally hot function),
    /// transitively.
    bool isHot(TSNode n) const;
    /// At the boundary: module level or an `if __name__ == "__main__":` block, outside loops.
    bool atBoundary(TSNode n) const;
    /// When `n` is not locally hot but sits in a function: the qualified name of that function,
    /// whose project-wide hotness decides (FindingSink/ApiUse::requiresHotFunction). "" when
    /// `n` is locally hot or at the boundary.
    QString hotCondition(TSNode n) const;
    /// Where `n` stands (RULES.md, the workload model item 5; semantic/ComputePath.h): Test
    /// in a test module or function; the role of its function when the function's name,
    /// class or parameters make it plumbing (`plot_*`, `__repr__`, `read_*`, `demo_*`,
    /// `__init__` not called per pass, a function taking `ax`); else the role of the statement
    /// (a block that ends in `raise`, a statement that calls a reader / writer / plotting
    /// API, argparse); module level and `__main__` outside loops are Setup; else Compute.
    /// Computed on first use for the whole file and cached.
    PathRole pathRole(TSNode n) const;
    /// Whether function `f` is set-up only because of how this file calls it (an `__init__`
    /// not called per pass here, a private helper called only from set-up code): a loop
    /// elsewhere in the project that reaches it puts it back on the compute path.
    bool setupUnlessHot(const FunctionRegion& f) const;
    /// pathRole(n) == PathRole::Compute. Hot (the rules' sense) is this and isHot(n).
    bool onComputePath(TSNode n) const;
    /// pathRole(n) as if `n`'s function were compute code: the role of its statement alone
    /// (an error path, an I/O or plotting call, a validation test, module level). What a
    /// finding in `__init__` has once the constructor turns out to run once per pass.
    PathRole statementRole(TSNode n) const;
    /// Whether `stmt` (an `if_statement`, `elif_clause` or `assert_statement`) is a validation
    /// guard, an input check rather than control flow of the computation: an `assert`; an
    /// `if` / `elif` whose own block ends in `raise` (`if a.ndim != 2: raise ValueError(...)`);
    /// or one whose block only warns (`warnings.warn(...)`, `log.warning(...)`), perhaps
    /// followed by `return`, with no loop, branch, `with` or `try` inside. Outside a loop of its
    /// function such a guard runs once per call: its test is parameter validation, one-time
    /// set-up (RULES.md, the workload model item 5), and pathRole() of the test is Setup.
    /// In a loop it runs every pass and the test stays on the compute path.
    bool isValidationGuard(TSNode stmt) const;
    /// Whether the file is a test module by its module name (`tests.test_io`, `conftest`,
    /// `pkg.io_test`): every line of it has the role Test.
    bool isTestModule() const;
    const std::vector<FunctionRegion>& functions() const { return m_functions; }
    const std::vector<ClassRegion>& classes() const { return m_classes; }
    /// Innermost function containing `n` (a node's own function_definition counts only for
    /// nodes strictly inside it), or nullptr at module level.
    const FunctionRegion* enclosingFunctionRegion(TSNode n) const;
    /// Enclosing function as "func" or "Class.method"; "" at module level.
    QString enclosingFunction(TSNode n) const;
    /// Enclosing class name ("Class") or "".
    QString enclosingClass(TSNode n) const;
    /// The function of this file a call invokes (`f(x)`, a nested `g(x)`, `self.m(x)`,
    /// `Class(x)` → `Class.__init__`) as an index into functions(), or -1.
    int calledFunction(TSNode call) const { return localCallee(call, nullptr); }
    /// The calls of this file (indices into calls()) that invoke function `function` (an index
    /// into functions()), in document order; computed for every function on first use.
    const std::vector<int>& callsTo(int function) const;

    /// Copies functions, call sites, imports and ApiUse records (every resolved numpy call and
    /// ndarray method on an array, with hot flag / requiresHotFunction) into the file result.
    void exportTo(FileResult& out) const;

    /// Whether `name` (last component, e.g. "zeros") is a NumPy module-level function known to
    /// the model (used for star imports).
    static bool isKnownNumpyFunction(const QString& name);
    /// Whether `name` is one the array module goes by when it is passed around as a value:
    /// `np`, `numpy`, `cnp`, `xp` (semantic/ArrayModule.cpp).
    static bool isArrayModuleName(std::string_view name);
    /// Whether `leaf` names an array-API helper that returns the array module of its
    /// arguments (`array_namespace`, `get_namespace`).
    static bool isNamespaceHelper(std::string_view leaf);
    /// The shape (SummaryValue::shape) the project's facts give the result of calling
    /// `callee` (a name as CallSite::callee writes it) when that project function returns an
    /// ndarray; nullptr when no fact says so.
    const QString* projectReturn(const QString& callee) const;

private:
    friend class ShapeEngine;
    /// One binding of a name as the shape engine reads it (a view of Data::Binding).
    struct NameBinding {
        enum class Kind : quint8 { Assign, Augment, ForTarget, Param, Import, Def, Walrus, WithAs };
        Kind kind = Kind::Assign;
        TSNode value{};     ///< assigned value / iterable / default
        TSNode target{};    ///< the bound identifier (or `self.x` attribute)
        int position = -1;  ///< index in a tuple target; -1 plain; -2 nested
        int argIndex = -1;  ///< Param: positional index (-1 keyword-only / splat)
        int index = -1;     ///< binding index (for parameterArguments())
        bool splat = false; ///< Param: `*args` / `**kwargs`
    };
    /// The bindings (document order) of the name `name` seen from `at` (its scope chain), or of
    /// the attribute `self.<name>` of the class around `at` when `selfAttribute`; at most `max`
    /// are written to `out`, the number found is returned.
    int nameBindings(std::string_view name, TSNode at, bool selfAttribute, NameBinding* out,
                     int max) const;
    /// The slot of the attribute `self.<name>` bound by a base class of class `cls` (an index
    /// in classes()) defined in this file, searched depth first up to four levels; -1 if none.
    int inheritedAttributeSlot(int cls, std::string_view name, int depth) const;
    /// For a Param binding: the arguments every call of this file passes (parameterArguments).
    const std::vector<TSNode>* bindingArguments(int bindingIndex) const;
    struct Data; ///< scopes, bindings and caches (SemanticModel.cpp)
    void index();
    void buildImports();
    /// Which of the array module's names the file uses as a module and never as anything
    /// else, bare (`np.zeros`) or as an attribute (`self.xp.zeros`); whether it calls an
    /// array-API namespace helper (semantic/ArrayModule.cpp).
    void findArrayModuleNames();
    /// "numpy" when binding `bi` binds the array module by name (a parameter or a value of
    /// unknown kind named like it and used as it, an array-API namespace, a module passed
    /// by every call), else "". `computed` and `alias`: what the binding evaluated to.
    QString moduleBinding(int bi, ValueKind computed, const QString& alias) const;
    /// Whether the name of facts slot `slot` is read as a module (`lib.zeros`) and used as
    /// nothing else in its scope (findArrayModuleNames).
    bool readOnlyAsModule(int slot) const;
    /// Whether `X.<name>` is the array module wherever the file reads it (findArrayModuleNames).
    bool moduleAttribute(std::string_view name) const;
    /// The per-function summaries and module re-exports (semantic/Summary.cpp); `calls`: the
    /// calls exportTo() found that may reach a project function, with their callee names.
    void exportSummaries(FileResult& out,
                         const std::vector<std::pair<TSNode, QString>>& calls) const;
    /// The callee of `call` as CallSite::callee names it (a local def, an import, a method of
    /// a known class), or "" (`caller`: the function around the call, or nullptr).
    QString projectCallee(TSNode call, const FunctionRegion* caller) const;
    void buildScopes();
    void buildLoops();
    void buildHotness();
    /// The function of this file a call invokes (`f(x)`, nested `g(x)`, `self.m(x)`,
    /// `Class(x)` → `Class.__init__`), or -1. `bound` (optional) tells whether the call passes
    /// the instance implicitly (`self.m(x)`, `Class(x)`).
    int localCallee(TSNode call, bool* bound) const;
    /// Evidence, per facts slot, that an unannotated parameter holds an array (see
    /// inferParameterKind); computed once before the provenance passes.
    void collectParameterHints();
    /// Kind of a parameter binding that neither annotation, default nor `self` decides.
    ValueKind inferParameterKind(int binding) const;
    /// Whether the docstring of parameter binding `binding`'s function documents it as an
    /// ndarray (documentedArrayParameters); read once per function.
    bool documentedAsArray(int binding) const;
    /// Whether parameter binding `bi` may take a kind from the project's call sites: a
    /// parameter of a module-level function without a decorator that changes the arguments,
    /// not named like a shape or axis, not type-tested or used like another container.
    bool openToProjectFact(int bi) const;
    /// For parameter binding `bi` of function `fn`: the argument every call of this file
    /// passes for it (recursive calls aside); nullptr when some call leaves it to its default
    /// or hides it behind a splat, or there is no call. Cached: the same for every pass.
    const std::vector<TSNode>* parameterArguments(int bi, int fn) const;
    /// Whether function `fn` is only ever called in this file, never used as a value. A
    /// mention in a comment or a string counts against it unless `codeOnly`.
    bool onlyCalled(int fn, bool codeOnly = false) const;
    /// Whether `call` calls a generator function of this file that re-yields the index tuples
    /// of `np.ndindex` (`def each_index(shape): for ix in np.ndindex(*shape): yield ix`): a
    /// loop over it walks every index of a shape (LoopSource::NdIndex).
    bool yieldsNdIndex(TSNode call) const;
    int scopeIndexAt(uint32_t byte) const;
    /// argument() / positionalCount() through a per-call cache (same answers).
    TSNode arg(TSNode call, int i) const;
    int argCount(TSNode call) const;
    /// The cached positional argument nodes of a call (valid until the next call of this);
    /// `count` receives positionalCount(call).
    std::span<const TSNode> positionalArgs(TSNode call, int* count) const;
    /// scopeIndexAt() by search over the scopes (builds the step table scopeIndexAt reads).
    int scopeSearch(uint32_t byte) const;
    int functionIndexAt(uint32_t start, uint32_t end) const;
    ValueKind kindOf(TSNode expr, int depth, QString* type) const;
    ValueKind numpyCallKind(TSNode call, const QString& leaf, int depth, QString* type) const;
    ValueKind arrayMethodKind(TSNode call, const QString& method) const;
    /// `np.searchsorted(a, v)` / `a.searchsorted(v)`: a device scalar for a scalar `v`.
    ValueKind searchsortedKind(TSNode v, int depth) const;
    ValueKind randomDrawKind(TSNode call, const QString& method) const;
    ValueKind lookupName(std::string_view name, int scope, QString* type) const;
    QString aliasOf(std::string_view name, int scope) const;
    QString resolveCallName(TSNode call) const;
    QString resolveCanonicalName(TSNode expr) const;
    quint16 lookupBits(std::string_view name, int scope) const;
    bool boundLocally(std::string_view name, int scope) const;

    const SyntaxTree& m_tree;
    QString m_module;
    bool m_isInit = false;
    std::unique_ptr<Data> d;
    mutable std::unique_ptr<ShapeEngine> m_shapes; ///< created on the first shape query

    // Views of the tree's node lists (SyntaxTree::nodes), filled by its single walk.
    const std::vector<TSNode>&m_calls, &m_subscripts, &m_attributes, &m_assignments, &m_augmented,
        &m_comprehensions, &m_fors, &m_whiles, &m_ifs, &m_asserts, &m_ternaries, &m_functionDefs,
        &m_classDefs, &m_importNodes, &m_decorators, &m_binaryOps, &m_comparisons, &m_keywords,
        &m_slices, &m_interpolations, &m_returns, &m_lambdas;
    std::vector<ImportBinding> m_importBindings;
    std::vector<FunctionRegion> m_functions;
    std::vector<ClassRegion> m_classes;
    std::vector<LoopInfo> m_loops;
    mutable std::unique_ptr<LoopWorkEngine> m_loopWork; ///< created on first loopWork()
    mutable std::unique_ptr<ComputePathEngine> m_paths; ///< created on first pathRole()
};

} // namespace cnready
