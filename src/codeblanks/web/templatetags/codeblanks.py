from django import template

from codeblanks.web.pages import heatmap, prose

register = template.Library()


@register.filter
def markdown(text: str):
    return prose.render(text)


@register.filter
def lesson_markdown(text: str, title: str = ""):
    return prose.render_lesson_text(text, title)


@register.filter
def markdown_inline(text: str):
    return prose.render_inline(text)


@register.filter
def feedback_text(text: str):
    return prose.feedback_text(text)


@register.filter
def python(code: str):
    return prose.highlight_code(code, "python")


@register.filter
def python_inline(code: str):
    return prose.highlight_code(code, "python", inline=True)


@register.filter
def lines(text: str) -> int:
    return len((text or "").rstrip("\n").split("\n"))


@register.filter
def letter(index: int) -> str:
    """0 -> "A", 1 -> "B", ...: how a match question names its meanings (as the terminal does)."""
    return chr(ord("A") + int(index)) if 0 <= int(index) < 26 else str(int(index) + 1)


@register.filter
def array_pictures(run) -> list:
    """The heatmaps of a run's wrong 2-D values (``RunView.arrays``), drawn on the server."""
    return [heatmap.pair_picture(pair) for pair in run.arrays]
