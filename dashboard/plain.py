"""Untrusted text on a page: shown as the characters it holds, never as markup.

Most Streamlit elements render their string as Markdown - st.markdown, caption, subheader,
error / warning / info / success, st.metric labels, every `help` tooltip, expander labels -
and there links, images (which the reader's browser fetches: a beacon), headings,
`:red[...]` colours, `:material/...:` icons and LaTeX all work without `unsafe_allow_html`.
Text that reaches a page from the audit database (route names, actors, the reason a key holder
typed for a rollback, request ids, error messages that quote records) or from the URL (a link
someone sent) goes through here before it is put into such a string:

* `md(s)`: every ASCII punctuation character backslash-escaped (CommonMark), so nothing in it
  is markup, and each word that GitHub-flavoured Markdown would turn into a link by itself
  (`http://…`, `www.…`, an e-mail address: escapes do not stop that) set as inline code;
  line breaks shown as ⏎ (an untrusted value stays one run of text that cannot pose as the
  page's own next line);
* `code(s)`: the same as an inline code span (ids, hashes, paths), fenced with more backticks
  than any run inside it, so no backtick in the value closes it;
* `reveal(s)`: for plain-text elements (`st.text`, `st.code`): control, invisible and
  bidirectional-formatting characters (a right-to-left override shows "KCOLB" as "BLOCK")
  and lone surrogates written as ⟨U+XXXX⟩; newlines and tabs kept. `md` and `code` do this too.

* `cells(table)`: a table for `st.dataframe` with every text cell, column name and index
  label passed through `reveal` (a data grid never renders markup, but a bidi override in a
  route name or a rollback reason still reorders what the reader sees in its cell).

`st.text`, `st.code`, `st.json`, widget options and chart tooltips (Vega escapes HTML) never
interpret markup; their text only needs `reveal` where a reader must not be misled.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import pandas as pd

__all__ = ["cells", "code", "md", "reveal"]

# Unicode categories shown as code points: controls, format characters (bidi overrides and
# isolates, zero-width joiners, BOM, tag characters), line / paragraph separators, surrogates.
_HIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
_KEEP = frozenset("\n\t")
_PUNCT = re.compile(r"([!-/:-@\[-`{-~])")  # every ASCII punctuation character
_NEWLINE = re.compile(r"\r\n|\n")
# A word GFM autolinks however it is escaped: a URL scheme, a `www.` host, an e-mail address.
_LINKISH = re.compile(r"\S*(?:://|www\.|@)\S*", re.IGNORECASE)


def _shown(ch: str) -> str:
    return f"⟨U+{ord(ch):04X}⟩"


def reveal(value: object) -> tuple[str, int]:
    """(`value` as text with every hidden character written as ⟨U+XXXX⟩, how many there were).
    Newlines and tabs are kept."""
    text = str(value)
    if text.isprintable():  # no control, format, separator or surrogate character: fast path
        return text, 0
    out, n = [], 0
    for ch in text:
        if ch not in _KEEP and unicodedata.category(ch) in _HIDDEN:
            out.append(_shown(ch))
            n += 1
        else:
            out.append(ch)
    return "".join(out), n


def _one_line(value: object) -> str:
    return reveal(_NEWLINE.sub(" ⏎ ", str(value)).replace("\t", " "))[0]


def _escaped(text: str) -> str:
    return _PUNCT.sub(r"\\\1", text)


def _span(text: str) -> str:
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    return f"{fence} {text} {fence}"


def md(value: object) -> str:
    """`value` as literal text inside a Markdown string (nothing in it renders as markup)."""
    text, out, last = _one_line(value), [], 0
    for m in _LINKISH.finditer(text):
        out += [_escaped(text[last:m.start()]), _span(m.group())]
        last = m.end()
    return "".join([*out, _escaped(text[last:])])


def code(value: object) -> str:
    """`value` as an inline code span inside a Markdown string ("—" when empty)."""
    text = _one_line(value)
    return _span(text) if text.strip() else "—"


def _cell(value: object) -> object:
    if isinstance(value, str):
        return reveal(value)[0]
    if isinstance(value, dict):  # a JSON column: its text is shown too
        return {_cell(k): _cell(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_cell(v) for v in value]
    return value


def _label(value: object) -> object:
    return reveal(value)[0] if isinstance(value, str) else value


def cells(table: Any) -> Any:
    """`table` (a DataFrame, or a list of row dicts) with every text cell, column name and
    index label revealed; other values as they are. A DataFrame is copied, never changed."""
    if isinstance(table, pd.DataFrame):
        out = table.rename(columns=_label, index=_label)
        for col in out.columns:
            if out[col].dtype.kind == "O":  # object and string dtypes
                out[col] = out[col].map(_cell)
        return out
    if isinstance(table, list):
        return [_cell(row) for row in table]
    return table
