#pragma once
// Read-only source view: line-number gutter with finding markers, KSyntaxHighlighting Python
// highlighting (theme follows the palette), findings drawn as extra selections (line background
// plus underline, coloured by category) and tooltips with code, title, message and recipe.

#include "model/Finding.h"

#include <QPlainTextEdit>

namespace KSyntaxHighlighting {
class SyntaxHighlighter;
}

namespace cnready::ui {

class CodeView : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit CodeView(QWidget* parent = nullptr);
    ~CodeView() override;

    /// Shows `text` as the file `relativePath` with its findings. Keeps the cursor at line 1.
    void showFile(const QString& relativePath, const QString& text, const QList<Finding>& findings);
    /// Replaces the findings of the file on display (e.g. after the merge).
    void setFindings(const QList<Finding>& findings);
    /// Shows a placeholder message instead of a file.
    void showMessage(const QString& message);
    /// Moves the cursor to the start of `line` (1-based), centres it and takes the focus.
    void goToLine(int line);

    QString currentPath() const { return m_path; }
    /// 1-based line of the text cursor.
    int currentLine() const { return textCursor().blockNumber() + 1; }
    const QList<Finding>& findings() const { return m_findings; }
    /// The tooltip text (HTML) for one line, or "" when no finding covers it.
    QString toolTipForLine(int line) const;
    /// Name of the highlighting theme in use ("GitHub Light", "Breeze Dark", ...).
    QString themeName() const;

    // Gutter, called by the line-number area.
    int gutterWidth() const;
    void paintGutter(QPaintEvent* event);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool viewportEvent(QEvent* event) override;

private:
    void applyTheme();
    void updateSelections();
    void updateGutterWidth();
    void updateGutter(const QRect& rect, int dy);
    QList<const Finding*> findingsOnLine(int line) const;

    QWidget* m_gutter = nullptr;
    KSyntaxHighlighting::SyntaxHighlighter* m_highlighter = nullptr;
    QString m_path;
    QList<Finding> m_findings;
};

} // namespace cnready::ui
