#include "CodeView.h"

#include "FindingsModel.h"
#include "SyntaxRepository.h"
#include "Theme.h"
#include "rules/Recipes.h"

#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>
#include <QFontDatabase>
#include <QHelpEvent>
#include <QPainter>
#include <QPlainTextDocumentLayout>
#include <QScrollBar>
#include <QTextBlock>
#include <QToolTip>

namespace cnready::ui {

namespace {
class Gutter : public QWidget {
public:
    explicit Gutter(CodeView* view) : QWidget(view), m_view(view) { setMouseTracking(true); }
    QSize sizeHint() const override { return {m_view->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent* e) override { m_view->paintGutter(e); }
    bool event(QEvent* e) override {
        if (e->type() == QEvent::ToolTip) {
            auto* he = static_cast<QHelpEvent*>(e);
            const QTextCursor c = m_view->cursorForPosition(QPoint(0, he->pos().y()));
            const QString tip = m_view->toolTipForLine(c.blockNumber() + 1);
            if (tip.isEmpty())
                QToolTip::hideText();
            else
                QToolTip::showText(he->globalPos(), tip, this);
            return true;
        }
        return QWidget::event(e);
    }

private:
    CodeView* m_view;
};

constexpr int kMarkerWidth = 14; // pixels reserved for the finding markers
} // namespace

CodeView::CodeView(QWidget* parent) : QPlainTextEdit(parent) {
    setReadOnly(true);
    // Keyboard selection keeps a visible cursor in a read-only view, so a jump shows its line.
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_gutter = new Gutter(this);
    applyTheme();
    replaceDocument(QString(), false);
    connect(this, &QPlainTextEdit::blockCountChanged, this, &CodeView::updateGutterWidth);
    connect(this, &QPlainTextEdit::updateRequest, this, &CodeView::updateGutter);
    connect(this, &QPlainTextEdit::cursorPositionChanged, this, &CodeView::updateSelections);
    updateGutterWidth();
}

CodeView::~CodeView() = default;

void CodeView::applyTheme() {
    m_theme = syntaxRepository().defaultTheme(isDarkPalette(palette())
                                                  ? KSyntaxHighlighting::Repository::DarkTheme
                                                  : KSyntaxHighlighting::Repository::LightTheme);
    if (m_highlighter) {
        // Same text, same definition: every line ends in the state it had, so the highlighter
        // queues nothing; only the formats change.
        m_highlighter->setTheme(m_theme);
        m_highlighter->rehighlight();
    }
    updateSelections();
}

QString CodeView::themeName() const {
    return m_theme.name();
}

void CodeView::replaceDocument(const QString& text, bool python) {
    auto* doc = new QTextDocument(this);
    doc->setDocumentLayout(new QPlainTextDocumentLayout(doc));
    doc->setDefaultFont(font());
    KSyntaxHighlighting::SyntaxHighlighter* highlighter = nullptr;
    if (python) {
        // Definition and theme before the text: each line is highlighted once, as it arrives.
        highlighter = new KSyntaxHighlighting::SyntaxHighlighter(doc);
        highlighter->setTheme(m_theme);
        highlighter->setDefinition(syntaxRepository().definitionForName(QStringLiteral("Python")));
    }
    doc->setPlainText(text);
    // The editor's own first document belongs to it (it may delete it in setDocument).
    const QPointer<QTextDocument> old = document();
    setDocument(doc);
    m_highlighter = highlighter;
    if (old && old != doc && old->parent() == this)
        delete old; // with its highlighter and whatever that still had queued for it
}

void CodeView::showFile(const QString& relativePath, const QString& text,
                        const QList<Finding>& findings, const NotebookMap& cells) {
    m_path = relativePath;
    m_findings = findings;
    m_cells = cells;
    replaceDocument(text, true);
    moveCursor(QTextCursor::Start);
    updateSelections();
    updateGutterWidth();
    m_gutter->update();
}

void CodeView::setFindings(const QList<Finding>& findings) {
    m_findings = findings;
    updateSelections();
    m_gutter->update();
}

void CodeView::showMessage(const QString& message) {
    m_path.clear();
    m_findings.clear();
    m_cells = {};
    replaceDocument(message, false);
    updateSelections();
    updateGutterWidth();
    m_gutter->update();
}

void CodeView::goToLine(int line) {
    const QTextBlock block = document()->findBlockByNumber(qMax(0, line - 1));
    if (!block.isValid())
        return;
    QTextCursor c(block);
    setTextCursor(c);
    centerCursor();
    setFocus(Qt::OtherFocusReason);
}

QList<const Finding*> CodeView::findingsOnLine(int line) const {
    QList<const Finding*> first, inside;
    for (const Finding& f : m_findings) {
        const int end = qMax(f.range.line, f.range.endLine);
        if (f.range.line == line)
            first.append(&f);
        else if (line > f.range.line && line <= end)
            inside.append(&f);
    }
    return first + inside;
}

QString CodeView::toolTipForLine(int line) const {
    const QList<const Finding*> list = findingsOnLine(line);
    QStringList parts;
    for (const Finding* f : list) {
        QString s =
            QStringLiteral("<p style='white-space:pre-wrap'><b><span style='color:%1'>%2 "
                           "%3</span></b> — %4<br>%5")
                .arg(categoryColor(f->category, palette()).name(), f->code,
                     categoryLabel(f->category), FindingsModel::ruleTitle(f->code).toHtmlEscaped(),
                     FindingsModel::htmlMessage(f->message));
        if (f->range.endLine > f->range.line)
            s += QStringLiteral("<br><i>%1</i>")
                     .arg(tr("lines %1–%2")
                              .arg(f->range.displayLine())
                              .arg(f->range.displayEndLine()));
        if (const Recipe* r = findRecipe(FindingsModel::findingRecipe(*f)))
            s += QStringLiteral("<br><b>%1 %2:</b> %3")
                     .arg(tr("Recipe"), r->anchor.toHtmlEscaped(),
                          (r->title + QStringLiteral(". ") + r->summary).toHtmlEscaped());
        s += QStringLiteral("</p>");
        parts << s;
        if (parts.size() == 6 && list.size() > 6) {
            parts << tr("… and %1 more").arg(list.size() - 6);
            break;
        }
    }
    return parts.join(QString());
}

void CodeView::updateSelections() {
    QList<QTextEdit::ExtraSelection> sels;
    // Current line first, so finding backgrounds stay visible on top of it.
    {
        QTextEdit::ExtraSelection cur;
        QColor c = palette().color(QPalette::Highlight);
        c.setAlpha(35);
        cur.format.setBackground(c);
        cur.format.setProperty(QTextFormat::FullWidthSelection, true);
        cur.cursor = textCursor();
        cur.cursor.clearSelection();
        sels.append(cur);
    }
    QTextDocument* doc = document();
    for (const Finding& f : m_findings) {
        const QTextBlock first = doc->findBlockByNumber(f.range.line - 1);
        if (!first.isValid())
            continue;
        // Line background on the first line of the finding.
        QTextEdit::ExtraSelection bg;
        bg.format.setBackground(categoryBackground(f.category, palette()));
        bg.format.setProperty(QTextFormat::FullWidthSelection, true);
        bg.cursor = QTextCursor(first);
        sels.append(bg);
        // Underline of the exact span (on its first line only: regions can be whole functions).
        QTextEdit::ExtraSelection ul;
        ul.format.setUnderlineColor(categoryColor(f.category, palette()));
        ul.format.setUnderlineStyle(f.category == Category::Blocks ||
                                            f.category == Category::Refactor
                                        ? QTextCharFormat::WaveUnderline
                                        : QTextCharFormat::SingleUnderline);
        const int len = int(first.text().size());
        const int start = qBound(0, f.range.column - 1, len);
        int end = len;
        if (f.range.endLine <= f.range.line && f.range.endColumn > f.range.column)
            end = qBound(start, f.range.endColumn, len);
        if (end <= start) {
            // Underline the line's text without its indentation.
            const QString t = first.text();
            int s = 0;
            while (s < t.size() && t.at(s).isSpace())
                ++s;
            ul.cursor = QTextCursor(first);
            ul.cursor.setPosition(first.position() + s);
            ul.cursor.setPosition(first.position() + len, QTextCursor::KeepAnchor);
        } else {
            ul.cursor = QTextCursor(first);
            ul.cursor.setPosition(first.position() + start);
            ul.cursor.setPosition(first.position() + end, QTextCursor::KeepAnchor);
        }
        sels.append(ul);
    }
    setExtraSelections(sels);
}

QString CodeView::lineLabel(int line) const {
    if (m_cells.isEmpty())
        return QString::number(line);
    const NotebookLine origin = m_cells.at(line);
    return origin.cell > 0 ? QStringLiteral("%1:%2").arg(origin.cell).arg(origin.cellLine)
                           : QString();
}

bool CodeView::startsCell(int line) const {
    return !m_cells.isEmpty() && m_cells.at(line).cellLine == 1;
}

int CodeView::gutterWidth() const {
    int chars = QString::number(qMax(1, blockCount())).size();
    if (!m_cells.isEmpty()) {
        // "cell:line": the most cells and the longest cell bound the label.
        int cells = 0, lines = 0;
        for (const NotebookLine& l : m_cells.lines) {
            cells = qMax(cells, l.cell);
            lines = qMax(lines, l.cellLine);
        }
        chars = int(QString::number(cells).size() + 1 + QString::number(lines).size());
    }
    return 8 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * qMax(3, chars) + kMarkerWidth;
}

void CodeView::paintEvent(QPaintEvent* event) {
    QPlainTextEdit::paintEvent(event);
    if (m_cells.isEmpty())
        return;
    // A rule above each cell's first line: the joined code reads as the notebook's cells.
    QPainter p(viewport());
    QColor c = palette().color(QPalette::PlaceholderText);
    c.setAlpha(140);
    p.setPen(QPen(c, 1, Qt::DashLine));
    const QPointF offset = contentOffset();
    for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
        const QRectF r = blockBoundingGeometry(block).translated(offset);
        if (r.top() > event->rect().bottom())
            break;
        if (block.blockNumber() > 0 && startsCell(block.blockNumber() + 1))
            p.drawLine(QPointF(0, r.top() + 0.5), QPointF(viewport()->width(), r.top() + 0.5));
    }
}

void CodeView::updateGutterWidth() {
    setViewportMargins(gutterWidth(), 0, 0, 0);
}

void CodeView::updateGutter(const QRect& rect, int dy) {
    if (dy)
        m_gutter->scroll(0, dy);
    else
        m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
    if (rect.contains(viewport()->rect()))
        updateGutterWidth();
}

void CodeView::resizeEvent(QResizeEvent* event) {
    QPlainTextEdit::resizeEvent(event);
    const QRect cr = contentsRect();
    m_gutter->setGeometry(QRect(cr.left(), cr.top(), gutterWidth(), cr.height()));
}

void CodeView::changeEvent(QEvent* event) {
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange)
        applyTheme();
    if (event->type() == QEvent::FontChange) {
        document()->setDefaultFont(font());
        updateGutterWidth();
    }
}

