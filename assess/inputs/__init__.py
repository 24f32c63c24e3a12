"""From a file to an `Assessment`: read it, expand vectors, find each column's role and the task, validate, and
build the immutable boundary object every later stage takes (`assess.inputs.assessment`)."""
