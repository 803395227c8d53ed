"""``{% lesson_retention lesson room %}``: the analysis page's retention block (``retention``),
kept out of the page's view so the block stands alone."""

from django import template

from codeblanks.web.teaching.retention import Retention
from codeblanks.web.teaching.retention import lesson_retention as _retention

register = template.Library()


@register.simple_tag
def lesson_retention(lesson, room=None) -> Retention:
    users = None if room is None else room.members.values_list("user_id", flat=True)
    return _retention(lesson, users)
