from django.contrib import admin

from codeblanks.web.models import Attempt, LessonProgress, QuestionAnswer


@admin.register(Attempt)
class AttemptAdmin(admin.ModelAdmin):
    list_display = (
        "created_at",
        "user",
        "anon_key",
        "lesson_uuid",
        "verdict",
        "case",
        "duration_ms",
    )
    list_filter = ("verdict", "created_at")
    search_fields = ("user__username", "lesson_uuid", "anon_key")
    readonly_fields = [f.name for f in Attempt._meta.fields]
    date_hierarchy = "created_at"


class AnswerInline(admin.TabularInline):
    model = QuestionAnswer
    extra = 0
    readonly_fields = ("question_id", "answer", "correct", "tries", "answered_at")


@admin.register(LessonProgress)
class LessonProgressAdmin(admin.ModelAdmin):
    list_display = ("updated_at", "user", "anon_key", "lesson_uuid", "solved_at", "revealed_at")
    list_filter = ("solved_at", "revealed_at")
    search_fields = ("user__username", "lesson_uuid", "anon_key")
    inlines = [AnswerInline]
