"""A learner's hot statements, built by the ORM once and run again with new values.

Every page and every Run sends the same few statements with different keys (the learner, the
lesson). Building one through the ORM (the queryset, its lookups, the compiler) costs about ten
times what the database takes to run it, so each is compiled once per shape and connection and
kept on that connection (one per thread: nothing is shared between threads); after that a call is
a cursor's ``execute`` with the new values, and the ORM's own converters on what comes back. The
models stay the one description of the tables: the SQL is always the ORM's.

The statements all live in ``statements.py``, the one module that imports this one (held by
tests/architecture/test_compiled_fence.py). Each is its builder function, decorated:
``@select`` on one that returns a ``values_list`` queryset, ``@update`` on one that returns
``(queryset, set_values)``; ``insert(Model)`` for a whole new row. A compiled statement is kept
under that object and the builder's arguments, its *shape* (``"user"`` or ``"anon"``: a few
values, never a learner's), so no call site names a key and two statements cannot share one. A
builder must be a module-level function: a new function object per call would compile again
on every call.

A value that changes between calls is a ``slot`` in the built queryset. A slot in a filter
(``lesson_uuid=slot("lesson")``) takes a ``str`` or an ``int`` (not a ``bool``, an enum or
``None``), passed to the database as it is; anything else is a ``TypeError`` at the call. The
ORM would have prepared any other value by the column's field; unprepared, it would reach the
driver as it is, to be compared as something else or refused. A slot among an UPDATE's values
is prepared at each call as the ORM prepares that column's values (``Field.get_db_prep_save``),
so datetimes, booleans and JSON are too; so is every column of an ``insert``. A learner's
values only ever arrive at a call, never while compiling.

What the ORM's ``save()`` would add is skipped: no ``pre_save`` (so no ``auto_now`` or
``auto_now_add``: the statements set ``updated_at`` and ``created_at`` themselves) and no model
signals. That is fine for what is written here (a program saved, a run counted, an attempt
kept): no receiver needs them (``teaching/signals.py`` has none on ``Attempt``, and its one on
``LessonProgress`` acts only on a solve). A solve, which sends the LMS the new score, goes
through the model in ``store.py``; a new receiver on ``LessonProgress`` or ``Attempt`` must be
checked against these statements.

This is Django's private compiler API (``Query.get_compiler``, ``SQLCompiler.as_sql``,
``get_converters``, ``UpdateQuery.add_update_values``, ``InsertQuery.insert_values``): the
``django<6`` pin in pyproject.toml holds for it (what to check before raising it is written
there).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterable
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.models import Model, QuerySet, TextField, Value, sql

_SLOT_PREFIX = "\x00codeblanks-slot:"
# More shapes than this for one statement means a builder is given values, not a shape: each
# would be compiled and kept for as long as the connection lives.
MAX_SHAPES = 8


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


def _given(values: dict[str, Any], name: str) -> Any:
    try:
        return values[name]
    except KeyError:
        raise TypeError(f"compiled: no value for the slot {name!r}") from None


def _filter_value(values: dict[str, Any], name: str) -> str | int:
    """A filter slot's value, which goes to the database unprepared: only a plain str or int."""
    value = _given(values, name)
    if type(value) is str or type(value) is int:
        return value
    raise TypeError(
        f"compiled: the filter slot {name!r} takes a str or an int, "
        f"not {type(value).__name__} ({value!r})"
    )


class _Select:
    def __init__(self, queryset: QuerySet) -> None:
        query = queryset.query
        self.compiler = query.get_compiler(using=queryset.db)
        sql_text, params = self.compiler.as_sql()
        self.sql, self.params = sql_text, _positions(params)
        self.connection = self.compiler.connection
        cols = [col for col, _, _ in self.compiler.select[: self.compiler.col_count]]
        self.converters = self.compiler.get_converters(cols)

    def run(self, values: dict[str, Any]) -> list[tuple]:
        params = [
            _filter_value(values, name) if name is not None else const
            for name, const in self.params
        ]
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

    def run(self, values: dict[str, Any]) -> int:
        params = []
        for name, const in self.params:
            if name is None:
                params.append(const)
            elif name in self.fields:
                value = _given(values, name)
                params.append(self.fields[name].get_db_prep_save(value, self.connection))
            else:
                params.append(_filter_value(values, name))
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

    def run(self, values: dict[str, Any]) -> None:
        params = [
            self.fields[name].get_db_prep_save(_given(values, name), self.connection)
            if name is not None
            else const
            for name, const in self.params
        ]
        with self.connection.cursor() as cursor:
            cursor.execute(self.sql, params)


