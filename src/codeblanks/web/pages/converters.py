"""The ``row`` path converter: a row's id as the database can hold it (1 to 18 digits, under
2**63), so an id in a URL too large for an integer column is a 404 like any unknown one, not
an OverflowError from SQLite or a DataError from PostgreSQL."""

from __future__ import annotations

from django.urls import register_converter


class RowId:
    regex = "[1-9][0-9]{0,17}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(RowId, "row")
