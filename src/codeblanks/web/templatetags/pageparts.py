"""``{% part "name" shown… %}…{% endpart %}``: the enclosed template rendered once per key
(web/pages/pagecache.py: the name, the language and what it shows) and kept in this process. The
request's CSRF token is never kept: the part is rendered with a marker in its place, and the
marker is replaced with this request's token each time."""

from __future__ import annotations

import functools

from django import template
from django.template.defaulttags import CsrfTokenNode
from django.utils.safestring import mark_safe

from codeblanks.web.pages import pagecache

register = template.Library()

MARKER = "cbpartcsrfmarker0000000000000000"  # a token's shape: letters and digits


class PartNode(template.Node):
    def __init__(self, name, shown, nodelist):
        self.name, self.shown, self.nodelist = name, shown, nodelist

    def render(self, context):
        name = self.name.resolve(context)
        shown = tuple(v.resolve(context) for v in self.shown)

        def fresh() -> str:
            with context.push(csrf_token=MARKER):
                return self.nodelist.render(context)

        html = pagecache.part(name, shown, fresh)
        if MARKER in html:
            html = html.replace(_marked(), CsrfTokenNode().render(context))
        return mark_safe(html)


@functools.cache
def _marked() -> str:
    """What ``{% csrf_token %}`` renders with the marker for a token."""
    return CsrfTokenNode().render(template.Context({"csrf_token": MARKER}))


@register.tag
def part(parser, token):
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError('{% part %} needs a name: {% part "name" shown… %}')
    nodelist = parser.parse(("endpart",))
    parser.delete_first_token()
    return PartNode(parser.compile_filter(bits[1]), [parser.compile_filter(b) for b in bits[2:]],
                    nodelist)  # fmt: skip
