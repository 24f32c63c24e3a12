"""The two engines the aggregations run on: DuckDB (embedded, the default) and Spark (local or a cluster).

Why plain SQL and not Ibis: the out-of-core path needs a handful of GROUP BY queries (two per task), DuckDB and
Spark SQL share almost all the syntax they use (``CASE``, ``ln``, ``greatest``/``least``, ``floor``,
``approx_count_distinct``, ``GROUP BY 1, 2``), and the differences — how an identifier and a string literal are
quoted, how files are opened — are three methods of a backend. Ibis would add a dependency tree larger than this
package for that, and its PySpark backend lags Spark releases.

Each backend registers the source's files as one view, ``predictions``, and returns query results as small pandas
frames (the grouped tables; never the rows). Heavy modules (duckdb, pyspark) are imported only when a backend is
opened, so ``python -m assess --help`` does not pay for them.
"""

from __future__ import annotations

import math
import os
import re
import sys
import time

from assess.core.errors import AssessError
from assess.engine.source import Source

VIEW = "predictions"
#: With ``ASSESS_ENGINE_TRACE=1`` every statement's wall time and first words go to stderr (bench/bench_engine.py
#: prints the stage-by-stage breakdown from them).
TRACE_ENV = "ASSESS_ENGINE_TRACE"

#: DuckDB's own memory limit (it spills to disk beyond). The run's budget is 1 GiB of peak RSS, and the Python side
#: (interpreter, pandas, NumPy, SciPy, DuckDB's library) holds ~0.2 GiB of it: with 1GB DuckDB filled its limit and
#: DeLong's paired test at 1e7 all-distinct rows peaked at 1.20 GiB; with 700MB 0.90 GiB in the same CPU time.
DUCKDB_MEMORY = "700MB"
#: Widest group key (in bits, with its NULL bit) that DuckDB counts in a perfect hash table (default 12).
PERFECT_HASH_BITS = 23
#: DuckDB's own default, for the paired tests' pivots by sample id (`assess.engine.compare`): their key's range is the
#: ids', and a perfect hash table is allocated whole per thread and never spilled — 1.9 GiB of RSS for 5 million ids
#: (1e7 rows) against 0.8 GiB in the ordinary hash table, for the same CPU time.
DEFAULT_PERFECT_HASH_BITS = 12
#: The rows DuckDB's CSV sniffer reads (its ``sample_size``), and the spellings pandas' CSV parser reads as booleans.
CSV_SNIFF_ROWS = 20_480
PANDAS_BOOLEANS = frozenset({"True", "TRUE", "true", "False", "FALSE", "false"})
#: A cell pandas' CSV parser reads as a float, and the infinities among them (any case, signed).
_INFINITY = re.compile(r"[+-]?inf(inity)?", re.I)
_PANDAS_FLOAT = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?|[+-]?(inf(inity)?|nan)", re.I)


def _trace(start: float, what: str, sql: str) -> None:
    """With `TRACE_ENV` set: one stderr line per statement — its wall time since ``start``, whether it reads the
    file (``FROM predictions``) and its first 200 characters."""
    if os.environ.get(TRACE_ENV):
        scan = " [reads the file]" if re.search(rf"\bFROM {VIEW}\b", sql) else ""
        print(f"engine-trace {time.perf_counter() - start:8.3f} s {what}{scan}: {' '.join(sql.split())[:200]}",
              file=sys.stderr, flush=True)


