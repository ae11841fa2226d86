#include "semantic/Docstrings.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace cnready {

namespace {

bool space(char c) {
    return c == ' ' || c == '\t' || c == '\r';
}
bool identChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
std::string_view trimmed(std::string_view s) {
    while (!s.empty() && space(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && space(s.back()))
        s.remove_suffix(1);
    return s;
}
int indentOf(std::string_view line) {
    int n = 0;
    for (char c : line) {
        if (c == ' ')
            ++n;
        else if (c == '\t')
            n += 4;
        else
            break;
    }
    return n;
}
bool allDashes(std::string_view s) {
    s = trimmed(s);
    return s.size() >= 3 && std::all_of(s.begin(), s.end(), [](char c) { return c == '-'; });
}
bool equalsLower(std::string_view a, std::string_view lower) {
    return a.size() == lower.size() &&
           std::equal(a.begin(), a.end(), lower.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == y;
           });
}
// The next word of `t` (letters, digits, `_`, `-`, `.`), lower-cased into `out`.
std::string_view nextWord(std::string_view& t, std::string& out) {
    while (!t.empty() && space(t.front()))
        t.remove_prefix(1);
    size_t n = 0;
    while (n < t.size() && (identChar(t[n]) || t[n] == '-' || t[n] == '.'))
        ++n;
    out.assign(t.substr(0, n));
    for (char& c : out)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    t.remove_prefix(n);
    return out;
}
// Adds the identifiers of a comma-separated name list (`x, y`, `*args`) to `out`.
void addNames(std::string_view names, std::vector<std::string_view>& out) {
    while (!names.empty()) {
        const size_t comma = names.find(',');
        std::string_view n = trimmed(names.substr(0, comma));
        while (!n.empty() && n.front() == '*')
            n.remove_prefix(1);
        if (!n.empty() && std::all_of(n.begin(), n.end(), identChar) &&
            !std::isdigit(static_cast<unsigned char>(n.front())))
            out.push_back(n);
        if (comma == std::string_view::npos)
            break;
        names.remove_prefix(comma + 1);
    }
}
bool nameList(std::string_view names) {
    names = trimmed(names);
    if (names.empty())
        return false;
    return std::all_of(names.begin(), names.end(),
                       [](char c) { return identChar(c) || c == ',' || c == ' ' || c == '*'; });
}

std::vector<std::string_view> splitLines(std::string_view doc) {
    std::vector<std::string_view> lines;
    while (!doc.empty()) {
        const size_t nl = doc.find('\n');
        lines.push_back(doc.substr(0, nl));
        if (nl == std::string_view::npos)
            break;
        doc.remove_prefix(nl + 1);
    }
    return lines;
}

} // namespace

bool documentedTypeIsArray(std::string_view type) {
    std::string_view t = trimmed(type);
    // A leading shape: `(N,) ndarray`, `(M, N) array_like`.
    if (!t.empty() && t.front() == '(') {
        const size_t close = t.find(')');
        if (close == std::string_view::npos)
            return false;
        t.remove_prefix(close + 1);
    }
    std::string w;
    nextWord(t, w);
    // A dtype or rank qualifier first: `float ndarray`, `1-D array`, `2d ndarray`.
    static constexpr std::string_view qualifiers[] = {
        "float", "complex", "int", "integer", "bool", "boolean", "real",  "1-d", "2-d",
        "3-d",   "n-d",     "1d",  "2d",      "3d",   "nd",      "numpy", "np"};
    if (std::find(std::begin(qualifiers), std::end(qualifiers), w) != std::end(qualifiers)) {
        std::string_view rest = t;
        std::string next;
        nextWord(rest, next);
        if (next == "ndarray" || next == "array" || next == "numpy.ndarray" ||
            next == "np.ndarray") {
            w = next;
            t = rest;
        }
    }
    if (w == "ndarray" || w == "numpy.ndarray" || w == "np.ndarray")
        return true;
    // `array` alone; `array of str` and `array-like` are different things.
    if (w == "array") {
        std::string_view rest = t;
        std::string next;
        nextWord(rest, next);
        return next != "of" || rest.find("shape") != std::string_view::npos;
    }
    if (w == "array_like" || w == "array-like" || w == "arraylike")
        return t.find("shape") != std::string_view::npos;
    return false;
}

std::vector<std::string_view> documentedArrayParameters(std::string_view doc) {
    std::vector<std::string_view> out;
    if (doc.find("arameters") == std::string_view::npos &&
        doc.find("Args") == std::string_view::npos &&
        doc.find("Arguments") == std::string_view::npos)
        return out;
    // The literal's prefix and quotes: `r"""Parameters` still starts a section.
    if (const size_t q = doc.find_first_of("\"'"); q != std::string_view::npos && q <= 2)
        doc.remove_prefix(q);
    while (!doc.empty() && (doc.front() == '"' || doc.front() == '\''))
        doc.remove_prefix(1);
    const std::vector<std::string_view> lines = splitLines(doc);
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string_view head = trimmed(lines[i]);
        const bool numpydoc = (head == "Parameters" || head == "Other Parameters") &&
                              i + 1 < lines.size() && allDashes(lines[i + 1]);
        const bool google = equalsLower(head, "args:") || equalsLower(head, "arguments:") ||
                            equalsLower(head, "parameters:") || equalsLower(head, "params:");
        if (!numpydoc && !google)
            continue;
        const int base = indentOf(lines[i]);
        size_t j = numpydoc ? i + 2 : i + 1;
        // numpydoc entries align with the underline (the header may share the quotes' line).
        int entryIndent = numpydoc ? indentOf(lines[i + 1]) : -1;
        for (; j < lines.size(); ++j) {
            const std::string_view line = lines[j];
            const std::string_view s = trimmed(line);
            if (s.empty())
                continue;
            const int ind = indentOf(line);
            if (numpydoc) {
                // The next section header ends this one.
                if (j + 1 < lines.size() && allDashes(lines[j + 1]))
                    break;
                if (ind != entryIndent)
                    continue; // a description line
                const size_t colon = s.find(':');
                if (colon == std::string_view::npos || !nameList(s.substr(0, colon)))
                    continue;
                if (documentedTypeIsArray(s.substr(colon + 1)))
                    addNames(s.substr(0, colon), out);
            } else {
                if (ind <= base)
                    break;
                if (entryIndent < 0)
                    entryIndent = ind;
                if (ind != entryIndent)
                    continue;
                const size_t open = s.find('(');
                const size_t colon = s.find(':');
                if (open == std::string_view::npos || colon == std::string_view::npos ||
                    open > colon)
                    continue;
                const size_t close = s.find(')', open);
                if (close == std::string_view::npos || close > colon ||
                    !nameList(s.substr(0, open)))
                    continue;
                if (documentedTypeIsArray(s.substr(open + 1, close - open - 1)))
                    addNames(s.substr(0, open), out);
            }
        }
        i = j > i ? j - 1 : i;
    }
    return out;
}

} // namespace cnready