bool CodeView::viewportEvent(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(event);
        const QString tip = toolTipForLine(cursorForPosition(he->pos()).blockNumber() + 1);
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(he->globalPos(), tip, viewport());
        return true;
    }
    return QPlainTextEdit::viewportEvent(event);
}

void CodeView::paintGutter(QPaintEvent* event) {
    QPainter p(m_gutter);
    const QPalette pal = palette();
    QColor bg = pal.color(QPalette::Window);
    p.fillRect(event->rect(), bg);
    // Worst category per line: a dot on a finding's first line, a thin bar over its span.
    QHash<int, int> dotSeverity, barSeverity;
    for (const Finding& f : m_findings) {
        const int sev = categorySeverity(f.category);
        if (sev >= dotSeverity.value(f.range.line, -1))
            dotSeverity[f.range.line] = sev;
        for (int l = f.range.line + 1; l <= f.range.endLine && l - f.range.line < 100000; ++l)
            if (sev >= barSeverity.value(l, -1))
                barSeverity[l] = sev;
    }
    auto categoryOfSeverity = [](int sev) {
        for (Category c : {Category::Scales, Category::Info, Category::Refactor, Category::Blocks})
            if (categorySeverity(c) == sev)
                return c;
        return Category::Info;
    };
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    const int lineHeight = fontMetrics().height();
    const int numberRight = m_gutter->width() - kMarkerWidth - 2;
    const int current = textCursor().blockNumber();
    p.setRenderHint(QPainter::Antialiasing);
    while (block.isValid() && top <= event->rect().bottom()) {
        const int h = qRound(blockBoundingRect(block).height());
        if (block.isVisible() && top + h >= event->rect().top()) {
            const int line = block.blockNumber() + 1;
            QColor fg = pal.color(QPalette::PlaceholderText);
            QFont f = font();
            if (block.blockNumber() == current) {
                fg = pal.color(QPalette::Text);
                f.setBold(true);
            }
            p.setFont(f);
            p.setPen(fg);
            p.drawText(0, top, numberRight, lineHeight, Qt::AlignRight | Qt::AlignVCenter,
                       lineLabel(line));
            const int markerX = m_gutter->width() - kMarkerWidth;
            if (barSeverity.contains(line)) {
                QColor c = categoryColor(categoryOfSeverity(barSeverity[line]), pal);
                c.setAlpha(110);
                p.fillRect(QRect(markerX + kMarkerWidth / 2 - 1, top, 3, h), c);
            }
            if (dotSeverity.contains(line)) {
                const int d = qMin(kMarkerWidth - 4, lineHeight - 4);
                p.setPen(Qt::NoPen);
                p.setBrush(categoryColor(categoryOfSeverity(dotSeverity[line]), pal));
                p.drawEllipse(
                    QRectF(markerX + (kMarkerWidth - d) / 2.0, top + (h - d) / 2.0, d, d));
            }
        }
        block = block.next();
        top += h;
    }
}

} // namespace cnready::ui
