"""Views: parse the request, call one selector or service, render a page or a named partial.

pages.py     home, level, progress
lesson.py    the lesson page and what its forms post (run, reset, solution, questions)
hints.py     hints one at a time (exercise and questions); a mistake's nudge before its explanation
accounts.py  sign up, log in, log out
api.py       the JSON API (no session, no CSRF)
health.py    /healthz
"""