C = TypeVar("C", _Select, _Update, _Insert)


class _Statement(Generic[C]):
    """One statement: compiled on first use for each shape and connection, kept on the
    connection under this object (so under its builder) and the shape."""

    def __init__(self, compile: Callable[..., C], name: str) -> None:
        self._compile: Callable[..., C] = compile
        self.name = name

    def compiled(self, *shape: Hashable, using: str = "default") -> C:
        connection = connections[using]
        kept = connection.__dict__.setdefault("_codeblanks_compiled", {})
        found = kept.get((self, shape))
        if found is None:
            if sum(1 for statement, _ in kept if statement is self) >= MAX_SHAPES:
                raise RuntimeError(
                    f"compiled: {self.name} has more than {MAX_SHAPES} shapes; a shape is a "
                    "few fixed values (by account or by key), never a learner's"
                )
            found = kept[(self, shape)] = self._compile(*shape)
        return found

    def __repr__(self) -> str:
        return f"<compiled statement {self.name}>"


class Select(_Statement[_Select]):
    def __call__(self, *shape: Hashable, values: dict[str, Any]) -> list[tuple]:
        """The rows of the builder's queryset for ``shape``, its slots filled from ``values``."""
        return self.compiled(*shape).run(values)


class Update(_Statement[_Update]):
    def __call__(self, *shape: Hashable, values: dict[str, Any]) -> int:
        """The builder's ``queryset.update(**set_values)`` for ``shape``, its slots filled from
        ``values``; the number of rows it changed."""
        return self.compiled(*shape).run(values)


class Insert(_Statement[_Insert]):
    def __init__(self, model: type[Model]) -> None:
        def build() -> _Insert:
            return _Insert(model)

        super().__init__(build, f"insert({model._meta.label})")
        self.model = model

    def __call__(self, values: dict[str, Any]) -> None:
        """One new row from ``values``, by each column's attribute name (``user_id``): a field
        left out takes its model default, as the ORM gives it (the database has none); one
        without a default must be named."""
        row = dict(values)
        missing = []
        for field in self.model._meta.concrete_fields:
            if field.primary_key or field.attname in row:
                continue
            if not field.has_default():
                missing.append(field.attname)
            row[field.attname] = field.get_default()
        if missing:
            raise TypeError(f"compiled: {self.name} has no value for {', '.join(sorted(missing))}")
        self.compiled().run(row)


def _builder_name(build: Callable[..., Any]) -> str:
    """The builder's full name; a function made at each call (a lambda, a nested function) is
    refused, since the statement is kept under it."""
    qualname = getattr(build, "__qualname__", "")
    if not qualname or "<" in qualname or "." in qualname:
        raise TypeError(
            f"compiled: a statement's builder must be a module-level function, not {build!r}"
        )
    return f"{build.__module__}.{qualname}"


def select(build: Callable[..., QuerySet]) -> Select:
    """Decorate a builder of a ``values_list`` queryset with slots in it: calling the result
    with the builder's arguments (the shape) and ``values=`` gives the rows."""
    statement = Select(lambda *shape: _Select(build(*shape)), _builder_name(build))
    functools.update_wrapper(statement, build)
    return statement


def update(build: Callable[..., tuple[QuerySet, dict[str, Any]]]) -> Update:
    """Decorate a builder of ``(queryset, set_values)`` with slots in them: calling the result
    with the builder's arguments (the shape) and ``values=`` runs the UPDATE."""
    statement = Update(lambda *shape: _Update(*build(*shape)), _builder_name(build))
    functools.update_wrapper(statement, build)
    return statement


def insert(model: type[Model]) -> Insert:
    """The INSERT of one whole ``model`` row."""
    return Insert(model)
