"""One local Spark session per test module, as the Spark tests use it (small data: one core, one partition)."""

from __future__ import annotations

import shutil

import pytest

from assess.engine.backends import SparkBackend


def skip_without_spark() -> None:
    """Skip the calling test module when PySpark or Java is missing (`make test` installs both)."""
    pytest.importorskip("pyspark")
    if shutil.which("java") is None:
        pytest.skip("Spark needs Java (scripts/setup.sh test installs openjdk-17-jre-headless)", allow_module_level=True)


def local_spark():
    """Yield a local[1] session that `SparkBackend` uses, and stop it afterwards (a module-scoped fixture body)."""
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[1]").appName("assess-tests")
               .config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "1")
               .config("spark.sql.adaptive.enabled", "false")
               # short jobs on tiny data: the JVM's quick compiler and serial GC start faster
               .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    SparkBackend._session = session
    yield session
    SparkBackend._session = None
    session.stop()


@pytest.fixture(scope="module", autouse=True)
def spark_session():
    """The module's one local session: import it into a Spark test module (Spark allows one per process)."""
    yield from local_spark()
