"""A learner's hot statements, built by the ORM once and run again with new values.

Every page and every Run sends the same few statements with different keys (the learner, the
lesson). Building one through the ORM (the queryset, its lookups, the compiler) costs about ten
times what the database takes to run it, so each is compiled once per shape and connection and
kept on that connection (one per thread: nothing is shared between threads); after that a call is
a cursor's ``execute`` with the new values, and the ORM's own converters on what comes back. The
models stay the one description of the tables: the SQL is always the ORM's.

A value that changes between calls is a ``slot`` in the queryset given to ``select`` or
``update``. A slot in a filter (``lesson_uuid=slot("lesson")``) takes text or an integer, passed
to the database as it is (what the ORM does with a key of either); a slot among an UPDATE's values
is prepared at each call as the ORM prepares that column's values (``Field.get_db_prep_save``),
so datetimes, booleans and JSON are too. ``insert`` takes a whole row, every column a slot.
A learner's values only ever arrive at a call, never while compiling.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.db import connections
from django.db.models import Model, QuerySet, TextField, Value, sql

_SLOT_PREFIX = "\x00codeblanks-slot:"


def slot(name: str) -> Value:
    """A named placeholder for a value given at each call: a text parameter no real value is
    (an expression, so that no field tries to read it as its own type while compiling)."""
    return Value(_SLOT_PREFIX + name, output_field=TextField())


def _slot_name(value: Any) -> str | None:
    text = value.value if isinstance(value, Value) else None
    if isinstance(text, str) and text.startswith(_SLOT_PREFIX):
        return text[len(_SLOT_PREFIX) :]
    return None


def _positions(params: Iterable[Any]) -> list[tuple[str | None, Any]]:
    """For each parameter, its slot's name (None: a constant) and the constant."""
    out: list[tuple[str | None, Any]] = []
    for p in params:
        if isinstance(p, str) and p.startswith(_SLOT_PREFIX):
            out.append((p[len(_SLOT_PREFIX) :], None))
        else:
            out.append((None, p))
    return out


class _Select:
    def __init__(self, queryset: QuerySet) -> None:
        query = queryset.query
        self.compiler = query.get_compiler(using=queryset.db)
        sql_text, params = self.compiler.as_sql()
        self.sql, self.params = sql_text, _positions(params)
        self.connection = self.compiler.connection
        cols = [col for col, _, _ in self.compiler.select[: self.compiler.col_count]]
        self.converters = self.compiler.get_converters(cols)

    def __call__(self, values: dict[str, Any]) -> list[tuple]:
        params = [values[name] if name is not None else const for name, const in self.params]
        with self.connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            rows = cursor.fetchall()
        if self.converters:
            return [tuple(r) for r in self.compiler.apply_converters(rows, self.converters)]
        return [tuple(r) for r in rows]


class _Update:
    def __init__(self, queryset: QuerySet, values: dict[str, Any]) -> None:
        query = queryset.query.chain(sql.UpdateQuery)
        assert isinstance(query, sql.UpdateQuery)
        query.add_update_values(values)
        compiler = query.get_compiler(using=queryset.db)
        self.connection = compiler.connection
        sql_text, params = compiler.as_sql()
        self.sql = sql_text
        # A slot among the SET values is prepared by its column's field at each call (a
        # constant once, here, by the compiler).
        fields = {}
        for field, _model, value in query.values:  # type: ignore[attr-defined]
            if (name := _slot_name(value)) is not None:
                fields[name] = field
        self.fields = fields
        self.params = _positions(params)

    def __call__(self, values: dict[str, Any]) -> int:
        params = []
        for name, const in self.params:
            if name is None:
                params.append(const)
            elif name in self.fields:
                params.append(self.fields[name].get_db_prep_save(values[name], self.connection))
            else:
                params.append(values[name])
        with self.connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            return cursor.rowcount


class _Insert:
    """An INSERT of one whole row: every concrete field but the primary key, each a slot named
    for its field (``raw``: no field fills itself in, ``auto_now_add`` included); nothing read
    back."""

    def __init__(self, model: type[Model]) -> None:
        row = model()
        fields = [f for f in model._meta.concrete_fields if not f.primary_key]
        for field in fields:
            setattr(row, field.attname, slot(field.attname))
        query = sql.InsertQuery(model)
        query.insert_values(fields, [row], raw=True)
        compiler = query.get_compiler(using="default")
        self.connection = compiler.connection
        ((sql_text, params),) = compiler.as_sql()
        self.sql, self.params = sql_text, _positions(params)
        self.fields = {f.attname: f for f in fields}

    def __call__(self, values: dict[str, Any]) -> None:
        params = [
            self.fields[name].get_db_prep_save(values[name], self.connection)
            if name is not None
            else const
            for name, const in self.params
        ]
        with self.connection.cursor() as cursor:
            cursor.execute(self.sql, params)


def _kept(key: tuple, build: Callable[[], Any], using: str = "default") -> Any:
    connection = connections[using]
    kept = connection.__dict__.setdefault("_codeblanks_compiled", {})
    found = kept.get(key)
    if found is None:
        found = kept[key] = build()
    return found


def select(key: tuple, build: Callable[[], QuerySet], values: dict[str, Any]) -> list[tuple]:
    """The rows of ``build()`` (a ``values_list`` queryset with slots in it) for ``values``.
    ``key`` names the shape: calls with the same key must build the same SQL."""
    return _kept(("select", *key), lambda: _Select(build()))(values)


def update(
    key: tuple, build: Callable[[], tuple[QuerySet, dict[str, Any]]], values: dict[str, Any]
) -> int:
    """``queryset.update(**set_values)`` for ``build() == (queryset, set_values)``, with the
    slots filled from ``values``; the number of rows it changed."""
    return _kept(("update", *key), lambda: _Update(*build()))(values)


def insert(model: type[Model], values: dict[str, Any]) -> None:
    """One new row of ``model`` from ``values``, by each column's attribute name (``user_id``):
    a field left out takes its model default, as the ORM gives it (the database has none); one
    without a default must be named."""
    row = dict(values)
    missing = []
    for field in model._meta.concrete_fields:
        if field.primary_key or field.attname in row:
            continue
        if not field.has_default():
            missing.append(field.attname)
        row[field.attname] = field.get_default()
    if missing:
        raise TypeError(f"compiled.insert: no value for {', '.join(sorted(missing))}")
    _kept(("insert", model._meta.label), lambda: _Insert(model))(row)
