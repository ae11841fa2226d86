#include "semantic/Literals.h"

#include <QString>

#include <algorithm>

namespace cnready {

std::optional<qint64> integerLiteralValue(std::string_view text) {
    // Plain decimal literals, the common case, without the QString round trip: the value
    // toLongLong(&ok, 0) gives (no leading zero, which base 0 reads as octal; at most 18
    // digits, so no overflow).
    if (!text.empty() && text.size() <= 18 && (text.size() == 1 || text[0] != '0') &&
        std::all_of(text.begin(), text.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) {
        qint64 v = 0;
        for (const char ch : text)
            v = v * 10 + (ch - '0');
        return v;
    }
    QString s = QString::fromUtf8(text.data(), qsizetype(text.size()));
    s.remove(QLatin1Char('_'));
    bool ok = false;
    const qint64 v = s.toLongLong(&ok, 0);
    if (!ok)
        return std::nullopt;
    return v;
}

} // namespace cnready
