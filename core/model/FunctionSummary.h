#pragma once
// Per-function summaries: what one file's pass tells the project about each of its functions
// (parameters, what each call to another function passes, what a return yields), and the
// facts the project solves from them for one file (core/analysis/ProjectFacts.cpp). Plain
// values; a summary names other functions as its own file writes them (CallSite::callee).

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>

#include <utility>

namespace cnready {

/// What an argument passed, or a value returned, is as its own file sees it.
struct SummaryValue {
    enum class Kind : quint8 {
        Unknown,    ///< nothing the file can tell
        Array,      ///< an ndarray
        Module,     ///< the array module itself (`numpy`, `np`, a module parameter)
        Other,      ///< another known kind (number, string, list, None, an object)
        Parameter,  ///< the enclosing function's parameter `parameter`, passed on unchanged
        CallResult, ///< what the call of `callee` returns (a function of the project, maybe)
    };
    Kind kind = Kind::Unknown;
    qint16 parameter = -1; ///< Parameter: index into FunctionSummary::parameters
    QString callee;        ///< CallResult: the callee as the file names it
    /// Array returns: Shape::toSummary(), or "=k" (the shape of the argument at position k);
    /// empty when unknown. Positions and parameter references count the arguments a call
    /// writes (a method's `self` not included).
    QString shape;
    friend bool operator==(const SummaryValue&, const SummaryValue&) = default;
};

/// One parameter of a summarised function.
struct SummaryParameter {
    enum class Use : quint8 {
        Closed, ///< decided by its own file, or not open to the project's facts
        Open,   ///< unknown in its file; the project's call sites may decide it
        Array,  ///< an ndarray in its own file
        Module, ///< the array module in its own file
    };
    QString name;
    qint16 position = -1; ///< among the positional parameters (self included); -1 keyword-only
    Use use = Use::Closed;
    friend bool operator==(const SummaryParameter&, const SummaryParameter&) = default;
};

/// A call to a function that may be the project's, with what each argument is.
struct SummaryCall {
    QString callee;     ///< as CallSite::callee
    bool splat = false; ///< `*args` / `**kwargs` among the arguments: positions unknown
    QList<SummaryValue> positional;
    QList<std::pair<QString, SummaryValue>> keywords;
    friend bool operator==(const SummaryCall&, const SummaryCall&) = default;
};

/// What one function (or a module's top-level code, with an empty qualifiedName) does with
/// arrays, as far as its own file can tell.
struct FunctionSummary {
    QString qualifiedName; ///< FunctionInfo::qualifiedName; "" for module-level code
    QList<SummaryParameter> parameters;
    SummaryValue returns; ///< Unknown when it returns nothing the file can name
    QList<SummaryCall> calls;
    friend bool operator==(const FunctionSummary&, const FunctionSummary&) = default;
};

/// The facts the project's summaries give one file (SemanticModel's constructor reads them).
struct FileFacts {
    /// Parameters the file leaves unknown that every call of the project passes an ndarray
    /// for, as SemanticModel::arrayParameterKey() keys.
    QSet<QString> arrayParameters;
    /// Parameters every call passes the array module for (same keys).
    QSet<QString> moduleParameters;
    /// Project functions this file calls that return an ndarray, by the callee name the file
    /// writes (CallSite::callee), with the shape as SummaryValue::shape.
    QHash<QString, QString> arrayReturns;
    bool isEmpty() const {
        return arrayParameters.isEmpty() && moduleParameters.isEmpty() && arrayReturns.isEmpty();
    }
    friend bool operator==(const FileFacts&, const FileFacts&) = default;
};

} // namespace cnready
