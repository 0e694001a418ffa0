"""Text from a hand made safe for the output it goes to: one function, :func:`escape`, that every
writer of a hand's text (a venue, a table, a currency, a player's name, a finding's message)
calls, so that what is safe in one output is safe in all.

A hand history is untrusted: a floor manager opens the report of a log anyone could have
written. What each output must never do with such text:

- ``TERMINAL``: act on it. C0 controls but tab and newline (ESC starts an escape sequence, CR
  rewrites the line), DEL, C1 controls (CSI, OSC, NEL), U+2028 and U+2029, and lone surrogates
  (an undecodable byte of a file name) are written as escapes (``\\x1b``, ``\\u009b``).
- ``HTML``: read it as markup. The terminal's escapes, then ``& < > " '`` as character
  references (the Jinja2 templates' autoescape does the second half; their ``finalize`` the
  first, through this function).
- ``CHART``: draw it as markup. Plotly renders a subset of HTML in every label, legend, title
  and hover text (``<a href>``, ``<b>``, ``<br>``), and decodes character references once; so
  ``& < >`` are written as ``&amp; &lt; &gt;`` and reach the chart as the very text.
- ``SCRIPT``: leave the JSON data block. Inside ``<script type="application/json">`` the HTML
  parser looks for ``</script``, and ``<!--`` then ``<script`` would put it in a state where
  the element's real end tag is not seen (the page's every script then swallowed); so
  ``< > &`` are written ``\\u003c \\u003e \\u0026`` and U+2028, U+2029 ``\\u2028 \\u2029``,
  escapes JSON reads back as the same characters. Apply it to JSON text (:func:`script_json`).
"""

from __future__ import annotations

import re
from typing import Final

from ..grammar.sources import printable

TERMINAL: Final = "terminal"
HTML: Final = "html"
CHART: Final = "chart"
SCRIPT: Final = "script"
OUTPUTS: Final = (TERMINAL, HTML, CHART, SCRIPT)

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]+")
_HTML = {ord("&"): "&amp;", ord("<"): "&lt;", ord(">"): "&gt;", ord('"'): "&quot;", ord("'"): "&#39;"}
_CHART = {ord("&"): "&amp;", ord("<"): "&lt;", ord(">"): "&gt;"}  # the references plotly decodes
_SCRIPT = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026", 0x2028: "\\u2028", 0x2029: "\\u2029"}


def escape(text: str, to: str = TERMINAL) -> str:
    """``text`` as it can be written to the output ``to`` (module docstring), nothing lost: the
    reader of the output sees the characters the hand holds, and nothing of them acts."""
    if to == SCRIPT:
        return text.translate(_SCRIPT)
    if not (text.isascii() and text.isprintable()):
        text = _UNSAFE.sub(_escape_match, text)
    if to == TERMINAL:
        return text
    if to == HTML:
        return text.translate(_HTML)
    if to == CHART:
        return text.translate(_CHART)
    raise ValueError(f"escape: unknown output {to!r} (one of {', '.join(OUTPUTS)})")


def _escape_match(m: re.Match[str]) -> str:
    return printable(m.group())


def script_json(value: object) -> str:
    """``value`` as JSON text that can stand inside a ``<script>`` element whatever its strings
    hold (``escape(..., SCRIPT)``); ``JSON.parse`` of the element's text gives ``value`` back."""
    import json  # only the HTML report writes JSON this way: a run's start does without the module

    return escape(json.dumps(value, ensure_ascii=False, separators=(",", ":")), SCRIPT)
