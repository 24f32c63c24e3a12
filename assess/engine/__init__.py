"""Out-of-core assessment: sufficient statistics computed by an engine (DuckDB embedded, Spark distributed), then
the registry's metric functions on the grouped tables (`assess.engine.reports`). Nothing here imports DuckDB or
PySpark at import time."""
