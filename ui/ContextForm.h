#pragma once
// The context form: hot-path array size, GPUs, nodes, GPU model, compute capability, CUDA, OS
// and compute pattern (the command line's context options). Empty fields mean "infer from the
// code or use the default"; each field says which it is, and a value restored from the last
// session for this project says that instead of "given". A value that cannot be read (a size
// of "banana") is said to be invalid beside the field and is not used: the assessment then
// treats the field as empty until it is corrected. Every change emits inputChanged(): the
// window re-runs only assess(), never the analysis.

#include "assess/Assessment.h"

#include <QSet>
#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace cnready::ui {

/// The studio's context form (see the file comment).
class ContextForm : public QWidget {
    Q_OBJECT
public:
    /// Where the values put into the form by setInput() come from.
    enum class Origin {
        Typed,       ///< entered in this session (or set by a caller): labelled "given"
        LastSession, ///< restored from this project's settings: labelled as carried over
    };

    explicit ContextForm(QWidget* parent = nullptr);

    /// What the user stated; unset and invalid fields are left for the assessment to infer
    /// or default.
    ContextInput input() const;
    /// Fills the fields without emitting inputChanged(). With Origin::LastSession every field
    /// set here is labelled "from your last session for this project" until it is edited.
    void setInput(const ContextInput& input, Origin origin = Origin::Typed);
    /// Shows the resolved context: placeholders carry the inferred/default values, and each
    /// field's note says where its value comes from.
    void setContext(const Context& context);
    /// Drops the resolved context of the previous project (placeholders and notes) while a new
    /// one is analysed; the values the user entered stay.
    void clearContext(const QString& note);
    /// The fields (ContextValue keys: "elements", "gpus", "nodes", "gpu", "cc", "cuda", "os",
    /// "pattern") whose value came from the last session and was not edited since.
    QSet<QString> carriedOver() const { return m_carried; }
    /// True when a text field holds something that is not a valid value (it is not used).
    bool hasInvalidField() const { return !m_sizeValid || !m_ccValid || !m_cudaValid; }

    /// Parses an element count as the command line does: "16000000", "16_000_000",
    /// "16,000,000", "16M", "1.5e9", "2G". nullopt when invalid.
    static std::optional<qint64> parseCount(const QString& text);
    /// Parses a compute capability as `--compute-capability` does: X.Y with a major version
    /// from 1 to 12. nullopt when invalid.
    static std::optional<double> parseComputeCapability(const QString& text);
    /// True for a CUDA version as `--cuda` takes it: "12", "12.4", "12.4.1".
    static bool isCudaVersion(const QString& text);

signals:
    void inputChanged(const cnready::ContextInput& input);

private:
    void emitChanged();
    void edited(const QString& key);
    void setNote(QLabel* note, const ContextValue* row, bool given, const QString& key);
    /// Validates a text field after an edit: red border and a note in words when invalid.
    void checkText(QLineEdit* edit, bool valid, bool* flag, QLabel* note, const QString& what);

    QLineEdit* m_size;
    QComboBox* m_sizeScope;
    QSpinBox* m_gpus;
    QSpinBox* m_nodes;
    QComboBox* m_gpuModel;
    QLineEdit* m_cc;
    QLineEdit* m_cuda;
    QComboBox* m_os;
    QComboBox* m_pattern;
    QLabel* m_sizeNote;
    QLabel* m_gpusNote;
    QLabel* m_nodesNote;
    QLabel* m_gpuNote;
    QLabel* m_ccNote;
    QLabel* m_cudaNote;
    QLabel* m_osNote;
    QLabel* m_patternNote;
    QSet<QString> m_carried;
    bool m_sizeValid = true;
    bool m_ccValid = true;
    bool m_cudaValid = true;
};

} // namespace cnready::ui
