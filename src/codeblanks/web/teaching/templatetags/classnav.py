"""``user|sees_classes``: whether the site's menu offers "Classes" (the learner trial's F16): to
those who teach (co-teachers too) or are in a class, not to every learner. Anyone can still
join with a link, or with a code from the progress page's "Join a class"."""

from django import template
from django.db.models import Q

from codeblanks.web.teaching.classes import is_teacher
from codeblanks.web.teaching.models import Classroom, Membership

register = template.Library()


@register.filter
def sees_classes(user) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    if is_teacher(user) or Classroom.objects.filter(Q(teacher=user) | Q(co_teachers=user)).exists():
        return True
    return Membership.objects.filter(user=user, left_at__isnull=True).exists()
