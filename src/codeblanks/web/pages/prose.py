"""Lesson Markdown to HTML, on the server: CommonMark with tables, code blocks highlighted by
Pygments, and ``$…$`` / ``$$…$$`` math left as escaped TeX in ``<span|div class="math …">``
(mdit-py-plugins' dollarmath) for the vendored KaTeX (static/codeblanks/vendor/math.js) to
typeset in the browser, inside any ``.prose`` element. No network at run time.

Raw HTML in lesson files is escaped, not passed through: course folders can come from anyone
who can write to ``CODEBLANKS_COURSES``. Grader feedback is not lesson prose: it quotes what
the learner's program did, so it is shown as text (``feedback_text``), never as Markdown.
"""

from __future__ import annotations

import re
from functools import lru_cache
from html import escape
from typing import cast

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from mdit_py_plugins.dollarmath import dollarmath_plugin
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

from codeblanks.content.heatmaps import LANGUAGE as HEATMAP
from codeblanks.content.heatmaps import HeatmapBlockError, parse_block
from codeblanks.web.pages.heatmap import heatmap_figure

_FORMATTER = HtmlFormatter(nowrap=True)


def highlight_code(code: str, language: str = "python", *, inline: bool = False) -> SafeString:
    """Pygments' token spans for ``code`` (no wrapper); plain escaped text for unknown languages.
    ``inline`` keeps surrounding spaces and adds no final newline (a piece of one line)."""
    opts = {"stripnl": False, "ensurenl": False} if inline else {}
    try:
        lexer = get_lexer_by_name(language or "text", **opts)
    except ClassNotFound:
        return mark_safe(escape(code))
    html = highlight(code, lexer, _FORMATTER)
    if inline and html.endswith("\n") and not code.endswith("\n"):
        html = html[:-1]
    return mark_safe(html)


def _fence(code: str, lang: str, attrs: str) -> str:
    lang = (lang or "").split()[0] if lang else ""
    label = f' data-lang="{escape(lang)}"' if lang else ""
    # Starting with <pre, this is used as it is (markdown-it adds no wrapper of its own).
    body = highlight_code(code, lang)
    # tabindex: a block wider than its box scrolls, and keyboard users must reach it to scroll.
    return f'<pre class="code" tabindex="0"{label}><code class="highlight">{body}</code></pre>\n'


def _table_open(self, tokens, idx, options, env) -> str:
    # A table wider than a phone (a lesson's step | code | shape table) scrolls in its own box
    # instead of widening the whole page; tabindex so keyboard users can scroll it too.
    return '<div class="table-scroll" tabindex="0">' + self.renderToken(tokens, idx, options, env)


def _table_close(self, tokens, idx, options, env) -> str:
    return self.renderToken(tokens, idx, options, env) + "</div>\n"


def _fence_or_heatmap(self, tokens, idx, options, env) -> str:
    """A ```heatmap block as its picture (web/pages/heatmap.py); any other fence as code. A broken
    block is `codeblanks check`'s content.E112; here it stays code."""
    token = tokens[idx]
    if token.info.split()[:1] == [HEATMAP]:
        try:
            return heatmap_figure(parse_block(token.content))
        except HeatmapBlockError:
            pass
    return self.fence(tokens, idx, options, env)


def _focusable(render_math):
    """A display formula wider than a phone scrolls in its box (app.css), so keyboard users must
    be able to reach it, like a code block."""

    def rule(self, tokens, idx, options, env) -> str:
        html = render_math(tokens, idx, options, env)
        return html.replace('class="math block">', 'class="math block" tabindex="0">', 1)

    return rule


@lru_cache(maxsize=1)
def _md() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "highlight": _fence, "typographer": False})
    md.enable("table")
    md.add_render_rule("table_open", _table_open)
    md.add_render_rule("table_close", _table_close)

    md.add_render_rule("fence", _fence_or_heatmap)
    md.use(dollarmath_plugin, allow_space=True, double_inline=True)
    for rule in ("math_block", "math_block_label"):
        md.add_render_rule(rule, _focusable(cast(RendererHTML, md.renderer).rules[rule]))
    return md


@lru_cache(maxsize=512)
def render(text: str) -> SafeString:
    """A Markdown document as HTML (block level)."""
    return mark_safe(_md().render(text or ""))


def render_lesson_text(text: str, title: str = "") -> SafeString:
    """Lesson Markdown under the page's own ``<h1>``: a first heading that repeats the lesson
    title is dropped, and every heading moves one level down (``#`` becomes ``<h2>``), so the
    page keeps one ``<h1>`` and a sound outline. Cached per language: a heatmap's words are
    in the reader's."""
    return _lesson_text(text, title, get_language())


@lru_cache(maxsize=256)
def _lesson_text(text: str, title: str, language: str) -> SafeString:
    md = _md()
    env: dict = {}
    tokens = md.parse(text or "", env)
    first = next((i for i, t in enumerate(tokens) if t.type == "heading_open"), None)
    if (
        first is not None
        and not any(t.type == "paragraph_open" for t in tokens[:first])
        and tokens[first + 1].content.strip().lower() == title.strip().lower()
    ):
        del tokens[first : first + 3]
    for t in tokens:
        if t.type in ("heading_open", "heading_close"):
            t.tag = f"h{min(int(t.tag[1]) + 1, 6)}"
    return mark_safe(md.renderer.render(tokens, md.options, env))


@lru_cache(maxsize=2048)
def render_inline(text: str) -> SafeString:
    """One line of Markdown (a question prompt, option or explanation) without a paragraph."""
    return mark_safe(_md().renderInline(text or ""))


_CODE_SPAN = re.compile(r"`([^`\n]+)`")


def feedback_text(text: str) -> SafeString:
    """Grader feedback and other words built from what a learner's program did: text, never
    Markdown or HTML (a variable holding ``[log in](https://evil.example)`` must not become a
    link). Everything is escaped; only a `backtick` span is shown in ``<code>``, the way the
    grader quotes names and lines."""
    escaped = escape(text or "", quote=False)
    return mark_safe(_CODE_SPAN.sub(r"<code>\1</code>", escaped))
