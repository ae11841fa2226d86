#pragma once
// Read-only source view: line-number gutter with finding markers, KSyntaxHighlighting Python
// highlighting (theme follows the palette), findings drawn as extra selections (line background
// plus underline, coloured by category) and tooltips with code, title, message and recipe.
//
// Each file (or message) on display is its own QTextDocument, which owns its highlighter; showing
// another one swaps the document and deletes the old one with its highlighter. The text of a
// document on display is never replaced in place: KSyntaxHighlighting queues re-highlights of
// the next block (a QTextBlock, by value) whenever a line's end state changes, and a queued block
// of text that was replaced in place points into freed memory when it is delivered (issue 15's
// crash). Deleting the highlighter with its document drops what it had queued.

#include "model/Finding.h"
#include "parse/Notebook.h"

#include <QPlainTextEdit>

#include <KSyntaxHighlighting/Theme>

#include <QPointer>

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
    /// For a notebook, `text` is its joined code and `cells` says where each line comes from:
    /// the gutter reads "cell:line" as the findings' locations do, and a rule separates cells.
    void showFile(const QString& relativePath, const QString& text, const QList<Finding>& findings,
                  const NotebookMap& cells = {});
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
    /// The gutter's label of `line` (1-based line of the text): the line number, or in a
    /// notebook "cell:line" within the cell ("5:3").
    QString lineLabel(int line) const;
    /// Whether a cell separator is drawn above `line` (a notebook cell's first line).
    bool startsCell(int line) const;
    /// Name of the highlighting theme in use ("GitHub Light", "Breeze Dark", ...).
    QString themeName() const;

    // Gutter, called by the line-number area.
    int gutterWidth() const;
    void paintGutter(QPaintEvent* event);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    /// Puts `text` on display in a new document (Python-highlighted when `python`); the document
    /// shown before is deleted with its highlighter.
    void replaceDocument(const QString& text, bool python);
    void applyTheme();
    void updateSelections();
    void updateGutterWidth();
    void updateGutter(const QRect& rect, int dy);
    QList<const Finding*> findingsOnLine(int line) const;

    QWidget* m_gutter = nullptr;
    /// The highlighter of the document on display (a child of it); null for a message.
    QPointer<KSyntaxHighlighting::SyntaxHighlighter> m_highlighter;
    KSyntaxHighlighting::Theme m_theme; ///< follows the palette
    QString m_path;
    QList<Finding> m_findings;
    NotebookMap m_cells; ///< empty unless a notebook is on display
};

} // namespace cnready::ui
