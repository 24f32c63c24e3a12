"""One local Spark session per test process, shared by every Spark test module (small data: one core, one partition).

Starting a session costs seconds of JVM start-up and stopping it frees nothing another module needs, so it is
created by the first Spark module a process runs and stopped when the process exits; each module sees it (as
`SparkBackend`'s session) only while that module runs.
"""

from __future__ import annotations

import atexit
import shutil

import pytest

from assess.engine.backends import SparkBackend


def skip_without_spark() -> None:
    """Skip the calling test module when PySpark or Java is missing (`make test` installs both)."""
    pytest.importorskip("pyspark")
    if shutil.which("java") is None:
        pytest.skip("Spark needs Java (scripts/setup.sh test installs openjdk-17-jre-headless)", allow_module_level=True)


_SESSION = None


def local_spark():
    """Yield the process's local[1] session as `SparkBackend`'s, and take it back afterwards (a module-scoped fixture
    body); the first call creates it."""
    global _SESSION
    if _SESSION is None:
        from pyspark.sql import SparkSession

        _SESSION = (SparkSession.builder.master("local[1]").appName("assess-tests")
                    .config("spark.ui.enabled", "false")
                    .config("spark.sql.shuffle.partitions", "1")
                    .config("spark.sql.adaptive.enabled", "false")
                    # short jobs on tiny data: the JVM's quick compiler and serial GC start faster
                    .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
                    .getOrCreate())
        _SESSION.sparkContext.setLogLevel("ERROR")
        atexit.register(_SESSION.stop)
    SparkBackend._session = _SESSION
    yield _SESSION
    SparkBackend._session = None


@pytest.fixture(scope="module", autouse=True)
def spark_session():
    """The process's one local session for this module: import it into a Spark test module (Spark allows one per
    process)."""
    yield from local_spark()
