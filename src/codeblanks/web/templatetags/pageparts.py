"""``{% part "name" lesson solved=progress.solved … %}…{% endpart %}``: the enclosed template
rendered once per key (web/pages/pagecache.py: the name, the language and the values it is
given) and kept in this process.

The part sees only the names it is given (a bare name stands for itself), never the page's
other names: what it shows cannot depend on something its key leaves out. A name it reads but
was not given renders empty; with ``pagecache.strict`` or DEBUG on, a name the page has but the
part was not given fails the render, so a test sees it. The request's CSRF token is never kept:
the part is rendered with a marker in its place, and the marker is replaced with this request's
token each time."""

from __future__ import annotations

import functools

from django import template
from django.conf import settings
from django.template.defaulttags import CsrfTokenNode
from django.utils.safestring import mark_safe

from codeblanks.web.pages import pagecache

register = template.Library()

MARKER = "cbpartcsrfmarker0000000000000000"  # a token's shape: letters and digits
# Not the page's names: every context's own (below a part's names), and what {% for %} probes
# for its parent loop (a loop in a part starts afresh).
_OWN = frozenset({"True", "False", "None", "forloop"})


class UnkeyedName(Exception):
    """A part read a name the page has but the part's key does not hold."""


class _Only(dict):
    """A part's names, which notice a read of one of the page's other names (strict mode)."""

    def __init__(self, names: dict, outer: template.Context, part: str) -> None:
        super().__init__(names)
        self.outer, self.part = outer, part

    def __contains__(self, key) -> bool:
        # Claimed, so that a read (Django looks the newest dict first) reaches __getitem__ and
        # fails there; a name a {% with %} or {% blocktranslate with %} inside the part gives is
        # found before this dict and never gets here, though Context's own ``in`` asks the
        # oldest dict first.
        return super().__contains__(key) or (key not in _OWN and key in self.outer)

    def __getitem__(self, key):
        if not super().__contains__(key):
            raise UnkeyedName(f'{{% part "{self.part}" %}} reads "{key}", which it is not given: '
                              f'add {key}=… to the tag (its key), or do not read it')  # fmt: skip
        return super().__getitem__(key)


class PartNode(template.Node):
    def __init__(self, name, names: tuple[str, ...], shown, nodelist):
        self.name, self.names, self.shown, self.nodelist = name, names, shown, nodelist

    def render(self, context):
        name = self.name.resolve(context)
        shown = tuple(v.resolve(context) for v in self.shown)

        def fresh() -> str:
            given = dict(zip(self.names, shown, strict=True), csrf_token=MARKER)
            if pagecache.strict or settings.DEBUG:
                given = _Only(given, context, name)
            return self.nodelist.render(context.new(given))

        html = pagecache.part((name, self.names), shown, fresh)
        if MARKER in html:
            html = html.replace(_marked(), CsrfTokenNode().render(context))
        return mark_safe(html)


@functools.cache
def _marked() -> str:
    """What ``{% csrf_token %}`` renders with the marker for a token."""
    return CsrfTokenNode().render(template.Context({"csrf_token": MARKER}))


def _given(bit: str) -> tuple[str, str]:
    """``name=expression``, or a bare ``name`` that stands for itself."""
    name, equals, expression = bit.partition("=")
    if not equals:
        expression = name
    if not name.isidentifier():
        raise template.TemplateSyntaxError(
            f'{{% part %}} takes names: "{bit}" is not one (write shown={bit})'
        )
    return name, expression


@register.tag
def part(parser, token):
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError('{% part %} needs a name: {% part "name" shown… %}')
    given = [_given(bit) for bit in bits[2:]]
    names = tuple(name for name, _ in given)
    if len(set(names)) < len(names):
        raise template.TemplateSyntaxError(f"{{% part {bits[1]} %}}: a name given twice")
    if "csrf_token" in names:
        raise template.TemplateSyntaxError(f"{{% part {bits[1]} %}}: csrf_token is per request")
    nodelist = parser.parse(("endpart",))
    parser.delete_first_token()
    shown = [parser.compile_filter(expression) for _, expression in given]
    return PartNode(parser.compile_filter(bits[1]), names, shown, nodelist)
