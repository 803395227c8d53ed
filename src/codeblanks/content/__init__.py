"""Content: lesson folders → the typed model, and the problems found on the way.

from codeblanks.content import load_courses, catalog
courses, problems = load_courses(["path/to/courses"])   # never raises on bad content
lesson = catalog().lesson("query-key-value")            # the built-in courses, cached
"""

from codeblanks.content.catalog import Catalog, catalog
from codeblanks.content.loader import load_courses
from codeblanks.content.problems import Problem

__all__ = ["Catalog", "Problem", "catalog", "load_courses"]
