#pragma once
// The context form: hot-path array size, GPUs, nodes, GPU model and compute pattern. Empty
// fields mean "infer from the code or use the default"; each field says which it is. Every
// change emits inputChanged() at once: the window re-runs only assess(), never the analysis.

#include "assess/Assessment.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace cnready::ui {

class ContextForm : public QWidget {
    Q_OBJECT
public:
    explicit ContextForm(QWidget* parent = nullptr);

    /// What the user stated; unset fields are left for the assessment to infer or default.
    ContextInput input() const;
    /// Fills the fields without emitting inputChanged().
    void setInput(const ContextInput& input);
    /// Shows the resolved context: placeholders carry the inferred/default values, and each
    /// field's note says where its value comes from.
    void setContext(const Context& context);

    /// Parses an element count as the command line does: "16000000", "16_000_000",
    /// "16,000,000", "16M", "1.5e9", "2G". nullopt when invalid.
    static std::optional<qint64> parseCount(const QString& text);

signals:
    void inputChanged(const cnready::ContextInput& input);

private:
    void emitChanged();
    void setNote(QLabel* note, const ContextValue* row, bool given);

    QLineEdit* m_size;
    QComboBox* m_sizeScope;
    QSpinBox* m_gpus;
    QSpinBox* m_nodes;
    QComboBox* m_gpuModel;
    QComboBox* m_pattern;
    QLabel* m_sizeNote;
    QLabel* m_gpusNote;
    QLabel* m_nodesNote;
    QLabel* m_gpuNote;
    QLabel* m_patternNote;
    bool m_sizeValid = true;
};

} // namespace cnready::ui
