from django import template

from codeblanks.web import prose

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
