"""What text the database can keep: defined once, in ``codeblanks.learning.texts`` (an answer's
bounds live there too); named here for the web's quotas."""

from codeblanks.learning.texts import Unkeepable, unkeepable

__all__ = ["Unkeepable", "unkeepable"]