class Backend:
    """One open engine over one source; use as a context manager."""

    name = ""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self) -> None:  # pragma: no cover - overridden
        pass

    def ident(self, name: str) -> str:
        raise NotImplementedError

    def literal(self, value) -> str:
        """A SQL literal of a label value (string, integer, float or bool) read back from this engine, written by its
        type: a float's repr is no SQL for infinity or NaN (``inf`` read as a column name), so a non-finite float is
        the cast of its string, which DuckDB and Spark both parse."""
        if isinstance(value, bool):
            return "TRUE" if value else "FALSE"
        if isinstance(value, float) and not math.isfinite(value):
            text = "NaN" if math.isnan(value) else "Infinity" if value > 0 else "-Infinity"
            return f"CAST({self._string(text)} AS DOUBLE)"
        if isinstance(value, (int, float)):
            return repr(value)
        return self._string(str(value))

    def _string(self, text: str) -> str:
        raise NotImplementedError

    def non_finite(self, x: str) -> str:
        """SQL true where the double ``x`` is NaN or infinite."""
        return f"(isnan({x}) OR abs({x}) = CAST('Infinity' AS DOUBLE))"

    def is_nan(self, x: str) -> str:
        return f"isnan({x})"

    def query(self, sql: str):
        raise NotImplementedError

    def perfect_hash_bits(self, bits: int) -> None:
        """How wide a group key the engine may count in a perfect hash table (DuckDB only; elsewhere nothing)."""

    def materialized(self, name: str, sql: str) -> str:
        """A common table expression computed once however often the query reads it."""
        return f"{name} AS ({sql})"

    def arrays(self, sql: str) -> dict:
        """The result as numpy arrays by column (NULL as NaN in numeric columns, None in others)."""
        frame = self.query(sql)
        return {c: frame[c].to_numpy() for c in frame.columns}

    def head(self, n: int):
        return self.query(f"SELECT * FROM {VIEW} LIMIT {int(n)}")

    def stored_rows(self) -> int | None:
        """The source's row count when its files' metadata state it (Parquet footers, no scan); else None."""
        return None

    def columns(self) -> list[str]:
        raise NotImplementedError


class DuckDBBackend(Backend):
    """DuckDB in this process: reads Parquet and CSV (files, directories via the file list, globs) and spills to
    disk past ``memory_limit`` (``ASSESS_DUCKDB_MEMORY``, default `DUCKDB_MEMORY`), with ``ASSESS_DUCKDB_THREADS``
    threads (default: all cores)."""

    name = "duckdb"

    def __init__(self, source: Source):
        import duckdb

        self._duckdb = duckdb
        self.source = source
        self.con = duckdb.connect(":memory:")
        self.con.execute(f"SET memory_limit = '{os.environ.get('ASSESS_DUCKDB_MEMORY', DUCKDB_MEMORY)}'")
        if os.environ.get("ASSESS_DUCKDB_THREADS"):
            self.con.execute(f"SET threads = {int(os.environ['ASSESS_DUCKDB_THREADS'])}")
        self.con.execute("SET preserve_insertion_order = false")
        self.con.execute("SET enable_progress_bar = false")
        # the curve table's grid key (model, truth, bin: 2^22 values for two models) is counted in a perfect hash
        # table — an array indexed by the key, ~130 MB per thread at 2^23 entries — instead of hashing a million
        # groups; a key with a wider range (many models) falls back to the hash table
        self.con.execute(f"SET perfect_ht_threshold = {PERFECT_HASH_BITS}")
        files = self._file_list()
        if source.format == "parquet":
            reader = f"read_parquet({files})"
        else:
            # header, delimiter and types sniffed from the first rows of each file; a cell that breaks the sniffed
            # type later fails the scan with its line number (see `query`)
            reader = self._csv_reader(files)
        self._run(f"CREATE VIEW {VIEW} AS SELECT * FROM {reader}")

    def _csv_reader(self, files: str) -> str:
        """DuckDB's CSV reader, its columns typed as the in-memory path's pandas types them. DuckDB's sniffer also
        reads ``yes``/``no`` and ``t``/``f`` as booleans, which pandas keeps as text: a truth column of ``yes``/``no``
        would name its classes False/True here and no/yes in memory. So a column sniffed as BOOLEAN stays one only
        when the sniffed rows' text is pandas' true/false spellings; otherwise it is read as text. And the sniffer
        reads a column of numbers holding ``inf``/``-inf``/``Infinity`` as text, or as DATE when every cell is one
        (the dates ±infinity), which pandas reads as floats: a truth of 0.0 and inf named its classes '0.0' and
        'inf' against the predictions' 0 and inf, and every label counted as wrong; a DATE of infinity failed the
        head read with DuckDB's ConversionException. Such a column (every sniffed cell a number, one at least
        infinite) is read as DOUBLE; a column of dates with an infinity among them as text, as pandas reads it."""
        def reader(extra: str = "") -> str:
            return f"read_csv({files}, header = true, union_by_name = false{extra})"

        sniffed = self._run(f"DESCRIBE SELECT * FROM {reader()}").fetchall()
        candidates = [(row[0], row[1]) for row in sniffed if row[1] in ("BOOLEAN", "VARCHAR", "DATE", "TIMESTAMP")]
        if not candidates:
            return reader()
        head = self._run(f"SELECT {', '.join(self.ident(name) for name, _ in candidates)} FROM "
                         f"{reader(', all_varchar = true')} LIMIT {CSV_SNIFF_ROWS}").fetchall()
        types = {}
        for i, (name, kind) in enumerate(candidates):
            cells = [row[i].strip() for row in head if row[i] is not None and row[i].strip()]
            if kind == "BOOLEAN" and any(cell not in PANDAS_BOOLEANS for cell in cells):
                types[name] = "VARCHAR"
            elif kind != "BOOLEAN" and cells and all(map(_PANDAS_FLOAT.fullmatch, cells)) and \
                    any(map(_INFINITY.fullmatch, cells)):
                types[name] = "DOUBLE"
            elif kind in ("DATE", "TIMESTAMP") and any(map(_INFINITY.fullmatch, cells)):
                types[name] = "VARCHAR"      # pandas keeps it as text; DuckDB's infinite date has no pandas value
        listed = ", ".join(f"{self._string(name)}: '{kind}'" for name, kind in types.items())
        return reader(f", types = {{{listed}}}") if types else reader()

    def close(self) -> None:
        self.con.close()

    def ident(self, name: str) -> str:
        return '"' + name.replace('"', '""') + '"'

    def materialized(self, name: str, sql: str) -> str:
        return f"{name} AS MATERIALIZED ({sql})"

    def perfect_hash_bits(self, bits: int) -> None:
        self.con.execute(f"SET perfect_ht_threshold = {int(bits)}")

    def head(self, n: int):
        """The file's first rows, in order: without insertion order DuckDB's LIMIT returns whichever rows its
        threads read first, and the models' order (first seen first) changed from run to run on a large file."""
        self.con.execute("SET preserve_insertion_order = true")
        try:
            return super().head(n)
        finally:
            self.con.execute("SET preserve_insertion_order = false")

    def _string(self, text: str) -> str:
        return "'" + text.replace("'", "''") + "'"

    def _file_list(self) -> str:
        """The source's files as a DuckDB list of strings. DuckDB globs each entry that holds ``*``, ``?`` or ``[``
        (and supports no backslash escape), so each of those characters is written as a one-character class
        (``[*]``, ``[?]``, ``[[]``): the entry then matches the one file of that name, never a neighbour."""
        escaped = (re.sub(r"([*?\[])", r"[\1]", f) for f in self.source.files)
        return "[" + ", ".join(self._string(f) for f in escaped) + "]"

    def stored_rows(self) -> int | None:
        if self.source.format != "parquet":
            return None
        files = self._file_list()
        value = self._run(f"SELECT sum(num_rows) FROM parquet_file_metadata({files})").fetchone()[0]
        return None if value is None else int(value)

    # DuckDB 1.x-2.0 folds isnan() of a Parquet column to false when the column's statistics (which leave NaN out)
    # show a finite range, so NaN cells went uncounted; isfinite() is evaluated on the values
    def non_finite(self, x: str) -> str:
        return f"(NOT isfinite({x}))"

    def is_nan(self, x: str) -> str:
        return f"(NOT isfinite({x}) AND abs({x}) <> CAST('Infinity' AS DOUBLE))"

    def _run(self, sql: str):
        start = time.perf_counter()
        try:
            result = self.con.execute(sql)
            _trace(start, "duckdb", sql)
            return result
        except self._duckdb.Error as exc:
            message = _duckdb_message(exc)
            # a CSV error names its own file (one of the parts); anything else is about the source
            raise AssessError(self.source.shown(f"{self.source.name}{message}" if message.startswith(": ") else
                                                message if message.startswith(self.source.files) else
                                                f"{self.source.name}: {message}")) from None

    def query(self, sql: str):
        return self._run(sql).df()

    def arrays(self, sql: str) -> dict:
        """Through Arrow: a numeric column without NULLs is handed over without a copy per value (fetchnumpy's
        masked arrays cost a pass per column over a million-row curve table)."""
        import numpy as np
        import pyarrow as pa

        out = {}
        start = time.perf_counter()
        try:
            table = self.con.sql(sql).to_arrow_table()
            _trace(start, "duckdb arrays", sql)
        except self._duckdb.Error:
            self._run(sql)          # raises the AssessError with the cleaned message
            raise
        for name, col in zip(table.column_names, table.columns):
            kind = col.type
            numeric = pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_boolean(kind)
            if numeric and col.null_count == 0 and not pa.types.is_boolean(kind):
                out[name] = col.to_numpy()
            elif numeric:
                out[name] = col.cast(pa.float64()).fill_null(float("nan")).to_numpy()
            else:
                out[name] = np.asarray(col.to_pylist(), dtype=object)
        return out

    def columns(self) -> list[str]:
        return [row[0] for row in self._run(f"DESCRIBE {VIEW}").fetchall()]


def _duckdb_message(exc: Exception) -> str:
    """DuckDB's error, cut to what a user needs: a CSV conversion error keeps the file, line, column and value."""
    text = str(exc)
    line = re.search(r"CSV Error on Line:\s*(\d+)", text)
    value = re.search(r"Could not convert string \"(.*?)\" to '?(\w+)'?", text)
    if line and value:
        column = re.search(r'converting column "(.*?)"', text)
        file = re.search(r"^\s*file = (.+)$", text, re.M)
        n = int(line.group(1))
        return (f"{file.group(1).strip() if file else ''}: line {n:,} (data row {n - 1:,})"
                f"{f', column {column.group(1)!r}' if column else ''}: {value.group(1)!r} is not a number (the first "
                f"rows made the column {value.group(2).lower()}); fix the cell or remove the row")
    first = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
    return first[:400]


class SparkBackend(Backend):
    """Spark SQL through PySpark: ``master`` is a Spark master URL (``local[*]``, ``spark://host:7077``, ``yarn``);
    with ``SPARK_REMOTE`` set (``sc://host:15002``) a Spark Connect session is used instead. The session is created
    once per process and reused (`SparkBackend.session`)."""

    name = "spark"
    _session = None

    def __init__(self, source: Source, master: str | None = None):
        self.source = source
        spark = self.session(master)
        try:
            # Hadoop globs every path it is given, with a backslash as the escape: with each glob character (and
            # the backslash itself) escaped a path names its one file (a file named a\b.parquet was "Path does not
            # exist", x*.parquet read its neighbours too)
            files = [re.sub(r"([\\*?\[\]{}])", r"\\\1", f) for f in source.files]
            reader = spark.read.parquet(*files) if source.format == "parquet" else \
                spark.read.option("header", True).option("inferSchema", False).csv(files)
            reader.createOrReplaceTempView(VIEW)
        except Exception as exc:  # noqa: BLE001 - pyspark raises its own exception tree
            raise AssessError(source.shown(f"{source.name}: Spark could not read it: {_spark_message(exc)}")) from None
        self.spark = spark

    @classmethod
    def session(cls, master: str | None = None):
        """The process's Spark session (created on first use): a clear error when Spark or Java is unreachable."""
        _check_reachable(master or os.environ.get("SPARK_REMOTE") or "")
        if cls._session is not None:   # one session per process (Spark's rule); the first master wins
            return cls._session
        try:
            from pyspark.sql import SparkSession
        except ImportError:
            raise AssessError("--engine spark needs PySpark (pip install pyspark) and Java 17") from None
        builder = SparkSession.builder.appName("assess")
        if os.environ.get("SPARK_REMOTE") and not master:
            builder = builder.remote(os.environ["SPARK_REMOTE"])
        else:
            builder = (builder.master(master or "local[*]")
                       .config("spark.ui.enabled", "false")
                       .config("spark.sql.shuffle.partitions", os.environ.get("ASSESS_SPARK_PARTITIONS", "8"))
                       .config("spark.driver.memory", os.environ.get("ASSESS_SPARK_DRIVER_MEMORY", "1g")))
        try:
            cls._session = builder.getOrCreate()
            if master and master.startswith("spark://"):
                cls._session.range(1).count()  # fail now, not in the middle of the aggregation
        except Exception as exc:  # noqa: BLE001
            cls._session = None
            raise AssessError(f"Spark is not reachable at {master or os.environ.get('SPARK_REMOTE') or 'local'}: "
                              f"{_spark_message(exc)}") from None
        return cls._session

    def head(self, n: int):
        """The first rows; CSV columns (read as text, so Spark never scans a file twice to infer types) become
        numbers where every cell is one, and booleans where every cell is pandas' true/false, as pandas' reader would
        type them for role and task detection. A boolean column is cast in the view too, so the scans group its
        values as the first rows name them (``True``, not ``true``)."""
        import pandas as pd

        frame = super().head(n)
        if self.source.format != "csv":
            return frame
        booleans = []
        for col in frame.columns:
            try:
                frame[col] = pd.to_numeric(frame[col])
            except (ValueError, TypeError):
                present = frame[col].dropna().str.strip()
                if len(present) and present.isin(PANDAS_BOOLEANS).all():   # pandas reads these as booleans
                    frame[col] = frame[col].map(lambda v: None if v is None else v.strip().lower() == "true")
                    booleans.append(col)
        if booleans:   # the scans see them as the first rows do (true/false of any case cast; pandas' spellings)
            from pyspark.sql import functions as F

            view = self.spark.table(VIEW)
            for col in booleans:
                view = view.withColumn(col, F.trim(F.col(col)).cast("boolean"))
            view.createOrReplaceTempView(VIEW)
        return frame

    def ident(self, name: str) -> str:
        return "`" + name.replace("`", "``") + "`"

    def _string(self, text: str) -> str:
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"

    def query(self, sql: str):
        start = time.perf_counter()
        try:
            frame = self.spark.sql(sql).toPandas()
            _trace(start, "spark", sql)
            return frame
        except Exception as exc:  # noqa: BLE001
            raise AssessError(self.source.shown(f"{self.source.name}: {_spark_message(exc)}")) from None

    def columns(self) -> list[str]:
        return list(self.spark.table(VIEW).columns)


def _check_reachable(url: str) -> None:
    """Fail in seconds, not after Spark's minutes of retries, when a cluster's master (spark://host:port) or a
    Spark Connect server (sc://host:port) does not accept connections."""
    import socket
    from urllib.parse import urlparse

    parsed = urlparse(url)
    if parsed.scheme not in ("spark", "sc") or not parsed.hostname:
        return
    port = parsed.port or (7077 if parsed.scheme == "spark" else 15002)
    try:
        socket.create_connection((parsed.hostname, port), timeout=float(os.environ.get("ASSESS_SPARK_TIMEOUT", "10"))
                                 ).close()
    except OSError as exc:
        raise AssessError(f"Spark is not reachable at {url}: {exc.strerror or exc}; check --spark-master (or "
                          "SPARK_REMOTE) and that the cluster is up") from None


def _spark_message(exc: Exception) -> str:
    text = str(exc).strip()
    return (text.splitlines()[0] if text else type(exc).__name__)[:400]


def open_backend(engine: str, source: Source, *, spark_master: str | None = None) -> Backend:
    if engine == "duckdb":
        try:
            return DuckDBBackend(source)
        except ImportError:
            raise AssessError("--engine duckdb needs DuckDB (pip install duckdb)") from None
    if engine == "spark":
        return SparkBackend(source, spark_master)
    raise ValueError(f"unknown engine {engine!r} (duckdb, spark)")
