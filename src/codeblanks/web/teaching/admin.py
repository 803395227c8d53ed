from django.contrib import admin

from codeblanks.web.teaching.models import (
    ClassLesson,
    Classroom,
    LtiGrade,
    LtiHosts,
    LtiRoster,
    Membership,
)


class ClassLessonInline(admin.TabularInline):
    model = ClassLesson
    extra = 0


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    readonly_fields = ("joined_at",)


@admin.register(Classroom)
class ClassroomAdmin(admin.ModelAdmin):
    list_display = ("name", "teacher", "join_code", "created_at")
    search_fields = ("name", "teacher__username", "join_code")
    readonly_fields = ("join_code", "join_token", "created_at")
    inlines = [ClassLessonInline, MembershipInline]


@admin.register(LtiGrade)
class LtiGradeAdmin(admin.ModelAdmin):
    """Where each launched lesson's or class's score goes, and whether the LMS took the last."""

    list_display = (
        "user",
        "lineitem",
        "lesson_uuid",
        "classroom",
        "sent_score",
        "sent_maximum",
        "sent_at",
        "error",
    )
    search_fields = ("user__username", "lineitem", "sub")
    readonly_fields = [f.name for f in LtiGrade._meta.fields]


@admin.register(LtiHosts)
class LtiHostsAdmin(admin.ModelAdmin):
    """The hosts, besides its registration's own, an LMS's score and roster URLs may be on."""

    list_display = ("registration", "hosts")


@admin.register(LtiRoster)
class LtiRosterAdmin(admin.ModelAdmin):
    """Where each class's names are read on an LMS (NRPS), and how the last reading went."""

    list_display = ("classroom", "url", "synced_at", "error")
    readonly_fields = [f.name for f in LtiRoster._meta.fields]
