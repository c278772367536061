"""Writing many rows at once, cheaper than Django's own bulk helpers where those cost more
Python time than the database does."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connections, router
from django.db.models import Model


def rows_update(objs: Sequence[Model], fields: Sequence[str]) -> int:
    """What ``QuerySet.bulk_update(objs, fields)`` stores, as one
    ``UPDATE ... FROM (VALUES ...)``: each row's values are plain parameters, where
    ``bulk_update`` builds and compiles a ``CASE`` expression per object and field (a third of a
    verified chunk's storing time). Returns the number of rows updated. PostgreSQL only (the
    casts); other databases get ``bulk_update``.
    """
    if not objs:
        return 0
    model = type(objs[0])
    meta = model._meta
    connection = connections[router.db_for_write(model)]
    if connection.vendor != "postgresql":
        return model._default_manager.bulk_update(objs, fields)
    quote = connection.ops.quote_name
    pk = meta.pk
    assert pk is not None
    written = [meta.get_field(name) for name in fields]
    columns = [pk, *written]
    # the types without their lengths, as Django's UNNEST inserts do: a cast to varchar(16)
    # would cut a longer value silently, where the column refuses it (a DataError, as before)
    types = [str(field.db_type(connection)).split("(")[0] for field in columns]
    row = "(" + ", ".join(f"%s::{db_type}" for db_type in types) + ")"
    sql = (
        f"UPDATE {quote(meta.db_table)} AS t SET "
        + ", ".join(f"{quote(f.column)} = v.{quote(f.column)}" for f in written)
        + f" FROM (VALUES {', '.join([row] * len(objs))}) AS v("
        + ", ".join(quote(f.column) for f in columns)
        + f") WHERE t.{quote(pk.column)} = v.{quote(pk.column)}"
    )
    params = [
        value
        for obj in objs
        for value in [pk.get_db_prep_save(obj.pk, connection)]
        + [f.get_db_prep_save(getattr(obj, f.attname), connection) for f in written]
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount
