#pragma once
// The rendered report preview. The Markdown report is turned into HTML by cmark-gfm (GFM
// tables) and into a laid-out QTextDocument on a worker thread; the GUI thread only paints the
// visible part. QTextBrowser is not used on purpose: QTextEdit::setDocument() and every width
// change call QTextDocument::setPageSize(), which lays the whole document out again on the
// GUI thread (1.7-2.4 s for a 356 KB report with 1,800 table rows). Here a width change asks
// the worker for a new layout and keeps painting the old one until it comes back.
//
// Being a plain scroll area, it does what a text browser would itself: mouse and keyboard
// selection, Copy (Ctrl+C, context menu), Select All, and links on source locations
// (ReportLinks.h) that open the file at its line.

#include <QAbstractScrollArea>
#include <QFutureWatcher>
#include <QPointer>
#include <QTextCursor>
#include <QTimer>

#include <functional>

class QTextDocument;
class QThreadPool;

namespace cnready::ui {

/// Markdown (CommonMark with GFM tables) to HTML, with cmark-gfm. Thread-safe.
QByteArray markdownToHtml(const QByteArray& markdown);

/// Shows a report as rendered rich text (see the file comment).
class ReportView : public QAbstractScrollArea {
    Q_OBJECT
public:
    /// Builds the Markdown to show (called on a worker thread of `pool`).
    using Source = std::function<QByteArray()>;

    explicit ReportView(QThreadPool* pool, QWidget* parent = nullptr);
    ~ReportView() override;

    /// Shows the report `source` produces: says "Building the preview…" until the worker has
    /// rendered and laid it out. A later call drops the render of an earlier one.
    void setSource(Source source);
    /// Shows a short message (Markdown) at once, without a worker.
    void showMessage(const QString& markdown);
    /// True while a render for the current source is under way.
    bool isBuilding() const { return m_building; }
    /// The document on screen (nullptr before the first render).
    const QTextDocument* document() const { return m_doc; }
    /// The text on screen, without markup.
    QString toPlainText() const;
    /// The selected text, paragraphs and table cells separated by new lines.
    QString selectedText() const;
    void selectAll();
    /// Puts the selection on the clipboard.
    void copy() const;
    /// The link under `pos` (viewport coordinates), "" when none.
    QString linkAt(const QPoint& pos) const;

signals:
    /// A rendered document was put on screen.
    void rendered();
    /// A source location was clicked: `line` within cell `cell` of a notebook, else of the file.
    void sourceLinkActivated(const QString& path, int cell, int line);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    void changeEvent(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    /// The document position under `pos` (viewport coordinates), -1 without a document.
    int positionAt(const QPoint& pos) const;
    void startRender();
    void install(QTextDocument* doc, int generation);
    void updateScrollBars();

    QThreadPool* m_pool;
    Source m_source;
    QTextDocument* m_doc = nullptr;
    int m_generation = 0;
    int m_laidOutWidth = 0;
    bool m_building = false;
    QTimer m_relayout; ///< debounces width changes
    QList<QFutureWatcher<QTextDocument*>*> m_pending;
    QTextCursor m_selection; ///< on m_doc; reset with it
    QString m_pressedLink;   ///< a press on a link opens it on release, unless it dragged
    bool m_selecting = false;
};

} // namespace cnready::ui
