"""Lesson Markdown on the server: highlighting, math left for KaTeX, no raw HTML."""

from codeblanks.web.pages.prose import render, render_inline, render_lesson_text


def test_code_is_highlighted_and_escaped():
    html = render("```python\nif a < b: print('<b>')\n```\n")
    assert '<pre class="code" tabindex="0" data-lang="python">' in html
    assert '<span class="k">if</span>' in html and "&lt;b&gt;" in html and "<b>" not in html


def test_math_is_left_as_escaped_tex():
    html = render("Scale by $1/\\sqrt{d_k}$ when $a<b$.\n\n$$\nA = QK^T\n$$\n")
    assert '<span class="math inline">1/\\sqrt{d_k}</span>' in html
    assert '<span class="math inline">a&lt;b</span>' in html
    assert (
        '<div class="math block" tabindex="0">' in html and "A = QK^T" in html
    )  # scrolls: reachable


def test_raw_html_in_lessons_is_escaped():
    html = render("<script>alert(1)</script>\n\nText <img src=x onerror=alert(1)>")
    assert "<script>" not in html and "<img" not in html and "&lt;script&gt;" in html


def test_lesson_text_drops_a_repeated_title_and_demotes_headings():
    html = render_lesson_text(
        "# Query, Key, Value\n\nIntro.\n\n## Part\n\ntext", "Query, key, value"
    )
    assert "<h1>" not in html and "Query, Key, Value" not in html
    assert "<h3>Part</h3>" in html
    html = render_lesson_text("# Other\n\nx", "Query, Key, Value")
    assert "<h2>Other</h2>" in html


def test_inline_has_no_paragraph():
    assert render_inline("use `np.exp`") == "use <code>np.exp</code>"


def test_a_piece_of_a_line_stays_on_its_line():
    from codeblanks.web.pages.prose import highlight_code

    assert not highlight_code("G = X @ ", inline=True).endswith("\n")
